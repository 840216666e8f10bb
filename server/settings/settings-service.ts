import type { Clock } from '../../common/clock.ts';
import { eq } from 'drizzle-orm';
import {
  DEFAULT_ALERT_THRESHOLDS,
  DEFAULT_DEVICE_SETTINGS,
  DEFAULT_SYSTEM_SETTINGS,
  type AlertThresholds,
  type DeviceSettings,
  type Settings,
  type SystemSettings,
} from '../contract/settings.ts';
import type { Db } from '../db/open.ts';
import { settings } from '../db/schema.ts';
import type { EventBus } from '../events/bus.ts';
import { invalid } from '../domain/errors.ts';
import { checkDeviceSettings } from './device-limits.ts';

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object | null ? DeepPartial<NonNullable<T[K]>> | T[K] : T[K] };
/** The partial updates the routes accept (their schemas have validated shape and ranges). */
export type ThresholdChanges = DeepPartial<AlertThresholds>;
export type SystemChanges = Partial<SystemSettings>;
export type DeviceChanges = DeepPartial<DeviceSettings>;

export interface SettingsServiceDeps {
  db: Db;
  bus: EventBus;
  greenhouseId: string;
  clock: Clock;
  /** Config `site`: the default of systemSettings.site (an admin may change it from the dashboard). */
  defaultSite?: SystemSettings['site'];
}

/**
 * The greenhouse's settings, kept in one row and cached in memory: the sampler, the rule engine and the
 * alert evaluator read them every tick. Every change is published as `settingsChanged` so it applies live.
 */
export class SettingsService {
  #cached: Settings | null = null;

  readonly greenhouseId: string;

  constructor(private readonly deps: SettingsServiceDeps) {
    this.greenhouseId = deps.greenhouseId;
  }

  get(): Settings {
    if (this.#cached) return this.#cached;
    const row = this.deps.db.select().from(settings).where(eq(settings.greenhouseId, this.greenhouseId)).get();
    this.#cached = row
      ? {
          greenhouseId: this.greenhouseId,
          // Merge over the defaults so a field added by a later release has a value in an old row.
          alertThresholds: mergeDeep(DEFAULT_ALERT_THRESHOLDS, row.alertThresholds as AlertThresholds),
          systemSettings: { ...this.#defaultSystem(), ...(row.systemSettings as SystemSettings) },
          deviceSettings: mergeDeep(DEFAULT_DEVICE_SETTINGS, row.deviceSettings as DeviceSettings),
        }
      : this.#defaults();
    return this.#cached;
  }

  updateThresholds(changes: DeepPartial<AlertThresholds>): Settings {
    const current = this.get();
    const alertThresholds = mergeDeep(current.alertThresholds, changes);
    for (const group of ['temperature', 'humidity'] as const) {
      const { high, low } = alertThresholds[group];
      if (high !== null && low !== null && low >= high) {
        // Name the bound the caller sent (the other one is the stored value it collides with).
        const sentLow = (changes as DeepPartial<AlertThresholds>)[group]?.low !== undefined;
        const field = `alertThresholds.${group}.${sentLow ? 'low' : 'high'}`;
        throw invalid(`alertThresholds.${group}.low (${low}) must be below alertThresholds.${group}.high (${high})`, field);
      }
    }
    return this.#save({ ...current, alertThresholds });
  }

  updateSystem(changes: Partial<SystemSettings>): Settings {
    const current = this.get();
    return this.#save({ ...current, systemSettings: { ...current.systemSettings, ...changes } });
  }

  updateDevices(changes: DeepPartial<DeviceSettings>): Settings {
    const current = this.get();
    const deviceSettings = mergeDeep(current.deviceSettings, changes);
    checkDeviceSettings(deviceSettings, changes);
    return this.#save({ ...current, deviceSettings });
  }

  reset(): Settings {
    return this.#save(this.#defaults());
  }

  #defaults(): Settings {
    return {
      greenhouseId: this.greenhouseId,
      alertThresholds: structuredClone(DEFAULT_ALERT_THRESHOLDS),
      systemSettings: this.#defaultSystem(),
      deviceSettings: structuredClone(DEFAULT_DEVICE_SETTINGS),
    };
  }

  #defaultSystem(): SystemSettings {
    return { ...DEFAULT_SYSTEM_SETTINGS, site: this.deps.defaultSite ?? null };
  }

  #save(next: Settings): Settings {
    const previous = this.get();
    const values = {
      greenhouseId: this.greenhouseId,
      alertThresholds: next.alertThresholds,
      systemSettings: next.systemSettings,
      deviceSettings: next.deviceSettings,
      updatedAt: new Date(this.deps.clock.now()),
    };
    this.deps.db.insert(settings).values(values).onConflictDoUpdate({ target: settings.greenhouseId, set: values }).run();
    this.#cached = next;
    this.deps.bus.emit('settingsChanged', { settings: next, previous });
    return next;
  }
}

/** Merges `changes` into `base` recursively; an explicit null replaces (null means "unset"). */
export function mergeDeep<T>(base: T, changes: unknown): T {
  if (changes === undefined) return structuredClone(base);
  if (changes === null || typeof changes !== 'object' || Array.isArray(changes)) return changes as T;
  if (base === null || typeof base !== 'object') return structuredClone(changes) as T;
  const result: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    result[key] = mergeDeep((base as Record<string, unknown>)[key], value);
  }
  return result as T;
}
