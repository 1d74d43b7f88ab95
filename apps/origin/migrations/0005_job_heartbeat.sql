ALTER TABLE `jobs` ADD `started_at` integer;--> statement-breakpoint
ALTER TABLE `jobs` ADD `heartbeat_at` integer;