CREATE TABLE `climate_programs` (
	`greenhouse_id` text PRIMARY KEY NOT NULL,
	`program` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `devices` ADD `open_pct` real;
