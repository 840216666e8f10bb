import { describe, expect, it } from 'vitest';
import { ScrapeMemo } from '../../../server/metrics/gateway-metrics.ts';

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ScrapeMemo (a metrics scrape reads each source once for all its gauges)', () => {
  it('answers every call of one scrape with one read, across its turns, and reads afresh in the next scrape', async () => {
    const memo = new ScrapeMemo();
    let reads = 0;
    const listDevices = memo.once(() => [`read ${++reads}`]);
    const seen = await memo.during(async () => {
      const first = listDevices();
      await nextTurn(); // the scrape's next metric, a turn later
      return [first, listDevices()];
    });
    expect(seen).toEqual([['read 1'], ['read 1']]);
    expect(await memo.during(async () => listDevices())).toEqual(['read 2']);
    expect(reads).toBe(2);
  });

  it('reads afresh at every call outside a scrape, and keeps nothing after one', async () => {
    const memo = new ScrapeMemo();
    let reads = 0;
    const listDevices = memo.once(() => ++reads);
    expect([listDevices(), listDevices()]).toEqual([1, 2]);
    await memo.during(async () => listDevices());
    expect(listDevices()).toBe(4);
  });

  it("onceBy reads each key once per scrape (a pump's water for three gauges)", async () => {
    const memo = new ScrapeMemo();
    const reads: string[] = [];
    const waterToday = memo.onceBy((deviceId: string) => {
      reads.push(deviceId);
      return { deviceId, read: reads.length };
    });
    await memo.during(async () => {
      expect(waterToday('pump-1')).toEqual({ deviceId: 'pump-1', read: 1 });
      expect(waterToday('pump-2')).toEqual({ deviceId: 'pump-2', read: 2 });
      await nextTurn();
      expect(waterToday('pump-1')).toEqual({ deviceId: 'pump-1', read: 1 });
    });
    await memo.during(async () => expect(waterToday('pump-1')).toEqual({ deviceId: 'pump-1', read: 3 }));
    expect(reads).toEqual(['pump-1', 'pump-2', 'pump-1']);
  });

  it('keeps the reads while a second scrape beside the first is still running', async () => {
    const memo = new ScrapeMemo();
    let reads = 0;
    const read = memo.once(() => ++reads);
    let finishSecond!: () => void;
    const second = memo.during(() => new Promise<number>((resolve) => (finishSecond = () => resolve(read()))));
    await memo.during(async () => read());
    finishSecond();
    expect(await second).toBe(1);
  });
});
