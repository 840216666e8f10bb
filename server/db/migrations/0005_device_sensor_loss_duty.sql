ALTER TABLE `devices` ADD `sensor_loss_duty_pct` real;--> statement-breakpoint
CREATE INDEX `control_log_device_id_created_at_idx` ON `control_log` (`device_id`,`created_at`);