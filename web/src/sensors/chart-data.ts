// Turns the historical readings into uPlot's columns. Gaps stay gaps: where a sensor's bucket is missing
// we insert an x with `null` (uPlot breaks the line there with spanGaps false); where another sensor
// simply has a point this one lacks, the value is `undefined`, which uPlot skips without breaking.
import type { Reading } from '../../../server/contract/reading.ts';
import { chartSeries, type SeriesSpec } from './quantities.ts';

export type { SeriesSpec };

/**
 * Names and colours from the catalogue (temperature red, humidity blue, light amber, soil green, then
 * the others). The tank has its own card and gauge, not a line among the climate's.
 */
export const CHART_SERIES: readonly SeriesSpec[] = chartSeries().filter((s) => s.field !== 'waterLevel');

export type Column = Array<number | null | undefined>;

export interface ChartData {
  series: SeriesSpec[];
  /** [x in seconds, ...one column per series], as uPlot takes it. */
  columns: [number[], ...Column[]];
  /** Per series, the min and max of each point's bucket on the same x (null in a gap), for the band. */
  bands: Array<{ min: Column; max: Column }>;
}

export function buildChartData(readings: readonly Reading[]): ChartData {
  // A line only for a field that some reading has (docs/product.md §9).
  const series = CHART_SERIES.filter((s) => readings.some((r) => typeof r[s.field] === 'number'));
  const rows = new Map<number, Map<string, number | null>>();
  // Keys `min:<field>` and `max:<field>` in the same rows: the band follows its line, gaps included.
  const at = (ms: number) => {
    let row = rows.get(ms);
    if (!row) rows.set(ms, (row = new Map()));
    return row;
  };
  const lastBySensor = new Map<string, { ms: number; bucketMs: number }>();
  const sorted = [...readings].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  for (const reading of sorted) {
    const ms = Date.parse(reading.timestamp);
    const previous = lastBySensor.get(reading.sensorType);
    const bucketMs = reading.bucketMs ?? previous?.bucketMs ?? 0;
    if (previous && bucketMs > 0 && ms - previous.ms > bucketMs) {
      // Missing bucket(s): one null right after the last point breaks this sensor's lines.
      const gap = at(previous.ms + bucketMs);
      for (const s of series) {
        if (typeof reading[s.field] !== 'number') continue;
        for (const key of [s.field, `min:${s.field}`, `max:${s.field}`]) gap.set(key, null);
      }
    }
    lastBySensor.set(reading.sensorType, { ms, bucketMs });
    const row = at(ms);
    for (const s of series) {
      const value = reading[s.field];
      if (typeof value !== 'number') continue;
      row.set(s.field, value);
      row.set(`min:${s.field}`, reading.min?.[s.field] ?? value);
      row.set(`max:${s.field}`, reading.max?.[s.field] ?? value);
    }
  }
  const xs = [...rows.keys()].sort((a, b) => a - b);
  const column = (key: string): Column => xs.map((ms) => (rows.get(ms)!.has(key) ? rows.get(ms)!.get(key)! : undefined));
  const columns: [number[], ...Column[]] = [xs.map((ms) => ms / 1000), ...series.map((s) => column(s.field))];
  const bands = series.map((s) => ({ min: column(`min:${s.field}`), max: column(`max:${s.field}`) }));
  return { series, columns, bands };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Axis labels (docs/product.md §9): hour:minute up to 24 h, month/day hour:minute up to 168 h, else month/day. */
export function axisLabel(epochSeconds: number, rangeHours: number): string {
  const d = new Date(epochSeconds * 1000);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const day = `${d.getMonth() + 1}/${d.getDate()}`;
  if (rangeHours <= 24) return time;
  if (rangeHours <= 168) return `${day} ${time}`;
  return day;
}

/** The widest axis label of a range, in px at the axis font (12 px system font: ~7 px per character). */
export function axisLabelWidthPx(rangeHours: number): number {
  const sample = axisLabel(Date.UTC(2026, 11, 28, 23, 59) / 1000, rangeHours); // two-digit month and day
  return Math.ceil(sample.length * 7);
}

/** Width of one right-hand axis (its numbers and its unit label), px. */
export const RIGHT_AXIS_WIDTH_PX = 56;

/**
 * How many of the own-scale axes (lux, ppm, hPa) a plot of this width draws. Each takes
 * RIGHT_AXIS_WIDTH_PX; on a phone three of them would leave the lines a third of the card, so the plot
 * keeps at least two thirds of its width for the data and drops axes from the right (their lines stay,
 * in their colour, and the tooltip gives their values with units).
 */
export function ownAxesShown(ownScaleCount: number, plotWidthPx: number): number {
  const fit = Math.floor(plotWidthPx / 3 / RIGHT_AXIS_WIDTH_PX);
  return Math.max(Math.min(ownScaleCount, 1), Math.min(ownScaleCount, fit));
}

/**
 * The chart in words for screen readers: per line its lowest, highest and latest value. A chart that
 * is only pixels says nothing to someone who cannot see it.
 */
export function summarize(chart: Pick<ChartData, 'series' | 'columns'>, rangeHours: number): string {
  const parts = chart.series.map((s, i) => {
    const values = (chart.columns[i + 1] ?? []).filter((v): v is number => typeof v === 'number');
    if (values.length === 0) return `${s.label}: no readings`;
    const f = (v: number) => (s.unit === 'lux' ? Math.round(v).toString() : v.toFixed(1));
    return `${s.label}: lowest ${f(Math.min(...values))}, highest ${f(Math.max(...values))}, latest ${f(values[values.length - 1]!)}`;
  });
  return `Chart summary, last ${rangeHours} hours. ${parts.join('. ')}.`;
}
