import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { ConfigSchema } from '../../server/config/schema.ts';
import { fakeHardware, fakeOutputs, type FakeOutput } from '../support/fake-outputs.ts';
import { fakeSensors } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/*
 * A program of one period (06:00, 15/25 °C) asked at 00:05, before that period's start today: its
 * targets hold all day (docs/climate.md), so /now, /curve and the heater following it all work.
 * Real gateway, real SQLite and HTTP, fake sensors and outputs, a ManualClock.
 */
const INTERVAL_S = 30;
const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;
const local = (h: number, m = 0) => new Date(2026, 5, 10, h, m).getTime();
const ONE_PERIOD = { periods: [{ start: '06:00', heatBelowC: 15, ventAboveC: 25, rampMinutes: 0 }] };

describe('a one-period climate program after midnight', () => {
  const clock = new ManualClock(local(0, 5));
  const sensors = fakeSensors({ climate: { temperatureC: 10, humidityPct: 70 } });
  const outputs: Map<string, FakeOutput> = fakeOutputs(defaultOutputs);
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;

  beforeAll(async () => {
    gw = await startTestGateway({}, { clock, hardware: { ...fakeHardware(outputs), ...sensors.sensors } });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'grower', email: 'grower@farm.test' });
    await http.put('/api/settings/default/system', { systemSettings: { updateInterval: INTERVAL_S } }, admin);
    expect((await http.put('/api/climate/default', ONE_PERIOD, admin)).status).toBe(200);
  });
  afterAll(async () => {
    await gw?.dispose();
  });

  it('answers /now at 00:05 with the one period\'s targets and no change ahead', async () => {
    const res = await http.get('/api/climate/default/now', admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ period: 0, heatBelowC: 15, ventAboveC: 25, ramping: false, nextChangeAt: null, text: expect.stringMatching(/period 1 \(06:00\)/) });
  });

  it('draws the curve from now and from local midnight: flat at 15/25', async () => {
    for (const query of ['hours=24', `hours=24&from=${new Date(local(0)).toISOString()}`]) {
      const res = await http.get(`/api/climate/default/curve?${query}`, admin);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(289);
      for (const point of res.body.data) expect(point).toMatchObject({ heatBelowC: 15, ventAboveC: 25 });
    }
  });

  it('the heater following it heats the 10 °C air at once', async () => {
    expect((await http.post('/api/devices/heater-1/automation', { automationRules: { follow: 'heat' }, autoMode: true }, admin)).status).toBe(200);
    for (let i = 0; i < 4; i++) {
      sensors.climate.value = { temperatureC: 10 + (i % 2) * 0.01, humidityPct: 70 };
      await clock.advanceAsync(INTERVAL_S * 1000, 1000);
      for (let j = 0; j < 5; j++) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(outputs.get('relay-4')!.on).toBe(true);
    const log = (await http.get('/api/devices/heater-1/log?limit=1&source=rule', admin)).body.data;
    expect(log[0]).toMatchObject({ actor: 'climate', newStatus: 'ON', reason: expect.stringMatching(/heat below 15 °C/) });
  });
});
