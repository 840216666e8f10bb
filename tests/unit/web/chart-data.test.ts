import { describe, expect, it } from 'vitest';
import type { Reading } from '../../../server/contract/reading.ts';
import { axisLabel, buildChartData, ownAxesShown } from '../../../web/src/sensors/chart-data.ts';
import { lightVerdict, rangeVerdict, soilVerdict, statusOf } from '../../../web/src/sensors/readings-view.ts';
import { DEFAULT_ALERT_THRESHOLDS } from '../../../server/contract/settings.ts';

const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);
const point = (sensorType: Reading['sensorType'], ms: number, fields: Partial<Reading>): Reading => ({
  _id: `${sensorType}-${ms}`,
  greenhouseId: 'greenhouse-001',
  sensorType,
  timestamp: new Date(ms).toISOString(),
  bucketMs: 60_000,
  ...fields,
});

describe('buildChartData', () => {
  it('draws only fields some reading has, in the spec colours and names', () => {
    const { series } = buildChartData([point('LDR', T0, { lightIntensity: 100 })]);
    expect(series.map((s) => [s.label, s.color])).toEqual([['Light Intensity (lux)', '#f59e0b']]);
  });

  it('breaks the line (null) after a missing bucket and skips (undefined) where another sensor has a point', () => {
    const readings = [
      point('DHT11', T0, { temperature: 20, humidity: 50 }),
      point('DHT11', T0 + 60_000, { temperature: 21, humidity: 51 }),
      // buckets T0+2 min and T0+3 min missing for DHT11
      point('DHT11', T0 + 4 * 60_000, { temperature: 22, humidity: 52 }),
      point('SOIL_MOISTURE', T0 + 30_000, { soilMoisture: 40 }),
    ];
    const { series, columns } = buildChartData(readings);
    expect(series.map((s) => s.field)).toEqual(['temperature', 'humidity', 'soilMoisture']);
    const [xs, temperature, , soil] = columns;
    expect(xs).toEqual([T0, T0 + 30_000, T0 + 60_000, T0 + 120_000, T0 + 240_000].map((ms) => ms / 1000));
    expect(temperature).toEqual([20, undefined, 21, null, 22]);
    expect(soil).toEqual([undefined, 40, undefined, undefined, undefined]);
  });

  it('labels the axis by range: hour:minute, month/day hour:minute, month/day', () => {
    const at = new Date(2026, 10, 22, 14, 5).getTime() / 1000;
    expect(axisLabel(at, 24)).toBe('14:05');
    expect(axisLabel(at, 168)).toBe('11/22 14:05');
    expect(axisLabel(at, 720)).toBe('11/22');
  });
});

describe('reading verdicts', () => {
  it('judges against the thresholds and the spec constants', () => {
    expect(rangeVerdict(36, DEFAULT_ALERT_THRESHOLDS.temperature)).toEqual({ label: 'Needs Attention', ok: false });
    expect(rangeVerdict(22, DEFAULT_ALERT_THRESHOLDS.temperature)).toEqual({ label: 'Optimal', ok: true });
    expect(rangeVerdict(undefined, DEFAULT_ALERT_THRESHOLDS.temperature)).toBeNull();
    expect(soilVerdict(30)?.label).toBe('Adequate');
    expect(soilVerdict(29.9)?.label).toBe('Needs Water');
    expect(lightVerdict(500, { ...DEFAULT_ALERT_THRESHOLDS, lightLevel: { low: 200 } })?.label).toBe('Sufficient');
    expect(lightVerdict(500, DEFAULT_ALERT_THRESHOLDS)?.label).toBe('Low Light');
    expect(statusOf(undefined, T0)).toBe('offline');
    expect(statusOf(point('LDR', T0 - 6 * 60_000, {}), T0)).toBe('warning');
    expect(statusOf(point('LDR', T0 - 60_000, {}), T0)).toBe('online');
  });
});

describe('right-hand axes on a narrow plot', () => {
  it('draws every own-scale axis on a desktop and keeps two thirds of a phone for the lines', () => {
    expect(ownAxesShown(3, 1200)).toBe(3);
    expect(ownAxesShown(3, 350)).toBe(2);
    expect(ownAxesShown(3, 200)).toBe(1);
    expect(ownAxesShown(1, 120)).toBe(1);
    expect(ownAxesShown(0, 1200)).toBe(0);
  });
});
