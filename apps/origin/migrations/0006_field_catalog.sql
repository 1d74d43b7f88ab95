-- The field catalogue and the generic leaf tables (src/dataset/field-catalog.ts): every leaf of
-- every stored document, so any field a document shows can be searched, reported and
-- aggregated. Hand-written because drizzle-kit cannot express WITHOUT ROWID tables or a column
-- without type affinity.
CREATE TABLE `field_catalog` (
	`id` integer PRIMARY KEY NOT NULL,
	`index_name` text NOT NULL,
	`path` text NOT NULL,
	`type` text NOT NULL,
	`scope` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `field_catalog_index_path_idx` ON `field_catalog` (`index_name`,`path`);
--> statement-breakpoint
-- `value` has no declared type, so it keeps what was stored: TEXT for keyword and text fields
-- (compared NOCASE), INTEGER or REAL for numbers, epoch ms, IPv4 integers and 0/1 booleans.
-- The primary key is the search index: one field's rows, by value.
CREATE TABLE `field_values` (
	`field` integer NOT NULL,
	`value` NOT NULL COLLATE NOCASE,
	`doc` integer NOT NULL,
	`scope` integer NOT NULL,
	PRIMARY KEY (`field`, `value`, `doc`, `scope`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `field_words` (
	`field` integer NOT NULL,
	`word` text NOT NULL COLLATE NOCASE,
	`doc` integer NOT NULL,
	`scope` integer NOT NULL,
	PRIMARY KEY (`field`, `word`, `doc`, `scope`)
) WITHOUT ROWID;
