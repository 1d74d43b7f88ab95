CREATE TABLE `annotation_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`index` text NOT NULL,
	`document` text NOT NULL,
	`author_id` text NOT NULL,
	`contents` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `annotation_comments_document` ON `annotation_comments` (`index`,`document`,`created_at`);--> statement-breakpoint
CREATE INDEX `annotation_comments_author` ON `annotation_comments` (`author_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `annotation_tagged` (
	`tag_id` text NOT NULL,
	`index` text NOT NULL,
	`document` text NOT NULL,
	`tagged_by` text NOT NULL,
	`tagged_at` integer NOT NULL,
	PRIMARY KEY(`tag_id`, `index`, `document`),
	FOREIGN KEY (`tag_id`) REFERENCES `annotation_tags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `annotation_tagged_document` ON `annotation_tagged` (`index`,`document`);--> statement-breakpoint
CREATE TABLE `annotation_tags` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`color` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `annotation_tags_name_key_unique` ON `annotation_tags` (`name_key`);--> statement-breakpoint
CREATE INDEX `annotation_tags_created_by` ON `annotation_tags` (`created_by`,`created_at`);