CREATE TABLE `v3_censeye_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`target_kind` text NOT NULL,
	`target_id` text NOT NULL,
	`results` text NOT NULL,
	`result_count` integer NOT NULL,
	`at_time` integer NOT NULL,
	`created_at` integer NOT NULL,
	`completes_at` integer NOT NULL,
	`delete_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `v3_censeye_jobs_org_created` ON `v3_censeye_jobs` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `v3_censeye_jobs_org_target` ON `v3_censeye_jobs` (`organization_id`,`target_kind`,`target_id`);--> statement-breakpoint
CREATE TABLE `v3_collection_assets` (
	`collection_id` text NOT NULL,
	`asset_id` text NOT NULL,
	PRIMARY KEY(`collection_id`, `asset_id`)
);
--> statement-breakpoint
CREATE TABLE `v3_collection_events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`collection_id` text NOT NULL,
	`kind` text NOT NULL,
	`asset_id` text,
	`new_status` text,
	`old_status` text,
	`reason` text NOT NULL,
	`event_time` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `v3_collection_events_collection` ON `v3_collection_events` (`collection_id`,`event_time`,`seq`);--> statement-breakpoint
CREATE TABLE `v3_collections` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`description` text NOT NULL,
	`query` text NOT NULL,
	`status` text NOT NULL,
	`status_reason` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`dataset` text NOT NULL,
	`total_assets` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `v3_collections_org_name` ON `v3_collections` (`organization_id`,`name_key`);--> statement-breakpoint
CREATE INDEX `v3_collections_org_created` ON `v3_collections` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `v3_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`asset_type` text NOT NULL,
	`body` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `v3_comments_org_created` ON `v3_comments` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `v3_comments_org_asset` ON `v3_comments` (`organization_id`,`asset_id`);--> statement-breakpoint
CREATE TABLE `v3_enrichment_usage` (
	`organization_id` text NOT NULL,
	`day` text NOT NULL,
	`calls` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `day`)
);
--> statement-breakpoint
CREATE TABLE `v3_history_index` (
	`dataset` text NOT NULL,
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`ip` text NOT NULL,
	PRIMARY KEY(`dataset`, `kind`, `key`, `ip`)
);
--> statement-breakpoint
CREATE TABLE `v3_history_index_state` (
	`dataset` text PRIMARY KEY NOT NULL,
	`done_to` integer NOT NULL,
	`complete` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `v3_invitations` (
	`organization_id` text NOT NULL,
	`email_key` text NOT NULL,
	`email` text NOT NULL,
	`invited_by` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `email_key`)
);
--> statement-breakpoint
CREATE TABLE `v3_member_changes` (
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`roles` text NOT NULL,
	`removed` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `user_id`)
);
--> statement-breakpoint
CREATE TABLE `v3_scans` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`kind` text NOT NULL,
	`target` text NOT NULL,
	`ip` text,
	`port` integer NOT NULL,
	`transport` text,
	`outcome` text NOT NULL,
	`created_at` integer NOT NULL,
	`completes_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `v3_scans_org_created` ON `v3_scans` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `v3_scans_target` ON `v3_scans` (`ip`,`port`,`completes_at`);--> statement-breakpoint
CREATE TABLE `v3_tag_assignments` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`tag_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`asset_type` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`removed_at` integer,
	`operation_id` text,
	`removal_operation_id` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `v3_tag_assignments_tag_asset` ON `v3_tag_assignments` (`tag_id`,`asset_id`);--> statement-breakpoint
CREATE INDEX `v3_tag_assignments_tag_created` ON `v3_tag_assignments` (`tag_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `v3_tag_assignments_org_asset` ON `v3_tag_assignments` (`organization_id`,`asset_id`);--> statement-breakpoint
CREATE INDEX `v3_tag_assignments_operation` ON `v3_tag_assignments` (`operation_id`);--> statement-breakpoint
CREATE INDEX `v3_tag_assignments_removal` ON `v3_tag_assignments` (`removal_operation_id`);--> statement-breakpoint
CREATE TABLE `v3_tag_operations` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`tag_id` text NOT NULL,
	`tag_name` text NOT NULL,
	`type` text NOT NULL,
	`query` text,
	`total_count` integer NOT NULL,
	`pages` text NOT NULL,
	`steps` integer NOT NULL,
	`outcome` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`cancelled_at` integer
);
--> statement-breakpoint
CREATE INDEX `v3_tag_operations_org_created` ON `v3_tag_operations` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `v3_tag_operations_tag_created` ON `v3_tag_operations` (`tag_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `v3_tags` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`description` text,
	`privacy` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `v3_tags_org_name` ON `v3_tags` (`organization_id`,`name_key`);--> statement-breakpoint
CREATE INDEX `v3_tags_org_created` ON `v3_tags` (`organization_id`,`created_at`);