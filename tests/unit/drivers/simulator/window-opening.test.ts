import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { createSimulatorHardware } from '../../../../drivers/simulator/hardware.ts';
import { outputs, sensors } from '../fixtures.ts';

const MIN = 60_000;

/** A sunny noon in June, the house warmer than outside; the roof window opened this far for 3 minutes. */
function coolingWith(openPct: number | null): number {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
  const hw = createSimulatorHardware({ clock, sensors, outputs, simulator: { seed: 3 } });
  const window = hw.outputs.get('servo-1')!;
  const before = hw.simulator.snapshot().insideTemperatureC;
  if (openPct !== null) void window.setOpenPct!(openPct);
  clock.advance(3 * MIN);
  return before - hw.simulator.snapshot().insideTemperatureC;
}

describe('simulated roof window: air exchange in proportion to its opening', () => {
  it('a window half open exchanges about half the air of a fully open one, and the model is deterministic', () => {
    const closed = coolingWith(null);
    const half = coolingWith(50);
    const full = coolingWith(100);
    expect(half).toBeGreaterThan(closed);
    expect(full).toBeGreaterThan(half);
    // Over 3 minutes the exchange is still far from settling: the extra cooling scales with the opening.
    expect((half - closed) / (full - closed)).toBeGreaterThan(0.45);
    expect((half - closed) / (full - closed)).toBeLessThan(0.7);
    expect(coolingWith(50)).toBe(half);
  });
});
