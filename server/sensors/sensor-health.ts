import type { SensorType } from '../contract/reading.ts';
import type { EventBus } from '../events/bus.ts';
import type { Probe } from './probes.ts';
import type { NewReading } from './readings-repo.ts';
import type { ProbeValues } from './read-probe.ts';
import { STUCK_POLICIES, trackStuck, type StuckTracker } from './stuck.ts';

/** A sensor failing for MORE than this many consecutive intervals is reported as not answering. */
export const FAULT_AFTER_FAILED_INTERVALS = 3;

export interface SensorHealthReport {
  sensorType: SensorType;
  healthy: boolean;
  fault: 'no_answer' | 'stuck' | null;
  /** Failed read attempts since start (retries included). */
  failedReads: number;
  /** Ticks in which the sensor gave no reading at all, since start. */
  failedIntervals: number;
  consecutiveFailedIntervals: number;
  lastError: string | null;
}

interface State extends SensorHealthReport {
  stuck: StuckTracker | null;
  lastFresh: { key: string; atMs: number } | null;
}

const keyOf = (values: ProbeValues) => JSON.stringify(values);

/** Failure counts, faults and their transitions (published as `sensorHealthChanged`), per sensor. */
export class SensorHealth {
  readonly #states = new Map<SensorType, State>();

  constructor(
    private readonly bus: EventBus,
    private readonly greenhouseId: string,
  ) {}

  failed(type: SensorType, error: string, attempts: number, nowMs: number): void {
    const s = this.#state(type);
    s.failedReads += attempts;
    s.failedIntervals++;
    s.consecutiveFailedIntervals++;
    s.lastError = error;
    if (s.consecutiveFailedIntervals > FAULT_AFTER_FAILED_INTERVALS && s.fault !== 'no_answer') {
      this.#change(s, 'no_answer', `${type} has not answered for ${s.consecutiveFailedIntervals} intervals: ${error}`, nowMs);
    }
  }

  answered(type: SensorType, attempts: number, nowMs: number): void {
    const s = this.#state(type);
    s.failedReads += attempts - 1;
    s.consecutiveFailedIntervals = 0;
    if (s.fault === 'no_answer') this.#change(s, null, `${type} answers again`, nowMs);
  }

  /** True when the driver repeated its last answer within its cache window (not a fresh reading). */
  isCachedRepeat(probe: Probe, values: ProbeValues, readAtMs: number): boolean {
    const s = this.#state(probe.sensorType);
    const key = keyOf(values);
    if (probe.cacheWindowMs > 0 && s.lastFresh?.key === key && readAtMs - s.lastFresh.atMs < probe.cacheWindowMs) return true;
    s.lastFresh = { key, atMs: readAtMs };
    return false;
  }

  /** Folds a stored reading into the stuck detector; true while the sensor counts as stuck. */
  observe(probe: Probe, row: NewReading, nowMs: number): boolean {
    const s = this.#state(probe.sensorType);
    const main = row[probe.fields[0]!.column] ?? 0;
    const { tracker, stuck } = trackStuck(s.stuck, probe.fields.map((f) => row[f.column]).join(','), main, row.takenAtMs, STUCK_POLICIES[probe.sensorType]);
    s.stuck = tracker;
    if (stuck && s.fault !== 'stuck') {
      const minutes = Math.round((row.takenAtMs - tracker.sinceMs) / 60_000);
      this.#change(s, 'stuck', `${probe.sensorType} has reported the same value ${tracker.count} times over ${minutes} minutes`, nowMs);
    } else if (!stuck && s.fault === 'stuck') {
      this.#change(s, null, `${probe.sensorType} values change again`, nowMs);
    }
    return stuck;
  }

  report(): SensorHealthReport[] {
    return [...this.#states.values()].map(({ stuck: _s, lastFresh: _f, ...report }) => report);
  }

  #change(s: State, fault: State['fault'], message: string, nowMs: number): void {
    s.fault = fault;
    s.healthy = fault === null;
    this.bus.emit('sensorHealthChanged', {
      greenhouseId: this.greenhouseId,
      sensorType: s.sensorType,
      healthy: s.healthy,
      fault,
      message,
      at: new Date(nowMs).toISOString(),
    });
  }

  #state(type: SensorType): State {
    let s = this.#states.get(type);
    if (!s) {
      s = {
        sensorType: type,
        healthy: true,
        fault: null,
        failedReads: 0,
        failedIntervals: 0,
        consecutiveFailedIntervals: 0,
        lastError: null,
        stuck: null,
        lastFresh: null,
      };
      this.#states.set(type, s);
    }
    return s;
  }
}
