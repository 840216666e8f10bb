// The rule preview of an irrigation program over a recorded week (real gateway, real SQLite, the replay
// on its worker thread): pulses of exactly the pulse length, the day budget, the tank interlock, cycles
// that would have had no effect, and litres from the pump's flow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { seedReadings, type SeedReading } from '../support/seed-readings.ts';

const NOW = Date.UTC(2026, 5, 8, 12, 0, 0);
const DAY_MS = 86_400_000;
/** The tank is low for this day of the week (its readings below tankLowLevelCm 10). */
const LOW_TANK = { fromMs: NOW - 4 * DAY_MS, toMs: NOW - 3 * DAY_MS };
const PROGRAM = { startBelowPct: 30, targetPct: 40, pulseSeconds: 20, soakMinutes: 10, maxPulses: 3, maxRunSecondsPerDay: 120 };

let gw: TestGateway;
let http: HttpClient;
let admin: string;

/** A week at one reading a minute: the soil dries from 40 % at midnight to 24 % the next, the tank stays full but one day. */
function* week(): Generator<SeedReading> {
  for (let ms = NOW - 7 * DAY_MS; ms < NOW; ms += 60_000) {
    const d = new Date(ms);
    const dayFraction = (d.getHours() * 60 + d.getMinutes()) / 1440;
    yield { takenAtMs: ms, sensorType: 'SOIL_MOISTURE', soilMoisturePct: 40 - 16 * dayFraction };
    yield { takenAtMs: ms + 10, sensorType: 'WATER_LEVEL', waterLevelCm: ms >= LOW_TANK.fromMs && ms < LOW_TANK.toMs ? 5 : 50 };
  }
}

beforeAll(async () => {
  gw = await startTestGateway({}, { clock: new ManualClock(NOW) });
  seedReadings(gw.database.sqlite, week());
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'grower' });
  expect((await http.put('/api/devices/pump-1', { flowLitresPerMinute: 2 }, admin)).status).toBe(200);
});
afterAll(async () => {
  await gw.dispose();
});

const localDay = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
};

describe('the preview of a week of irrigation', () => {
  it('pulses of exactly 20 s inside each day budget, none on the low-tank day, litres by flow', async () => {
    const res = await http.post('/api/devices/pump-1/automation/preview', { automationRules: { irrigation: PROGRAM }, hours: 168 }, admin);
    expect(res.status).toBe(200);
    const preview = res.body.data;
    const steps = preview.timeline.slice(1) as Array<{ at: string; status: string; reason: string }>;
    const runs: Array<{ onMs: number; offMs: number }> = [];
    for (let i = 0; i + 1 < steps.length; i += 2) {
      expect(steps[i]!.status).toBe('ON');
      expect(steps[i]!.reason).toMatch(/^Irrigation pulse \d\/3 \(20 s\)/);
      expect(steps[i + 1]!.status).toBe('OFF');
      runs.push({ onMs: Date.parse(steps[i]!.at), offMs: Date.parse(steps[i + 1]!.at) });
    }
    // Each pulse ends at its pulse length, not at the next recorded tick.
    for (const run of runs) expect(run.offMs - run.onMs).toBe(20_000);
    // Each local day: at most the 120 s budget, so six pulses, in cycles of three with 10 min soaks.
    const perDay = new Map<string, number>();
    for (const run of runs) perDay.set(localDay(new Date(run.onMs).toISOString()), (perDay.get(localDay(new Date(run.onMs).toISOString())) ?? 0) + 1);
    for (const pulses of perDay.values()) expect(pulses).toBeLessThanOrEqual(6);
    expect(runs.filter((r) => r.onMs >= LOW_TANK.fromMs && r.onMs < LOW_TANK.toMs)).toEqual([]);
    expect(runs.length).toBeGreaterThanOrEqual(30);
    expect(preview.irrigation).toEqual({
      pulses: runs.length,
      runSeconds: runs.length * 20,
      litres: Math.round(((runs.length * 20) / 60) * 2 * 100) / 100,
      // The recorded soil never got this water: every cycle ended at its limit without a rise.
      noEffectCycles: expect.any(Number),
    });
    expect(preview.irrigation.noEffectCycles).toBeGreaterThanOrEqual(runs.length / 3 - 1);
    expect(preview.onSeconds).toBe(runs.length * 20);
  });

  it('refuses a bad program with a 400 naming the field', async () => {
    const res = await http.post('/api/devices/pump-1/automation/preview', { automationRules: { irrigation: { ...PROGRAM, targetPct: 20 } }, hours: 24 }, admin);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/automationRules\.irrigation\.targetPct/);
  });
});
