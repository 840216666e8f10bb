import type { IClientOptions, IPublishPacket, MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import type { Clock, TimerHandle } from '../../common/clock.ts';
import { withoutCredentials } from '../config/load.ts';
import type { MqttStatus } from '../contract/fleet.ts';
import { Outbox, type OutgoingMessage } from './outbox.ts';

/** `mqtt.connect`, passed in by the feature once it has imported the package. */
export type ConnectFn = (url: string, options: IClientOptions) => MqttClient;

export interface ConnectionOptions {
  url: string;
  username?: string;
  password?: string;
  clientId: string;
  /** The availability topic: `online` is published at connect, `offline` is the last will. */
  statusTopic: string;
  eventLimit: number;
  connect: ConnectFn;
  /**
   * Wall clock for the back-off, the shutdown bound and the status stamps. A network wait is real time
   * even when the simulator's clock runs 60 times faster (mqtt.js's keepalive and connect timeout are too).
   */
  timers: Clock;
  logger: Logger;
  /** Jitter for the back-off, so ten gateways do not reconnect in step after a broker restart. */
  random?: () => number;
}

/** Reconnect delays: 1 s doubling to 60 s, reset by a successful connection. */
export const BACKOFF_MIN_MS = 1000;
export const BACKOFF_MAX_MS = 60_000;
/** QoS 1 messages sent without their PUBACK yet: what a slow broker may hold before the outbox waits. */
const MAX_IN_FLIGHT = 64;
/** A broker that accepts TCP but never answers CONNECT counts as down after this. */
const CONNECT_TIMEOUT_MS = 10_000;
/** Shutdown waits this long for `offline` to reach the broker, never longer. */
const STOP_WAIT_MS = 2000;

/**
 * One broker connection that never makes its callers wait: `push` queues into a bounded outbox and
 * returns; messages go out with QoS 1 while connected, at most MAX_IN_FLIGHT unacknowledged. When the
 * connection drops, a fresh client is made after a back-off (never mqtt.js's replay of old packets,
 * which could put a stale retained state over a newer one); `onConnect` handlers then publish the
 * whole current state again, since a restarted broker may have lost every retained message.
 */
export class MqttConnection {
  readonly #options: ConnectionOptions;
  readonly #outbox: Outbox;
  readonly #connectHandlers: Array<() => void> = [];
  readonly #messageHandlers: Array<(topic: string, payload: string, packet: IPublishPacket) => void> = [];
  #client: MqttClient | null = null;
  /** Messages sent on the current client and not yet acknowledged: events among them are sent again after a drop. */
  readonly #inFlight = new Set<OutgoingMessage>();
  #reconnectTimer: TimerHandle | null = null;
  #pumpSoon: NodeJS.Immediate | null = null;
  #backoffMs = BACKOFF_MIN_MS;
  #stopping = false;
  #state: MqttStatus['state'] = 'connecting';
  #published = 0;
  #lastConnectedAtMs: number | null = null;
  #lastError: string | null = null;
  #nextAttemptAtMs: number | null = null;
  #reportedDown = false;

  constructor(options: ConnectionOptions) {
    this.#options = options;
    this.#outbox = new Outbox({ eventLimit: options.eventLimit });
  }

  /** The broker url without credentials, for logs and the health answer. */
  get broker(): string {
    return withoutCredentials(this.#options.url);
  }

  get connected(): boolean {
    return this.#state === 'connected';
  }

  onConnect(handler: () => void): void {
    this.#connectHandlers.push(handler);
  }

  onMessage(handler: (topic: string, payload: string, packet: IPublishPacket) => void): void {
    this.#messageHandlers.push(handler);
  }

  open(): void {
    this.#stopping = false;
    this.#dial();
  }

  /**
   * Queues a message; never waits, whatever the broker does. It is published in a later turn of the
   * event loop: a sampling tick's publications then do not lengthen the tick (docs/performance.md,
   * "A night on the gateway"), and a state pushed twice in one turn goes once (./outbox.ts).
   */
  push(topic: string, payload: string, retain: boolean): void {
    this.#outbox.push({ topic, payload, retain });
    if (this.#pumpSoon !== null) return;
    this.#pumpSoon = setImmediate(() => {
      this.#pumpSoon = null;
      this.#pump();
    });
  }

  subscribe(filters: string[]): void {
    this.#client?.subscribe(filters, { qos: 1 }, (err) => {
      if (err) this.#fail(`subscribe failed: ${err.message}`);
    });
  }

  status(): Pick<MqttStatus, 'state' | 'broker' | 'queued' | 'dropped' | 'published' | 'lastConnectedAt' | 'lastError' | 'nextAttemptAt'> {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      state: this.#state,
      broker: this.broker,
      queued: this.#outbox.size + this.#inFlight.size,
      dropped: this.#outbox.dropped,
      published: this.#published,
      lastConnectedAt: iso(this.#lastConnectedAtMs),
      lastError: this.#lastError,
      nextAttemptAt: iso(this.#nextAttemptAtMs),
    };
  }

  /**
   * Says `offline` (retained) and disconnects, waiting at most STOP_WAIT_MS for the broker: a broker
   * that is down or slow must not hold the gateway's shutdown (outputs go safe before this anyway).
   */
  async close(): Promise<void> {
    this.#stopping = true;
    if (this.#reconnectTimer) this.#options.timers.clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = null;
    this.#nextAttemptAtMs = null;
    // What was pushed before the close (the outputs' safe states at shutdown) goes out first.
    if (this.#pumpSoon !== null) {
      clearImmediate(this.#pumpSoon);
      this.#pumpSoon = null;
      this.#pump();
    }
    const client = this.#client;
    this.#client = null;
    if (!client) return;
    if (client.connected) {
      await this.#bounded(
        new Promise<void>((resolve) => client.publish(this.#options.statusTopic, 'offline', { qos: 1, retain: true }, () => resolve())),
      );
      await this.#bounded(client.endAsync(false));
    }
    await client.endAsync(true);
    this.#state = 'disconnected';
  }

  #dial(): void {
    const { url, username, password, clientId, statusTopic, connect } = this.#options;
    this.#state = 'connecting';
    this.#nextAttemptAtMs = null;
    const client = connect(url, {
      clientId,
      username,
      password,
      clean: true,
      keepalive: 30,
      connectTimeout: CONNECT_TIMEOUT_MS,
      // We reconnect ourselves, with back-off and a fresh client (see the class comment).
      reconnectPeriod: 0,
      resubscribe: false,
      // mqtt-packet's default pre-builds a Buffer for each of the 65,536 two-byte numbers at the first
      // packet: several MB of heap kept for the process's life and a start-up hold of the event loop
      // (docs/performance.md, idle RSS). Our few packets a second build their two bytes as they go.
      writeCache: false,
      will: { topic: statusTopic, payload: Buffer.from('offline'), qos: 1, retain: true },
    });
    this.#client = client;
    client.on('connect', () => {
      if (client !== this.#client) return;
      this.#state = 'connected';
      this.#backoffMs = BACKOFF_MIN_MS;
      this.#lastConnectedAtMs = this.#options.timers.now();
      this.#lastError = null;
      this.#reportedDown = false;
      this.#options.logger.info({ broker: this.broker }, 'connected to the MQTT broker');
      client.publish(statusTopic, 'online', { qos: 1, retain: true });
      for (const handler of this.#connectHandlers) handler();
      this.#pump();
    });
    client.on('message', (topic, payload, packet) => {
      if (client !== this.#client) return;
      for (const handler of this.#messageHandlers) handler(topic, payload.toString('utf8'), packet);
    });
    client.on('error', (err) => {
      if (client === this.#client) this.#fail(err.message);
    });
    client.on('close', () => {
      if (client !== this.#client || this.#stopping) return;
      this.#dropped(client);
    });
  }

  /** The connection is gone: requeue unacknowledged events, drop this client, try again after a back-off. */
  #dropped(client: MqttClient): void {
    this.#client = null;
    this.#state = 'disconnected';
    for (const message of this.#inFlight) if (!message.retain) this.#outbox.push(message);
    this.#inFlight.clear();
    client.removeAllListeners('close');
    client.on('error', () => undefined);
    void client.endAsync(true).catch(() => undefined);
    if (!this.#reportedDown) {
      this.#reportedDown = true;
      this.#options.logger.warn({ broker: this.broker, error: this.#lastError }, 'MQTT broker unreachable; retrying with back-off');
    }
    const jitter = 0.8 + 0.4 * (this.#options.random ?? Math.random)();
    const delayMs = Math.round(this.#backoffMs * jitter);
    this.#backoffMs = Math.min(BACKOFF_MAX_MS, this.#backoffMs * 2);
    this.#nextAttemptAtMs = this.#options.timers.now() + delayMs;
    this.#reconnectTimer = this.#options.timers.setTimeout(() => {
      this.#reconnectTimer = null;
      if (!this.#stopping) this.#dial();
    }, delayMs);
  }

  #pump(): void {
    const client = this.#client;
    while (client && this.#state === 'connected' && this.#inFlight.size < MAX_IN_FLIGHT) {
      const message = this.#outbox.shift();
      if (!message) return;
      this.#inFlight.add(message);
      client.publish(message.topic, message.payload, { qos: 1, retain: message.retain }, (err) => {
        if (client !== this.#client) return; // that connection is gone; its events were requeued
        this.#inFlight.delete(message);
        if (err) this.#fail(`publish to ${message.topic} failed: ${err.message}`);
        else this.#published++;
        this.#pump();
      });
    }
  }

  #fail(message: string): void {
    this.#lastError = withoutCredentials(message);
  }

  #bounded(work: Promise<unknown>): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = this.#options.timers.setTimeout(resolve, STOP_WAIT_MS);
      void work.catch(() => undefined).finally(() => {
        this.#options.timers.clearTimeout(timer);
        resolve();
      });
    });
  }
}
