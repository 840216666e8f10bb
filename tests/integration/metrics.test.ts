// GET /api/metrics: Prometheus text for any signed-in account, with the gateway's own numbers in it.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hardwareWith, fakeSensors } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

let gw: TestGateway;
let http: HttpClient;
let admin: string;
let viewer: string;
const ID = 'greenhouse-001';

beforeAll(async () => {
  gw = await startTestGateway({}, { hardware: hardwareWith(fakeSensors({ climate: { temperatureC: 24.5, humidityPct: 61 }, levelCm: 42 }).sensors) });
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'boss' });
  viewer = await registerUser(http, { username: 'guest', role: 'viewer' }, admin);
});
afterAll(async () => gw?.dispose());

/** The value of one series, e.g. sample(text, 'greenhouse_device_on', { device_id: 'fan-1' }). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('GET /api/metrics', () => {
  it('needs a token, and any role will do', async () => {
    expect((await http.get('/api/metrics')).status).toBe(401);
    expect((await http.get('/api/metrics', 'not-a-token')).status).toBe(401);
    const answer = await http.get('/api/metrics', viewer);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('reports readings, device states, active alerts by severity, sampler health, event-loop lag and HTTP latency', async () => {
    await gw.sampler.sampleNow();
    await http.post('/api/devices/fan-1/control', { action: 'on' }, admin);
    await http.post(`/api/alerts/${ID}`, { alertType: 'CUSTOM_CHECK', severity: 'HIGH', message: 'one' }, admin);
    await http.post(`/api/alerts/${ID}`, { alertType: 'OTHER_CHECK', severity: 'HIGH', message: 'two' }, admin);
    const text = (await http.get('/api/metrics', viewer)).body as string;

    // Base units (prometheus.io naming): ratios for %, meters for cm, pascals for kPa.
    expect(sample(text, 'greenhouse_air_temperature_celsius', { greenhouse_id: ID })).toBe(24.5);
    expect(sample(text, 'greenhouse_air_relative_humidity_ratio')).toBeCloseTo(0.61, 10);
    expect(sample(text, 'greenhouse_tank_water_level_meters')).toBeCloseTo(0.42, 10);
    expect(sample(text, 'greenhouse_air_vpd_pascals', { sensor: 'DHT11' })).toBeCloseTo(1200, -1);
    expect(sample(text, 'greenhouse_air_dew_point_celsius')).toBeCloseTo(16.5, 1);
    // No CO2 sensor is configured: no series rather than a misleading 0.
    expect(sample(text, 'greenhouse_air_co2_ratio')).toBeUndefined();
    expect(sample(text, 'greenhouse_device_on', { device_id: 'fan-1', device_type: 'FAN' })).toBe(1);
    expect(sample(text, 'greenhouse_device_on', { device_id: 'heater-1' })).toBe(0);
    expect(sample(text, 'greenhouse_device_power_watts', { device_id: 'fan-1' })).toBe(60);
    expect(sample(text, 'greenhouse_alerts_active', { severity: 'HIGH' })).toBe(2);
    expect(sample(text, 'greenhouse_alerts_active', { severity: 'CRITICAL' })).toBe(0);
    expect(sample(text, 'greenhouse_sampler_ticks_total', { outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'greenhouse_sampler_tick_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'greenhouse_sensor_healthy', { sensor: 'DHT11' })).toBe(1);
    expect(sample(text, 'greenhouse_sensor_sample_age_seconds', { sensor: 'WATER_LEVEL' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(10e6);
    expect(sample(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    // Routes by template: one series for every device's control, whatever the id.
    expect(sample(text, 'http_request_duration_seconds_count', { route: '/api/devices/:deviceId/control', method: 'POST', status_code: '200' })).toBe(1);
    expect(text).not.toContain('route="/api/devices/fan-1/control"');
    // The bridge is off: no MQTT series rather than a misleading 0.
    expect(sample(text, 'greenhouse_mqtt_connected')).toBeUndefined();
    // The data disk as the storage watch read it at start (the test's own temporary directory's disk).
    expect(sample(text, 'greenhouse_storage_free_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'greenhouse_storage_size_bytes')).toBeGreaterThanOrEqual(sample(text, 'greenhouse_storage_free_bytes')!);
  });

  it('says which alert channel is failing, and forgets a deleted one', async () => {
    gw.bus.emit('channelHealthChanged', { channelId: 'phone', kind: 'ntfy', failing: true, failingForMs: 510_000, detail: 'ECONNREFUSED' });
    gw.bus.emit('channelHealthChanged', { channelId: 'hook', kind: 'webhook', failing: false, why: 'delivered' });
    let text = (await http.get('/api/metrics', viewer)).body as string;
    expect(sample(text, 'greenhouse_notification_channel_failing', { channel_id: 'phone' })).toBe(1);
    expect(sample(text, 'greenhouse_notification_channel_failing', { channel_id: 'hook' })).toBe(0);
    gw.bus.emit('channelHealthChanged', { channelId: 'phone', kind: null, failing: false, why: 'deleted' });
    text = (await http.get('/api/metrics', viewer)).body as string;
    expect(sample(text, 'greenhouse_notification_channel_failing', { channel_id: 'phone' })).toBeUndefined();
  });

  it("passes Prometheus' own `promtool check metrics` (names, units, help, types)", async () => {
    await gw.sampler.sampleNow();
    const text = (await http.get('/api/metrics', viewer)).body as string;
    const result = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(result.error).toBeUndefined();
    expect(`${result.stdout}${result.stderr}`.trim()).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('GET /api/metrics: the drivers', () => {
  it("reports each driver's availability and its bus errors, as health counts them", async () => {
    const hardware = hardwareWith(fakeSensors({ climate: { temperatureC: 20, humidityPct: 50 } }).sensors);
    const drivers = [
      { name: 'relays', available: true, reason: null },
      { name: 'ads1115', available: false, reason: 'I2C bus 1 address 0x48: EREMOTEIO; next probe in 20 s', busErrors: 7 },
    ];
    const other = await startTestGateway({}, { hardware: { ...hardware, status: () => drivers } });
    try {
      const otherHttp = httpClient(other.url);
      const token = await registerUser(otherHttp, { username: 'owner' });
      const text = (await otherHttp.get('/api/metrics', token)).body as string;
      expect(sample(text, 'greenhouse_driver_available', { driver: 'relays' })).toBe(1);
      expect(sample(text, 'greenhouse_driver_available', { driver: 'ads1115' })).toBe(0);
      expect(sample(text, 'greenhouse_driver_bus_errors', { driver: 'ads1115' })).toBe(7);
      // A driver that does not count bus errors has no series rather than a misleading 0.
      expect(sample(text, 'greenhouse_driver_bus_errors', { driver: 'relays' })).toBeUndefined();
    } finally {
      await other.dispose();
    }
  });
});
