import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { freePort } from './server-process.ts';

export const MOSQUITTO = '/usr/sbin/mosquitto';
const MOSQUITTO_PASSWD = '/usr/bin/mosquitto_passwd';

/**
 * Broker credentials for a gateway that must obey commands: the gateway listens to `/set` only when
 * credentials are configured. The anonymous test broker (no password file) does not check them.
 */
export const GATEWAY_CREDENTIALS = { username: 'greenhouse-gateway', password: 'gateway-broker-password-1' } as const;

export interface Broker {
  port: number;
  url: string;
  /** Kills the broker (SIGKILL: retained messages are lost, as after a crash without persistence). */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  dispose(): Promise<void>;
  output(): string;
  /** The running broker's pid (SIGSTOP makes it a broker that stops answering). */
  pid(): number | undefined;
}

/**
 * A real Mosquitto (Debian's package, installed by .ci/run) on a free loopback port, without
 * persistence, with a config file in a temp dir: anonymous, or with these users and an ACL.
 */
export async function startMosquitto(options: { users?: Record<string, string>; acl?: string } = {}): Promise<Broker> {
  const dir = mkdtempSync(join(tmpdir(), 'greenhouse-mosquitto-'));
  const port = await freePort();
  const configFile = join(dir, 'mosquitto.conf');
  const lines = [`listener ${port} 127.0.0.1`, 'persistence false'];
  // Started as root (CI), Mosquitto drops to the `mosquitto` user and could no longer read the password
  // and ACL files in this private temp dir: keep the user that started it.
  if (process.getuid?.() === 0) lines.push('user root');
  if (options.users) {
    const passwordFile = join(dir, 'passwd');
    writeFileSync(passwordFile, '', { mode: 0o600 });
    for (const [user, password] of Object.entries(options.users)) {
      execFileSync(MOSQUITTO_PASSWD, ['-b', passwordFile, user, password]);
    }
    lines.push('allow_anonymous false', `password_file ${passwordFile}`);
  } else {
    lines.push('allow_anonymous true');
  }
  if (options.acl !== undefined) {
    const aclFile = join(dir, 'acl');
    writeFileSync(aclFile, options.acl, { mode: 0o600 });
    lines.push(`acl_file ${aclFile}`);
  }
  writeFileSync(configFile, [...lines, ''].join('\n'));
  let child: ChildProcess | null = null;
  let output = '';

  async function start(): Promise<void> {
    const proc = spawn(MOSQUITTO, ['-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    proc.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    proc.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new Error(`mosquitto exited (${proc.exitCode}):\n${output}`);
      if (await accepts(port)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`mosquitto did not listen on ${port}:\n${output}`);
  }

  async function kill(): Promise<void> {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    const gone = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGKILL');
    await gone;
  }

  await start();
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    kill,
    start,
    output: () => output,
    pid: () => child?.pid,
    async dispose() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface ReceivedMessage {
  topic: string;
  payload: string;
  retain: boolean;
  receivedAtMs: number;
}

/**
 * A subscriber as Home Assistant or Node-RED would be: records every message and lets a test wait for
 * one that matches (no fixed sleeps).
 */
export class Subscriber {
  readonly messages: ReceivedMessage[] = [];
  readonly #waiters: Array<{ match: (m: ReceivedMessage) => boolean; resolve: (m: ReceivedMessage) => void }> = [];

  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload, packet) => {
      const message = { topic, payload: payload.toString('utf8'), retain: packet.retain, receivedAtMs: Date.now() };
      this.messages.push(message);
      for (const waiter of [...this.#waiters]) {
        if (waiter.match(message)) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    });
  }

  static async connect(url: string, filters: string[], credentials: { username?: string; password?: string } = {}): Promise<Subscriber> {
    // MQTT 5 with retain-as-published: a live message keeps its retain flag, so a test can check it.
    const client = await mqtt.connectAsync(url, { reconnectPeriod: 200, clean: true, protocolVersion: 5, ...credentials });
    const subscriber = new Subscriber(client);
    if (filters.length > 0) await client.subscribeAsync(filters, { qos: 1, rap: true });
    return subscriber;
  }

  /** The first message already received or still to come that matches; fails after `timeoutMs`. */
  next(match: (m: ReceivedMessage) => boolean, timeoutMs = 15_000, what = 'a matching message'): Promise<ReceivedMessage> {
    const seen = this.messages.find(match);
    if (seen) return Promise.resolve(seen);
    return this.nextNew(match, timeoutMs, what);
  }

  /** The next matching message that arrives from now on. */
  nextNew(match: (m: ReceivedMessage) => boolean, timeoutMs = 15_000, what = 'a matching message'): Promise<ReceivedMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        const topics = [...new Set(this.messages.map((m) => m.topic))].join('\n  ');
        reject(new Error(`timed out waiting for ${what}; topics seen:\n  ${topics}`));
      }, timeoutMs);
      const waiter = {
        match,
        resolve: (m: ReceivedMessage) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      this.#waiters.push(waiter);
    });
  }

  /** The newest payload received on a topic, or undefined. */
  latest(topic: string): string | undefined {
    return this.messages.findLast((m) => m.topic === topic)?.payload;
  }

  publish(topic: string, payload: string, options: { retain?: boolean } = {}): Promise<unknown> {
    return this.client.publishAsync(topic, payload, { qos: 1, retain: options.retain ?? false });
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }
}
