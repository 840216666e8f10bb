// Readings batched for the SD card: the sampler's ticks are held in memory and committed about once a
// minute (in one transaction), the newest values are served from the batch meanwhile, history reads
// commit it first, and a clean stop commits it before the database closes.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { DATABASE_FILE } from '../../server/db/open.ts';
import { FLUSH_EVERY_MS, FOLD_EVERY_MS } from '../../server/sensors/batched-ticks.ts';
import { fakeSensors, hardwareWith } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';

const INTERVAL_S = 5;
let gw: TestGateway | null = null;
afterEach(async () => {
  await gw?.dispose();
  gw = null;
});

async function setup() {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
  gw = await startTestGateway({}, { clock, hardware: hardwareWith(fakeSensors({ climate: { temperatureC: 22, humidityPct: 55 }, levelCm: 40 }).sensors) });
  const http = httpClient(gw.url);
  const token = await registerUser(http, { username: 'grower' });
  const stored = () => (gw!.database.sqlite.prepare('SELECT count(*) FROM readings').pluck().get() as number);
  const tick = async (n = 1) => {
    for (let i = 0; i < n; i++) {
      await clock.advanceAsync(INTERVAL_S * 1000, 1000);
      for (let j = 0; j < 5; j++) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { clock, http, token, stored, tick, gw: gw! };
}

describe('batched readings', () => {
  it('holds ticks in memory and commits them together about once a minute', async () => {
    const { stored, tick, gw } = await setup();
    const before = stored();
    await tick(3);
    expect(gw.batches.pendingRows).toBeGreaterThan(0);
    expect(stored()).toBe(before);
    const batches = gw.batches.committedBatches;
    await tick(FLUSH_EVERY_MS / 1000 / INTERVAL_S);
    expect(gw.batches.committedBatches).toBeGreaterThan(batches);
    expect(stored()).toBeGreaterThan(before);
  });

  it('serves the newest reading from the batch, and commits the batch before a history read', async () => {
    const { http, token, stored, tick, gw } = await setup();
    await tick(1);
    const held = gw.batches.pendingRows;
    expect(held).toBeGreaterThan(0);
    const latest = (await http.get('/api/sensors/latest/default', token)).body.data as Array<{ sensorType: string; timestamp: string; temperature?: number }>;
    const dht = latest.find((r) => r.sensorType === 'DHT11')!;
    expect(dht.temperature).toBe(22);
    expect(Date.parse(dht.timestamp)).toBeGreaterThan(gw.clock.now() - INTERVAL_S * 1000);

    const countBefore = stored();
    const history = await http.get('/api/sensors/historical/default?hours=1', token);
    expect(history.status).toBe(200);
    expect(gw.batches.pendingRows).toBe(0);
    expect(stored()).toBe(countBefore + held);

    // A kept answer is served again only while nothing was committed since.
    const points = (body: { data: Array<{ sensorType: string }> }) => body.data.filter((r) => r.sensorType === 'DHT11').length;
    const again = await http.get('/api/sensors/historical/default?hours=1', token);
    expect(again.body).toEqual(history.body);
    await tick(1);
    const after = await http.get('/api/sensors/historical/default?hours=1', token);
    expect(points(after.body)).toBe(points(history.body) + 1);
  });

  it('folds the rollups every few minutes rather than at every commit, and at once before a history read', async () => {
    const { http, token, tick, gw } = await setup();
    const watermark = () => (gw.database.sqlite.prepare('SELECT coalesce(max(folded_through_id), 0) FROM rollup_watermark').pluck().get() as number);
    const maxId = () => (gw.database.sqlite.prepare('SELECT coalesce(max(id), 0) FROM readings').pluck().get() as number);
    await tick((2 * FLUSH_EVERY_MS) / 1000 / INTERVAL_S); // past the first retention run (it folds too, hourly)
    await http.get('/api/sensors/historical/default?hours=24', token); // folds what is there
    expect(watermark()).toBe(maxId());
    const foldedAt = gw.clock.now();

    // One committed batch: its rows are stored but not folded (the rollup pages stay untouched).
    const batches = gw.batches.committedBatches;
    await tick(FLUSH_EVERY_MS / 1000 / INTERVAL_S);
    expect(gw.batches.committedBatches).toBe(batches + 1);
    expect(maxId()).toBeGreaterThan(watermark());
    const firstBatchId = maxId();

    // The batch committed once the fold is due carries the fold.
    while (gw.clock.now() - foldedAt < FOLD_EVERY_MS + FLUSH_EVERY_MS) await tick(1);
    expect(watermark()).toBeGreaterThan(firstBatchId);

    // A history read folds what is committed and held, and answers with it.
    await tick(FLUSH_EVERY_MS / 1000 / INTERVAL_S);
    expect(maxId()).toBeGreaterThan(watermark());
    const history = await http.get('/api/sensors/historical/default?hours=24', token);
    expect(history.status).toBe(200);
    expect(gw.batches.pendingRows).toBe(0);
    expect(watermark()).toBe(maxId());
    const rolled = gw.database.sqlite.prepare(`SELECT sum(n) FROM reading_rollups WHERE resolution_ms = 60000`).pluck().get() as number;
    expect(rolled).toBe(gw.database.sqlite.prepare('SELECT count(*) FROM readings').pluck().get());
  });

  it('commits the batch on a clean stop', async () => {
    const { tick, gw: gateway } = await setup();
    await tick(2);
    const held = gateway.batches.pendingRows;
    expect(held).toBeGreaterThan(0);
    const committed = gateway.database.sqlite.prepare('SELECT count(*) FROM readings').pluck().get() as number;
    await gateway.stop();
    const reopened = new Database(`${gateway.dataDir}/${DATABASE_FILE}`, { readonly: true });
    try {
      expect(reopened.prepare('SELECT count(*) FROM readings').pluck().get()).toBe(committed + held);
      // and folds it: the next start has no rollup backlog.
      expect(reopened.prepare('SELECT max(folded_through_id) FROM rollup_watermark').pluck().get()).toBe(reopened.prepare('SELECT max(id) FROM readings').pluck().get());
    } finally {
      reopened.close();
    }
  });
});
