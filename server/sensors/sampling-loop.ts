import type { Logger } from 'pino';
import type { Clock, TimerHandle } from '../../drivers/clock.ts';
import type { SensorField, SensorSnapshot, SensorType } from '../contract/reading.ts';
import { SENSOR_UNITS } from '../contract/reading.ts';
import type { Settings } from '../contract/settings.ts';
import type { EventBus } from '../events/bus.ts';
import { probesFor, type SensorSet } from './probes.ts';
import { ProbeReader } from './read-probe.ts';
import type { NewReading, ReadingsRepo } from './readings-repo.ts';
import { SensorHealth } from './sensor-health.ts';

export interface SamplingLoopOptions {
  /** One read attempt may take this long before it counts as failed. */
  readTimeoutMs: number;
  /** A tick's reads (with retries) end within this share of the interval, so ticks never overlap. */
  budgetShare: number;
  maxBudgetMs: number;
}

export const DEFAULT_SAMPLING_OPTIONS: SamplingLoopOptions = { readTimeoutMs: 2000, budgetShare: 0.8, maxBudgetMs: 10_000 };

export interface SamplingLoopDeps {
  sensors: SensorSet;
  repo: Pick<ReadingsRepo, 'insertTick'>;
  bus: EventBus;
  settings: { get(): Settings };
  clock: Clock;
  greenhouseId: string;
  logger: Logger;
  options?: Partial<SamplingLoopOptions>;
}

export interface TickResult {
  atMs: number;
  durationMs: number;
  stored: number;
  failedSensors: SensorType[];
}

const FIELDS = Object.keys(SENSOR_UNITS) as SensorField[];
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Reads every sensor each `systemSettings.updateInterval` seconds (changes apply at once), concurrently
 * and each with its own timeout, stores the tick in one transaction and publishes it on the bus.
 */
export class SamplingLoop {
  readonly #deps: SamplingLoopDeps;
  readonly #options: SamplingLoopOptions;
  readonly #readers: ProbeReader[];
  readonly #health: SensorHealth;
  readonly #values = Object.fromEntries(FIELDS.map((f) => [f, null])) as Record<SensorField, number | null>;
  readonly #readAt = Object.fromEntries(FIELDS.map((f) => [f, null])) as Record<SensorField, string | null>;
  readonly #lastSampleAtMs = new Map<SensorType, number>();
  #snapshotTakenAt: string | null = null;
  #timer: TimerHandle | null = null;
  #running = false;
  #tickInProgress: Promise<TickResult> | null = null;
  #lastTickStartMs: number | null = null;
  #unsubscribe: (() => void) | null = null;

  constructor(deps: SamplingLoopDeps) {
    this.#deps = deps;
    this.#options = { ...DEFAULT_SAMPLING_OPTIONS, ...deps.options };
    this.#readers = probesFor(deps.sensors).map((p) => new ProbeReader(p, deps.clock, this.#options.readTimeoutMs));
    this.#health = new SensorHealth(deps.bus, deps.greenhouseId);
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#unsubscribe = this.#deps.bus.on('settingsChanged', 'sensors', ({ settings, previous }) => {
      if (settings.systemSettings.updateInterval !== previous.systemSettings.updateInterval) this.#reschedule();
    });
    this.#schedule(0);
  }

  /** Stops the schedule and waits for a tick in progress, so nothing writes after the database closes. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#timer) this.#deps.clock.clearTimeout(this.#timer);
    this.#timer = null;
    await this.#tickInProgress?.catch(() => undefined);
  }

  /** Runs a tick now (or joins the one in progress). */
  sampleNow(): Promise<TickResult> {
    this.#tickInProgress ??= this.#tick().finally(() => {
      this.#tickInProgress = null;
    });
    return this.#tickInProgress;
  }

  /** Newest value and read time of every field (null = never read, or held back while stuck). */
  snapshot(): SensorSnapshot {
    return {
      takenAt: this.#snapshotTakenAt ?? iso(this.#deps.clock.now()),
      values: { ...this.#values },
      readAt: { ...this.#readAt },
    };
  }

  /** Epoch ms of the sensor's newest stored reading in this run, or null. */
  lastSampleAt(sensorType: SensorType): number | null {
    return this.#lastSampleAtMs.get(sensorType) ?? null;
  }

  /** Failure counts and faults per sensor (health endpoint). */
  health() {
    return this.#health.report();
  }

  intervalMs(): number {
    return this.#deps.settings.get().systemSettings.updateInterval * 1000;
  }

  #schedule(delayMs: number): void {
    if (this.#timer) this.#deps.clock.clearTimeout(this.#timer);
    this.#timer = this.#deps.clock.setTimeout(() => {
      this.#timer = null;
      void this.#runScheduled();
    }, Math.max(0, delayMs));
  }

  /** Interval changed: the next tick is due one NEW interval after the last one started (or now). */
  #reschedule(): void {
    if (!this.#running || this.#tickInProgress) return; // the tick schedules the next one when it ends
    const last = this.#lastTickStartMs ?? this.#deps.clock.now();
    this.#schedule(last + this.intervalMs() - this.#deps.clock.now());
  }

  async #runScheduled(): Promise<void> {
    try {
      await this.sampleNow();
    } catch (err) {
      this.#deps.logger.error({ err }, 'sampling tick failed');
    }
    if (this.#running && !this.#timer) this.#reschedule();
  }

  async #tick(): Promise<TickResult> {
    const { clock } = this.#deps;
    const startMs = clock.now();
    this.#lastTickStartMs = startMs;
    const intervalMs = this.intervalMs();
    const budgetMs = Math.min(this.#options.maxBudgetMs, Math.max(500, intervalMs * this.#options.budgetShare));
    const deadlineMs = startMs + budgetMs;

    const outcomes = await Promise.all(this.#readers.map((r) => r.read(deadlineMs)));
    const rows: NewReading[] = [];
    const failedSensors: SensorType[] = [];
    const fresh: Array<{ reader: ProbeReader; row: NewReading }> = [];
    outcomes.forEach((outcome, i) => {
      const reader = this.#readers[i]!;
      const type = reader.probe.sensorType;
      if (!outcome.ok) {
        failedSensors.push(type);
        this.#health.failed(type, outcome.error, outcome.attempts, clock.now());
        return;
      }
      this.#health.answered(type, outcome.attempts, clock.now());
      if (this.#health.isCachedRepeat(reader.probe, outcome.values, outcome.readAtMs)) return;
      const row: NewReading = { sensorType: type, takenAtMs: outcome.readAtMs, ...outcome.values };
      rows.push(row);
      fresh.push({ reader, row });
    });

    let stored = 0;
    try {
      const readings = this.#deps.repo.insertTick(this.#deps.greenhouseId, rows);
      stored = readings.length;
      for (const { reader, row } of fresh) {
        this.#lastSampleAtMs.set(row.sensorType, row.takenAtMs);
        const stuck = this.#health.observe(reader.probe, row, clock.now());
        // A stuck sensor's value is not fresh news: leave readAt where it was so consumers see it age.
        if (stuck) continue;
        for (const { field, column } of reader.probe.fields) {
          this.#values[field] = row[column] ?? null;
          this.#readAt[field] = iso(row.takenAtMs);
        }
      }
      this.#snapshotTakenAt = iso(startMs);
      if (readings.length > 0) {
        this.#deps.bus.emit('sampleTaken', { greenhouseId: this.#deps.greenhouseId, readings, snapshot: this.snapshot() });
      }
    } catch (err) {
      this.#deps.logger.error({ err }, 'storing sampled readings failed');
    }
    const durationMs = clock.now() - startMs;
    this.#deps.bus.emit('samplerTicked', { at: iso(startMs), durationMs, failedSensors });
    return { atMs: startMs, durationMs, stored, failedSensors };
  }
}
