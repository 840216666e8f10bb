import { rmSync } from 'node:fs';
import { ManualClock } from '../../common/clock.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';

describe('GET /api/health', () => {
  let gw: TestGateway;
  let token: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    token = await registerUser(httpClient(gw.url), { username: 'owner' });
  });
  afterAll(() => gw.dispose());

  it('answers a stranger ok or degraded and whether the database works, nothing more', async () => {
    const res = await httpClient(gw.url).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: expect.stringMatching(/^(ok|degraded)$/), database: { ok: true } });
    // scripts/install-pi.sh's health check after an upgrade greps the raw answer for exactly this.
    const raw = await (await fetch(`${gw.url}/api/health`)).text();
    expect(raw).toContain('"database":{"ok":true');
  });

  it('answers a signed-in account: database, sensors, drivers, version and mode', async () => {
    const res = await httpClient(gw.url).get('/api/health', token);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const health = res.body.data;
    expect(health.status).toMatch(/^(ok|degraded)$/);
    expect(health.database).toEqual({ ok: true });
    expect(Object.keys(health.sensors).sort()).toEqual(['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL']);
    expect(health.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(health.hardwareMode).toBe('simulator');
    expect(Array.isArray(health.drivers)).toBe(true);
    expect(typeof health.uptimeSeconds).toBe('number');
    expect(health.cpuTemperatureC === null || typeof health.cpuTemperatureC === 'number').toBe(true);
  });

  it('reports the age of every sensor\'s last sample once the sampler has ticked', async () => {
    const ticked = new Promise<void>((resolve) => {
      const off = gw.bus.on('samplerTicked', 'health-test', () => {
        off();
        resolve();
      });
    });
    if (gw.sampler.lastSampleAt('DHT11') === null) await ticked;
    const res = await httpClient(gw.url).get('/api/health', token);
    for (const sensorType of ['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL']) {
      expect(res.body.data.sensors[sensorType], sensorType).toBeGreaterThanOrEqual(0);
    }
  });

  it('reports a closed database as not ok instead of failing', async () => {
    // A manual clock: no sampling tick runs into the closed database while the test looks.
    const other = await startTestGateway({}, { clock: new ManualClock() });
    try {
      const otherHttp = httpClient(other.url);
      const owner = await registerUser(otherHttp, { username: 'owner' });
      other.database.sqlite.close();
      // With the database gone the caller cannot be recognised: the stranger's answer, degraded, database not ok.
      const res = await otherHttp.get('/api/health', owner);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ status: 'degraded', database: { ok: false } });
    } finally {
      // gateway.stop() would write the devices' final state to the closed database: close the rest by hand.
      other.hub.stop();
      await other.app.close();
      await other.hardware.close();
      rmSync(other.dataDir, { recursive: true, force: true });
    }
  });
});
