import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
// From their own files, not prom-client's index: the index loads all of prom-client at start, with
// its default metrics, Pushgateway, Summary (tdigest), cluster aggregation and @opentelemetry/api
// (for exemplars), none of which the gateway uses: about 100 kB of JavaScript compiled at every start.
import Counter from 'prom-client/lib/counter.js';
import Gauge from 'prom-client/lib/gauge.js';
import Histogram from 'prom-client/lib/histogram.js';
import Registry from 'prom-client/lib/registry.js';
import type { WaterDay } from '../contract/irrigation.ts';
import type { Clock } from '../../common/clock.ts';
import type { AlertStats } from '../contract/alert.ts';
import type { Device } from '../contract/device.ts';
import type { MqttStatus } from '../contract/fleet.ts';
import { SENSOR_TYPES, type SensorSnapshot, type SensorType } from '../contract/reading.ts';
import { isOnStatus } from '../devices/actions.ts';
import type { PreviewCounts } from '../devices/rules/preview-service.ts';
import { QUANTITIES, QUANTITY_KEYS } from '../../common/catalogue.ts';
import { allSensorsUpdate } from '../sensors/all-sensors-update.ts';
import { nextTurn } from '../history/turn-taking.ts';
import type { SensorHealthReport } from '../sensors/sensor-health.ts';

/** What the metrics are read from, at scrape time (a scrape is rare; nothing is polled in between). */
export interface MetricsSources {
  greenhouseId: string;
  clock: Pick<Clock, 'now'>;
  snapshot: () => SensorSnapshot;
  lastSampleAt: (sensorType: SensorType) => number | null;
  sensorHealth: () => SensorHealthReport[];
  listDevices: () => Device[];
  alertStats: () => AlertStats;
  mqttStatus: () => MqttStatus;
  previews: () => PreviewCounts;
  mqttInputDropped: () => Readonly<Record<string, number>> | null;
  /** A pump's water today (docs/irrigation.md); absent: no water gauges. */
  waterToday?: (deviceId: string) => WaterDay | null;
  /** The hardware's drivers (optional: a test's metrics may have none). */
  driverStatus?: () => ReadonlyArray<{ name: string; available: boolean; busErrors?: number }>;
  /** The data disk's last read free space (server/lifecycle/storage-watch.ts); null before the first. */
  storage?: () => { freeBytes: number; totalBytes: number } | null;
  /** Whether each alert channel heard of since start is failing (server/notifications/channel-health.ts). */
  channelFailing?: () => ReadonlyMap<string, boolean>;
}

/**
 * Reads answered once per scrape. A scrape collects one metric a turn (GatewayMetrics.metrics), and
 * several gauges read the same source: four list the devices (each device built with its state reason
 * from the database), three read each pump's day from the control log, ten the newest readings. Inside
 * a scrape each source is read once; outside one, every call reads afresh, and nothing is kept between
 * scrapes.
 */
export class ScrapeMemo {
  #scrapes = 0;
  #values = new Map<object, Map<unknown, unknown>>();

  /** Runs `scrape` with the reads of `once` and `onceBy` kept until it (and any scrape beside it) ends. */
  async during<T>(scrape: () => Promise<T>): Promise<T> {
    this.#scrapes++;
    try {
      return await scrape();
    } finally {
      if (--this.#scrapes === 0) this.#values.clear();
    }
  }

  once<T>(read: () => T): () => T {
    const byKey = this.onceBy((_: undefined) => read());
    return () => byKey(undefined);
  }

  onceBy<K, T>(read: (key: K) => T): (key: K) => T {
    const token = {};
    return (key) => {
      if (this.#scrapes === 0) return read(key);
      let values = this.#values.get(token);
      if (!values) this.#values.set(token, (values = new Map()));
      if (!values.has(key)) values.set(key, read(key));
      return values.get(key) as T;
    };
  }
}

/** HTTP latencies from a LAN request (~1 ms) to a CSV export (seconds). */
const HTTP_BUCKETS_S = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A tick reads four sensors with retries inside 80 % of the interval (at most 10 s). */
const TICK_BUCKETS_S = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10];

/** Event-loop delay sampling resolution (prom-client's default). */
const EVENT_LOOP_RESOLUTION_MS = 10;

/**
 * The gateway's Prometheus metrics, in a registry of its own (no global registry: the bench runs ten
 * gateways in one process). Gauges read their sources when scraped; counters and histograms are fed by
 * `observeTick` and `observeHttp`. The event-loop delay and process figures are our own, not
 * prom-client's collectDefaultMetrics: its loop monitor and GC observer can never be stopped, so every
 * gateway built in a test process would leave them running. Ours starts in `start()`, ends in `stop()`.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly #ticks: Counter;
  readonly #tickDuration: Histogram;
  readonly #http: Histogram;
  #loop: IntervalHistogram | null = null;

  readonly #memo = new ScrapeMemo();
  /** The event-loop delay since the previous scrape, taken as a scrape begins (then reset). */
  #lagAtScrape: { p50: number; p99: number; max: number } | null = null;

  constructor(metricsSources: MetricsSources) {
    const memo = this.#memo;
    const waterToday = metricsSources.waterToday;
    const sources: MetricsSources = {
      ...metricsSources,
      snapshot: memo.once(metricsSources.snapshot),
      sensorHealth: memo.once(metricsSources.sensorHealth),
      listDevices: memo.once(metricsSources.listDevices),
      waterToday: waterToday && memo.onceBy(waterToday),
    };
    const newest = memo.once(() => allSensorsUpdate(sources.greenhouseId, sources.snapshot()));
    const registers = [this.registry];
    this.registry.setDefaultLabels({ greenhouse_id: sources.greenhouseId });
    this.#processMetrics(registers);

    // One gauge per catalogue quantity in Prometheus base units (common/catalogue.ts `metric`), then
    // the two derived from the air's temperature and humidity.
    const gauges = [
      ...QUANTITY_KEYS.map((key) => ({ ...QUANTITIES[key].metric, field: QUANTITIES[key].field, zone: QUANTITIES[key].zone })),
      { name: 'greenhouse_air_vpd_pascals', help: 'Air vapour-pressure deficit.', scale: 1000, field: 'vpdKpa', zone: 'DHT11' as const },
      { name: 'greenhouse_air_dew_point_celsius', help: 'Dew point of the air.', scale: 1, field: 'dewPointC', zone: 'DHT11' as const },
    ];
    for (const gauge of gauges) {
      new Gauge({
        name: gauge.name,
        help: `${gauge.help} Newest value; absent until read.`,
        // A label, so a quantity never read is absent rather than a misleading 0.
        labelNames: ['sensor'],
        registers,
        collect() {
          this.reset();
          const value = newest()[gauge.field as keyof ReturnType<typeof allSensorsUpdate>];
          if (typeof value === 'number') this.set({ sensor: gauge.zone }, value * gauge.scale);
        },
      });
    }
    new Gauge({
      name: 'greenhouse_sensor_sample_age_seconds',
      help: "Seconds since the sensor's last stored sample (absent: none since start)",
      labelNames: ['sensor'],
      registers,
      collect() {
        this.reset();
        const nowMs = sources.clock.now();
        for (const sensor of SENSOR_TYPES) {
          const at = sources.lastSampleAt(sensor);
          if (at !== null) this.set({ sensor }, Math.max(0, (nowMs - at) / 1000));
        }
      },
    });
    new Gauge({
      name: 'greenhouse_sensor_healthy',
      help: '1 when the sensor answers and is not stuck, 0 when it is faulted',
      labelNames: ['sensor'],
      registers,
      collect() {
        this.reset();
        for (const report of sources.sensorHealth()) this.set({ sensor: report.sensorType }, report.healthy ? 1 : 0);
      },
    });
    new Gauge({
      name: 'greenhouse_sensor_failed_reads',
      help: 'Failed read attempts since start, retries included (a counter that restarts with the gateway)',
      labelNames: ['sensor'],
      registers,
      collect() {
        this.reset();
        for (const report of sources.sensorHealth()) this.set({ sensor: report.sensorType }, report.failedReads);
      },
    });
    // A bus that fails now and then (a long I2C cable, a loose plug) shows as a rising count long
    // before a sensor is declared gone (docs/hardware.md, "Hardware that comes back").
    new Gauge({
      name: 'greenhouse_driver_available',
      help: 'Whether a hardware driver is available (1) or not (0); health says why not',
      labelNames: ['driver'],
      registers,
      collect() {
        this.reset();
        for (const driver of sources.driverStatus?.() ?? []) this.set({ driver: driver.name }, driver.available ? 1 : 0);
      },
    });
    new Gauge({
      name: 'greenhouse_driver_bus_errors',
      help: 'Failed bus transfers of a driver since start (a counter that restarts with the gateway)',
      labelNames: ['driver'],
      registers,
      collect() {
        this.reset();
        for (const driver of sources.driverStatus?.() ?? []) {
          if (driver.busErrors !== undefined) this.set({ driver: driver.name }, driver.busErrors);
        }
      },
    });
    this.#ticks = new Counter({
      name: 'greenhouse_sampler_ticks_total',
      help: 'Sampling ticks run, by whether every sensor answered',
      labelNames: ['outcome'],
      registers,
    });
    this.#tickDuration = new Histogram({
      name: 'greenhouse_sampler_tick_duration_seconds',
      help: 'Time one sampling tick took (reads, retries and the database write)',
      buckets: TICK_BUCKETS_S,
      registers,
    });
    new Gauge({
      name: 'greenhouse_device_on',
      help: '1 when the device is on (relay energised, window open), else 0',
      labelNames: ['device_id', 'device_type'],
      registers,
      collect() {
        this.reset();
        for (const d of sources.listDevices()) this.set({ device_id: d.deviceId, device_type: d.deviceType }, isOnStatus(d.status) ? 1 : 0);
      },
    });
    new Gauge({
      name: 'greenhouse_device_power_watts',
      help: 'Rated power drawn now (the configured power of devices that are on)',
      labelNames: ['device_id', 'device_type'],
      registers,
      collect() {
        this.reset();
        for (const d of sources.listDevices()) {
          this.set({ device_id: d.deviceId, device_type: d.deviceType }, isOnStatus(d.status) ? d.powerConsumption : 0);
        }
      },
    });
    const water = (name: string, help: string, read: (day: WaterDay) => number | null) =>
      new Gauge({
        name,
        help,
        labelNames: ['device_id'],
        registers,
        collect() {
          this.reset();
          for (const d of sources.listDevices()) {
            if (d.deviceType !== 'WATER_PUMP') continue;
            const day = sources.waterToday?.(d.deviceId);
            const value = day ? read(day) : null;
            if (value !== null) this.set({ device_id: d.deviceId }, value);
          }
        },
      });
    water('greenhouse_pump_run_seconds_today', 'Run time of the pump since local midnight', (day) => day.runSeconds);
    water('greenhouse_pump_pulses_today', 'Switch-ons of the pump since local midnight', (day) => day.pulses);
    // Litres need the pump's flowLitresPerMinute: without it there is no sample rather than a false 0.
    water('greenhouse_pump_water_litres_today', 'Water pumped since local midnight (run time x flowLitresPerMinute)', (day) => day.litres);
    new Gauge({
      name: 'greenhouse_device_auto_mode',
      help: '1 when the device follows its automation rules',
      labelNames: ['device_id', 'device_type'],
      registers,
      collect() {
        this.reset();
        for (const d of sources.listDevices()) this.set({ device_id: d.deviceId, device_type: d.deviceType }, d.autoMode ? 1 : 0);
      },
    });
    new Gauge({
      name: 'greenhouse_alerts_active',
      help: 'Active (unresolved) alerts by severity',
      labelNames: ['severity'],
      registers,
      collect() {
        this.reset();
        for (const s of sources.alertStats().bySeverity) this.set({ severity: s._id }, s.active);
      },
    });
    const mqtt = (name: string, help: string, read: (status: MqttStatus) => number) =>
      new Gauge({
        name,
        help,
        // Labelled by broker, so the series are absent while the bridge is off.
        labelNames: ['broker'],
        registers,
        collect() {
          this.reset();
          const status = sources.mqttStatus();
          if (status.enabled && status.broker) this.set({ broker: status.broker }, read(status));
        },
      });
    mqtt('greenhouse_mqtt_connected', '1 while the MQTT bridge is connected to its broker (absent: bridge off)', (s) => (s.state === 'connected' ? 1 : 0));
    mqtt('greenhouse_mqtt_queued_messages', 'Messages waiting for the MQTT broker', (s) => s.queued);
    mqtt('greenhouse_mqtt_dropped_messages', 'Events dropped by the MQTT queue cap since start', (s) => s.dropped);
    new Gauge({
      name: 'greenhouse_mqtt_input_dropped',
      help: 'MQTT input dropped since start by reason: oversized (a payload past its cap), rate (a flood past the per-device or total rate) (absent: bridge off)',
      labelNames: ['reason'],
      registers,
      collect() {
        this.reset();
        for (const [reason, count] of Object.entries(sources.mqttInputDropped() ?? {})) this.set({ reason }, count);
      },
    });
    new Gauge({
      name: 'greenhouse_rule_previews_running',
      help: 'Rule previews running now, each on a worker thread',
      registers,
      collect() {
        this.set(sources.previews().running);
      },
    });
    new Gauge({
      name: 'greenhouse_rule_previews',
      help: 'Rule previews since start by outcome: completed, cancelled (the client went away), refused (over the caps)',
      labelNames: ['outcome'],
      registers,
      collect() {
        const counts = sources.previews();
        for (const outcome of ['completed', 'cancelled', 'refused'] as const) this.set({ outcome }, counts[outcome]);
      },
    });
    const storageGauge = (name: string, help: string, bytes: (s: { freeBytes: number; totalBytes: number }) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.reset();
          const storage = sources.storage?.();
          if (storage) this.set(bytes(storage));
        },
      });
    storageGauge('greenhouse_storage_free_bytes', 'Free space of the disk the database is on, for the gateway (absent before the first read)', (s) => s.freeBytes);
    storageGauge('greenhouse_storage_size_bytes', 'Size of the disk the database is on (absent before the first read)', (s) => s.totalBytes);
    new Gauge({
      name: 'greenhouse_notification_channel_failing',
      help: 'Per alert channel delivered to since start: 1 while every attempt has failed for minutes (CHANNEL_FAILING), else 0',
      labelNames: ['channel_id'],
      registers,
      collect() {
        this.reset();
        for (const [channelId, failing] of sources.channelFailing?.() ?? []) this.set({ channel_id: channelId }, failing ? 1 : 0);
      },
    });
    this.#http = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route template',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS_S,
      registers,
    });
  }

  /** Starts measuring the event-loop delay. */
  start(): void {
    if (this.#loop) return;
    this.#loop = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
    this.#loop.enable();
  }

  stop(): void {
    this.#loop?.disable();
    this.#loop = null;
  }

  /**
   * Event-loop delay since the previous scrape (the histogram is reset at each one), under the names
   * prom-client uses, so the usual Node.js dashboards read them; and the process's memory and CPU.
   */
  #processMetrics(registers: Registry[]): void {
    const lagAtScrape = () => this.#lagAtScrape;
    const lag = (name: string, help: string, pick: 'p50' | 'p99' | 'max') =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const taken = lagAtScrape();
          if (taken) this.set(taken[pick] / 1e9);
        },
      });
    lag('nodejs_eventloop_lag_p50_seconds', 'Median event-loop delay since the last scrape', 'p50');
    lag('nodejs_eventloop_lag_p99_seconds', '99th percentile event-loop delay since the last scrape', 'p99');
    lag('nodejs_eventloop_lag_max_seconds', 'Longest event-loop delay since the last scrape', 'max');
    new Gauge({
      name: 'process_resident_memory_bytes',
      help: 'Resident memory of the gateway process',
      registers,
      collect() {
        this.set(process.memoryUsage.rss());
      },
    });
    new Gauge({
      name: 'nodejs_heap_size_used_bytes',
      help: 'V8 heap in use',
      registers,
      collect() {
        this.set(process.memoryUsage().heapUsed);
      },
    });
    new Counter({
      name: 'process_cpu_seconds_total',
      help: 'User and system CPU time of the gateway process',
      registers,
      collect() {
        // A counter read from the process at scrape time: set by reset and increment.
        const { user, system } = process.cpuUsage();
        this.reset();
        this.inc((user + system) / 1e6);
      },
    });
  }

  observeTick(tick: { durationMs: number; failedSensors: readonly string[] }): void {
    this.#ticks.inc({ outcome: tick.failedSensors.length === 0 ? 'ok' : 'sensor_failed' });
    this.#tickDuration.observe(tick.durationMs / 1000);
  }

  /** `route` is the route's template (/api/devices/:greenhouseId), so ids never multiply the series. */
  observeHttp(request: { method: string; route: string; statusCode: number; durationS: number }): void {
    this.#http.observe({ method: request.method, route: request.route, status_code: String(request.statusCode) }, request.durationS);
  }

  /**
   * The registry's text, one metric a turn of the event loop: collected all in one turn (prom-client's
   * `registry.metrics()`), a scrape held the loop 10-13 ms at full speed, about 100 ms on a Pi core
   * (docs/performance.md, "Last Week's answer in pieces"). The event-loop delay is taken and reset as
   * the scrape begins, so the delays of its own turns count in the next scrape's figures.
   */
  async metrics(): Promise<string> {
    const loop = this.#loop;
    this.#lagAtScrape = loop && loop.count > 0 ? { p50: loop.percentile(50), p99: loop.percentile(99), max: loop.max } : null;
    loop?.reset();
    return this.#memo.during(async () => {
      const parts: string[] = [];
      for (const metric of this.registry.getMetricsAsArray()) {
        if (parts.length > 0) await nextTurn();
        parts.push(await this.registry.getSingleMetricAsString(metric.name));
      }
      // prom-client's own layout of the text format.
      return `${parts.join('\n\n')}\n`;
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
