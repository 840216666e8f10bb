import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { DEFAULT_CLOCK_POLL_MS } from '../../server/time/clock-sync.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/*
 * A Pi after a power cut, its clock not synchronised: the program cannot know the time of day, says
 * so, and holds its safe targets (the day's lowest heat and vent targets) until timesyncd's marker appears.
 */
describe('a climate program before the clock is synchronised', () => {
  const clock = new ManualClock(new Date(2026, 5, 10, 12, 0).getTime());
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'climate-clock-'));
    gw = await startTestGateway({ simulator: { seed: 5, timeScale: 1 }, clockSync: { mode: 'check', markerPath: join(dir, 'synchronized') } }, { clock });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'grower', email: 'grower@farm.test' });
    const program = {
      periods: [
        { start: '06:00', heatBelowC: 20, ventAboveC: 25, rampMinutes: 30 },
        { start: '20:00', heatBelowC: 14, ventAboveC: 22, rampMinutes: 30 },
      ],
    };
    expect((await http.put('/api/climate/default', program, admin)).status).toBe(200);
  });
  afterAll(async () => {
    await gw?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says so and holds the safe targets, then follows the day once the time is set', async () => {
    expect((await http.get('/api/climate/default/now', admin)).body.data).toMatchObject({
      clockSynchronised: false,
      period: null,
      heatBelowC: 14,
      ventAboveC: 22,
      text: expect.stringMatching(/^clock not synchronised: safe targets/),
    });
    writeFileSync(join(dir, 'synchronized'), '');
    await clock.advanceAsync(DEFAULT_CLOCK_POLL_MS, 1000);
    expect((await http.get('/api/climate/default/now', admin)).body.data).toMatchObject({ clockSynchronised: true, period: 0, heatBelowC: 20, ventAboveC: 25 });
  });
});
