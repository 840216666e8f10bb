// Environmental Trends (spec section 9, "Charts"): uPlot, 400 px high, smooth 2 px lines without
// dots, gaps not connected, a series only for a field some reading has. Created once per set of
// series; data changes go through setData, width changes through setSize (style.md, uPlot wrappers).
// To be replaced by the sensors screen's shared chart component once it exists.
import { useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Reading } from '../../../../server/contract/reading.ts';

const FIELDS = [
  { key: 'temperature', label: 'Temperature (°C)', unit: '°C', color: '#dc2626' },
  { key: 'humidity', label: 'Humidity (%)', unit: '%', color: '#2563eb' },
  { key: 'lightIntensity', label: 'Light Intensity (lux)', unit: 'lux', color: '#f59e0b' },
  { key: 'soilMoisture', label: 'Soil Moisture (%)', unit: '%', color: '#16a34a' },
] as const;
type FieldKey = (typeof FIELDS)[number]['key'];
const HEIGHT_PX = 400;

/** Readings (one row per sensor and tick) to uPlot columns: x in seconds, one column per field. */
export function toColumns(readings: readonly Reading[]): { fields: FieldKey[]; data: uPlot.AlignedData } {
  const byTime = new Map<number, Partial<Record<FieldKey, number>>>();
  for (const r of readings) {
    const t = Math.floor(Date.parse(r.timestamp) / 1000);
    if (!Number.isFinite(t)) continue;
    const row = byTime.get(t) ?? {};
    for (const f of FIELDS) if (typeof r[f.key] === 'number') row[f.key] = r[f.key];
    byTime.set(t, row);
  }
  const times = [...byTime.keys()].sort((a, b) => a - b);
  const fields = FIELDS.map((f) => f.key).filter((key) => times.some((t) => byTime.get(t)![key] !== undefined));
  const data: uPlot.AlignedData = [times, ...fields.map((key) => times.map((t) => byTime.get(t)![key] ?? null))];
  return { fields, data };
}

function axisFormat(hours: number): string {
  if (hours <= 24) return '{HH}:{mm}';
  if (hours <= 168) return '{M}/{D} {HH}:{mm}';
  return '{M}/{D}';
}

export function TrendsChart({ readings, hours }: { readings: readonly Reading[]; hours: number }) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const { fields, data } = useMemo(() => toColumns(readings), [readings]);
  const shape = `${fields.join(',')}|${hours}`;

  useEffect(() => {
    if (!host.current || fields.length === 0) return;
    const spline = uPlot.paths.spline?.();
    const fmt = uPlot.fmtDate(axisFormat(hours));
    const full = uPlot.fmtDate('{MMM} {D}, {YYYY} {HH}:{mm}:{ss}');
    plot.current = new uPlot(
      {
        width: host.current.clientWidth || 600,
        height: HEIGHT_PX,
        cursor: { points: { show: false } },
        series: [
          { value: (_u, v) => (v == null ? '' : full(new Date(v * 1000))) },
          ...fields.map((key) => {
            const f = FIELDS.find((x) => x.key === key)!;
            return {
              label: f.label,
              stroke: f.color,
              width: 2,
              spanGaps: false,
              points: { show: false },
              paths: spline,
              value: (_u: uPlot, v: number | null) => (v == null ? '---' : `${v.toFixed(1)} ${f.unit}`),
            };
          }),
        ],
        axes: [{ values: (_u, ticks) => ticks.map((t) => fmt(new Date(t * 1000))) }, {}],
      },
      data,
      host.current,
    );
    const onResize = () => plot.current?.setSize({ width: host.current?.clientWidth || 600, height: HEIGHT_PX });
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      plot.current?.destroy();
      plot.current = null;
    };
    // Rebuilt only when the set of series or the axis format changes; data goes through setData.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);

  if (fields.length === 0) {
    return (
      <div className="empty-state">
        <strong>No data available</strong>
        <p>Sensor readings will appear here once data is collected</p>
      </div>
    );
  }
  return <div ref={host} className="analytics-chart" data-testid="trends-chart" />;
}
