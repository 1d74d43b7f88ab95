CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`owner` text NOT NULL,
	`query` text NOT NULL,
	`checked_sql` text NOT NULL,
	`options` text,
	`created_at` integer NOT NULL,
	`completed_at` integer,
	`error_message` text,
	`result_rows` integer,
	`result_pages` integer,
	`data_processed` integer,
	`result_schema` text,
	`backend_time_ms` integer,
	`files` text
);
--> statement-breakpoint
CREATE INDEX `jobs_status_completed_idx` ON `jobs` (`status`,`completed_at`);--> statement-breakpoint
CREATE TABLE `raw_data_files` (
	`series` text NOT NULL,
	`result` text NOT NULL,
	`label` text NOT NULL,
	`r2_key` text NOT NULL,
	`file_type` text NOT NULL,
	`sha256` text NOT NULL,
	`size` integer NOT NULL,
	`file_schema` text,
	PRIMARY KEY(`series`, `result`, `label`)
);
