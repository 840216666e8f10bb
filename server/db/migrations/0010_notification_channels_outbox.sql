CREATE TABLE `notification_channels` (
	`channel_id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`target` text NOT NULL,
	`min_severity` text NOT NULL,
	`quiet_from` text,
	`quiet_to` text,
	`secret` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notification_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel_id` text NOT NULL,
	`alert_id` integer,
	`reason` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`delivered_at` integer
);
--> statement-breakpoint
CREATE INDEX `notification_outbox_status_next_attempt_at_idx` ON `notification_outbox` (`status`,`next_attempt_at`);
--> statement-breakpoint
CREATE INDEX `notification_outbox_created_at_idx` ON `notification_outbox` (`created_at`);
--> statement-breakpoint
CREATE TABLE `notification_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` integer NOT NULL REFERENCES `notification_outbox`(`id`) ON DELETE CASCADE,
	`at` integer NOT NULL,
	`ok` integer NOT NULL,
	`detail` text
);
--> statement-breakpoint
CREATE INDEX `notification_attempts_delivery_id_idx` ON `notification_attempts` (`delivery_id`);
--> statement-breakpoint
ALTER TABLE `alerts` ADD `acknowledged_at` integer;
--> statement-breakpoint
ALTER TABLE `alerts` ADD `acknowledged_by` text;
--> statement-breakpoint
ALTER TABLE `alerts` ADD `escalated_at` integer;
