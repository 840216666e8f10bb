import { afterEach, describe, expect, it } from 'vitest';
import { CSV_SOURCE_COLUMNS, createCsvLineWriter, csvLine, plainRoundedText, roundedText, type CsvRow } from '../../../server/analytics/csv-format.ts';

const VALUE_COLUMNS = CSV_SOURCE_COLUMNS.length - 2;
const originalTz = process.env.TZ;

afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

/** A deterministic stream of numbers in [0, 1) (mulberry32), so a failure can be replayed. */
function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The doubles either side of `value`, `steps` units in the last place away. */
function neighbours(value: number, steps: number): number[] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigInt64(0);
  const around: number[] = [];
  for (let step = -steps; step <= steps; step++) {
    view.setBigInt64(0, bits + BigInt(step));
    around.push(view.getFloat64(0));
  }
  return around;
}

describe('roundedText: the text of String(Number(value.toFixed(decimals))) without the round trip', () => {
  it('agrees on random readings, whole and negative ones, at every precision the catalogue uses', () => {
    const random = randomSource(23);
    const disagreements: string[] = [];
    for (let i = 0; i < 300_000; i++) {
      const value = (random() - 0.3) * 10 ** Math.floor(random() * 5);
      for (const decimals of [0, 1, 2]) if (roundedText(value, decimals) !== plainRoundedText(value, decimals)) disagreements.push(`${value} to ${decimals}`);
    }
    expect(disagreements).toEqual([]);
  });

  it('agrees on ties and on the doubles right next to them, where rounding directions differ', () => {
    const disagreements: string[] = [];
    for (let k = -4000; k <= 4000; k++) {
      for (const decimals of [0, 1, 2]) {
        const tie = (k + 0.5) / 10 ** decimals;
        for (const value of neighbours(tie, 3)) if (roundedText(value, decimals) !== plainRoundedText(value, decimals)) disagreements.push(`${value} to ${decimals}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('agrees on zero, negative zero, tiny and huge values and the non-finite ones', () => {
    const edges = [0, -0, 1e-300, -1e-300, 0.04, -0.04, -0.05, 0.05, 1e9, -1e9, 123456789.25, 1e15 + 0.5, 1e20, 1e21, 1.5e300, Infinity, -Infinity, Number.NaN];
    for (const value of edges) for (const decimals of [0, 1, 2, 4]) expect(roundedText(value, decimals)).toBe(plainRoundedText(value, decimals));
    expect(roundedText(-0.04, 1)).toBe('0');
    expect(roundedText(21.449999, 1)).toBe('21.4');
    expect(roundedText(2.5, 0)).toBe('3');
  });
});

/** Rows a second apart through `[fromMs, fromMs + seconds)`, values and sensor types varied. */
function rowsFrom(fromMs: number, seconds: number, stepMs = 1000): CsvRow[] {
  const random = randomSource(fromMs % 1_000_003);
  const types = ['DHT11', 'SOIL_MOISTURE', '=HYPERLINK("x")', 'say "hi", then', ' padded'];
  return Array.from({ length: seconds }, (_, i) => {
    const values = Array.from({ length: VALUE_COLUMNS }, () => (random() < 0.4 ? null : (random() - 0.2) * 100));
    return [fromMs + i * stepMs, types[i % types.length]!, ...values] as CsvRow;
  });
}

describe('createCsvLineWriter: every line as csvLine makes it', () => {
  const ZONES: Array<[zone: string, aroundUtc: string]> = [
    ['Europe/Amsterdam', '2026-03-29T00:58:00Z'], // summer time begins: 02:00 becomes 03:00
    ['Europe/Amsterdam', '2026-10-25T00:58:00Z'], // and ends: 03:00 becomes 02:00 again
    ['America/St_Johns', '2026-03-08T05:28:00Z'], // an offset of -03:30
    ['Australia/Lord_Howe', '2026-04-04T14:58:00Z'], // a clock change of 30 minutes
    ['Asia/Kathmandu', '2026-01-01T00:00:00Z'], // +05:45
    ['Pacific/Chatham', '2026-04-04T13:43:00Z'], // +13:45 to +12:45
    ['UTC', '2026-06-01T12:00:00Z'],
    ['Asia/Kolkata', '1900-01-01T00:00:00Z'], // local mean time, +05:21:10: not whole minutes
    ['Africa/Monrovia', '1969-12-31T23:55:00Z'], // -00:44:30 until 1972
  ];

  for (const [zone, aroundUtc] of ZONES) {
    it(`in ${zone} around ${aroundUtc}`, () => {
      process.env.TZ = zone;
      const writeLine = createCsvLineWriter();
      for (const row of rowsFrom(Date.parse(aroundUtc), 600)) expect(writeLine(row)).toBe(csvLine(row));
    });
  }

  it('for rows out of order, with fractions of a millisecond and before 1970', () => {
    process.env.TZ = 'Europe/Amsterdam';
    const writeLine = createCsvLineWriter();
    const random = randomSource(7);
    const rows = [
      ...rowsFrom(Date.parse('2026-07-01T10:00:00Z'), 50, 1234.5),
      ...Array.from({ length: 2000 }, () => rowsFrom(Math.floor((random() - 0.3) * 4e12), 1)[0]!),
      ...rowsFrom(-1500, 5),
    ];
    for (const row of rows) expect(writeLine(row)).toBe(csvLine(row));
  });

  it('writes the header columns, a formula-proof sensor type and rounded values', () => {
    process.env.TZ = 'UTC';
    const writeLine = createCsvLineWriter();
    const row = [Date.parse('2026-03-05T14:03:09Z'), '=cmd', 21.449, null, ...Array(VALUE_COLUMNS - 2).fill(null)] as CsvRow;
    expect(writeLine(row)).toBe(`2026-03-05T14:03:09+00:00,'=cmd,21.4${','.repeat(VALUE_COLUMNS - 1)}\n`);
  });
});
