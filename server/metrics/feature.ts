import type { WaterDay } from '../contract/irrigation.ts';
import type { FastifyInstance } from 'fastify';
import type { AlertService } from '../alerts/alert-service.ts';
import type { AppContext } from '../context.ts';
import type { Device } from '../contract/device.ts';
import type { MqttStatus } from '../contract/fleet.ts';
import type { PreviewCounts } from '../devices/rules/preview-service.ts';
import type { Feature } from '../features.ts';
import type { SamplingLoop } from '../sensors/sampling-loop.ts';
import { GatewayMetrics } from './gateway-metrics.ts';

export interface MetricsFeature extends Feature {
  metrics: GatewayMetrics;
}

export interface MetricsUses {
  sampler: Pick<SamplingLoop, 'snapshot' | 'lastSampleAt' | 'health'>;
  listDevices: () => Device[];
  alerts: Pick<AlertService, 'stats'>;
  mqttStatus: () => MqttStatus;
  previews: () => PreviewCounts;
  /** MQTT input dropped by reason, or null while the bridge is off. */
  mqttInputDropped: () => Readonly<Record<string, number>> | null;
  /** A pump's water today, for the water gauges. */
  waterToday?: (deviceId: string) => WaterDay | null;
}

async function metricsRoutes(app: FastifyInstance, options: { metrics: GatewayMetrics }): Promise<void> {
  // Prometheus text format, not the JSON envelope: what a Prometheus scrape job (with a bearer token) reads.
  app.get('/', async (_request, reply) => {
    const text = await options.metrics.metrics();
    return reply.type(options.metrics.contentType).send(text);
  });
}

/**
 * GET /api/metrics (docs/decisions.md, Fleet): Prometheus text for any signed-in account's token. Also times
 * every /api request for http_request_duration_seconds.
 */
export function createMetricsFeature(ctx: AppContext, uses: MetricsUses): MetricsFeature {
  // What the bus says of the data disk and the alert channels, kept for the next scrape.
  let storage: { freeBytes: number; totalBytes: number } | null = null;
  const channelFailing = new Map<string, boolean>();
  const metrics = new GatewayMetrics({
    greenhouseId: ctx.config.greenhouseId,
    clock: ctx.clock,
    snapshot: () => uses.sampler.snapshot(),
    lastSampleAt: (sensorType) => uses.sampler.lastSampleAt(sensorType),
    sensorHealth: () => uses.sampler.health(),
    listDevices: uses.listDevices,
    alertStats: () => uses.alerts.stats(),
    mqttStatus: uses.mqttStatus,
    previews: uses.previews,
    mqttInputDropped: uses.mqttInputDropped,
    waterToday: uses.waterToday,
    driverStatus: () => ctx.hardware.status(),
    storage: () => storage,
    channelFailing: () => channelFailing,
  });
  const offs: Array<() => void> = [];
  return {
    name: 'metrics',
    metrics,
    async registerPublicRoutes(api) {
      // On the /api context, so every feature's route is timed, public or not.
      api.addHook('onResponse', async (request, reply) => {
        metrics.observeHttp({
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          statusCode: reply.statusCode,
          durationS: reply.elapsedTime / 1000,
        });
      });
    },
    async registerRoutes(authenticated) {
      await authenticated.register(metricsRoutes, { prefix: '/metrics', metrics });
    },
    start() {
      metrics.start();
      offs.push(
        ctx.bus.on('samplerTicked', 'metrics', (tick) => metrics.observeTick(tick)),
        ctx.bus.on('storageChecked', 'metrics', ({ freeBytes, totalBytes }) => (storage = { freeBytes, totalBytes })),
        ctx.bus.on('channelHealthChanged', 'metrics', (change) => {
          if (!change.failing && change.why === 'deleted') channelFailing.delete(change.channelId);
          else channelFailing.set(change.channelId, change.failing);
        }),
      );
    },
    stop() {
      for (const off of offs.splice(0)) off();
      metrics.stop();
    },
  };
}
