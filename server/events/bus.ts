import type { UnrecordedAlert } from '../alerts/alert-service.ts';
import type { Alert } from '../contract/alert.ts';
import type { ControlLog, Device } from '../contract/device.ts';
import type { Reading, SensorSnapshot, SensorType } from '../contract/reading.ts';
import type { Settings } from '../contract/settings.ts';
import type { SensorKind } from '../../common/catalogue.ts';
import type { ChannelHealthChange } from '../notifications/channel-health.ts';

/** Safety interlocks that override rules and people (docs/decisions.md, Hardware, sampling and control). */
export type SafetyKind = 'PUMP_MAX_RUNTIME' | 'HEATER_MAX_RUNTIME' | 'DRY_RUN_LOCKOUT' | 'INTERLOCK' | 'SENSOR_LOSS' | 'HEATER_CUTOFF' | 'IRRIGATION_NO_EFFECT' | 'IRRIGATION_FALLBACK';

/**
 * Everything that happens inside the gateway, by name. Features publish here; the realtime hub, the
 * alert evaluator and the rule engine's runner subscribe. One map, so a payload is typed at both ends.
 */
export interface GatewayEvents {
  /** One sampling tick was stored (one transaction). */
  sampleTaken: { greenhouseId: string; readings: Reading[]; snapshot: SensorSnapshot };
  /** The sampling loop finished a tick (even one where every sensor failed): the watchdog's proof of life. */
  samplerTicked: { at: string; durationMs: number; failedSensors: SensorType[] };
  /** A sensor stopped answering (healthy=false) or came back (healthy=true), or reports a stuck value. */
  sensorHealthChanged: {
    greenhouseId: string;
    sensorType: SensorType;
    healthy: boolean;
    fault: 'no_answer' | 'stuck' | null;
    message: string;
    at: string;
  };
  /**
   * One sensor instance stopped answering or is stuck (healthy=false), or recovered. `zoneServed`: its
   * zone still has a healthy sensor, so nothing else changes (the zone's own event says when it does).
   */
  sensorInstanceHealthChanged: {
    greenhouseId: string;
    sensorId: string;
    name: string;
    kind: SensorKind;
    sensorType: SensorType;
    healthy: boolean;
    fault: 'no_answer' | 'stuck' | null;
    zoneServed: boolean;
    message: string;
    at: string;
  };
  /** A device's state or configuration changed; controlLog is set when its output state changed. */
  deviceChanged: { greenhouseId: string; device: Device; action: string | null; controlLog: ControlLog | null };
  /** A device's locks or state reason changed without a switch of its own (a lock ended, the tank emptied). */
  deviceExplained: { greenhouseId: string; device: Device };
  deviceAdded: { greenhouseId: string; device: Device };
  deviceRemoved: { greenhouseId: string; deviceId: string };
  /** A safety interlock engaged (active=true) or released (active=false). */
  safetyEvent: { greenhouseId: string; kind: SafetyKind; deviceId: string; active: boolean; message: string; at: string };
  /** The database started refusing writes (the minute's commit of readings failed: why), or takes them again (null). */
  storageWrites: { error: string | null };
  /** The free space of the disk the database is on (server/lifecycle/storage-watch.ts). */
  storageChecked: { dir: string; freeBytes: number; totalBytes: number };
  /** A scheduled backup was written (written=true) or skipped because its target was unusable (reason). */
  backupOutcome: { written: true; dir: string; path: string } | { written: false; dir: string; reason: string };
  /** An alert channel started failing (every attempt for some minutes), or delivers again, or was deleted. */
  channelHealthChanged: ChannelHealthChange;
  alertRaised: { alert: Alert };
  /** An alert the gateway raised could not be stored (the storage refuses writes: why); it exists nowhere else. */
  alertUnrecorded: { alert: UnrecordedAlert; error: string };
  alertResolved: { alert: Alert };
  /** A person acknowledged an active alert (first time only): escalation stops, banners go. */
  alertAcknowledged: { alert: Alert };
  settingsChanged: { settings: Settings; previous: Settings };
  /** The wall clock was synchronised (stepMs null) or stepped by stepMs (negative: backwards). */
  clockChanged: { synchronised: boolean; stepMs: number | null };
  /** A climate program was stored (docs/climate.md): devices that follow it act on the new targets now. */
  climateProgramChanged: { greenhouseId: string };
  /** An account's tokens were revoked (password or role change) or it was deleted: its sockets must go. */
  accountRevoked: { accountId: number; reason: string; tokenId?: string };
}

export type GatewayEventName = keyof GatewayEvents;
type Listener<E extends GatewayEventName> = (payload: GatewayEvents[E]) => void;

interface Registration {
  owner: string;
  listener: (payload: never) => void;
}

export interface EventBusLogger {
  error(obj: object, msg: string): void;
}

/**
 * A typed, synchronous event bus. A listener that throws is logged with its owner's name and the
 * others still run: one broken feature must not take the sampling loop down with it.
 */
export class EventBus {
  readonly #listeners = new Map<GatewayEventName, Registration[]>();
  readonly #logger: EventBusLogger;

  constructor(logger: EventBusLogger) {
    this.#logger = logger;
  }

  /** Subscribes; returns the function that unsubscribes. */
  on<E extends GatewayEventName>(event: E, owner: string, listener: Listener<E>): () => void {
    const registration: Registration = { owner, listener: listener as (payload: never) => void };
    const list = this.#listeners.get(event) ?? [];
    list.push(registration);
    this.#listeners.set(event, list);
    return () => {
      const current = this.#listeners.get(event);
      if (current) this.#listeners.set(event, current.filter((r) => r !== registration));
    };
  }

  /**
   * Unsubscribes every listener `owner` registered, on every event: a feature's stop() says who it is
   * once instead of keeping each subscription's undo function.
   */
  removeAll(owner: string): void {
    for (const [event, list] of this.#listeners) this.#listeners.set(event, list.filter((r) => r.owner !== owner));
  }

  /** How many listeners `owner` has on all events: none once the feature that owns them has stopped. */
  listenerCount(owner: string): number {
    let count = 0;
    for (const list of this.#listeners.values()) count += list.filter((r) => r.owner === owner).length;
    return count;
  }

  emit<E extends GatewayEventName>(event: E, payload: GatewayEvents[E]): void {
    for (const { owner, listener } of this.#listeners.get(event) ?? []) {
      try {
        (listener as Listener<E>)(payload);
      } catch (err) {
        this.#logger.error({ err, event, owner }, 'event listener failed');
      }
    }
  }
}
