import type { Clock } from '../../common/clock.ts';
import { readFile } from 'node:fs/promises';
import Type, { type Static } from 'typebox';
import { NullableNumber } from '../contract/common.ts';
import { ClockStatus } from '../contract/clock.ts';
import { MqttStatus } from '../contract/fleet.ts';
import { SENSOR_TYPES, STALE_AFTER_MS, type SensorType } from '../contract/reading.ts';

/** The answer of GET /api/health: what an operator (or a monitoring script) checks first. */
export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  uptimeSeconds: Type.Number(),
  database: Type.Object({ ok: Type.Boolean(), error: Type.Optional(Type.String()) }),
  /** Seconds since each sensor's last good sample; null: none yet (or no sampler). */
  sensors: Type.Record(Type.String(), NullableNumber),
  drivers: Type.Array(
    Type.Object({
      name: Type.String(),
      available: Type.Boolean(),
      reason: Type.Union([Type.String(), Type.Null()]),
      /** Failed bus transfers since start, for drivers that count them (an I2C chip probed again). */
      busErrors: Type.Optional(Type.Integer({ minimum: 0 })),
    }),
  ),
  cpuTemperatureC: NullableNumber,
  version: Type.String(),
  hardwareMode: Type.Union([Type.Literal('simulator'), Type.Literal('raspberry-pi')]),
  /** The wall clock: not synchronised yet means schedules keep their devices off (status degraded). */
  clock: ClockStatus,
  /** The MQTT bridge; a broker that is away does not make the gateway degraded (it keeps running alone). */
  mqtt: Type.Optional(MqttStatus),
  /** Features that failed to start or serve (their error is in the journal): the gateway runs without them, degraded. */
  failedFeatures: Type.Optional(Type.Array(Type.String())),
});
export type Health = Static<typeof Health>;

/** What GET /api/health answers: everything to a signed-in account, `status` and `database.ok` to anyone else. */
export const HealthAnswer = Type.Object({ ...Type.Partial(Health).properties, status: Health.properties.status });

export interface DriverStatusView {
  name: string;
  available: boolean;
  reason: string | null;
  busErrors?: number;
}

/** Where the health answer comes from; each source is optional so the route works in every build. */
export interface HealthSources {
  /** The gateway's clock, in which the sampler stamps its samples (scaled in a fast simulator). */
  clock: Pick<Clock, 'now'>;
  /** Wall-clock seconds since the gateway was built. */
  uptimeSeconds: () => number;
  /** Runs a trivial query; throws when the database is unusable. */
  checkDatabase: () => void;
  /** Epoch ms (gateway clock) of a sensor's last good sample, or null: the sampler's lastSampleAt. */
  lastSampleAt?: (sensorType: SensorType) => number | null;
  driverStatus?: () => DriverStatusView[];
  /** False when the sampler's last tick got an answer from no sensor at all. */
  samplerHealthy?: () => boolean;
  /** Reads the SoC temperature in °C, or null where there is none. */
  cpuTemperatureC: () => Promise<number | null>;
  version: string;
  hardwareMode: Health['hardwareMode'];
  mqttStatus?: () => MqttStatus;
  /** The wall clock's state; absent: trusted as it is. */
  clockStatus?: () => ClockStatus;
  /** Features that failed to start or serve. */
  failedFeatures?: () => readonly string[];
}

/**
 * Pure: ok when the database answers, every driver is available and every sensor sampled within the
 * stale limit (a sensor with no sample yet counts only once the gateway has run that long).
 */
export function healthStatus(input: {
  databaseOk: boolean;
  sensorAgesSeconds: Record<string, number | null>;
  drivers: DriverStatusView[];
  uptimeSeconds: number;
  /** False: every sensor failed in the last tick (degraded at once, not only once readings go stale). */
  samplerHealthy?: boolean;
  /** False: the wall clock is not synchronised (schedules are held off). */
  clockSynchronised?: boolean;
  /** How many features failed to start or serve. */
  failedFeatures?: number;
}): Health['status'] {
  const staleSeconds = STALE_AFTER_MS / 1000;
  if (!input.databaseOk) return 'degraded';
  if ((input.failedFeatures ?? 0) > 0) return 'degraded';
  if (input.clockSynchronised === false) return 'degraded';
  if (input.drivers.some((driver) => !driver.available)) return 'degraded';
  if (input.samplerHealthy === false) return 'degraded';
  for (const age of Object.values(input.sensorAgesSeconds)) {
    if (age === null ? input.uptimeSeconds > staleSeconds : age > staleSeconds) return 'degraded';
  }
  return 'ok';
}

const ASSUMED_CLOCK: ClockStatus = { synchronised: true, source: 'assumed', synchronisedAt: null, steps: 0, lastStep: null };

export async function collectHealth(sources: HealthSources): Promise<Health> {
  const nowMs = sources.clock.now();
  const uptimeSeconds = Math.max(0, Math.round(sources.uptimeSeconds()));
  let database: Health['database'] = { ok: true };
  try {
    sources.checkDatabase();
  } catch (err) {
    database = { ok: false, error: (err as Error).message };
  }
  const sensors: Record<string, number | null> = {};
  for (const sensorType of SENSOR_TYPES) {
    const at = sources.lastSampleAt?.(sensorType);
    sensors[sensorType] = at === null || at === undefined ? null : Math.max(0, Math.round((nowMs - at) / 1000));
  }
  const drivers = sources.driverStatus?.() ?? [];
  const clock = sources.clockStatus?.() ?? ASSUMED_CLOCK;
  const failedFeatures = [...(sources.failedFeatures?.() ?? [])];
  return {
    status: healthStatus({
      databaseOk: database.ok,
      sensorAgesSeconds: sensors,
      drivers,
      uptimeSeconds,
      samplerHealthy: sources.samplerHealthy?.(),
      clockSynchronised: clock.synchronised,
      failedFeatures: failedFeatures.length,
    }),
    uptimeSeconds,
    database,
    sensors,
    drivers,
    cpuTemperatureC: await sources.cpuTemperatureC(),
    version: sources.version,
    hardwareMode: sources.hardwareMode,
    clock,
    ...(sources.mqttStatus ? { mqtt: sources.mqttStatus() } : {}),
    ...(failedFeatures.length > 0 ? { failedFeatures } : {}),
  };
}

/** The kernel's thermal zone gives millidegrees Celsius ("48312\n"); absent off a Pi or in a container. */
export function cpuTemperatureReader(path = '/sys/class/thermal/thermal_zone0/temp'): () => Promise<number | null> {
  return async () => {
    try {
      const milli = Number.parseInt(await readFile(path, 'utf8'), 10);
      return Number.isFinite(milli) ? Math.round(milli / 100) / 10 : null;
    } catch {
      return null;
    }
  };
}
