import type { Logger } from 'pino';
import type { Clock, MonotonicMs, TimerHandle } from '../../common/clock.ts';
import { QUANTITIES, QUANTITY_KEYS } from '../../common/catalogue.ts';
import type { SensorInstanceDriver } from '../../drivers/types.ts';
import type { SensorField, SensorInstance, SensorSnapshot, SensorType } from '../contract/reading.ts';
import { SENSOR_UNITS } from '../contract/reading.ts';
import type { Settings } from '../contract/settings.ts';
import type { EventBus } from '../events/bus.ts';
import { probesFor } from './probes.ts';
import { ProbeReader } from './read-probe.ts';
import type { ReadingsRepo } from './readings-repo.ts';
import { SensorHealth, type SensorFault } from './sensor-health.ts';
import { zoneRows, type InstanceAnswer } from './zone-median.ts';

export interface SamplingLoopOptions {
  /** One read attempt may take this long before it counts as failed. */
  readTimeoutMs: number;
  /** A tick's reads (with retries) end within this share of the interval, so ticks never overlap. */
  budgetShare: number;
  maxBudgetMs: number;
}

export const DEFAULT_SAMPLING_OPTIONS: SamplingLoopOptions = { readTimeoutMs: 2000, budgetShare: 0.8, maxBudgetMs: 10_000 };

export interface SamplingLoopDeps {
  /** Every sensor instance the hardware could open. */
  sensors: readonly SensorInstanceDriver[];
  repo: Pick<ReadingsRepo, 'insertTick'>;
  bus: EventBus;
  settings: { get(): Settings };
  clock: Clock;
  greenhouseId: string;
  logger: Logger;
  options?: Partial<SamplingLoopOptions>;
  /**
   * A clock that never steps, for liveness: a wall-clock step (NTP after a boot without a real-time
   * clock) must not make the next tick look hours overdue and starve the watchdog. Default: the
   * clock's own time (a ManualClock in tests, whose jumps are on purpose).
   */
  monotonicMs?: MonotonicMs;
}

/** Whether the loop does its job (the systemd watchdog feeds on `alive`; see liveness()). */
export type SamplerLiveness = { alive: true } | { alive: false; reason: string };

/**
 * How late a tick may end, or the next one start, before the loop counts as wedged: above a read
 * timeout plus the database write, far below systemd's watchdog period reaction.
 */
export const LIVENESS_GRACE_MS = 30_000;

export interface TickResult {
  atMs: number;
  durationMs: number;
  /**
   * Readings handed on this tick (to the store, the dashboard and the rules); a reading the store holds
   * back while the wall clock is behind is handed on all the same (docs/hardware.md).
   */
  published: number;
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
  readonly #readAtMs = Object.fromEntries(FIELDS.map((f) => [f, null])) as Record<SensorField, number | null>;
  readonly #lastSampleAtMs = new Map<SensorType, number>();
  #vpdUncertaintyKpa: number | null = null;
  #snapshotTakenAt: string | null = null;
  #timer: TimerHandle | null = null;
  #running = false;
  #tickInProgress: Promise<TickResult> | null = null;
  /** Liveness deadlines, on the monotonic clock. */
  #lastTickStartMono: number | null = null;
  #nextTickDueMono: number | null = null;
  #lastTickAllFailed = false;
  #unsubscribe: (() => void) | null = null;

  constructor(deps: SamplingLoopDeps) {
    this.#deps = deps;
    this.#options = { ...DEFAULT_SAMPLING_OPTIONS, ...deps.options };
    this.#readers = probesFor(deps.sensors).map((p) => new ProbeReader(p, deps.clock, this.#options.readTimeoutMs));
    this.#health = new SensorHealth(deps.bus, deps.greenhouseId, this.#readers.map((r) => r.probe));
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
      readAtMs: { ...this.#readAtMs },
      vpdUncertaintyKpa: this.#vpdUncertaintyKpa,
    };
  }

  /** Every sensor instance with its health, newest values and accuracy. */
  instances(): SensorInstance[] {
    return this.#health.instances();
  }

  /** The zone's fault while every sensor of it is faulted, else null. */
  zoneFault(sensorType: SensorType): SensorFault {
    return this.#health.zoneFault(sensorType);
  }

  /** Epoch ms of the sensor's newest stored reading in this run, or null. */
  lastSampleAt(sensorType: SensorType): number | null {
    return this.#lastSampleAtMs.get(sensorType) ?? null;
  }

  /** Failure counts and faults per sensor (health endpoint). */
  health() {
    return this.#health.report();
  }

  /**
   * For the systemd watchdog, whatever the interval (up to an hour): alive while the loop is started,
   * its tick in progress (if any) is within its read budget, and the next tick is not overdue. A hung
   * native read cannot keep a tick open (every read has its own timeout), so a tick that never ends
   * means the loop itself is broken. A tick in which every sensor failed still counts as alive: the
   * loop ran, and a restart would not bring a disconnected sensor back (see healthy()).
   */
  liveness(): SamplerLiveness {
    if (!this.#running) return { alive: false, reason: 'the sampling loop is not running' };
    const nowMs = this.#mono();
    if (this.#tickInProgress && this.#lastTickStartMono !== null) {
      const overMs = nowMs - this.#lastTickStartMono - this.#options.maxBudgetMs - LIVENESS_GRACE_MS;
      return overMs > 0 ? { alive: false, reason: `a sampling tick has run for ${Math.round((nowMs - this.#lastTickStartMono) / 1000)} s` } : { alive: true };
    }
    if (this.#nextTickDueMono === null) return { alive: false, reason: 'no sampling tick is scheduled' };
    const lateMs = nowMs - this.#nextTickDueMono;
    return lateMs > LIVENESS_GRACE_MS ? { alive: false, reason: `the next sampling tick is ${Math.round(lateMs / 1000)} s overdue` } : { alive: true };
  }

  /** False when the last tick got an answer from no sensor at all (health endpoint, systemctl status). */
  healthy(): boolean {
    return !this.#lastTickAllFailed;
  }

  #mono(): number {
    return this.#deps.monotonicMs?.() ?? this.#deps.clock.now();
  }

  intervalMs(): number {
    return this.#deps.settings.get().systemSettings.updateInterval * 1000;
  }

  #schedule(delayMs: number): void {
    if (this.#timer) this.#deps.clock.clearTimeout(this.#timer);
    this.#nextTickDueMono = this.#mono() + Math.max(0, delayMs);
    this.#timer = this.#deps.clock.setTimeout(() => {
      this.#timer = null;
      this.#nextTickDueMono = null;
      void this.#runScheduled();
    }, Math.max(0, delayMs));
  }

  /** Interval changed: the next tick is due one NEW interval after the last one started (or now). */
  #reschedule(): void {
    if (!this.#running || this.#tickInProgress) return; // the tick schedules the next one when it ends
    // Monotonic: a wall clock stepped back 3 h must not put the next tick 3 h away.
    const last = this.#lastTickStartMono ?? this.#mono();
    this.#schedule(last + this.intervalMs() - this.#mono());
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
    this.#lastTickStartMono = this.#mono();
    const intervalMs = this.intervalMs();
    const budgetMs = Math.min(this.#options.maxBudgetMs, Math.max(500, intervalMs * this.#options.budgetShare));
    const deadlineMs = startMs + budgetMs;

    const outcomes = await Promise.all(this.#readers.map((r) => r.read(deadlineMs)));
    const failed = new Set<SensorType>();
    const answered = new Set<SensorType>();
    const answers: InstanceAnswer[] = [];
    outcomes.forEach((outcome, i) => {
      const probe = this.#readers[i]!.probe;
      if (!outcome.ok) {
        failed.add(probe.zone);
        this.#health.failed(probe, outcome.error, outcome.attempts, clock.now());
        return;
      }
      answered.add(probe.zone);
      this.#health.answered(probe, outcome.attempts, clock.now());
      if (this.#health.isCachedRepeat(probe, outcome.values, outcome.readAtMs)) return;
      // A stuck sensor's value is not fresh news: it is left out of its zone's median.
      if (this.#health.observe(probe, outcome.values, outcome.readAtMs, clock.now())) return;
      answers.push({ sensorId: probe.sensorId, kind: probe.kind, zone: probe.zone, values: outcome.values, readAtMs: outcome.readAtMs });
    });
    // A zone counts as failed this tick only when none of its sensors answered.
    const failedSensors = [...failed].filter((zone) => !answered.has(zone));
    const rows = zoneRows(answers);

    let published = 0;
    try {
      const readings = this.#deps.repo.insertTick(this.#deps.greenhouseId, rows);
      published = readings.length;
      for (const row of rows) {
        this.#lastSampleAtMs.set(row.sensorType, row.takenAtMs);
        for (const q of QUANTITY_KEYS) {
          const value = row[q];
          if (typeof value !== 'number') continue;
          this.#values[QUANTITIES[q].field] = value;
          this.#readAtMs[QUANTITIES[q].field] = row.takenAtMs;
        }
        if (row.sensorType === 'DHT11' && row.vpdUncertaintyKpa !== undefined) this.#vpdUncertaintyKpa = row.vpdUncertaintyKpa;
      }
      this.#snapshotTakenAt = iso(startMs);
      if (readings.length > 0) {
        this.#deps.bus.emit('sampleTaken', { greenhouseId: this.#deps.greenhouseId, readings, snapshot: this.snapshot() });
      }
    } catch (err) {
      this.#deps.logger.error({ err }, 'storing sampled readings failed');
    }
    this.#lastTickAllFailed = this.#readers.length > 0 && answered.size === 0;
    const durationMs = clock.now() - startMs;
    this.#deps.bus.emit('samplerTicked', { at: iso(startMs), durationMs, failedSensors });
    return { atMs: startMs, durationMs, published, failedSensors };
  }
}
