// Hourly Sensor Activity: reading counts per hour of day (0-23) as SVG bars.
import type { HourlyBucket } from '../../api/analytics.ts';
import { formatLight, formatOneDecimal } from '../../format.ts';

const WIDTH = 480;
const HEIGHT = 160;
/** Room on the left for the y axis (reading counts). */
const AXIS_PX = 40;
const TOP_PX = 8;

const hourOf = (b: HourlyBucket) => b.hour;

export function countsByHour(buckets: readonly HourlyBucket[]): number[] {
  const counts = Array.from({ length: 24 }, () => 0);
  for (const b of buckets) {
    const hour = hourOf(b);
    if (typeof hour === 'number' && hour >= 0 && hour < 24 && typeof b.count === 'number') counts[hour] = (counts[hour] ?? 0) + b.count;
  }
  return counts;
}

/** Tooltip: the count and the hour's averages (docs/product.md §9: one decimal, light as an integer). */
function describeHour(hour: number, count: number, bucket: HourlyBucket | undefined): string {
  const parts = [`${hour}:00 — ${count} readings`];
  if (bucket?.avgTemperature != null) parts.push(`${formatOneDecimal(bucket.avgTemperature)}°C`);
  if (bucket?.avgHumidity != null) parts.push(`${formatOneDecimal(bucket.avgHumidity)}%`);
  if (bucket?.avgLightIntensity != null) parts.push(`${formatLight(bucket.avgLightIntensity)} lux`);
  if (bucket?.avgSoilMoisture != null) parts.push(`soil ${formatOneDecimal(bucket.avgSoilMoisture)}%`);
  return parts.join(', ');
}

/** Round y-axis ticks from 0 to the first at or above the largest count (three or four). */
export function countTicks(max: number): number[] {
  if (max <= 0) return [0];
  const step = niceStep(max / 2);
  // Up to the first tick at or above the largest count, so the tallest bar stays under the axis top.
  const ticks = [0];
  while (ticks[ticks.length - 1]! < max) ticks.push(ticks[ticks.length - 1]! + step);
  return ticks;
}

function niceStep(raw: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const unit = [1, 2, 5, 10].find((m) => m * magnitude >= raw)!;
  return unit * magnitude;
}

export function HourlyActivity({ buckets }: { buckets: readonly HourlyBucket[] }) {
  const counts = countsByHour(buckets);
  const ticks = countTicks(Math.max(...counts));
  const top = ticks[ticks.length - 1]!;
  const barWidth = (WIDTH - AXIS_PX) / 24;
  const y = (count: number) => TOP_PX + HEIGHT - (count / (top || 1)) * HEIGHT;
  const busiest = counts.indexOf(Math.max(...counts));
  return (
    <section className="card">
      <h2 className="card-header">Hourly Sensor Activity</h2>
      {Math.max(...counts) === 0 ? (
        <p className="empty-state">No activity data available</p>
      ) : (
        <>
          <svg className="analytics-bars" viewBox={`0 0 ${WIDTH} ${TOP_PX + HEIGHT + 18}`} role="img" aria-label="Readings per hour of day">
            <g className="axis" data-testid="hourly-y-axis">
              <line x1={AXIS_PX} x2={AXIS_PX} y1={TOP_PX} y2={TOP_PX + HEIGHT} />
              {ticks.map((t) => (
                <g key={t}>
                  <line className="gridline" x1={AXIS_PX} x2={WIDTH} y1={y(t)} y2={y(t)} />
                  <text x={AXIS_PX - 4} y={y(t) + 4} textAnchor="end">
                    {t}
                  </text>
                </g>
              ))}
            </g>
            {counts.map((count, hour) => {
              const h = (count / (top || 1)) * HEIGHT;
              const x = AXIS_PX + hour * barWidth;
              return (
                <g key={hour}>
                  <rect x={x + 2} y={TOP_PX + HEIGHT - h} width={barWidth - 4} height={h} data-hour={hour} data-count={count}>
                    <title>{describeHour(hour, count, buckets.find((b) => hourOf(b) === hour))}</title>
                  </rect>
                  {hour % 3 === 0 && (
                    <text x={x + barWidth / 2} y={TOP_PX + HEIGHT + 14} textAnchor="middle">
                      {hour}
                    </text>
                  )}
                </g>
              );
            })}
          </svg>
          <p className="muted analytics-caption">Readings per hour of day (0-23, gateway time).</p>
          <p className="sr-only" data-testid="hourly-summary">
            Most readings at {busiest}:00 ({counts[busiest]}). {counts.map((c, h) => `${h}:00 ${c}`).join(', ')}.
          </p>
        </>
      )}
    </section>
  );
}
