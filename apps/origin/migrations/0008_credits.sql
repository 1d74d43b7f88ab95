CREATE TABLE `credit_balances` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`balance` integer NOT NULL,
	`initial_balance` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `credit_transactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text,
	`operation` text NOT NULL,
	`amount` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `credit_transactions_org_time_idx` ON `credit_transactions` (`organization_id`,`created_at`);