DROP INDEX `hosts_asn_idx`;--> statement-breakpoint
DROP INDEX `hosts_as_name_idx`;--> statement-breakpoint
DROP INDEX `hosts_country_idx`;--> statement-breakpoint
DROP INDEX `hosts_country_code_idx`;--> statement-breakpoint
DROP INDEX `hosts_continent_idx`;--> statement-breakpoint
DROP INDEX `hosts_city_idx`;--> statement-breakpoint
DROP INDEX `hosts_last_updated_at_idx`;--> statement-breakpoint
CREATE INDEX `hosts_asn_ip_num_idx` ON `hosts` (`asn`,`ip_num`);--> statement-breakpoint
CREATE INDEX `hosts_as_name_ip_num_idx` ON `hosts` (`as_name`,`ip_num`);--> statement-breakpoint
CREATE INDEX `hosts_country_ip_num_idx` ON `hosts` (`country`,`ip_num`);--> statement-breakpoint
CREATE INDEX `hosts_country_code_ip_num_idx` ON `hosts` (`country_code`,`ip_num`);--> statement-breakpoint
CREATE INDEX `hosts_continent_ip_num_idx` ON `hosts` (`continent`,`ip_num`);--> statement-breakpoint
CREATE INDEX `hosts_city_ip_num_idx` ON `hosts` (`city`,`ip_num`);--> statement-breakpoint
CREATE INDEX `hosts_last_updated_at_ip_num_idx` ON `hosts` (`last_updated_at`,`ip_num`);