// Hourly Sensor Activity: reading counts per hour of day (0-23) as SVG bars.
import type { HourlyBucket } from '../../api/analytics.ts';
import { formatLight, formatOneDecimal } from '../../format.ts';

const WIDTH = 480;
const HEIGHT = 160;

const hourOf = (b: HourlyBucket) => b.hour;

export function countsByHour(buckets: readonly HourlyBucket[]): number[] {
  const counts = Array.from({ length: 24 }, () => 0);
  for (const b of buckets) {
    const hour = hourOf(b);
    if (typeof hour === 'number' && hour >= 0 && hour < 24 && typeof b.count === 'number') counts[hour] = (counts[hour] ?? 0) + b.count;
  }
  return counts;
}

/** Tooltip: the count and the hour's averages (spec section 9: one decimal, light as an integer). */
function describeHour(hour: number, count: number, bucket: HourlyBucket | undefined): string {
  const parts = [`${hour}:00 — ${count} readings`];
  if (bucket?.avgTemperature != null) parts.push(`${formatOneDecimal(bucket.avgTemperature)}°C`);
  if (bucket?.avgHumidity != null) parts.push(`${formatOneDecimal(bucket.avgHumidity)}%`);
  if (bucket?.avgLightIntensity != null) parts.push(`${formatLight(bucket.avgLightIntensity)} lux`);
  if (bucket?.avgSoilMoisture != null) parts.push(`soil ${formatOneDecimal(bucket.avgSoilMoisture)}%`);
  return parts.join(', ');
}

export function HourlyActivity({ buckets }: { buckets: readonly HourlyBucket[] }) {
  const counts = countsByHour(buckets);
  const max = Math.max(...counts);
  const barWidth = WIDTH / 24;
  return (
    <section className="card">
      <h2 className="card-header">Hourly Sensor Activity</h2>
      {max === 0 ? (
        <p className="empty-state">No activity data available</p>
      ) : (
        <svg className="analytics-bars" viewBox={`0 0 ${WIDTH} ${HEIGHT + 16}`} role="img" aria-label="Readings per hour of day">
          {counts.map((count, hour) => {
            const h = (count / max) * HEIGHT;
            return (
              <g key={hour}>
                <rect x={hour * barWidth + 2} y={HEIGHT - h} width={barWidth - 4} height={h} data-hour={hour} data-count={count}>
                  <title>{describeHour(hour, count, buckets.find((b) => hourOf(b) === hour))}</title>
                </rect>
                {hour % 3 === 0 && (
                  <text x={hour * barWidth + barWidth / 2} y={HEIGHT + 13} textAnchor="middle">
                    {hour}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      )}
    </section>
  );
}
