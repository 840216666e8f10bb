ALTER TABLE `reading_rollups` ADD `co2_ppm_n` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `reading_rollups` ADD `co2_ppm_sum` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `reading_rollups` ADD `co2_ppm_min` real;--> statement-breakpoint
ALTER TABLE `reading_rollups` ADD `co2_ppm_max` real;--> statement-breakpoint
ALTER TABLE `reading_rollups` ADD `pressure_hpa_n` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `reading_rollups` ADD `pressure_hpa_sum` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `reading_rollups` ADD `pressure_hpa_min` real;--> statement-breakpoint
ALTER TABLE `reading_rollups` ADD `pressure_hpa_max` real;--> statement-breakpoint
ALTER TABLE `reading_rollups` ADD `root_temperature_c_n` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `reading_rollups` ADD `root_temperature_c_sum` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `reading_rollups` ADD `root_temperature_c_min` real;--> statement-breakpoint
ALTER TABLE `reading_rollups` ADD `root_temperature_c_max` real;--> statement-breakpoint
ALTER TABLE `readings` ADD `co2_ppm` real;--> statement-breakpoint
ALTER TABLE `readings` ADD `pressure_hpa` real;--> statement-breakpoint
ALTER TABLE `readings` ADD `root_temperature_c` real;--> statement-breakpoint
ALTER TABLE `readings` ADD `vpd_uncertainty_kpa` real;