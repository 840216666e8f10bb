ALTER TABLE `devices` ADD `flow_litres_per_minute` real;--> statement-breakpoint
CREATE TABLE `irrigation_cycles` (
	`device_id` text PRIMARY KEY NOT NULL,
	`phase` text NOT NULL,
	`pulses` integer DEFAULT 0 NOT NULL,
	`start_pct` real,
	`until_ms` integer,
	`last_pulse_at_ms` integer,
	`fallback` integer DEFAULT false NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sensor_calibrations` (
	`sensor_id` text PRIMARY KEY NOT NULL,
	`dry_raw` integer,
	`wet_raw` integer,
	`lux_scale` real,
	`updated_at` integer NOT NULL
);
