CREATE TABLE `aggregate_memo` (
	`dataset` text NOT NULL,
	`registry` text NOT NULL,
	`field` text NOT NULL,
	`buckets` text NOT NULL,
	`totals` text NOT NULL,
	PRIMARY KEY(`registry`, `field`)
);
