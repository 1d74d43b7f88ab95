CREATE TABLE `certificate_names` (
	`sha256` text COLLATE NOCASE NOT NULL,
	`name` text COLLATE NOCASE NOT NULL,
	`in_san` integer NOT NULL,
	PRIMARY KEY(`sha256`, `name`)
);
--> statement-breakpoint
CREATE INDEX `certificate_names_name_idx` ON `certificate_names` (`name`);--> statement-breakpoint
CREATE TABLE `certificate_tags` (
	`sha256` text COLLATE NOCASE NOT NULL,
	`tag` text COLLATE NOCASE NOT NULL,
	PRIMARY KEY(`sha256`, `tag`)
);
--> statement-breakpoint
CREATE INDEX `certificate_tags_tag_idx` ON `certificate_tags` (`tag`);--> statement-breakpoint
CREATE TABLE `certificates` (
	`sha256` text COLLATE NOCASE PRIMARY KEY NOT NULL,
	`sha1` text COLLATE NOCASE NOT NULL,
	`md5` text COLLATE NOCASE NOT NULL,
	`tbs_fingerprint` text COLLATE NOCASE NOT NULL,
	`spki_subject_fingerprint` text COLLATE NOCASE NOT NULL,
	`spki_fingerprint` text COLLATE NOCASE NOT NULL,
	`serial` text COLLATE NOCASE NOT NULL,
	`issuer_dn` text COLLATE NOCASE NOT NULL,
	`subject_dn` text COLLATE NOCASE NOT NULL,
	`issuer_common_name` text COLLATE NOCASE,
	`issuer_organization` text COLLATE NOCASE,
	`subject_common_name` text COLLATE NOCASE,
	`subject_organization` text COLLATE NOCASE,
	`subject_country` text COLLATE NOCASE,
	`not_before` integer NOT NULL,
	`not_after` integer NOT NULL,
	`validity_length` integer NOT NULL,
	`key_algorithm` text COLLATE NOCASE NOT NULL,
	`key_bits` integer NOT NULL,
	`signature_algorithm` text COLLATE NOCASE NOT NULL,
	`validation_level` text COLLATE NOCASE NOT NULL,
	`self_signed` integer NOT NULL,
	`signature_valid` integer NOT NULL,
	`is_ca` integer NOT NULL,
	`trusted_nss` integer NOT NULL,
	`trusted_apple` integer NOT NULL,
	`trusted_microsoft` integer NOT NULL,
	`trusted_google_ct_primary` integer NOT NULL,
	`precert` integer NOT NULL,
	`zlint_errors` integer NOT NULL,
	`parse_status` text COLLATE NOCASE NOT NULL,
	`added_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`doc` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `certificates_sha1_idx` ON `certificates` (`sha1`);--> statement-breakpoint
CREATE INDEX `certificates_md5_idx` ON `certificates` (`md5`);--> statement-breakpoint
CREATE INDEX `certificates_serial_idx` ON `certificates` (`serial`);--> statement-breakpoint
CREATE INDEX `certificates_issuer_dn_idx` ON `certificates` (`issuer_dn`);--> statement-breakpoint
CREATE INDEX `certificates_subject_dn_idx` ON `certificates` (`subject_dn`);--> statement-breakpoint
CREATE INDEX `certificates_issuer_cn_idx` ON `certificates` (`issuer_common_name`);--> statement-breakpoint
CREATE INDEX `certificates_issuer_org_idx` ON `certificates` (`issuer_organization`);--> statement-breakpoint
CREATE INDEX `certificates_subject_cn_idx` ON `certificates` (`subject_common_name`);--> statement-breakpoint
CREATE INDEX `certificates_subject_org_idx` ON `certificates` (`subject_organization`);--> statement-breakpoint
CREATE INDEX `certificates_not_before_idx` ON `certificates` (`not_before`);--> statement-breakpoint
CREATE INDEX `certificates_not_after_idx` ON `certificates` (`not_after`);--> statement-breakpoint
CREATE INDEX `certificates_key_algorithm_idx` ON `certificates` (`key_algorithm`,`key_bits`);--> statement-breakpoint
CREATE INDEX `certificates_trusted_nss_idx` ON `certificates` (`trusted_nss`);--> statement-breakpoint
CREATE INDEX `certificates_spki_subject_idx` ON `certificates` (`spki_subject_fingerprint`);--> statement-breakpoint
CREATE TABLE `dataset_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `host_history` (
	`ip` text NOT NULL,
	`valid_from` integer NOT NULL,
	`valid_to` integer,
	`doc` text NOT NULL,
	PRIMARY KEY(`ip`, `valid_from`)
);
--> statement-breakpoint
CREATE TABLE `host_protocols` (
	`ip` text NOT NULL,
	`protocol` text COLLATE NOCASE NOT NULL,
	PRIMARY KEY(`ip`, `protocol`)
);
--> statement-breakpoint
CREATE INDEX `host_protocols_protocol_idx` ON `host_protocols` (`protocol`);--> statement-breakpoint
CREATE TABLE `host_services` (
	`id` integer PRIMARY KEY NOT NULL,
	`ip` text NOT NULL,
	`port` integer NOT NULL,
	`transport_protocol` text COLLATE NOCASE NOT NULL,
	`service_name` text COLLATE NOCASE NOT NULL,
	`extended_service_name` text COLLATE NOCASE NOT NULL,
	`software_vendor` text COLLATE NOCASE,
	`software_product` text COLLATE NOCASE,
	`software_version` text COLLATE NOCASE,
	`banner` text COLLATE NOCASE,
	`certificate` text COLLATE NOCASE,
	`tls_version` text COLLATE NOCASE,
	`http_status_code` integer,
	`http_title` text COLLATE NOCASE,
	`http_server` text COLLATE NOCASE,
	`observed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `host_services_ip_idx` ON `host_services` (`ip`);--> statement-breakpoint
CREATE INDEX `host_services_port_idx` ON `host_services` (`port`);--> statement-breakpoint
CREATE INDEX `host_services_service_name_idx` ON `host_services` (`service_name`);--> statement-breakpoint
CREATE INDEX `host_services_certificate_idx` ON `host_services` (`certificate`);--> statement-breakpoint
CREATE INDEX `host_services_software_product_idx` ON `host_services` (`software_product`);--> statement-breakpoint
CREATE INDEX `host_services_http_status_idx` ON `host_services` (`http_status_code`);--> statement-breakpoint
CREATE TABLE `hosts` (
	`ip` text PRIMARY KEY NOT NULL,
	`ip_num` integer NOT NULL,
	`asn` integer,
	`as_name` text COLLATE NOCASE,
	`as_description` text COLLATE NOCASE,
	`bgp_prefix` text COLLATE NOCASE,
	`as_country_code` text COLLATE NOCASE,
	`continent` text COLLATE NOCASE,
	`country` text COLLATE NOCASE,
	`country_code` text COLLATE NOCASE,
	`city` text COLLATE NOCASE,
	`province` text COLLATE NOCASE,
	`postal_code` text COLLATE NOCASE,
	`timezone` text COLLATE NOCASE,
	`registered_country` text COLLATE NOCASE,
	`registered_country_code` text COLLATE NOCASE,
	`latitude` real,
	`longitude` real,
	`last_updated_at` integer NOT NULL,
	`services_count` integer NOT NULL,
	`doc` text NOT NULL,
	`v1_doc` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hosts_ip_num_idx` ON `hosts` (`ip_num`);--> statement-breakpoint
CREATE INDEX `hosts_asn_idx` ON `hosts` (`asn`);--> statement-breakpoint
CREATE INDEX `hosts_as_name_idx` ON `hosts` (`as_name`);--> statement-breakpoint
CREATE INDEX `hosts_country_idx` ON `hosts` (`country`);--> statement-breakpoint
CREATE INDEX `hosts_country_code_idx` ON `hosts` (`country_code`);--> statement-breakpoint
CREATE INDEX `hosts_continent_idx` ON `hosts` (`continent`);--> statement-breakpoint
CREATE INDEX `hosts_city_idx` ON `hosts` (`city`);--> statement-breakpoint
CREATE INDEX `hosts_last_updated_at_idx` ON `hosts` (`last_updated_at`);--> statement-breakpoint
CREATE TABLE `website_protocols` (
	`domain` text COLLATE NOCASE NOT NULL,
	`protocol` text COLLATE NOCASE NOT NULL,
	PRIMARY KEY(`domain`, `protocol`)
);
--> statement-breakpoint
CREATE INDEX `website_protocols_protocol_idx` ON `website_protocols` (`protocol`);--> statement-breakpoint
CREATE TABLE `website_tags` (
	`domain` text COLLATE NOCASE NOT NULL,
	`tag` text COLLATE NOCASE NOT NULL,
	PRIMARY KEY(`domain`, `tag`)
);
--> statement-breakpoint
CREATE INDEX `website_tags_tag_idx` ON `website_tags` (`tag`);--> statement-breakpoint
CREATE TABLE `websites` (
	`domain` text COLLATE NOCASE PRIMARY KEY NOT NULL,
	`alexa_rank` integer,
	`ip` text,
	`ip_num` integer,
	`http_status_code` integer,
	`http_title` text COLLATE NOCASE,
	`http_server` text COLLATE NOCASE,
	`certificate` text COLLATE NOCASE,
	`asn` integer,
	`country_code` text COLLATE NOCASE,
	`updated_at` integer NOT NULL,
	`doc` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `websites_alexa_rank_idx` ON `websites` (`alexa_rank`);--> statement-breakpoint
CREATE INDEX `websites_ip_num_idx` ON `websites` (`ip_num`);--> statement-breakpoint
CREATE INDEX `websites_certificate_idx` ON `websites` (`certificate`);--> statement-breakpoint
CREATE INDEX `websites_http_server_idx` ON `websites` (`http_server`);