import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/*
 * A week in the simulated greenhouse at a fast ManualClock, through the real sampling loop, rule
 * runner, safety and alerts: a heater keeps the nights above 18 °C; in the middle of the week, while
 * it runs, the DHT11 goes silent. The heater must be off within a few intervals (the sensor-loss
 * fail-safe), stay off while the sensor is dead, and resume when it answers. Then the rule preview,
 * replayed over what was recorded, must say exactly what the live engine did.
 */
const INTERVAL_S = 60;
const HOUR_MS = 3_600_000;
const START_MS = Date.UTC(2026, 2, 2, 0, 0, 0); // early March: cold nights

let gw: TestGateway;
let http: HttpClient;
let admin: string;
let clock: ManualClock;

/** The first 10 s after each tick (its reads, retries and timeouts: the tick's budget) in 1 s steps. */
const SETTLE_MS = 10_000;

/**
 * Runs whole sampling intervals; answers how many ran. Ticks fall at START + k·interval: each interval
 * jumps to its tick in one step, then lets the tick's reads, retries and timeouts play out in 1 s steps
 * (a read settles within a step, as in real time), so a week costs ~11 event-loop turns an interval.
 */
async function runFor(ms: number, until?: () => boolean): Promise<number> {
  const intervals = Math.round(ms / (INTERVAL_S * 1000));
  for (let i = 0; i < intervals; i++) {
    await clock.advanceAsync(INTERVAL_S * 1000 - SETTLE_MS, INTERVAL_S * 1000);
    await clock.advanceAsync(SETTLE_MS, 1000);
    if (until?.()) return i + 1;
  }
  return intervals;
}

/** The heater's state changes after `fromMs`, oldest first, straight from the control_log table. */
function switchesSince(fromMs: number): Array<{ at: string; status: string; source: string }> {
  const rows = gw.database.sqlite
    .prepare(
      `SELECT created_at, new_status, source FROM control_log
       WHERE device_id = 'heater-1' AND created_at > ? AND previous_status <> new_status ORDER BY created_at, id`,
    )
    .all(fromMs) as Array<{ created_at: number; new_status: string; source: string }>;
  return rows.map((r) => ({ at: new Date(r.created_at).toISOString(), status: r.new_status, source: r.source }));
}

const heaterOn = () => gw.hardware.simulator!.isOutputOn('relay-4');

beforeAll(async () => {
  clock = new ManualClock(START_MS);
  // A week is 10,080 ticks, each a durable commit: in memory-backed /dev/shm the fsyncs cost nothing.
  const dataDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'greenhouse-week-'));
  gw = await startTestGateway({ dataDir, simulator: { seed: 21, timeScale: 1 } }, { clock });
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'grower' });
  await http.put('/api/settings/default/system', { systemSettings: { updateInterval: INTERVAL_S } }, admin);
  // A DHT11 reads whole degrees: a 1.5 °C band and 5-minute minimum times keep the relay from chattering.
  // The pump's run budget must then exceed the minimum on time (docs/decisions.md, run budgets).
  const limits = { minOnSeconds: 300, minOffSeconds: 300, pumpMaxRunSeconds: 600, deadband: { temperatureC: 1.5 } };
  expect((await http.put('/api/settings/default/devices', { deviceSettings: limits }, admin)).status).toBe(200);
  // Ticks now fall every interval from START_MS; stand just after the start, SETTLE_MS before the first tick's window.
  await clock.advanceAsync(SETTLE_MS, 1000);
  const auto = await http.post('/api/devices/heater-1/automation', { automationRules: { temperatureLow: 18 }, autoMode: true }, admin);
  expect(auto.body.data.sensorLossAction).toBe('off');
}, 60_000);
afterAll(async () => {
  await gw?.dispose();
});

describe('a week with a DHT11 failure in the middle', () => {
  const loss = { intervalsToOff: -1, atMs: 0 };

  it('heats the nights by rule for three and a half days', async () => {
    await runFor(84 * HOUR_MS);
    expect(switchesSince(START_MS).filter((l) => l.source === 'rule' && l.status === 'ON').length).toBeGreaterThan(2);
  }, 300_000);

  it('switches the running heater off within a few intervals of the DHT11 going silent, and keeps it off', async () => {
    // Wait for the next moment the rule has the heater on, then kill the sensor.
    await runFor(24 * HOUR_MS, heaterOn);
    expect(heaterOn()).toBe(true);
    expect((await http.post('/api/simulator/faults', { sensor: 'DHT11', fault: 'silent' }, admin)).status).toBe(200);
    loss.atMs = clock.now();
    loss.intervalsToOff = await runFor(10 * INTERVAL_S * 1000, () => !heaterOn());
    expect(heaterOn()).toBe(false);
    expect(loss.intervalsToOff).toBeLessThanOrEqual(5);
    const [entry] = (await http.get('/api/devices/heater-1/log?limit=1', admin)).body.data;
    expect(entry).toMatchObject({ source: 'safety', actor: 'SENSOR_LOSS', newStatus: 'OFF' });
    const alerts = (await http.get('/api/alerts/active/default', admin)).body.data.map((a: any) => a.alertType);
    expect(alerts).toEqual(expect.arrayContaining(['SENSOR_FAULT', 'SENSOR_LOSS']));

    // Two cold hours without the sensor: the heater stays off.
    const switchedOn = await runFor(2 * HOUR_MS, heaterOn);
    expect(heaterOn()).toBe(false);
    expect(switchedOn).toBe(Math.round((2 * HOUR_MS) / (INTERVAL_S * 1000)));
  }, 300_000);

  it('resumes on fresh readings and runs out the week', async () => {
    await http.post('/api/simulator/faults', { sensor: 'DHT11', fault: 'none' }, admin);
    await runFor(5 * INTERVAL_S * 1000);
    const alerts = (await http.get('/api/alerts/active/default', admin)).body.data.map((a: any) => a.alertType);
    expect(alerts).not.toContain('SENSOR_LOSS');
    expect(alerts).not.toContain('SENSOR_FAULT');
    await runFor(7 * 24 * HOUR_MS + HOUR_MS - (clock.now() - START_MS));
  }, 300_000);

  it('the rule preview over the recorded week equals what the live engine did', async () => {
    const preview = (await http.post('/api/devices/heater-1/automation/preview', { automationRules: { temperatureLow: 18 }, hours: 168 }, admin)).body.data;
    const fromMs = clock.now() - 168 * HOUR_MS;
    const log = switchesSince(fromMs);
    expect(log.length).toBeGreaterThan(6);
    // Every live switch was the engine's (rules and the sensor-loss fail-safe), none a person's.
    expect(new Set(log.map((l) => l.source))).toEqual(new Set(['rule', 'safety']));
    expect(preview.timeline.slice(1).map((s: any) => [s.at, s.status])).toEqual(log.map((l) => [l.at, l.status]));
    expect(preview.switches).toBe(log.length);
    const lossStep = preview.timeline.find((s: any) => s.reason.startsWith('sensor loss fail-safe'));
    expect(Date.parse(lossStep.at) - loss.atMs).toBeLessThanOrEqual(5 * INTERVAL_S * 1000);

    // Hours on and energy follow from the same switches.
    let onMs = 0;
    const steps = preview.timeline.map((s: any) => ({ atMs: Date.parse(s.at), on: s.status === 'ON' }));
    steps.forEach((s: any, i: number) => {
      if (s.on) onMs += (steps[i + 1]?.atMs ?? clock.now()) - s.atMs;
    });
    expect(preview.onSeconds).toBe(Math.round(onMs / 1000));
    expect(preview.energyWh).toBeCloseTo((onMs / 1000 / 3600) * 800, 0);
  }, 120_000);
});
