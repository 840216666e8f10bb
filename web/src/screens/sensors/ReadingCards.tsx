// Current-reading cards (Overview "Sensor Overview" and the Sensors screen): four from docs/product.md §2,
// plus the water tank level when asked, plus CO2, air pressure and root-zone temperature when a
// configured sensor measures them (docs/sensors.md). Temperatures follow the °C/°F preference. A sensor that is faulted or silent shows that instead of a
// value (sensors/sensor-health.ts); only when the gateway itself cannot be asked does the last known
// value stay, marked with its age.
import { Cloud, Droplets, Gauge, Sprout, Sun, Thermometer, Waves, type LucideIcon } from 'lucide-react';
import type { Reading } from '../../../../server/contract/reading.ts';
import { useReachability } from '../../api/reachability.ts';
import { formatRelativeTime } from '../../format.ts';
import { healthWord, lastReadingWords, type SensorHealth } from '../../sensors/sensor-health.ts';
import { OPTIONAL_QUANTITIES, useMeasuredQuantities } from '../../sensors/measured-quantities.ts';
import { formatField, readingCards, type CardSpec } from '../../sensors/readings-view.ts';
import { useSensorHealth } from '../../sensors/useSensorHealth.ts';
import { toUnit, unitSymbol, useTemperatureUnit } from '../../units.ts';
import './sensors.css';

const ICONS: Record<string, LucideIcon> = {
  temperature: Thermometer, humidity: Droplets, light: Sun, soil: Sprout, water: Waves,
  co2: Cloud, pressure: Gauge, rootTemperature: Thermometer,
};

export function ReadingCards({ withWater = false }: { withWater?: boolean }) {
  const { health, bySensor, nowMs } = useSensorHealth();
  const { unreachableSinceMs } = useReachability();
  const unit = useTemperatureUnit();
  const cards = readingCards(OPTIONAL_QUANTITIES, useMeasuredQuantities(), withWater);
  const layout = cards.length > 5 ? ' reading-cards-many' : withWater ? ' reading-cards-5' : ' grid-4';
  return (
    <div className={`grid reading-cards${layout}`}>
      {cards.map((card) => (
        <ReadingCard
          key={card.key}
          card={card.unit === '°C' ? { ...card, unit: unitSymbol(unit) } : card}
          reading={bySensor[card.sensorType]}
          health={health[card.sensorType]}
          convert={card.unit === '°C' ? (v) => toUnit(v, unit) : (v) => v}
          gatewayDown={unreachableSinceMs !== null}
          nowMs={nowMs}
        />
      ))}
    </div>
  );
}

interface CardProps {
  card: CardSpec;
  reading: Reading | undefined;
  health: SensorHealth;
  convert: (value: number | null | undefined) => number | null | undefined;
  gatewayDown: boolean;
  nowMs: number;
}

function ReadingCard({ card, reading, health, convert, gatewayDown, nowMs }: CardProps) {
  const Icon = ICONS[card.key]!;
  // The gateway does not answer: the last known value stays, marked with its age (it may still be true).
  const lastKnown = gatewayDown && reading !== undefined;
  // The gateway answers and says the sensor is lost: no value at all.
  const lost = !gatewayDown && (health.state === 'fault' || health.state === 'stale');
  return (
    <div
      className={`card reading-card reading-${card.key}${lastKnown ? ' reading-stale' : ''}${lost ? ' reading-lost' : ''}`}
      data-testid={`reading-${card.key}`}
      data-health={health.state}
    >
      <div>
        <p className="stat-label">
          {card.label} ({card.unit})
        </p>
        {lost ? (
          <p className="stat-value reading-lost-word">{healthWord(health.state)}</p>
        ) : (
          <p className="stat-value">{formatField(card.field, convert(reading?.[card.field]))}</p>
        )}
        {lastKnown && (
          <p className="stale-tag" data-testid="stale-tag">
            Stale · {formatRelativeTime(reading.timestamp, nowMs)}
          </p>
        )}
        {lost && (
          <p className="stale-tag" data-testid="lost-tag">
            {lastReadingWords(health, nowMs)}
          </p>
        )}
      </div>
      <Icon size={28} aria-hidden className="reading-icon" />
    </div>
  );
}
