CREATE TABLE `ledger_imports` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`used` integer NOT NULL,
	`resets_at` integer,
	`holds` text NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Each tenant's balance moves into its ledger object (src/ledger/tenant-ledger.ts): what the D1
-- ledger held waits here until the object has taken it (src/ledger/imports.ts). A tenant that
-- used nothing and holds nothing has nothing to move.
INSERT INTO `ledger_imports` (`tenant_id`, `used`, `resets_at`, `holds`)
SELECT t.`id`, t.`used`, t.`resets_at`, coalesce(
  (SELECT json_group_array(json_object('id', h.`id`, 'credits', h.`credits`, 'resets_at', h.`resets_at`, 'expires_at', h.`expires_at`))
   FROM `credit_holds` h WHERE h.`tenant_id` = t.`id`), '[]')
FROM `tenants` t
WHERE t.`used` > 0 OR EXISTS (SELECT 1 FROM `credit_holds` h WHERE h.`tenant_id` = t.`id`);
--> statement-breakpoint
DROP TABLE `credit_holds`;--> statement-breakpoint
ALTER TABLE `tenants` DROP COLUMN `used`;--> statement-breakpoint
ALTER TABLE `tenants` DROP COLUMN `resets_at`;