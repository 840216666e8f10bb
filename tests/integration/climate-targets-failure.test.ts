import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { ConfigSchema } from '../../server/config/schema.ts';
import { fakeHardware, fakeOutputs, type FakeOutput } from '../support/fake-outputs.ts';
import { fakeSensors } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/*
 * A program stored by an older gateway or edited by hand whose targets cannot be computed: the rule
 * runner still runs every other device's rules and fail-safes, and says what broke once, not at every
 * tick. Real gateway restarted on its data dir, real SQLite and HTTP, fake sensors and outputs.
 */
const INTERVAL_S = 30;
const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;
const local = (h: number, m = 0) => new Date(2026, 5, 10, h, m).getTime();
const period = { start: '06:00', heatBelowC: 15, ventAboveC: 25, rampMinutes: 0 };

describe('a stored climate program whose targets cannot be computed', () => {
  const clock = new ManualClock(local(3));
  const sensors = fakeSensors({ climate: { temperatureC: 10, humidityPct: 70 } });
  let outputs: Map<string, FakeOutput>;
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  let logged: Array<{ level: number; msg: string }> = [];

  /** Stores `program` as a row the API would never write and starts the gateway again on it. */
  async function restartWith(program: unknown): Promise<void> {
    gw.database.sqlite.prepare('UPDATE climate_programs SET program = ?').run(JSON.stringify(program));
    await gw.stop();
    logged = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logged.push(...chunk.toString().split('\n').filter(Boolean).map((line: string) => JSON.parse(line)));
        done();
      },
    });
    outputs = fakeOutputs(defaultOutputs);
    gw = await startTestGateway({ dataDir: gw.dataDir }, { clock, logger: pino({ level: 'info' }, stream), hardware: { ...fakeHardware(outputs), ...sensors.sensors } });
    http = httpClient(gw.url);
    admin = (await http.post('/api/auth/login', { username: 'grower', password: 'correct-horse-1' })).body.token;
  }
  async function ticks(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      // A live sensor never repeats itself exactly (the stuck detector would say so).
      sensors.climate.value = { temperatureC: 10 + (i % 2) * 0.01, humidityPct: 70 };
      await clock.advanceAsync(INTERVAL_S * 1000, 1000);
      for (let j = 0; j < 5; j++) await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const errors = (msg: RegExp) => logged.filter((line) => line.level >= 50 && msg.test(line.msg));

  beforeAll(async () => {
    outputs = fakeOutputs(defaultOutputs);
    gw = await startTestGateway({}, { clock, hardware: { ...fakeHardware(outputs), ...sensors.sensors } });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'grower', email: 'grower@farm.test' });
    await http.put('/api/settings/default/system', { systemSettings: { updateInterval: INTERVAL_S } }, admin);
    expect((await http.put('/api/climate/default', { periods: [period] }, admin)).status).toBe(200);
    // The heater follows the program; the fan has a threshold rule of the spec's (on above 60 % humidity).
    expect((await http.post('/api/devices/heater-1/automation', { automationRules: { follow: 'heat' }, autoMode: true }, admin)).status).toBe(200);
    expect((await http.post('/api/devices/fan-1/automation', { automationRules: { humidityHigh: 60 }, autoMode: true }, admin)).status).toBe(200);
  });
  afterAll(async () => {
    await gw?.dispose();
  });

  it('a stage whose earlier days have no periods: the safe targets hold, the heater follows them, logged once', async () => {
    // Day 10 of the crop is in 'vegetative'; the days before are 'seedling', stored without periods.
    await restartWith({
      periods: [period],
      crop: { name: 'Tomatoes', startDate: '2026-06-01' },
      stages: [{ name: 'seedling', fromDay: 1 }, { name: 'vegetative', fromDay: 10, periods: [{ ...period, heatBelowC: 18, ventAboveC: 24 }] }],
    });
    await ticks(4);
    const now = await http.get('/api/climate/default/now', admin);
    expect(now.status).toBe(200);
    expect(now.body.data).toMatchObject({ period: null, heatBelowC: 18, ventAboveC: 24, text: expect.stringMatching(/targets could not be computed: safe targets/) });
    expect(outputs.get('relay-4')!.on).toBe(true);
    expect(outputs.get('relay-2')!.on).toBe(true);
    expect(errors(/climate targets could not be computed/)).toHaveLength(1);
    expect(errors(/automation tick failed/)).toEqual([]);
  });

  it('a program without periods: the threshold-rule fan still switches, the following heater takes its safe state', async () => {
    await restartWith({ periods: [] });
    await ticks(4);
    expect(outputs.get('relay-2')!.on).toBe(true);
    expect(outputs.get('relay-4')!.on).toBe(false);
    const fanLog = (await http.get('/api/devices/fan-1/log?limit=1', admin)).body.data;
    expect(fanLog[0]).toMatchObject({ newStatus: 'ON', source: 'rule' });
    const heater = (await http.get('/api/devices/default', admin)).body.data.find((d: { deviceId: string }) => d.deviceId === 'heater-1');
    expect(heater.status).toBe('OFF');
    // Its sensor-loss fail-safe, with the alert that says why (docs/climate.md).
    expect(heater.stateReason).toMatchObject({ source: 'safety', text: expect.stringMatching(/climate targets unavailable/) });
    const alerts = (await http.get('/api/alerts/default', admin)).body.data;
    expect(alerts).toContainEqual(expect.objectContaining({ alertType: 'SENSOR_LOSS', deviceId: 'heater-1', message: expect.stringMatching(/climate targets unavailable/) }));
    expect(errors(/climate targets unavailable/)).toHaveLength(1);
    expect(errors(/automation tick failed|could not evaluate/)).toEqual([]);
  });
});
