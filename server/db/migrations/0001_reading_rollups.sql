CREATE TABLE `reading_rollups` (
	`resolution_ms` integer NOT NULL,
	`bucket_at` integer NOT NULL,
	`greenhouse_id` text NOT NULL,
	`sensor_type` text NOT NULL,
	`n` integer NOT NULL,
	`temperature_c_n` integer NOT NULL,
	`temperature_c_sum` real NOT NULL,
	`temperature_c_min` real,
	`temperature_c_max` real,
	`humidity_pct_n` integer NOT NULL,
	`humidity_pct_sum` real NOT NULL,
	`humidity_pct_min` real,
	`humidity_pct_max` real,
	`light_lux_n` integer NOT NULL,
	`light_lux_sum` real NOT NULL,
	`light_lux_min` real,
	`light_lux_max` real,
	`soil_moisture_pct_n` integer NOT NULL,
	`soil_moisture_pct_sum` real NOT NULL,
	`soil_moisture_pct_min` real,
	`soil_moisture_pct_max` real,
	`water_level_cm_n` integer NOT NULL,
	`water_level_cm_sum` real NOT NULL,
	`water_level_cm_min` real,
	`water_level_cm_max` real,
	PRIMARY KEY(`resolution_ms`, `bucket_at`, `greenhouse_id`, `sensor_type`)
);
--> statement-breakpoint
CREATE TABLE `rollup_watermark` (
	`id` integer PRIMARY KEY NOT NULL,
	`folded_through_id` integer NOT NULL
);
