// History at any scale: a database restored with raw rows only gets its rollups back by itself, and
// history outlives raw retention. The real gateway over HTTP on real SQLite files and migrations.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { HISTORY_WAIT_MS } from '../../server/history/history-wait.ts';
import { ROLLUP_KEEP_DAYS } from '../../server/history/rollup-levels.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { writeRawReadings } from '../support/raw-readings.ts';
import { seedReadings } from '../support/seed-readings.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.dispose();
  gateway = undefined;
});

async function start(clock: ManualClock, dataDir?: string) {
  gateway = await startTestGateway(dataDir ? { dataDir } : {}, { clock });
  const http = httpClient(gateway.url);
  const token = await registerUser(http, { username: 'grower' });
  return { gw: gateway, http, token };
}

const scalar = (gw: TestGateway, sql: string, ...args: unknown[]) => gw.database.sqlite.prepare(sql).pluck().get(...args) as number;

describe('history rollups', () => {
  it('rebuilds the rollups of a database that holds raw rows only, and answers from them', async () => {
    const clock = new ManualClock();
    const nowMs = clock.now();
    // A restore: a week of readings every 30 s written straight into `readings` by another program.
    const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-restored-'));
    const rows = writeRawReadings(dataDir, { fromMs: nowMs - 7 * DAY, untilMs: nowMs, stepMs: 30_000, temperatureC: (row) => 20 + (row % 10) });

    const { gw, http, token } = await start(clock, dataDir);
    const stats = await http.get('/api/sensors/stats/greenhouse-001?hours=168', token);
    expect(stats.status).toBe(200);
    expect(stats.body.data).toEqual([
      { _id: 'DHT11', count: rows, avgTemperature: 24.5, avgHumidity: 50, avgLightIntensity: null, avgSoilMoisture: null, avgWaterLevel: null },
    ]);
    // The answer came from rollups that now hold every row, at every level.
    expect(scalar(gw, 'SELECT folded_through_id FROM rollup_watermark')).toBe(scalar(gw, 'SELECT max(id) FROM readings'));
    for (const resolutionMs of [60_000, 300_000, HOUR]) {
      expect(scalar(gw, 'SELECT sum(n) FROM reading_rollups WHERE resolution_ms = ?', resolutionMs)).toBe(rows);
    }
    const hourly = await http.get('/api/sensors/hourly/greenhouse-001?hours=168', token);
    expect(hourly.body.data.reduce((sum: number, h: { count: number }) => sum + h.count, 0)).toBe(rows);
  });

  it('tells a history request how far a long catch-up is (503, Retry-After) instead of holding it, then answers', async () => {
    const clock = new ManualClock();
    const nowMs = clock.now();
    // An upgrade from a build without rollups: twelve days of 1 Hz readings, a catch-up of seconds here
    // and of minutes on a Pi core.
    const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-upgraded-'));
    writeRawReadings(dataDir, { fromMs: nowMs - 12 * DAY, untilMs: nowMs, stepMs: 1_000, temperatureC: () => 21 });

    const { http, token } = await start(clock, dataDir);
    const asked = http.get('/api/sensors/historical/greenhouse-001?hours=1', token);
    let answered = false;
    void asked.finally(() => (answered = true));
    // The request waits HISTORY_WAIT_MS on the gateway's clock: move it on until the answer comes.
    for (let i = 0; i < 100 && !answered; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      clock.advance(HISTORY_WAIT_MS);
    }
    const rebuilding = await asked;
    expect(rebuilding.status).toBe(503);
    expect(rebuilding.body.success).toBe(false);
    expect(rebuilding.body.message).toMatch(/^History is being rebuilt from the stored readings \(\d+ % done(, about \d+ \w+ left)?\); charts return when it is through$/);
    const retryAfterS = Number(rebuilding.headers.get('retry-after'));
    expect(retryAfterS).toBeGreaterThanOrEqual(5);
    expect(retryAfterS).toBeLessThanOrEqual(60);

    // Asked again once it is through (without moving the clock: no wait runs out), the history is there.
    const after = await http.get('/api/sensors/historical/greenhouse-001?hours=1', token);
    expect(after.status).toBe(200);
    expect(after.body.data.length).toBeGreaterThan(0);
  }, 60_000);

  it('keeps history in rollups after raw rows are pruned, and prunes each level on its own horizon', async () => {
    const clock = new ManualClock();
    const { gw, http, token } = await start(clock);
    const nowMs = clock.now();
    // 40 days, one tick every 10 min, the gateway off for two days 35 days ago.
    const seeded = [];
    for (let t = nowMs - 40 * DAY; t <= nowMs; t += 10 * 60_000) {
      if (t >= nowMs - 35 * DAY && t < nowMs - 33 * DAY) continue;
      seeded.push({ takenAtMs: t, sensorType: 'SOIL_MOISTURE' as const, soilMoisturePct: 30 + ((t / 600_000) % 5) });
    }
    seedReadings(gw.database.sqlite, seeded);
    const yearBefore = (await http.get('/api/sensors/stats/greenhouse-001?hours=8760', token)).body.data;

    const result = await gw.lifecycle.pruneNow(); // dataRetentionDays: 30
    expect(result?.deleted.readings).toBeGreaterThan(0);
    expect(scalar(gw, 'SELECT min(taken_at) FROM readings')).toBeGreaterThanOrEqual(nowMs - 30 * DAY);
    // The year's stats and chart still cover the 40 days.
    const yearAfter = (await http.get('/api/sensors/stats/greenhouse-001?hours=8760', token)).body.data;
    expect(yearAfter).toEqual(yearBefore);
    expect(yearAfter[0].count).toBe(seeded.length);
    const chart = (await http.get('/api/sensors/historical/greenhouse-001?hours=8760', token)).body.data;
    const times = chart.map((p: { timestamp: string }) => Date.parse(p.timestamp));
    expect(times[0]).toBeLessThan(nowMs - 39 * DAY);
    expect(chart.every((p: { bucketMs: number }) => p.bucketMs === 12 * HOUR)).toBe(true);
    // The two days off stay a hole in the chart (no bucket bridges them).
    expect(times.filter((t: number) => t >= nowMs - 35 * DAY + 12 * HOUR && t + 12 * HOUR <= nowMs - 33 * DAY)).toEqual([]);

    // The fine levels go after their own (shorter) horizons, the hourly one stays.
    const oldest = (resolutionMs: number) => scalar(gw, 'SELECT min(bucket_at) FROM reading_rollups WHERE resolution_ms = ?', resolutionMs);
    expect(oldest(60_000)).toBeGreaterThanOrEqual(nowMs - ROLLUP_KEEP_DAYS[60_000]! * DAY);
    expect(oldest(300_000)).toBeGreaterThanOrEqual(nowMs - ROLLUP_KEEP_DAYS[300_000]! * DAY);
    expect(oldest(HOUR)).toBeLessThan(nowMs - 39 * DAY);
    expect(result?.rollupsDeleted?.['1min']).toBeGreaterThan(0);
  });

  it('offers the 30-day and year ranges and still refuses others, naming hours', async () => {
    const clock = new ManualClock();
    const { http, token } = await start(clock);
    for (const path of ['historical', 'stats', 'hourly']) {
      expect((await http.get(`/api/sensors/${path}/greenhouse-001?hours=720`, token)).status).toBe(200);
      expect((await http.get(`/api/sensors/${path}/greenhouse-001?hours=8760`, token)).status).toBe(200);
      const bad = await http.get(`/api/sensors/${path}/greenhouse-001?hours=8761`, token);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('hours');
    }
  });
});
