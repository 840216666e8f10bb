CREATE TABLE `alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`greenhouse_id` text NOT NULL,
	`alert_type` text NOT NULL,
	`severity` text NOT NULL,
	`message` text NOT NULL,
	`device_id` text,
	`cause_key` text,
	`value` real,
	`threshold` real,
	`is_resolved` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`resolved_at` integer,
	`action_taken` text
);
--> statement-breakpoint
CREATE INDEX `alerts_is_resolved_idx` ON `alerts` (`is_resolved`);--> statement-breakpoint
CREATE INDEX `alerts_created_at_idx` ON `alerts` (`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `alerts_active_cause_key_idx` ON `alerts` (`cause_key`) WHERE "alerts"."is_resolved" = 0 AND "alerts"."cause_key" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `control_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`device_id` text NOT NULL,
	`greenhouse_id` text NOT NULL,
	`action` text NOT NULL,
	`previous_status` text NOT NULL,
	`new_status` text NOT NULL,
	`source` text NOT NULL,
	`actor` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `control_log_device_id_idx` ON `control_log` (`device_id`);--> statement-breakpoint
CREATE INDEX `control_log_created_at_idx` ON `control_log` (`created_at`);--> statement-breakpoint
CREATE TABLE `devices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`device_id` text NOT NULL,
	`greenhouse_id` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`power_w` real DEFAULT 0 NOT NULL,
	`intensity_pct` real DEFAULT 100 NOT NULL,
	`auto_mode` integer DEFAULT false NOT NULL,
	`location` text DEFAULT 'Main Greenhouse' NOT NULL,
	`last_activated_at` integer,
	`automation_rules` text NOT NULL,
	`output_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `devices_device_id_idx` ON `devices` (`device_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `devices_output_id_idx` ON `devices` (`output_id`);--> statement-breakpoint
CREATE TABLE `readings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`greenhouse_id` text NOT NULL,
	`sensor_type` text NOT NULL,
	`taken_at` integer NOT NULL,
	`temperature_c` real,
	`humidity_pct` real,
	`light_lux` real,
	`soil_moisture_pct` real,
	`water_level_cm` real
);
--> statement-breakpoint
CREATE INDEX `readings_sensor_type_taken_at_idx` ON `readings` (`sensor_type`,`taken_at`);--> statement-breakpoint
CREATE INDEX `readings_taken_at_idx` ON `readings` (`taken_at`);--> statement-breakpoint
CREATE TABLE `settings` (
	`greenhouse_id` text PRIMARY KEY NOT NULL,
	`alert_thresholds` text NOT NULL,
	`system_settings` text NOT NULL,
	`device_settings` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`role` text NOT NULL,
	`preferences` text NOT NULL,
	`last_login_at` integer,
	`token_version` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_idx` ON `users` (lower("username"));