// The export's CSV stream over a real database and its real worker thread (server/analytics/readings-csv.ts):
// the main thread gets bounded string chunks it only passes on (no Buffer), and the whole file is exact.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_CHUNK_CHARS, CSV_COLUMNS } from '../../server/analytics/csv-format.ts';
import { readingsCsvStream } from '../../server/analytics/readings-csv.ts';
import { openDatabase, type OpenedDatabase } from '../../server/db/open.ts';
import { seedReadings } from '../support/seed-readings.ts';

const START_MS = Date.UTC(2026, 10, 1);
const ROWS = 20_000;
let dir: string;
let database: OpenedDatabase;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'csv-stream-'));
  database = openDatabase(dir);
  seedReadings(database.sqlite, Array.from({ length: ROWS }, (_, i) => ({ takenAtMs: START_MS + i * 1000, temperatureC: 20 + (i % 10) / 10, humidityPct: 60 })));
});
afterAll(() => {
  database?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('readingsCsvStream', () => {
  it('gives the main thread string chunks of at most a chunk and a line, which make the exact CSV', async () => {
    const chunks: unknown[] = [];
    for await (const chunk of readingsCsvStream(database.path, 'greenhouse-001', START_MS, START_MS + ROWS * 1000)) chunks.push(chunk);
    expect(chunks.every((c) => typeof c === 'string')).toBe(true);
    const texts = chunks as string[];
    const text = texts.join('');
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(1 + ROWS);
    const row = database.sqlite.prepare('SELECT * FROM readings ORDER BY taken_at LIMIT 1').get() as { temperature_c: number };
    expect(lines[1]).toContain(`,${row.temperature_c},`);
    // A chunk ends at the first whole line past CSV_CHUNK_CHARS (the readings are ASCII: a char is a byte).
    const longestLine = Math.max(...lines.map((l) => l.length + 1));
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(CSV_CHUNK_CHARS + longestLine);
    expect(texts.length).toBeGreaterThanOrEqual(Math.floor(text.length / (CSV_CHUNK_CHARS + longestLine)));
  }, 60_000);
});
