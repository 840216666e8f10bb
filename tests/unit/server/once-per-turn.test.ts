import { describe, expect, it } from 'vitest';
import { oncePerTurn } from '../../../server/metrics/gateway-metrics.ts';

describe('oncePerTurn (a metrics scrape lists the devices once for all its gauges)', () => {
  it('answers every call in the same turn with one read, and reads afresh in the next turn', async () => {
    let reads = 0;
    const listDevices = oncePerTurn(() => [`read ${++reads}`]);
    expect(listDevices()).toEqual(['read 1']);
    expect(listDevices()).toEqual(['read 1']);
    await Promise.resolve(); // a gauge's collect after an await of the scrape: still the same turn
    expect(listDevices()).toEqual(['read 1']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(listDevices()).toEqual(['read 2']);
    expect(reads).toBe(2);
  });
});
