// A burst from a real Mosquitto through a real mqtt.js client made by withSlicedInput (as the gateway's
// MQTT feature makes it): every message arrives, and at most a slice's worth of them is handled per
// turn of the event loop, so sampling, rules and safety timers get turns during the burst.
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SLICE_BYTES, withSlicedInput } from '../../server/mqtt/sliced-input.ts';
import { startMosquitto, type Broker } from '../support/mosquitto.ts';

const BIRTHS = 3000;
const TOPIC = 'homeassistant/status';
/** A QoS 0 PUBLISH of `online` on TOPIC: fixed header 2, topic length 2 + 20, payload 6. */
const PACKET_BYTES = 2 + 2 + TOPIC.length + 'online'.length;

let broker: Broker;
const clients: MqttClient[] = [];

beforeAll(async () => {
  broker = await startMosquitto();
}, 30_000);
afterAll(async () => {
  for (const client of clients) await client.endAsync(true);
  await broker?.dispose();
});

function connected(client: MqttClient): Promise<MqttClient> {
  clients.push(client);
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve(client));
    client.once('error', reject);
  });
}

describe('the broker input in slices', () => {
  it('handles a burst of 3,000 births a slice per turn of the event loop, and loses none', async () => {
    const sliced = withSlicedInput(mqtt.connect);
    const listener = await connected(sliced(broker.url, { clientId: 'sliced-listener', reconnectPeriod: 0 }));
    await listener.subscribeAsync(TOPIC, { qos: 0 });

    // A turn counter: one increment per turn of the event loop while the burst is handled.
    let turn = 0;
    let counting = true;
    const tick = () => {
      turn++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);

    const perTurn = new Map<number, number>();
    let received = 0;
    const all = new Promise<void>((resolve) => {
      listener.on('message', () => {
        perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
        if (++received === BIRTHS) resolve();
      });
    });
    const publisher = await connected(mqtt.connect(broker.url, { clientId: 'burst-publisher', reconnectPeriod: 0 }));
    for (let i = 0; i < BIRTHS; i++) publisher.publish(TOPIC, 'online', { qos: 0 });
    await all;
    counting = false;

    expect(received).toBe(BIRTHS);
    // One 64 KiB socket read held over 2,000 of these before: now a slice's worth at most.
    const mostInOneTurn = Math.max(...perTurn.values());
    expect(mostInOneTurn).toBeLessThanOrEqual(Math.ceil(DEFAULT_SLICE_BYTES / PACKET_BYTES));
    expect(perTurn.size).toBeGreaterThanOrEqual(Math.ceil(BIRTHS / Math.ceil(DEFAULT_SLICE_BYTES / PACKET_BYTES)));
  }, 60_000);

  it('still publishes, subscribes and answers as a plain client does', async () => {
    const sliced = withSlicedInput(mqtt.connect);
    const client = await connected(sliced(broker.url, { clientId: 'sliced-echo', reconnectPeriod: 0 }));
    await client.subscribeAsync('echo/#', { qos: 1 });
    const got = new Promise<string>((resolve) => client.on('message', (_topic, payload) => resolve(payload.toString())));
    await client.publishAsync('echo/one', 'x'.repeat(20_000), { qos: 1 });
    expect(await got).toBe('x'.repeat(20_000));
  }, 30_000);
});
