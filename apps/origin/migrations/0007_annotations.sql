CREATE TABLE `annotation_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`index` text NOT NULL,
	`document` text NOT NULL,
	`contents` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `annotation_comments_document` ON `annotation_comments` (`owner`,`index`,`document`,`created_at`);--> statement-breakpoint
CREATE TABLE `annotation_tagged` (
	`tag_id` text NOT NULL,
	`index` text NOT NULL,
	`document` text NOT NULL,
	`tagged_at` integer NOT NULL,
	PRIMARY KEY(`tag_id`, `index`, `document`),
	FOREIGN KEY (`tag_id`) REFERENCES `annotation_tags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `annotation_tagged_document` ON `annotation_tagged` (`index`,`document`);--> statement-breakpoint
CREATE TABLE `annotation_tags` (
	`id` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`color` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `annotation_tags_owner_name` ON `annotation_tags` (`owner`,`name_key`);