// Current-reading cards (Overview "Sensor Overview" and the Sensors screen): four from spec section 2,
// plus the water tank level when asked.
import { Droplets, Sprout, Sun, Thermometer, Waves, type LucideIcon } from 'lucide-react';
import type { Reading } from '../../../../server/contract/reading.ts';
import { readingsBySensor, useLatestReadings } from '../../api/queries.ts';
import { formatField, READING_CARDS, WATER_CARD, type CardSpec } from '../../sensors/readings-view.ts';
import './sensors.css';

const ICONS: Record<string, LucideIcon> = { temperature: Thermometer, humidity: Droplets, light: Sun, soil: Sprout, water: Waves };

export function ReadingCards({ withWater = false }: { withWater?: boolean }) {
  const bySensor = readingsBySensor(useLatestReadings().data);
  const cards = withWater ? [...READING_CARDS, WATER_CARD] : READING_CARDS;
  return (
    <div className={`grid reading-cards${withWater ? ' reading-cards-5' : ' grid-4'}`}>
      {cards.map((card) => (
        <ReadingCard key={card.key} card={card} reading={bySensor[card.sensorType]} />
      ))}
    </div>
  );
}

function ReadingCard({ card, reading }: { card: CardSpec; reading: Reading | undefined }) {
  const Icon = ICONS[card.key]!;
  return (
    <div className={`card reading-card reading-${card.key}`} data-testid={`reading-${card.key}`}>
      <div>
        <p className="stat-label">
          {card.label} ({card.unit})
        </p>
        <p className="stat-value">{formatField(card.field, reading?.[card.field])}</p>
      </div>
      <Icon size={28} aria-hidden className="reading-icon" />
    </div>
  );
}
