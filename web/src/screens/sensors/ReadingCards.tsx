// Current-reading cards (Overview "Sensor Overview" and the Sensors screen): four from spec section 2,
// plus the water tank level when asked.
import { Droplets, Sprout, Sun, Thermometer, Waves, type LucideIcon } from 'lucide-react';
import type { Reading } from '../../../../server/contract/reading.ts';
import { readingsBySensor, useLatestReadings } from '../../api/queries.ts';
import { useReachability } from '../../api/reachability.ts';
import { useNow } from '../../components/useNow.ts';
import { formatRelativeTime } from '../../format.ts';
import { formatField, READING_CARDS, statusOf, WATER_CARD, type CardSpec } from '../../sensors/readings-view.ts';
import { toUnit, unitSymbol, useTemperatureUnit } from '../../units.ts';
import './sensors.css';

const ICONS: Record<string, LucideIcon> = { temperature: Thermometer, humidity: Droplets, light: Sun, soil: Sprout, water: Waves };

export function ReadingCards({ withWater = false }: { withWater?: boolean }) {
  const bySensor = readingsBySensor(useLatestReadings().data);
  const { unreachableSinceMs } = useReachability();
  const nowMs = useNow();
  const unit = useTemperatureUnit();
  const cards = withWater ? [...READING_CARDS, WATER_CARD] : READING_CARDS;
  return (
    <div className={`grid reading-cards${withWater ? ' reading-cards-5' : ' grid-4'}`}>
      {cards.map((card) => (
        <ReadingCard
          key={card.key}
          card={card.field === 'temperature' ? { ...card, unit: unitSymbol(unit) } : card}
          reading={bySensor[card.sensorType]}
          convert={card.field === 'temperature' ? (v) => toUnit(v, unit) : (v) => v}
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
  convert: (value: number | null | undefined) => number | null | undefined;
  gatewayDown: boolean;
  nowMs: number;
}

function ReadingCard({ card, reading, convert, gatewayDown, nowMs }: CardProps) {
  const Icon = ICONS[card.key]!;
  // A last known value stays on screen, marked with its age, when it is old or cannot be refreshed.
  const stale = reading !== undefined && (gatewayDown || statusOf(reading, nowMs) !== 'online');
  return (
    <div className={`card reading-card reading-${card.key}${stale ? ' reading-stale' : ''}`} data-testid={`reading-${card.key}`}>
      <div>
        <p className="stat-label">
          {card.label} ({card.unit})
        </p>
        <p className="stat-value">{formatField(card.field, convert(reading?.[card.field]))}</p>
        {stale && (
          <p className="stale-tag" data-testid="stale-tag">
            Stale · {formatRelativeTime(reading.timestamp, nowMs)}
          </p>
        )}
      </div>
      <Icon size={28} aria-hidden className="reading-icon" />
    </div>
  );
}
