import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/**
 * The simulator's injected faults, end to end through the real gateway (sampler, alerts, safety) over
 * HTTP: each produces the alert and the safe behaviour of docs/decisions.md, and the gateway keeps serving.
 * Time is a ManualClock, so many sampling intervals pass without sleeping.
 */
const INTERVAL_S = 5;

interface Setup {
  gw: TestGateway;
  http: HttpClient;
  token: string;
  clock: ManualClock;
}

async function setup(): Promise<Setup> {
  const clock = new ManualClock();
  const gw = await startTestGateway({ simulator: { seed: 11, timeScale: 1 } }, { clock });
  const http = httpClient(gw.url);
  const token = await registerUser(http, { username: 'fault-admin' });
  await http.put('/api/settings/default/system', { systemSettings: { updateInterval: INTERVAL_S } }, token);
  return { gw, http, token, clock };
}

async function activeAlertTypes(s: Setup): Promise<string[]> {
  const res = await s.http.get('/api/alerts/active/default', s.token);
  expect(res.status).toBe(200);
  return res.body.data.map((alert: { alertType: string }) => alert.alertType);
}

async function stillServing(s: Setup): Promise<void> {
  expect((await s.http.get('/api/health')).status).toBe(200);
  expect((await s.http.get('/api/devices/default', s.token)).status).toBe(200);
}

describe('injected simulator faults', () => {
  let s: Setup | null = null;
  afterEach(async () => {
    await s?.gw.dispose();
    s = null;
  });

  it('a silent sensor raises one SENSOR_FAULT alert, which clears when it answers again', async () => {
    s = await setup();
    await s.clock.advanceAsync(3 * INTERVAL_S * 1000);
    s.gw.hardware.simulator!.injectFault('climate', { kind: 'silent' });
    await s.clock.advanceAsync(12 * INTERVAL_S * 1000);
    const types = await activeAlertTypes(s);
    expect(types.filter((type) => type === 'SENSOR_FAULT')).toHaveLength(1);
    await stillServing(s);

    s.gw.hardware.simulator!.injectFault('climate', null);
    await s.clock.advanceAsync(6 * INTERVAL_S * 1000);
    expect(await activeAlertTypes(s)).not.toContain('SENSOR_FAULT');
  });

  it('a stuck value raises SENSOR_STUCK and the gateway keeps serving', async () => {
    s = await setup();
    await s.clock.advanceAsync(3 * INTERVAL_S * 1000);
    s.gw.hardware.simulator!.injectFault('soil', { kind: 'stuck', value: 42 });
    // Past the sampler's soil policy (more than 30 readings and more than 10 minutes unchanged).
    await s.clock.advanceAsync(200 * INTERVAL_S * 1000, 1000);
    expect(await activeAlertTypes(s)).toContain('SENSOR_STUCK');
    await stillServing(s);
  });

  it('an empty tank raises WATER_LEVEL_LOW, locks the pump out and switches a running pump off', async () => {
    s = await setup();
    await s.clock.advanceAsync(3 * INTERVAL_S * 1000);
    const start = await s.http.post('/api/devices/pump-1/control', { action: 'on' }, s.token);
    expect(start.status, JSON.stringify(start.body)).toBe(200);

    s.gw.hardware.simulator!.setTankLevelCm(0);
    await s.clock.advanceAsync(3 * INTERVAL_S * 1000);

    const types = await activeAlertTypes(s);
    expect(types).toContain('WATER_LEVEL_LOW');
    const pump = (await s.http.get('/api/devices/default', s.token)).body.data.find((d: { deviceId: string }) => d.deviceId === 'pump-1');
    expect(pump.status).toBe('OFF');
    expect(s.gw.hardware.simulator!.isOutputOn('relay-1')).toBe(false);

    const refused = await s.http.post('/api/devices/pump-1/control', { action: 'on' }, s.token);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/tank/i);
    expect(s.gw.hardware.simulator!.isOutputOn('relay-1')).toBe(false);
    await stillServing(s);
  });
});
