// Where the SD card's bytes go (docs/performance.md, "The gateway on a Pi core"): the sampler's batched
// commits on a database that has run for a while, each commit's WAL frames mapped to the table or
// index their page belongs to (SQLite's dbstat table). Every page in the WAL is written twice to the
// card: once as a WAL frame, once more when the checkpoint copies it into the database file.
//
//   npx tsx bench/sd-card-pages.bench.ts     BENCH_DAYS (default 2) of 1 Hz history, BENCH_BATCHES (default 240)
//   BENCH_FOLD_EACH_COMMIT=1                 the rollups folded at every commit (the build before)
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { ManualClock } from '../common/clock.ts';
import { openDatabase } from '../server/db/open.ts';
import { RollupWriter } from '../server/history/rollup-writer.ts';
import { BatchedTicks } from '../server/sensors/batched-ticks.ts';
import { ReadingsRepo, type NewReading } from '../server/sensors/readings-repo.ts';
import { BENCH_GREENHOUSE, seedRawReadings } from './seed-readings.ts';

const DAYS = Number(process.env.BENCH_DAYS ?? 2);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 240);
const INTERVAL_MS = 5_000;
const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/** Page numbers of the WAL frames between two byte offsets. */
function framePages(walPath: string, from: number, to: number, pageSize: number): number[] {
  const pages: number[] = [];
  const fd = openSync(walPath, 'r');
  const header = Buffer.alloc(4);
  try {
    for (let at = Math.max(from, WAL_HEADER); at + FRAME_HEADER <= to; at += FRAME_HEADER + pageSize) {
      readSync(fd, header, 0, 4, at);
      pages.push(header.readUInt32BE(0));
    }
  } finally {
    closeSync(fd);
  }
  return pages;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-sd-card-'));
try {
  const database = openDatabase(dir);
  const { sqlite } = database;
  const endMs = Date.UTC(2026, 10, 24, 10, 0, 0);
  seedRawReadings(sqlite, { seconds: DAYS * 86_400, stepS: 1, endMs });
  new RollupWriter(sqlite).foldPending();
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  // Checkpoints are counted, not run: every frame stays in the WAL to be read here.
  const autoCheckpoint = sqlite.pragma('wal_autocheckpoint', { simple: true }) as number;
  sqlite.pragma('wal_autocheckpoint = 0');
  const pageSize = sqlite.pragma('page_size', { simple: true }) as number;

  const clock = new ManualClock(endMs + 1_000);
  const repo = new ReadingsRepo(sqlite, { foldOnInsert: process.env.BENCH_FOLD_EACH_COMMIT === '1' });
  const batches = new BatchedTicks({ repo, sqlite, clock, logger: pino({ level: 'silent' }) });
  const walPath = `${database.path}-wal`;
  const byObject = new Map<string, number>();
  let frames = 0;
  const commits: number[][] = [];
  for (let b = 0; b < BATCHES; b++) {
    const walBefore = statSync(walPath, { throwIfNoEntry: false })?.size ?? 0;
    for (let t = 0; t < 60_000 / INTERVAL_MS; t++) {
      clock.advance(INTERVAL_MS);
      const at = clock.now();
      const tick: NewReading[] = [
        { sensorType: 'DHT11', takenAtMs: at, temperatureC: 21 + Math.random(), humidityPct: 60 + Math.random() },
        { sensorType: 'LDR', takenAtMs: at, lightLux: 1000 + Math.random() },
        { sensorType: 'SOIL_MOISTURE', takenAtMs: at, soilMoisturePct: 40 + Math.random() },
        { sensorType: 'WATER_LEVEL', takenAtMs: at, waterLevelCm: 30 + Math.random() },
      ];
      batches.insertTick(BENCH_GREENHOUSE, tick);
    }
    batches.flush();
    const pages = framePages(walPath, walBefore, statSync(walPath).size, pageSize);
    commits.push(pages);
  }
  // Owners read once at the end: pages allocated during the run belong to what grew into them.
  const pageOwner = new Map<number, string>();
  for (const row of sqlite.prepare('SELECT name, pageno FROM dbstat').all() as Array<{ name: string; pageno: number }>) pageOwner.set(row.pageno, row.name);
  for (const pages of commits) {
    frames += pages.length;
    for (const page of pages) {
      const owner = page === 1 ? 'page 1 (header, sqlite_master)' : (pageOwner.get(page) ?? `other (pointer map, freelist or new page)`);
      byObject.set(owner, (byObject.get(owner) ?? 0) + 1);
    }
  }
  const frameBytes = FRAME_HEADER + pageSize;
  const perDay = (n: number) => ((n / BATCHES) * 1_440 * frameBytes) / 1e6;
  // A checkpoint copies each page once however often the WAL holds it: simulated for a few thresholds.
  const checkpointCopies = (threshold: number) => {
    let copied = 0;
    let sinceCheckpoint: number[] = [];
    for (const pages of commits) {
      sinceCheckpoint.push(...pages);
      if (sinceCheckpoint.length >= threshold) {
        copied += new Set(sinceCheckpoint).size;
        sinceCheckpoint = [];
      }
    }
    return copied + new Set(sinceCheckpoint).size;
  };
  console.log(`${BATCHES} batched commits (a minute of 5 s ticks, 4 sensors each) on ${DAYS} days of 1 Hz history; page size ${pageSize}, wal_autocheckpoint ${autoCheckpoint}`);
  console.log(`WAL frames per commit: ${(frames / BATCHES).toFixed(1)}; WAL written per day: ${perDay(frames).toFixed(1)} MB`);
  for (const threshold of [1_000, 4_000, 16_000]) {
    const copies = checkpointCopies(threshold);
    console.log(`  with a checkpoint every ${threshold} frames: + ${((copies / BATCHES) * 1_440 * pageSize / 1e6).toFixed(1)} MB/day of checkpoint copies`);
  }
  console.log('WAL frames by table or index (per day as WAL frames, before the checkpoint copy):');
  for (const [name, n] of [...byObject].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${name.padEnd(44)} ${(n / BATCHES).toFixed(2).padStart(6)} pages/commit  ${perDay(n).toFixed(1).padStart(6)} MB/day`);
  }
  database.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
