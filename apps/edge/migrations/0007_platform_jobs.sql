CREATE TABLE `platform_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`tenant_id` text NOT NULL,
	`status` text NOT NULL,
	`query` text NOT NULL,
	`options` text,
	`planned_at` integer NOT NULL,
	`max_pages` integer NOT NULL,
	`credits_charged` integer NOT NULL,
	`charge_resets_at` integer,
	`credits_spent` integer DEFAULT 0 NOT NULL,
	`refunded_at` integer,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`heartbeat_at` integer,
	`completed_at` integer,
	`error_message` text,
	`result_rows` integer,
	`result_pages` integer,
	`data_processed` integer,
	`result_schema` text,
	`files` text,
	`backend_time_ms` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `platform_jobs_tenant` ON `platform_jobs` (`tenant_id`);--> statement-breakpoint
CREATE INDEX `platform_jobs_status` ON `platform_jobs` (`status`,`heartbeat_at`);--> statement-breakpoint
ALTER TABLE `tenants` ADD `job_max_pages` integer;