import { accuracyOf, ZONE_MAIN_QUANTITY, ZONES } from '../../common/catalogue.ts';
import type { QuantityValues } from '../../drivers/types.ts';
import type { SensorInstance, SensorType } from '../contract/reading.ts';
import type { EventBus } from '../events/bus.ts';
import type { Probe } from './probes.ts';
import { STUCK_POLICIES, trackStuck, type StuckTracker } from './stuck.ts';

/** A sensor failing for MORE than this many consecutive intervals is reported as not answering. */
export const FAULT_AFTER_FAILED_INTERVALS = 3;

export type SensorFault = 'no_answer' | 'stuck' | null;

/** A zone's health (the health endpoint and metrics): its sensors' counts summed, faulted when all are. */
export interface SensorHealthReport {
  sensorType: SensorType;
  healthy: boolean;
  fault: SensorFault;
  /** Failed read attempts since start (retries included), all its sensors. */
  failedReads: number;
  /** Ticks in which a sensor of the zone gave no reading at all, since start, all its sensors. */
  failedIntervals: number;
  /** The fewest consecutive failed intervals among its sensors (0 while one answers). */
  consecutiveFailedIntervals: number;
  lastError: string | null;
}

interface InstanceState {
  probe: Probe;
  fault: SensorFault;
  failedReads: number;
  failedIntervals: number;
  consecutiveFailedIntervals: number;
  lastError: string | null;
  stuck: StuckTracker | null;
  lastFresh: { key: string; atMs: number } | null;
  lastReadingAtMs: number | null;
  values: QuantityValues;
}

const keyOf = (values: QuantityValues) => JSON.stringify(values);
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Health per sensor instance and per zone. An instance faults when it has not answered for more than
 * FAULT_AFTER_FAILED_INTERVALS intervals, or is stuck (`sensorInstanceHealthChanged`); a zone faults
 * only when every one of its instances has (`sensorHealthChanged`, which safety, rules and alerts act
 * on): one sensor failing changes nothing else while another serves the zone.
 */
export class SensorHealth {
  readonly #instances = new Map<string, InstanceState>();
  readonly #zoneFaults = new Map<SensorType, SensorFault>();

  constructor(
    private readonly bus: EventBus,
    private readonly greenhouseId: string,
    probes: readonly Probe[],
  ) {
    for (const probe of probes) {
      this.#instances.set(probe.sensorId, {
        probe, fault: null, failedReads: 0, failedIntervals: 0, consecutiveFailedIntervals: 0, lastError: null,
        stuck: null, lastFresh: null, lastReadingAtMs: null, values: {},
      });
      this.#zoneFaults.set(probe.zone, null);
    }
  }

  failed(probe: Probe, error: string, attempts: number, nowMs: number): void {
    const s = this.#state(probe);
    s.failedReads += attempts;
    s.failedIntervals++;
    s.consecutiveFailedIntervals++;
    s.lastError = error;
    if (s.consecutiveFailedIntervals > FAULT_AFTER_FAILED_INTERVALS && s.fault !== 'no_answer') {
      this.#change(s, 'no_answer', `${this.#label(probe)} has not answered for ${s.consecutiveFailedIntervals} intervals: ${error}`, nowMs);
    }
  }

  answered(probe: Probe, attempts: number, nowMs: number): void {
    const s = this.#state(probe);
    s.failedReads += attempts - 1;
    s.consecutiveFailedIntervals = 0;
    if (s.fault === 'no_answer') this.#change(s, null, `${this.#label(probe)} answers again`, nowMs);
  }

  /** True when the driver repeated its last answer within its cache window (not a fresh reading). */
  isCachedRepeat(probe: Probe, values: QuantityValues, readAtMs: number): boolean {
    const s = this.#state(probe);
    const key = keyOf(values);
    // A wall clock stepped back makes the time since the last fresh answer negative: that is not the
    // driver's cache window (a DHT11's whole-degree values repeat often; judged cached, they would go stale).
    const sinceFreshMs = s.lastFresh ? readAtMs - s.lastFresh.atMs : Infinity;
    if (probe.cacheWindowMs > 0 && s.lastFresh?.key === key && sinceFreshMs >= 0 && sinceFreshMs < probe.cacheWindowMs) return true;
    s.lastFresh = { key, atMs: readAtMs };
    return false;
  }

  /**
   * Folds a fresh answer into the stuck detector and keeps it as the instance's newest values; true
   * while the instance counts as stuck. Only an instance whose first quantity is its zone's main one is
   * judged, with the zone's policy (stuck.ts); a root-temperature probe sits still by nature.
   */
  observe(probe: Probe, values: QuantityValues, takenAtMs: number, nowMs: number): boolean {
    const s = this.#state(probe);
    s.values = { ...values };
    s.lastReadingAtMs = takenAtMs;
    const main = ZONE_MAIN_QUANTITY[probe.zone];
    const policy = probe.quantities[0] === main ? STUCK_POLICIES[probe.zone] : null;
    const { tracker, stuck } = trackStuck(s.stuck, probe.quantities.map((q) => values[q]).join(','), values[main] ?? 0, takenAtMs, policy);
    s.stuck = tracker;
    if (stuck && s.fault !== 'stuck') {
      const minutes = Math.round((takenAtMs - tracker.sinceMs) / 60_000);
      this.#change(s, 'stuck', `${this.#label(probe)} has reported the same value ${tracker.count} times over ${minutes} minutes`, nowMs);
    } else if (!stuck && s.fault === 'stuck') {
      this.#change(s, null, `${this.#label(probe)} values change again`, nowMs);
    }
    return stuck;
  }

  /** The zone's fault, or null while one of its sensors serves it. */
  zoneFault(zone: SensorType): SensorFault {
    return this.#zoneFaults.get(zone) ?? null;
  }

  report(): SensorHealthReport[] {
    return ZONES.filter((z) => this.#zoneFaults.has(z)).map((zone) => {
      const states = this.#inZone(zone);
      const fault = this.zoneFault(zone);
      const errors = states.map((s) => s.lastError).filter((e): e is string => e !== null);
      return {
        sensorType: zone,
        healthy: fault === null,
        fault,
        failedReads: states.reduce((n, s) => n + s.failedReads, 0),
        failedIntervals: states.reduce((n, s) => n + s.failedIntervals, 0),
        consecutiveFailedIntervals: Math.min(...states.map((s) => s.consecutiveFailedIntervals)),
        lastError: errors.at(-1) ?? null,
      };
    });
  }

  /** Every instance as GET /api/sensors/instances shows it. */
  instances(): SensorInstance[] {
    return [...this.#instances.values()].map((s) => {
      const accuracy: SensorInstance['accuracy'] = {};
      for (const q of s.probe.quantities) accuracy[q] = accuracyOf(s.probe.kind, q, s.values[q] ?? 0) ?? 0;
      return {
        sensorId: s.probe.sensorId,
        kind: s.probe.kind,
        name: s.probe.name,
        zone: s.probe.zone,
        quantities: [...s.probe.quantities],
        status: s.fault !== null ? 'fault' : s.consecutiveFailedIntervals === 0 && s.lastReadingAtMs !== null ? 'ok' : 'stale',
        lastReadingAt: s.lastReadingAtMs === null ? null : iso(s.lastReadingAtMs),
        values: { ...s.values },
        accuracy,
        lastError: s.lastError,
      };
    });
  }

  #label(probe: Probe): string {
    // A zone with one sensor speaks as the zone (its alerts and logs read as they always did).
    return this.#inZone(probe.zone).length === 1 ? probe.zone : `${probe.zone} sensor "${probe.name}" (${probe.sensorId})`;
  }

  #inZone(zone: SensorType): InstanceState[] {
    return [...this.#instances.values()].filter((s) => s.probe.zone === zone);
  }

  #change(s: InstanceState, fault: SensorFault, message: string, nowMs: number): void {
    s.fault = fault;
    const zone = s.probe.zone;
    const states = this.#inZone(zone);
    const zoneFault: SensorFault = states.every((x) => x.fault !== null) ? (states.some((x) => x.fault === 'no_answer') ? 'no_answer' : 'stuck') : null;
    const previous = this.zoneFault(zone);
    this.#zoneFaults.set(zone, zoneFault);
    this.bus.emit('sensorInstanceHealthChanged', {
      greenhouseId: this.greenhouseId,
      sensorId: s.probe.sensorId,
      name: s.probe.name,
      kind: s.probe.kind,
      sensorType: zone,
      healthy: fault === null,
      fault,
      zoneServed: zoneFault === null,
      message,
      at: iso(nowMs),
    });
    if (zoneFault === previous) return;
    const zoneMessage = states.length === 1 ? message : zoneFault === null ? `${zone} is served again: ${message}` : `every ${zone} sensor has failed: ${message}`;
    this.bus.emit('sensorHealthChanged', { greenhouseId: this.greenhouseId, sensorType: zone, healthy: zoneFault === null, fault: zoneFault, message: zoneMessage, at: iso(nowMs) });
  }

  #state(probe: Probe): InstanceState {
    const s = this.#instances.get(probe.sensorId);
    if (!s) throw new RangeError(`unknown sensor instance ${probe.sensorId}`);
    return s;
  }
}
