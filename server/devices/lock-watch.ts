import type { Clock, TimerHandle } from '../../common/clock.ts';
import type { Device } from '../contract/device.ts';
import type { EventBus } from '../events/bus.ts';

export interface LockWatchDeps {
  bus: EventBus;
  clock: Clock;
  greenhouseId: string;
  /** Every device with its stateReason and locks filled in. */
  listExplained: () => Device[];
}

const OWNER = 'devices-locks';
const signature = (device: Device) => JSON.stringify([device.locks, device.stateReason]);

/**
 * Keeps every card true without a tap: after anything a lock or a state reason depends on (a sampling
 * tick, a sensor fault, a setting, a safety event, another device's switch) and when a lock's `until`
 * passes, a device whose locks or reason changed is published as `deviceExplained` (a deviceUpdate on
 * the websocket). A device's own switch already carries them (deviceChanged).
 */
export class LockWatch {
  readonly #last = new Map<string, string>();
  #timer: TimerHandle | null = null;

  constructor(private readonly deps: LockWatchDeps) {}

  start(): void {
    const { bus } = this.deps;
    for (const device of this.deps.listExplained()) this.#last.set(device.deviceId, signature(device));
    const check = () => this.check();
    // Every subscription under OWNER: stop() removes them all at once (bus.removeAll).
    // Once a tick (a tick that stored readings publishes sampleTaken first, then samplerTicked).
    bus.on('samplerTicked', OWNER, check);
    bus.on('sensorHealthChanged', OWNER, check);
    bus.on('settingsChanged', OWNER, check);
    bus.on('safetyEvent', OWNER, check);
    bus.on('deviceChanged', OWNER, ({ device }) => {
      this.#last.set(device.deviceId, signature(device));
      this.check();
    });
    bus.on('deviceRemoved', OWNER, ({ deviceId }) => this.#last.delete(deviceId));
    this.#arm(this.deps.listExplained());
  }

  stop(): void {
    this.deps.bus.removeAll(OWNER);
    if (this.#timer) this.deps.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Publishes every device whose locks or reason changed since it was last published. */
  check(): void {
    const devices = this.deps.listExplained();
    for (const device of devices) {
      const sig = signature(device);
      if (this.#last.get(device.deviceId) === sig) continue;
      this.#last.set(device.deviceId, sig);
      this.deps.bus.emit('deviceExplained', { greenhouseId: this.deps.greenhouseId, device });
    }
    this.#arm(devices);
  }

  /** A timer at the soonest `until`, so a lock that ends by time is pushed when it ends. */
  #arm(devices: readonly Device[]): void {
    if (this.#timer) this.deps.clock.clearTimeout(this.#timer);
    this.#timer = null;
    const nowMs = this.deps.clock.now();
    const untils = devices.flatMap((d) => d.locks.flatMap((l) => (l.until ? [Date.parse(l.until)] : []))).filter((t) => t > nowMs);
    if (untils.length === 0) return;
    this.#timer = this.deps.clock.setTimeout(() => {
      this.#timer = null;
      this.check();
    }, Math.min(...untils) - nowMs + 1);
  }
}
