import { describe, expect, it } from 'vitest';
import type { Device } from '../../../server/contract/device.ts';
import { GatewayMetrics, type MetricsSources } from '../../../server/metrics/gateway-metrics.ts';
import { snapshotOf } from '../../support/snapshots.ts';

const NOW_MS = Date.UTC(2026, 10, 28, 2, 0);

function gatewayMetrics() {
  const reads = { devices: 0, snapshots: 0 };
  const fan = { deviceId: 'fan-1', deviceType: 'FAN', status: 'ON', autoMode: true, powerConsumption: 60 } as unknown as Device;
  const sources = {
    greenhouseId: 'greenhouse-001',
    clock: { now: () => NOW_MS },
    snapshot: () => (reads.snapshots++, snapshotOf({ temperature: 24.5, humidity: 61 }, NOW_MS)),
    lastSampleAt: () => NOW_MS - 5_000,
    sensorHealth: () => [],
    listDevices: () => (reads.devices++, [fan]),
    alertStats: () => ({ bySeverity: [] }),
    mqttStatus: () => ({ enabled: false }),
    previews: () => ({ running: 0, completed: 0, cancelled: 0, refused: 0 }),
    mqttInputDropped: () => null,
  } as unknown as MetricsSources;
  return { metrics: new GatewayMetrics(sources), reads };
}

describe('GatewayMetrics.metrics (a scrape, a metric a turn)', () => {
  it("gives prom-client's own text, with each source read once", async () => {
    const { metrics, reads } = gatewayMetrics();
    const text = await metrics.metrics();
    expect(reads).toEqual({ devices: 1, snapshots: 1 });
    const own = await metrics.registry.metrics();
    // The same metrics in the same layout; only the process's own figures (CPU, memory) move between the two.
    const withoutProcess = (t: string) => t.split('\n').filter((line) => !/process_|nodejs_heap/.test(line)).join('\n');
    expect(withoutProcess(text)).toBe(withoutProcess(own));
    expect(text).toContain('greenhouse_device_on{device_id="fan-1",device_type="FAN",greenhouse_id="greenhouse-001"} 1');
    expect(text).toContain('greenhouse_air_temperature_celsius{sensor="DHT11",greenhouse_id="greenhouse-001"} 24.5');
  });

  it('lets timers run between its metrics', async () => {
    const { metrics } = gatewayMetrics();
    let scraped = false;
    const scrape = metrics.metrics().then(() => (scraped = true));
    const timerSawItUnfinished = await new Promise<boolean>((resolve) => setTimeout(() => resolve(!scraped), 0));
    await scrape;
    expect(timerSawItUnfinished).toBe(true);
  });

  it('reports the event-loop delay since the previous scrape, then starts counting afresh', async () => {
    const { metrics } = gatewayMetrics();
    metrics.start();
    try {
      const lagMax = (text: string) => Number(/^nodejs_eventloop_lag_max_seconds\{[^}]*\} (\S+)$/m.exec(text)?.[1]);
      await new Promise((resolve) => setTimeout(resolve, 30));
      const busyUntil = performance.now() + 300;
      while (performance.now() < busyUntil); // holds the loop 300 ms
      await new Promise((resolve) => setTimeout(resolve, 30));
      const afterHold = lagMax(await metrics.metrics());
      expect(afterHold).toBeGreaterThan(0.25);
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The hold was counted by the scrape before: this one reports only what came after it.
      expect(lagMax(await metrics.metrics())).toBeLessThan(afterHold);
    } finally {
      metrics.stop();
    }
  });
});
