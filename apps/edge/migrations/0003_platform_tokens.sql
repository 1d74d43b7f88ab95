CREATE TABLE `platform_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `platform_tokens_token_hash_unique` ON `platform_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `platform_tokens_tenant` ON `platform_tokens` (`tenant_id`);