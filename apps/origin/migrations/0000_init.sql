CREATE TABLE `account_usage` (
	`api_id` text PRIMARY KEY NOT NULL,
	`used` integer DEFAULT 0 NOT NULL,
	`period_start` text NOT NULL,
	`first_login` text NOT NULL,
	`last_login` text NOT NULL
);
