-- Full-text tables for bare search terms, one per root table. Each row's rowid equals the rowid
-- of its root row (the seeder inserts root rows with explicit rowids and the FTS row with the
-- same one), so the search compiler can match `r.rowid IN (SELECT rowid FROM <fts> WHERE ...)`.
-- drizzle-kit cannot express virtual tables, hence this hand-written migration.
CREATE VIRTUAL TABLE `hosts_fts` USING fts5(`body`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `certificates_fts` USING fts5(`body`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `websites_fts` USING fts5(`body`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
-- Side "tables" for fields that are a filtered slice of another table (the registry's side
-- storage has no condition of its own). SQLite flattens these views, so the underlying
-- indexes still serve the lookups.
CREATE VIEW `certificate_san_names` AS SELECT `sha256`, `name` FROM `certificate_names` WHERE `in_san` = 1;
--> statement-breakpoint
CREATE VIEW `host_port_443_certificates` AS SELECT `ip`, `certificate` FROM `host_services` WHERE `port` = 443 AND `certificate` IS NOT NULL;
