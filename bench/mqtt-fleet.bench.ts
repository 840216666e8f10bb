import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { createGateway, type Gateway } from '../server/gateway.ts';
import { GATEWAY_CREDENTIALS, startMosquitto, Subscriber } from '../tests/support/mosquitto.ts';
import { percentile } from './proc-stats.ts';

/**
 * A fleet on one broker, in one run: ten real gateways (simulator, sampling every second) in this
 * process, bridged to one real Mosquitto, and a subscriber as Home Assistant would be.
 *  1. steady state: messages/s at the subscriber and the latency from a sample (its tick's timestamp)
 *     to the subscriber, against a bare mqtt.js publisher through the same broker at the same rate;
 *  2. commands: ON/OFF on /set, one at a time per gateway, timed until the state comes back;
 *  3. a stalled broker (SIGSTOP): the sampler's tick durations against those of the steady state.
 */
const GATEWAYS = 10;
const STEADY_MS = Number(process.env.BENCH_MQTT_SECONDS ?? 15) * 1000;
const STALL_MS = 8000;
const COMMANDS_PER_GATEWAY = 20;

const broker = await startMosquitto();
const dirs: string[] = [];
const gateways: Gateway[] = [];
const tickMs: { steady: number[]; stalled: number[] } = { steady: [], stalled: [] };
let phase: keyof typeof tickMs | null = null;

try {
  for (let i = 0; i < GATEWAYS; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-bench-mqtt-'));
    dirs.push(dataDir);
    const gateway = await createGateway({
      env: {},
      webRoot: null,
      overrides: { port: 0, host: '127.0.0.1', demo: false, dataDir, greenhouseId: `house-${i}`, mqtt: { url: broker.url, ...GATEWAY_CREDENTIALS } as never },
    });
    gateway.settings.updateSystem({ updateInterval: 1 });
    gateway.bus.on('samplerTicked', 'bench', ({ durationMs }) => phase && tickMs[phase].push(durationMs));
    await gateway.start();
    gateways.push(gateway);
  }
  const sub = await Subscriber.connect(broker.url, ['greenhouse/#']);
  await Promise.all(gateways.map((_, i) => sub.next((m) => m.topic === `greenhouse/house-${i}/status` && m.payload === 'online', 30_000)));

  // 1. Steady state.
  phase = 'steady';
  const startIndex = sub.messages.length;
  const startedAt = Date.now();
  await new Promise((resolve) => setTimeout(resolve, STEADY_MS));
  const received = sub.messages.slice(startIndex);
  const seconds = (Date.now() - startedAt) / 1000;
  const sampleLatencies = received
    .filter((m) => m.topic.endsWith('/sensors/state'))
    .map((m) => m.receivedAtMs - Date.parse((JSON.parse(m.payload) as { timestamp: string }).timestamp));
  phase = null;
  const rate = received.length / seconds;
  const baseline = await bareHop(broker.url, Math.max(1, Math.round(sampleLatencies.length / seconds)), Math.min(STEADY_MS, 8000));

  // 2. Commands, through the broker and the control path, until the state is published.
  const commandMs: number[] = [];
  const commandsStartedAt = Date.now();
  await Promise.all(
    gateways.map(async (_, i) => {
      const root = `greenhouse/house-${i}`;
      for (let n = 0; n < COMMANDS_PER_GATEWAY; n++) {
        const want = n % 2 === 0 ? 'ON' : 'OFF';
        const sentAt = Date.now();
        const state = sub.nextNew((m) => m.topic === `${root}/devices/fan-1/state` && m.payload === want, 15_000, `${root} fan ${want}`);
        await sub.publish(`${root}/devices/fan-1/set`, want);
        await state;
        commandMs.push(Date.now() - sentAt);
      }
    }),
  );
  const commandRate = commandMs.length / ((Date.now() - commandsStartedAt) / 1000);

  // 3. A broker that stops answering: sampling must not notice.
  const pid = broker.pid()!;
  phase = 'stalled';
  process.kill(pid, 'SIGSTOP');
  await new Promise((resolve) => setTimeout(resolve, STALL_MS));
  phase = null;
  const stalledStatus = await Promise.all(
    gateways.map(async (g) => ((await (await fetch(`${g.url}/api/health`)).json()) as { data: { mqtt: { queued: number; state: string } } }).data.mqtt),
  );
  const queuedWhileStalled = stalledStatus.reduce((sum, s) => sum + s.queued, 0);
  process.kill(pid, 'SIGCONT');
  await sub.close();

  const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
  const p99Sample = percentile(sampleLatencies, 99);
  const p99Base = percentile(baseline, 99);
  const tickSteady = percentile(tickMs.steady, 99);
  const tickStalled = percentile(tickMs.stalled, 99);
  console.log(`${GATEWAYS} gateways on one Mosquitto, each sampling every 1 s; ${fmt(seconds)} s steady`);
  console.log(`  messages/s at the subscriber      ${fmt(rate)}   (sensors/state: ${fmt(sampleLatencies.length / seconds)}/s)`);
  console.log(`  sample -> subscriber p50 / p99 ms  ${fmt(percentile(sampleLatencies, 50))} / ${fmt(p99Sample)}`);
  console.log(`  bare publish -> subscriber p99 ms  ${fmt(p99Base)}   (same broker, same rate)`);
  console.log(`  ratio gateway / bare hop p99       ${ratio(p99Sample, p99Base)}`);
  console.log(`  command -> state p50 / p99 ms      ${fmt(percentile(commandMs, 50))} / ${fmt(percentile(commandMs, 99))}   (${fmt(commandRate)} commands/s)`);
  console.log(`  sampler tick p99 ms, broker up     ${fmt(tickSteady)}   (${tickMs.steady.length} ticks)`);
  console.log(`  sampler tick p99 ms, broker stalled ${fmt(tickStalled)}   (${tickMs.stalled.length} ticks, ${STALL_MS / 1000} s SIGSTOP)`);
  console.log(`  ratio stalled / up                 ${ratio(tickStalled, tickSteady)}`);
  console.log(`  waiting for the broker at the end   ${queuedWhileStalled} messages in all (bounded per gateway)`);
} finally {
  for (const gateway of gateways) await gateway.stop().catch(() => undefined);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await broker.dispose();
}

/** The broker's own cost: a bare client publishing timestamped QoS 1 messages at `perSecond`, received by another. */
async function bareHop(url: string, perSecond: number, durationMs: number): Promise<number[]> {
  const publisher = await mqtt.connectAsync(url);
  const receiver = await Subscriber.connect(url, ['bench/bare']);
  const latencies: number[] = [];
  receiver.client.on('message', (_topic, payload) => latencies.push(Date.now() - Number(payload.toString())));
  const until = Date.now() + durationMs;
  while (Date.now() < until) {
    await publisher.publishAsync('bench/bare', String(Date.now()), { qos: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1000 / perSecond));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  await publisher.endAsync();
  await receiver.close();
  return latencies;
}
