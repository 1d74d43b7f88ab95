CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`at` integer NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`tenant_id` text,
	`before` text,
	`after` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_at` ON `audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `audit_log_tenant` ON `audit_log` (`tenant_id`,`at`);--> statement-breakpoint
CREATE TABLE `documents` (
	`index` text NOT NULL,
	`id` text NOT NULL,
	`at_time` text DEFAULT '' NOT NULL,
	`body` text NOT NULL,
	`negative` integer DEFAULT false NOT NULL,
	`fetched_at` integer NOT NULL,
	`expires_at` integer,
	PRIMARY KEY(`index`, `id`, `at_time`)
);
--> statement-breakpoint
CREATE INDEX `documents_fetched_at` ON `documents` (`fetched_at`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`kind` text NOT NULL,
	`job_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`upstream_credential` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`kind`, `job_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `jobs_created_at` ON `jobs` (`created_at`);--> statement-breakpoint
CREATE TABLE `tenants` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`api_id` text NOT NULL,
	`secret_hash` text NOT NULL,
	`previous_secret_hash` text,
	`previous_secret_expires_at` integer,
	`allowance` integer NOT NULL,
	`period` text NOT NULL,
	`used` integer DEFAULT 0 NOT NULL,
	`resets_at` integer,
	`tier` text NOT NULL,
	`disabled` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`last_seen_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_api_id_unique` ON `tenants` (`api_id`);--> statement-breakpoint
CREATE TABLE `usage` (
	`tenant_id` text NOT NULL,
	`hour` integer NOT NULL,
	`operation` text NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`cache_hits` integer DEFAULT 0 NOT NULL,
	`upstream_calls` integer DEFAULT 0 NOT NULL,
	`errors` integer DEFAULT 0 NOT NULL,
	`quota_spent` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tenant_id`, `hour`, `operation`)
);
--> statement-breakpoint
CREATE INDEX `usage_hour` ON `usage` (`hour`);