import { describe, expect, it } from 'vitest';
import type { Reading } from '../../../server/contract/reading.ts';
import { buildChartData } from '../../../web/src/sensors/chart-data.ts';

const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);
const point = (ms: number, fields: Partial<Reading>): Reading => ({
  _id: `DHT11-${ms}`,
  greenhouseId: 'greenhouse-001',
  sensorType: 'DHT11',
  timestamp: new Date(ms).toISOString(),
  bucketMs: 60_000,
  ...fields,
});

describe('min/max bands', () => {
  it('follow their line point by point, break where it breaks, and fall back to the mean without min/max', () => {
    const { series, columns, bands } = buildChartData([
      point(T0, { temperature: 20, min: { temperature: 18 }, max: { temperature: 31 } }),
      point(T0 + 60_000, { temperature: 21, min: { temperature: 20.5 }, max: { temperature: 21.5 } }),
      // two buckets missing: a gap
      point(T0 + 180_000, { temperature: 22 }),
    ]);
    expect(series.map((s) => s.field)).toEqual(['temperature']);
    expect(columns[1]).toEqual([20, 21, null, 22]);
    expect(bands[0]).toEqual({ min: [18, 20.5, null, 22], max: [31, 21.5, null, 22] });
  });
});
