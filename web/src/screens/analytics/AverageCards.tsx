// Four averages over the range; '---' when no sensor reported that field.
import type { SensorStats } from '../../api/analytics.ts';
import { formatLight, formatOneDecimal } from '../../format.ts';

type AvgKey = 'avgTemperature' | 'avgHumidity' | 'avgLightIntensity' | 'avgSoilMoisture';

/** The average of a field from the sensor type that measures it (the first entry that has it). */
export function averageOf(stats: readonly SensorStats[], key: AvgKey): number | null {
  for (const s of stats) if (typeof s[key] === 'number') return s[key];
  return null;
}

const CARDS: Array<{ key: AvgKey; label: string; unit: string; format: (v: number | null) => string }> = [
  { key: 'avgTemperature', label: 'Avg Temperature', unit: '°C', format: formatOneDecimal },
  { key: 'avgHumidity', label: 'Avg Humidity', unit: '%', format: formatOneDecimal },
  { key: 'avgLightIntensity', label: 'Avg Light', unit: 'lux', format: formatLight },
  { key: 'avgSoilMoisture', label: 'Avg Soil Moisture', unit: '%', format: formatOneDecimal },
];

export function AverageCards({ stats }: { stats: readonly SensorStats[] }) {
  return (
    <div className="grid grid-4">
      {CARDS.map((card) => {
        const value = averageOf(stats, card.key);
        return (
          <div key={card.key} className="card stat-card" data-testid={`average-${card.key}`}>
            <span className="stat-label">{card.label}</span>
            <span className="stat-value">
              {card.format(value)}
              {value !== null && <span className="analytics-unit"> {card.unit}</span>}
            </span>
          </div>
        );
      })}
    </div>
  );
}
