// Sensors: the 168 h history call against a naive query of all raw rows, and the sampler's write path
// (one transaction per tick) against one autocommit INSERT per statement. Ratios, measured in one run.
//
//   npx tsx bench/sensors-history.ts            (WEEK_SECONDS=86400 for a quicker, smaller run)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../server/db/open.ts';
import { readingFromRow, type ReadingRow } from '../server/sensors/reading-row.ts';
import { ReadingsRepo, type NewReading } from '../server/sensors/readings-repo.ts';
import { seedRawReadings } from './seed-readings.ts';

const G = 'greenhouse-001';
const SECONDS = Number(process.env.WEEK_SECONDS ?? 7 * 24 * 3600);
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

function tick(ms: number, i: number): NewReading[] {
  const day = Math.sin((i / 86_400) * 2 * Math.PI);
  return [
    { sensorType: 'DHT11', takenAtMs: ms, temperatureC: 20 + 6 * day + (i % 7) / 10, humidityPct: 60 - 15 * day },
    { sensorType: 'LDR', takenAtMs: ms, lightLux: Math.max(0, 20_000 * day) },
    { sensorType: 'SOIL_MOISTURE', takenAtMs: ms, soilMoisturePct: 40 - (i % 3600) / 360 },
    { sensorType: 'WATER_LEVEL', takenAtMs: ms, waterLevelCm: 30 - (i % 86_400) / 8640 },
  ];
}

const seedWeek = (sqlite: import('better-sqlite3').Database) => seedRawReadings(sqlite, { seconds: SECONDS, stepS: 1, endMs: NOW });

function time<T>(fn: () => T): { ms: number; result: T } {
  const start = process.hrtime.bigint();
  const result = fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, result };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });

function benchHistory() {
  // RAM-backed when available: the seed is large and the disk of a shared CI box is not what we measure.
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'bench-history-'));
  const database = openDatabase(dir);
  try {
    const repo = new ReadingsRepo(database.sqlite);
    const seed = time(() => seedWeek(database.sqlite));
    const rows = SECONDS * 4;
    console.log(`seeded ${fmt(rows)} rows (1 reading/s per sensor type over ${fmt(SECONDS / 3600)} h) in ${fmt(seed.ms / 1000)} s`);

    // Raw rows written behind the rollups' back: fold them first (history-scale.bench.ts measures this).
    const fold = time(() => repo.foldRollups());
    console.log(`folded the rows into the rollups in ${fmt(fold.ms / 1000)} s`);
    const runs = [0, 1, 2].map(() => time(() => JSON.stringify({ success: true, data: repo.historical(G, 168, NOW) })));
    const downsampledMs = median(runs.map((r) => r.ms));
    const points = repo.historical(G, 168, NOW);
    const perSeries = Math.max(...['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL'].map((t) => points.filter((p) => p.sensorType === t).length));
    const downsampledBytes = Buffer.byteLength(runs[0]!.result);

    // The naive route: every raw row of the week, mapped and serialised (summed per row: one string of
    // this size would be a few hundred MB).
    const naiveStatement = database.sqlite.prepare(`SELECT * FROM readings WHERE greenhouse_id = ? AND taken_at >= ? ORDER BY taken_at`);
    const naive = time(() => {
      let bytes = 0;
      let count = 0;
      for (const row of naiveStatement.iterate(G, NOW - 168 * 3_600_000) as Iterable<ReadingRow>) {
        bytes += Buffer.byteLength(JSON.stringify(readingFromRow(row))) + 1;
        count++;
      }
      return { bytes, count };
    });

    console.log(`168 h history, downsampled in SQL: ${fmt(downsampledMs)} ms, ${fmt(points.length)} points (max ${perSeries} per series), ${fmt(downsampledBytes / 1024)} KiB`);
    console.log(`168 h history, naive raw rows:     ${fmt(naive.ms)} ms, ${fmt(naive.result.count)} points, ${fmt(naive.result.bytes / 1024 / 1024)} MiB`);
    console.log(`ratio naive/downsampled: time ${fmt(naive.ms / downsampledMs)}x, points ${fmt(naive.result.count / points.length)}x, bytes ${fmt(naive.result.bytes / downsampledBytes)}x`);
  } finally {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function benchWrites() {
  const ROUNDS = 7;
  const TICKS = Number(process.env.WRITE_TICKS ?? 300);
  // On disk (the OS temp dir), with the gateway's own settings (WAL, synchronous=FULL): the cost being
  // compared is one commit (fsync) per tick against one per row.
  const dirA = mkdtempSync(join(tmpdir(), 'bench-write-tx-'));
  const dirB = mkdtempSync(join(tmpdir(), 'bench-write-auto-'));
  const a = openDatabase(dirA);
  const b = openDatabase(dirB);
  try {
    const repo = new ReadingsRepo(a.sqlite);
    const insert = b.sqlite.prepare(
      `INSERT INTO readings (greenhouse_id, sensor_type, taken_at, temperature_c, humidity_pct, light_lux, soil_moisture_pct, water_level_cm) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const txMs: number[] = [];
    const autoMs: number[] = [];
    let n = 0;
    // Interleaved rounds and medians: a shared, busy machine skews any single long run.
    for (let round = 0; round < ROUNDS; round++) {
      txMs.push(time(() => {
        for (let i = 0; i < TICKS; i++, n++) repo.insertTick(G, tick(NOW + n * 1000, n));
      }).ms);
      autoMs.push(time(() => {
        for (let i = 0; i < TICKS; i++, n++) {
          for (const r of tick(NOW + n * 1000, n)) {
            insert.run(G, r.sensorType, r.takenAtMs, r.temperatureC ?? null, r.humidityPct ?? null, r.lightLux ?? null, r.soilMoisturePct ?? null, r.waterLevelCm ?? null);
          }
        }
      }).ms);
    }
    const rows = TICKS * 4;
    const rateTx = rows / (median(txMs) / 1000);
    const rateAuto = rows / (median(autoMs) / 1000);
    console.log(`write path, one transaction per tick (4 rows): ${fmt(rateTx)} rows/s (${fmt(median(txMs) / TICKS)} ms per tick)`);
    console.log(`write path, autocommit insert per statement:   ${fmt(rateAuto)} rows/s (${fmt(median(autoMs) / TICKS)} ms per 4 rows)`);
    console.log(`ratio per-tick transaction / autocommit: ${fmt(rateTx / rateAuto)}x (medians of ${ROUNDS} interleaved rounds of ${TICKS} ticks)`);
  } finally {
    a.close();
    b.close();
    rmSync(dirA, { recursive: true, force: true });
    rmSync(dirB, { recursive: true, force: true });
  }
}

benchHistory();
benchWrites();
