import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/*
 * The real gateway in Amsterdam on spring-forward night (2026-03-29, 02:00 CET -> 03:00 CEST at 01:00Z):
 * a light scheduled 02:30-03:15 runs from the jump (03:00 CEST) to 03:15 and says why. Before the fix
 * 02:30 was read as 03:30, after 03:15, so the window crossed midnight: the light was on before 02:00,
 * and all day (docs/decisions.md, "Clock changes").
 */
let gw: TestGateway;
let http: HttpClient;
let admin: string;
let clock: ManualClock;
let previousTz: string | undefined;

async function advanceTo(iso: string): Promise<void> {
  await clock.advanceAsync(Date.parse(iso) - clock.now(), 1000);
  for (let j = 0; j < 5; j++) await new Promise((resolve) => setImmediate(resolve));
}

const device = async (deviceId: string) => (await http.get('/api/devices/default', admin)).body.data.find((d: { deviceId: string }) => d.deviceId === deviceId);

beforeAll(async () => {
  previousTz = process.env.TZ;
  process.env.TZ = 'Europe/Amsterdam';
  clock = new ManualClock(Date.parse('2026-03-29T00:40:00Z')); // 01:40 CET
  gw = await startTestGateway({ simulator: { seed: 5, timeScale: 1 } }, { clock });
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'night-grower' });
});

afterAll(async () => {
  await gw?.dispose();
  if (previousTz === undefined) delete process.env.TZ;
  else process.env.TZ = previousTz;
});

describe('a schedule in the skipped hour, over the real gateway', () => {
  it('is off before the jump, on from it to 03:15 saying "clock change", then off', async () => {
    const res = await http.post('/api/devices/light-1/automation', { autoMode: true, automationRules: { schedule: { from: '02:30', to: '03:15' } } }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await advanceTo('2026-03-29T00:55:00Z'); // 01:55 CET
    expect((await device('light-1')).status).toBe('OFF');
    await advanceTo('2026-03-29T01:05:00Z'); // 03:05 CEST
    const on = await device('light-1');
    expect(on.status).toBe('ON');
    expect(on.stateReason.text).toContain('schedule 02:30 (03:00, clock change)-03:15');
    await advanceTo('2026-03-29T01:20:00Z'); // 03:20 CEST
    expect((await device('light-1')).status).toBe('OFF');
  });
});
