import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { ConfigSchema } from '../../server/config/schema.ts';
import { fakeHardware, fakeOutputs, type FakeOutput } from '../support/fake-outputs.ts';
import { fakeSensors } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/*
 * A Pi without a real-time clock after a power cut boots on the time it last saved, up to an hour behind
 * the newest stored reading (docs/hardware.md, "Time without a clock"). Its readings are not stored until
 * the clock passes that reading, but the rules and the dashboard get them: a fan whose rule wants it on
 * is switched on, and the Now screen's first load shows the values read now. Real gateway restarted on
 * its data dir, real SQLite and HTTP, fake sensors and outputs, a manual clock per boot.
 */
const INTERVAL_S = 5;
const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;
const NOON_MS = new Date(2026, 5, 10, 12, 0).getTime();
const BEHIND_MS = 30 * 60_000;

describe('a restart on a clock behind the newest stored reading', () => {
  const sensors = fakeSensors({ climate: { temperatureC: 24, humidityPct: 70 } });
  let clock = new ManualClock(NOON_MS);
  let outputs: Map<string, FakeOutput>;
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;

  async function ticks(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      // A live sensor never repeats itself exactly (the stuck detector would say so).
      sensors.climate.value = { temperatureC: 24 + (i % 2) * 0.1, humidityPct: 70 };
      await clock.advanceAsync(INTERVAL_S * 1000, 1000);
      for (let j = 0; j < 5; j++) await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const fanOn = () => outputs.get('relay-2')!.on;

  beforeAll(async () => {
    outputs = fakeOutputs(defaultOutputs);
    gw = await startTestGateway({}, { clock, hardware: { ...fakeHardware(outputs), ...sensors.sensors } });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'grower', password: 'correct-horse-1' });
    await ticks(3);
    // Stored up to noon and a quarter of a minute; the fan's rule is set but the air is still cool.
    expect((await http.post('/api/devices/fan-1/automation', { automationRules: { temperatureHigh: 30 }, autoMode: true }, admin)).status).toBe(200);
    await ticks(1);
    expect(fanOn()).toBe(false);
    await gw.stop();
    // The power cut: the next boot's clock is half an hour behind what was stored.
    clock = new ManualClock(NOON_MS + 20_000 - BEHIND_MS);
    outputs = fakeOutputs(defaultOutputs);
    gw = await startTestGateway({ dataDir: gw.dataDir }, { clock, hardware: { ...fakeHardware(outputs), ...sensors.sensors } });
    http = httpClient(gw.url);
    admin = (await http.post('/api/auth/login', { username: 'grower', password: 'correct-horse-1' })).body.token;
  });
  afterAll(async () => {
    await gw?.dispose();
  });

  it('the rules act on what is read now: the fan goes on when the air passes its rule', async () => {
    await ticks(2);
    expect(fanOn()).toBe(false);
    // The air passes the rule (a few readings, as the rule's minimum off time allows).
    for (let i = 0; i < 4; i++) {
      sensors.climate.value = { temperatureC: 33 + i * 0.1, humidityPct: 70 };
      await clock.advanceAsync(INTERVAL_S * 1000, 1000);
    }
    expect(fanOn()).toBe(true);
    const log = (await http.get('/api/devices/fan-1/log?limit=1', admin)).body.data;
    expect(log[0]).toMatchObject({ newStatus: 'ON', source: 'rule' });
    expect(log[0].reason).toMatch(/temperatureHigh 30°C: 33/);
  });

  it('the Now screen gets the values read now, stamped now, while nothing is stored into the past', async () => {
    const latest = (await http.get('/api/sensors/latest/default', admin)).body.data as Array<{ sensorType: string; timestamp: string; temperature?: number }>;
    const air = latest.find((r) => r.sensorType === 'DHT11')!;
    expect(Date.parse(air.timestamp)).toBeLessThanOrEqual(clock.now());
    expect(clock.now() - Date.parse(air.timestamp)).toBeLessThan(INTERVAL_S * 1000);
    expect(air.temperature).toBeGreaterThanOrEqual(33);
    const stored = gw.database.sqlite.prepare(`SELECT MAX(taken_at) AS newest FROM readings WHERE sensor_type = 'DHT11'`).get() as { newest: number };
    expect(stored.newest).toBeLessThan(NOON_MS + 21_000);
    expect(stored.newest).toBeGreaterThan(clock.now());
  });
});
