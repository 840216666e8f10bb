// Overview widget "Sensor Overview" (docs/product.md §2): the four current readings, and the water tank.
import { ReadingCards } from '../sensors/ReadingCards.tsx';

export function SensorOverview() {
  return (
    <section aria-label="Sensor Overview" data-testid="sensor-overview">
      <h2 className="section-title">Sensor Overview</h2>
      <ReadingCards withWater />
    </section>
  );
}
