import { sql } from 'drizzle-orm';
import { QUANTITIES, QUANTITY_KEYS, type QuantityColumn } from '../../common/catalogue.ts';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

// Every timestamp is epoch milliseconds in an integer column (`*_at`), turned into ISO-8601 on the wire.
const timestampMs = (name: string) => integer(name, { mode: 'timestamp_ms' });
const createdAt = () => timestampMs('created_at').notNull().default(sql`(unixepoch('subsec') * 1000)`);

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['admin', 'operator', 'viewer'] }).notNull(),
    /** The role a self-registered account asked for, until an admin grants or changes its role. */
    requestedRole: text('requested_role', { enum: ['admin', 'operator', 'viewer'] }),
    /** JSON of contract Preferences. */
    preferences: text('preferences', { mode: 'json' }).notNull(),
    lastLoginAt: timestampMs('last_login_at'),
    /** The sign-in before the newest one: what "Last Login" shows the person now signed in. */
    previousLoginAt: timestampMs('previous_login_at'),
    /** Bumped on password change: tokens issued before it are refused. */
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestampMs('updated_at').notNull(),
  },
  (t) => [uniqueIndex('users_username_idx').on(sql`lower(${t.username})`)],
);

/** One row per sensor and sampling tick. */
export const readings = sqliteTable(
  'readings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    greenhouseId: text('greenhouse_id').notNull(),
    sensorType: text('sensor_type', { enum: ['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL'] }).notNull(),
    takenAt: timestampMs('taken_at').notNull(),
    temperatureC: real('temperature_c'),
    humidityPct: real('humidity_pct'),
    lightLux: real('light_lux'),
    soilMoisturePct: real('soil_moisture_pct'),
    waterLevelCm: real('water_level_cm'),
    co2Ppm: real('co2_ppm'),
    pressureHpa: real('pressure_hpa'),
    rootTemperatureC: real('root_temperature_c'),
    /** Air zone: ±kPa of its VPD, from the accuracy of the air sensors whose median this row holds. */
    vpdUncertaintyKpa: real('vpd_uncertainty_kpa'),
  },
  // One index, on time: every read of raw rows is a time range. A (sensor_type, taken_at) index cost
  // four insertion points per commit, 40 % of the pages each batch wrote (docs/storage.md, SD card);
  // the newest row of a sensor is found through the hourly rollups instead (ReadingsRepo.latest).
  (t) => [index('readings_taken_at_idx').on(t.takenAt)],
);

/**
 * The fields a reading may carry, as columns, in catalogue order (common/catalogue.ts); every rollup
 * keeps count, sum, min and max of each. tests/unit/server/catalogue-consumers.test.ts checks that the
 * tables above and below have a column for each.
 */
export const READING_FIELD_COLUMNS = QUANTITY_KEYS.map((q) => QUANTITIES[q].column) as QuantityColumn[];

/**
 * count (of non-null values), sum, min and max of one field over a rollup bucket. A column added after
 * the first release defaults to 0 readings (SQLite cannot add a NOT NULL column without a default).
 */
const fieldAggregates = (column: QuantityColumn, addedLater = false) => ({
  [`${column}_n`]: addedLater ? integer(`${column}_n`).notNull().default(0) : integer(`${column}_n`).notNull(),
  [`${column}_sum`]: addedLater ? real(`${column}_sum`).notNull().default(0) : real(`${column}_sum`).notNull(),
  [`${column}_min`]: real(`${column}_min`),
  [`${column}_max`]: real(`${column}_max`),
});

/**
 * Aggregates of `readings` per sensor and time bucket at a few resolutions (1 min, 5 min, 1 h; see
 * server/history/rollup-levels.ts), maintained in the same transaction as each tick's insert and kept
 * long after the raw rows are pruned. A mean is sum / n, so buckets merge exactly.
 */
export const readingRollups = sqliteTable(
  'reading_rollups',
  {
    resolutionMs: integer('resolution_ms').notNull(),
    /** Start of the bucket, epoch ms, a multiple of resolution_ms. */
    bucketAt: integer('bucket_at').notNull(),
    greenhouseId: text('greenhouse_id').notNull(),
    sensorType: text('sensor_type', { enum: ['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL'] }).notNull(),
    /** Readings rows folded into the bucket. */
    n: integer('n').notNull(),
    ...fieldAggregates('temperature_c'),
    ...fieldAggregates('humidity_pct'),
    ...fieldAggregates('light_lux'),
    ...fieldAggregates('soil_moisture_pct'),
    ...fieldAggregates('water_level_cm'),
    ...fieldAggregates('co2_ppm', true),
    ...fieldAggregates('pressure_hpa', true),
    ...fieldAggregates('root_temperature_c', true),
  },
  // Every query is one resolution and a range of buckets; pruning is a range too.
  (t) => [primaryKey({ columns: [t.resolutionMs, t.bucketAt, t.greenhouseId, t.sensorType] })],
);

/**
 * How far the rollups have folded `readings`: every row with id <= foldedThroughId is in them and no
 * row above it is. One row (id 1); absent means nothing folded yet (a new or restored database).
 */
export const rollupWatermark = sqliteTable('rollup_watermark', {
  id: integer('id').primaryKey(),
  foldedThroughId: integer('folded_through_id').notNull(),
});

export const devices = sqliteTable(
  'devices',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    deviceId: text('device_id').notNull(),
    greenhouseId: text('greenhouse_id').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    status: text('status').notNull(),
    powerW: real('power_w').notNull().default(0),
    intensityPct: real('intensity_pct').notNull().default(100),
    autoMode: integer('auto_mode', { mode: 'boolean' }).notNull().default(false),
    location: text('location').notNull().default('Main Greenhouse'),
    lastActivatedAt: timestampMs('last_activated_at'),
    /** JSON of contract AutomationRules. */
    automationRules: text('automation_rules', { mode: 'json' }).notNull(),
    /** What auto mode does when an input of its rules is lost: 'off' (safe state), 'hold' or 'duty'. */
    sensorLossAction: text('sensor_loss_action', { enum: ['off', 'hold', 'duty'] }).notNull().default('off'),
    /** With 'duty': the share (0-100 %) of each 10-minute cycle the device runs; null otherwise. */
    sensorLossDutyPct: real('sensor_loss_duty_pct'),
    /** Pumps: litres per minute while running; null falls back to the output's config (water accounting). */
    flowLitresPerMinute: real('flow_litres_per_minute'),
    /** A roof window's opening (0-100 %) when it follows a climate program in proportion; null otherwise. */
    openPct: real('open_pct'),
    /** The configured output it drives (config outputs[].outputId), or null when unbound. */
    outputId: text('output_id'),
    createdAt: createdAt(),
    updatedAt: timestampMs('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('devices_device_id_idx').on(t.deviceId),
    uniqueIndex('devices_output_id_idx').on(t.outputId),
  ],
);

export const controlLog = sqliteTable(
  'control_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    deviceId: text('device_id').notNull(),
    greenhouseId: text('greenhouse_id').notNull(),
    action: text('action').notNull(),
    previousStatus: text('previous_status').notNull(),
    newStatus: text('new_status').notNull(),
    source: text('source', { enum: ['user', 'rule', 'safety', 'system', 'mqtt'] }).notNull(),
    actor: text('actor').notNull(),
    reason: text('reason').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('control_log_device_id_idx').on(t.deviceId),
    index('control_log_created_at_idx').on(t.createdAt),
    // A device's newest entries (its card's state reason, every few seconds) by index seek, not a sort.
    index('control_log_device_id_created_at_idx').on(t.deviceId, t.createdAt),
  ],
);

export const alerts = sqliteTable(
  'alerts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    greenhouseId: text('greenhouse_id').notNull(),
    alertType: text('alert_type').notNull(),
    severity: text('severity', { enum: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] }).notNull(),
    message: text('message').notNull(),
    deviceId: text('device_id'),
    /** What raised it, e.g. 'threshold:temperature:high' or 'fault:DHT11'; one active alert per cause. */
    causeKey: text('cause_key'),
    value: real('value'),
    threshold: real('threshold'),
    isResolved: integer('is_resolved', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    resolvedAt: timestampMs('resolved_at'),
    actionTaken: text('action_taken'),
    /** A person said they saw it (dashboard or a notification's link): escalation stops. */
    acknowledgedAt: timestampMs('acknowledged_at'),
    acknowledgedBy: text('acknowledged_by'),
    /** When an unacknowledged CRITICAL was last announced (turned CRITICAL, or sent again to every channel). */
    escalatedAt: timestampMs('escalated_at'),
  },
  (t) => [
    index('alerts_is_resolved_idx').on(t.isResolved),
    index('alerts_created_at_idx').on(t.createdAt),
    // At most one active alert per cause, enforced by the database as well as by the evaluator.
    uniqueIndex('alerts_active_cause_key_idx').on(t.causeKey).where(sql`${t.isResolved} = 0 AND ${t.causeKey} IS NOT NULL`),
  ],
);

export const settings = sqliteTable('settings', {
  greenhouseId: text('greenhouse_id').primaryKey(),
  alertThresholds: text('alert_thresholds', { mode: 'json' }).notNull(),
  systemSettings: text('system_settings', { mode: 'json' }).notNull(),
  deviceSettings: text('device_settings', { mode: 'json' }).notNull(),
  updatedAt: timestampMs('updated_at').notNull(),
});

/**
 * Where each pump's irrigation program stands (server/devices/irrigation/), so a restart resumes a soak
 * and keeps a pause: one row per device, rewritten at each phase change.
 */
export const irrigationCycles = sqliteTable('irrigation_cycles', {
  deviceId: text('device_id').primaryKey(),
  phase: text('phase', { enum: ['idle', 'pulse', 'soak', 'paused'] }).notNull(),
  pulses: integer('pulses').notNull().default(0),
  startPct: real('start_pct'),
  untilMs: integer('until_ms'),
  lastPulseAtMs: integer('last_pulse_at_ms'),
  fallback: integer('fallback', { mode: 'boolean' }).notNull().default(false),
  updatedAt: timestampMs('updated_at').notNull(),
});

/** Where alerts are sent besides the dashboard (server/notifications/README.md). */
export const notificationChannels = sqliteTable('notification_channels', {
  channelId: text('channel_id').primaryKey(),
  kind: text('kind').notNull(),
  target: text('target').notNull(),
  minSeverity: text('min_severity', { enum: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] }).notNull(),
  quietFrom: text('quiet_from'),
  quietTo: text('quiet_to'),
  /** HMAC key of a webhook, token of an ntfy server or a Telegram bot; never sent back to a browser. */
  secret: text('secret'),
  createdAt: createdAt(),
  updatedAt: timestampMs('updated_at').notNull(),
});

/** The persistent outbox: one row per message to one channel, committed before it is sent. */
export const notificationOutbox = sqliteTable(
  'notification_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    channelId: text('channel_id').notNull(),
    alertId: integer('alert_id'),
    reason: text('reason', { enum: ['alert', 'escalation', 'test', 'gateway-failure'] }).notNull(),
    /** JSON of the NotificationMessage, fixed when queued so a retry sends what was meant. */
    payload: text('payload', { mode: 'json' }).notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestampMs('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: timestampMs('created_at').notNull(),
    deliveredAt: timestampMs('delivered_at'),
  },
  (t) => [
    index('notification_outbox_status_next_attempt_at_idx').on(t.status, t.nextAttemptAt),
    index('notification_outbox_created_at_idx').on(t.createdAt),
  ],
);

export const notificationAttempts = sqliteTable(
  'notification_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    deliveryId: integer('delivery_id')
      .notNull()
      .references(() => notificationOutbox.id, { onDelete: 'cascade' }),
    at: timestampMs('at').notNull(),
    ok: integer('ok', { mode: 'boolean' }).notNull(),
    detail: text('detail'),
  },
  (t) => [index('notification_attempts_delivery_id_idx').on(t.deliveryId)],
);

/** One climate program per greenhouse (docs/climate.md): JSON of contract ClimateProgram. */
export const climatePrograms = sqliteTable('climate_programs', {
  greenhouseId: text('greenhouse_id').primaryKey(),
  program: text('program', { mode: 'json' }).notNull(),
  updatedAt: timestampMs('updated_at').notNull(),
});

/**
 * Web Push subscriptions (docs/https.md): one row per browser that asked for alert notifications, owned
 * by the account that subscribed it (deleted with it). `endpoint` is the push service's URL for that
 * browser; `p256dh` and `auth` are its message-encryption keys (RFC 8291), base64url.
 */
export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    minSeverity: text('min_severity', { enum: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] }).notNull(),
    createdAt: createdAt(),
    lastDeliveredAt: timestampMs('last_delivered_at'),
    lastError: text('last_error'),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_unique').on(t.endpoint), index('push_subscriptions_user_id_idx').on(t.userId)],
);

/**
 * Calibration set from the dashboard over the config's (server/sensors/calibration/): a soil probe's dry
 * and wet raw counts, or an LDR's scale against a reference lux reading. One row per sensor instance.
 */
export const sensorCalibrations = sqliteTable('sensor_calibrations', {
  sensorId: text('sensor_id').primaryKey(),
  dryRaw: integer('dry_raw'),
  wetRaw: integer('wet_raw'),
  luxScale: real('lux_scale'),
  updatedAt: timestampMs('updated_at').notNull(),
});
