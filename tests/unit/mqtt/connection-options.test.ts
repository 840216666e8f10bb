// What the gateway asks of mqtt.js when it dials the broker (server/mqtt/connection.ts).
import { EventEmitter } from 'node:events';
import type { IClientOptions, MqttClient } from 'mqtt';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { SystemClock } from '../../../common/clock.ts';
import { MqttConnection } from '../../../server/mqtt/connection.ts';

/** A connection over a stand-in client that records what it publishes, already connected. */
function connectedWithRecordingClient() {
  const published: Array<{ topic: string; payload: string }> = [];
  const client = Object.assign(new EventEmitter(), {
    connected: true,
    endAsync: async () => {},
    publish: (topic: string, payload: string, _options: unknown, done?: (err?: Error) => void) => {
      published.push({ topic, payload });
      done?.();
    },
  });
  const connection = new MqttConnection({
    url: 'mqtt://127.0.0.1:1',
    clientId: 'greenhouse-test-0001',
    statusTopic: 'greenhouse/test/status',
    eventLimit: 10,
    connect: () => client as unknown as MqttClient,
    timers: new SystemClock(),
    logger: pino({ level: 'silent' }),
  });
  connection.open();
  client.emit('connect');
  published.length = 0;
  return { connection, published };
}

describe('dialling the broker', () => {
  it("reconnects itself, leaves a retained 'offline' will, and keeps no pre-built number buffers", () => {
    const dialled: IClientOptions[] = [];
    const connection = new MqttConnection({
      url: 'mqtt://127.0.0.1:1',
      clientId: 'greenhouse-test-0001',
      statusTopic: 'greenhouse/test/status',
      eventLimit: 10,
      connect: (_url, options) => {
        dialled.push(options);
        return Object.assign(new EventEmitter(), { endAsync: async () => {}, publish: () => {} }) as unknown as MqttClient;
      },
      timers: new SystemClock(),
      logger: pino({ level: 'silent' }),
    });
    connection.open();
    expect(dialled).toHaveLength(1);
    expect(dialled[0]).toMatchObject({ reconnectPeriod: 0, clean: true, will: { topic: 'greenhouse/test/status', retain: true } });
    // mqtt-packet's cache is 65,536 Buffers kept for the process's life (docs/performance.md, idle RSS).
    expect(dialled[0]!.writeCache).toBe(false);
    void connection.close();
  });

  it('publishes in a later turn than the push, a retained state pushed twice in that turn once', async () => {
    const { connection, published } = connectedWithRecordingClient();

    connection.push('greenhouse/test/sensors/state', '{"temperature":20}', true);
    connection.push('greenhouse/test/alerts', '{"event":"newAlert"}', false);
    connection.push('greenhouse/test/sensors/state', '{"temperature":21}', true);
    expect(published).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(published).toEqual([
      { topic: 'greenhouse/test/alerts', payload: '{"event":"newAlert"}' },
      { topic: 'greenhouse/test/sensors/state', payload: '{"temperature":21}' },
    ]);
    void connection.close();
  });

  it('publishes what was pushed before it closes: the last states at shutdown are not left behind', async () => {
    const { connection, published } = connectedWithRecordingClient();

    // Outputs go safe at shutdown, then the connection closes in the same turn.
    connection.push('greenhouse/test/devices/heater-1/state', 'OFF', true);
    await connection.close();
    expect(published.map((p) => p.topic)).toEqual(['greenhouse/test/devices/heater-1/state', 'greenhouse/test/status']);
  });
});
