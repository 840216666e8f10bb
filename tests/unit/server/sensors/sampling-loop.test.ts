import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { DEFAULT_ALERT_THRESHOLDS, DEFAULT_DEVICE_SETTINGS, DEFAULT_SYSTEM_SETTINGS, type Settings } from '../../../../server/contract/settings.ts';
import { openDatabase, type OpenedDatabase } from '../../../../server/db/open.ts';
import { EventBus, type GatewayEvents } from '../../../../server/events/bus.ts';
import { ReadingsRepo } from '../../../../server/sensors/readings-repo.ts';
import { LIVENESS_GRACE_MS, SamplingLoop } from '../../../../server/sensors/sampling-loop.ts';
import { fakeSensors } from '../../../support/fake-sensors.ts';
import pino from 'pino';

let dir: string;
let database: OpenedDatabase;
let repo: ReadingsRepo;
let bus: EventBus;
let clock: ManualClock;
let settings: Settings;
let insertCalls: number;
let events: { [K in keyof GatewayEvents]?: GatewayEvents[K][] };
let loop: SamplingLoop | null;

const count = () => (database.sqlite.prepare('SELECT count(*) AS n FROM readings').get() as { n: number }).n;

function makeLoop(sensors: ReturnType<typeof fakeSensors>['sensors']) {
  loop = new SamplingLoop({
    sensors: sensors.sensors,
    repo: { insertTick: (g, rows) => (insertCalls++, repo.insertTick(g, rows)) },
    bus,
    settings: { get: () => settings },
    clock,
    greenhouseId: 'greenhouse-001',
    logger: pino({ level: 'silent' }),
  });
  return loop;
}

/**
 * Advances the manual clock in whole seconds (every timer of these tests falls on one), letting the
 * loop's promise callbacks run at each step, so reads complete at the time their timer fired.
 */
async function run(ms: number, stepMs = 1000) {
  const flush = async () => {
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  clock.advance(0);
  await flush();
  for (let done = 0; done < ms; done += stepMs) {
    clock.advance(stepMs);
    await flush();
  }
}

function setInterval(seconds: number) {
  const previous = settings;
  settings = { ...settings, systemSettings: { ...settings.systemSettings, updateInterval: seconds } };
  bus.emit('settingsChanged', { settings, previous });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sampler-'));
  database = openDatabase(dir);
  repo = new ReadingsRepo(database.sqlite);
  bus = new EventBus({ error: (obj, msg) => console.error(msg, obj) });
  clock = new ManualClock();
  settings = {
    greenhouseId: 'greenhouse-001',
    alertThresholds: DEFAULT_ALERT_THRESHOLDS,
    systemSettings: { ...DEFAULT_SYSTEM_SETTINGS, updateInterval: 5 },
    deviceSettings: DEFAULT_DEVICE_SETTINGS,
  };
  insertCalls = 0;
  events = {};
  for (const name of ['sampleTaken', 'samplerTicked', 'sensorHealthChanged'] as const) {
    bus.on(name, 'test', (payload) => ((events[name] ??= []) as unknown[]).push(payload));
  }
  loop = null;
});
afterEach(() => {
  loop?.stop();
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SamplingLoop', () => {
  it('reads every sensor each interval, stamps readings with the clock at read time, one transaction per tick', async () => {
    const fakes = fakeSensors();
    makeLoop(fakes.sensors).start();
    const t0 = clock.now();
    await run(0);
    expect(count()).toBe(4);
    await run(10_000);
    expect(count()).toBe(12);
    expect(insertCalls).toBe(3);
    expect(events.samplerTicked).toHaveLength(3);
    const taken = events.sampleTaken!;
    expect(taken).toHaveLength(3);
    expect(taken[0]!.readings.map((r) => r.sensorType).sort()).toEqual(['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL']);
    expect(taken[1]!.readings[0]!.timestamp).toBe(new Date(t0 + 5000).toISOString());
    const dht = taken[0]!.readings.find((r) => r.sensorType === 'DHT11')!;
    expect(dht).toMatchObject({ temperature: 22, humidity: 60, value: 22, unit: '°C' });
    expect(taken[0]!.readings.find((r) => r.sensorType === 'WATER_LEVEL')).toMatchObject({ waterLevel: 30, unit: 'cm' });
    const snap = loop!.snapshot();
    expect(snap.values).toEqual({ temperature: 22, humidity: 60, lightIntensity: 500, soilMoisture: 40, waterLevel: 30, co2: null, pressure: null, rootTemperature: null });
    expect(snap.readAtMs.soilMoisture).toBe(t0 + 10_000);
    expect(loop!.lastSampleAt('LDR')).toBe(t0 + 10_000);
  });

  it('stop() waits for the tick in progress, so nothing is written after it resolves', async () => {
    const fake = fakeSensors();
    fake.light.mode = 'hang'; // the tick waits for the light sensor until its read timeout
    const sampler = makeLoop(fake.sensors);
    sampler.start();
    await run(0);
    let stopped = false;
    const stopping = sampler.stop().then(() => (stopped = true));
    await run(1000);
    expect(stopped).toBe(false);
    expect(count()).toBe(0);
    await run(5000);
    await stopping;
    // The tick finished (its readings stored) before stop() resolved, and no tick came after.
    const stored = count();
    expect(stored).toBeGreaterThan(0);
    await run(20_000);
    expect(count()).toBe(stored);
    expect(events.samplerTicked).toHaveLength(1);
  });

  it('applies an interval change at once, without waiting for the old interval', async () => {
    settings.systemSettings.updateInterval = 60;
    const fakes = fakeSensors();
    makeLoop(fakes.sensors).start();
    await run(1000);
    expect(events.samplerTicked).toHaveLength(1);
    setInterval(5);
    await run(5000); // t = 6 s: the tick due at 5 s has run, not the one at 60 s
    expect(events.samplerTicked).toHaveLength(2);
    setInterval(1);
    await run(3000);
    expect(events.samplerTicked!.length).toBeGreaterThanOrEqual(5);
  });

  it('retries a failing DHT11 with back-off within the tick, counts failures, faults after more than 3 intervals and recovers', async () => {
    const fakes = fakeSensors();
    fakes.climate.mode = 'fail';
    makeLoop(fakes.sensors).start();
    await run(4000);
    // Attempts at 0, +1 s and +3 s fit the 4 s budget of a 5 s interval.
    expect(fakes.climate.calls).toBe(3);
    expect(events.samplerTicked![0]!.failedSensors).toEqual(['DHT11']);
    expect(count()).toBe(3); // the other sensors were stored
    await run(10_000); // t = 14 s: 3 failed intervals
    expect(events.sensorHealthChanged ?? []).toEqual([]);
    await run(5000); // the 4th: more than 3 consecutive
    expect(events.sensorHealthChanged).toEqual([expect.objectContaining({ sensorType: 'DHT11', healthy: false, fault: 'no_answer' })]);
    await run(10_000);
    expect(events.sensorHealthChanged).toHaveLength(1); // reported once
    const report = loop!.health().find((h) => h.sensorType === 'DHT11')!;
    expect(report.failedIntervals).toBe(6);
    expect(report.failedReads).toBe(18);
    fakes.climate.mode = 'ok';
    await run(5000);
    expect(events.sensorHealthChanged![1]).toMatchObject({ sensorType: 'DHT11', healthy: true, fault: null });
    expect(loop!.health().find((h) => h.sensorType === 'DHT11')!.consecutiveFailedIntervals).toBe(0);
  });

  it('never blocks on a hung sensor: the tick ends within its budget and the sensor is not asked again while hung', async () => {
    const fakes = fakeSensors();
    fakes.soil.mode = 'hang';
    makeLoop(fakes.sensors).start();
    await run(4000);
    expect(events.samplerTicked).toHaveLength(1);
    expect(events.samplerTicked![0]!.failedSensors).toEqual(['SOIL_MOISTURE']);
    expect(events.samplerTicked![0]!.durationMs).toBeLessThanOrEqual(4000);
    expect(events.sampleTaken![0]!.readings).toHaveLength(3);
    await run(20_000);
    expect(events.samplerTicked).toHaveLength(5);
    expect(fakes.soil.calls).toBe(1);
    expect(events.sensorHealthChanged).toEqual([expect.objectContaining({ sensorType: 'SOIL_MOISTURE', fault: 'no_answer' })]);
  });

  it('does not take a driver-cached repeat for a fresh reading', async () => {
    settings.systemSettings.updateInterval = 1;
    const fakes = fakeSensors();
    makeLoop(fakes.sensors).start();
    const t0 = clock.now();
    await run(2000); // ticks at 0, 1, 2 s: the same DHT answer within its 3 s cache window
    const dhtRows = () => database.sqlite.prepare(`SELECT taken_at FROM readings WHERE sensor_type = 'DHT11'`).all();
    expect(dhtRows()).toEqual([{ taken_at: t0 }]);
    expect(loop!.snapshot().readAtMs.temperature).toBe(t0);
    await run(1000); // 3 s: outside the window, a genuine (if unchanged) reading
    expect(dhtRows()).toHaveLength(2);
    fakes.climate.value = { temperatureC: 23, humidityPct: 60 };
    await run(1000);
    expect(dhtRows()).toHaveLength(3);
  });

  it('reports a stuck value after >30 readings and >10 minutes, holds back its readAtMs, and recovers; a still tank is fine', async () => {
    const fakes = fakeSensors();
    makeLoop(fakes.sensors).start();
    await run(9 * 60_000);
    expect(events.sensorHealthChanged ?? []).toEqual([]);
    await run(2 * 60_000);
    const stuck = events.sensorHealthChanged!;
    expect(stuck).toEqual([
      expect.objectContaining({ sensorType: 'LDR', healthy: false, fault: 'stuck' }),
      expect.objectContaining({ sensorType: 'SOIL_MOISTURE', healthy: false, fault: 'stuck' }),
    ]);
    const heldAt = loop!.snapshot().readAtMs.soilMoisture;
    await run(60_000);
    expect(loop!.snapshot().readAtMs.soilMoisture).toBe(heldAt);
    expect(loop!.snapshot().readAtMs.waterLevel).toBe(clock.now());
    fakes.soil.value = 41;
    await run(5000);
    expect(events.sensorHealthChanged!.at(-1)).toMatchObject({ sensorType: 'SOIL_MOISTURE', healthy: true, fault: null });
    expect(loop!.snapshot().values.soilMoisture).toBe(41);
  });

  it('stops its timer on stop()', async () => {
    const fakes = fakeSensors();
    makeLoop(fakes.sensors).start();
    await run(0);
    loop!.stop();
    expect(clock.pendingTimers()).toBe(0);
    await run(20_000);
    expect(events.samplerTicked).toHaveLength(1);
  });
});

describe('stuck detection policy', () => {
  it('does not judge values pinned at a range end (dark or saturated LDR, dry or soaked soil) or the tank', async () => {
    const { trackStuck, STUCK_POLICIES } = await import('../../../../server/sensors/stuck.ts');
    const run = (type: keyof typeof STUCK_POLICIES, value: number, stepMs: number, n: number) => {
      let tracker = null;
      let stuck = false;
      for (let i = 0; i < n; i++) ({ tracker, stuck } = trackStuck(tracker, String(value), value, i * stepMs, STUCK_POLICIES[type]));
      return stuck;
    };
    const hour = 720; // readings at 5 s
    expect(run('LDR', 1, 5000, hour)).toBe(false);
    expect(run('LDR', 60_000, 5000, hour)).toBe(false);
    expect(run('LDR', 812, 5000, hour)).toBe(true);
    expect(run('SOIL_MOISTURE', 0, 5000, hour)).toBe(false);
    expect(run('SOIL_MOISTURE', 100, 5000, hour)).toBe(false);
    expect(run('WATER_LEVEL', 30, 5000, hour * 10)).toBe(false);
    expect(run('DHT11', 20, 5000, 200)).toBe(false); // 16 minutes: a calm night, not a fault
    expect(run('DHT11', 20, 5000, hour)).toBe(true);
    expect(run('SOIL_MOISTURE', 40, 1000, 31)).toBe(false); // 31 readings in 31 s: too short
  });
});

describe('SamplingLoop liveness (systemd watchdog) and health', () => {
  it('stays alive through a whole hour between ticks (updateInterval 3600)', async () => {
    settings.systemSettings.updateInterval = 3600;
    makeLoop(fakeSensors().sensors).start();
    await run(0);
    expect(events.samplerTicked).toHaveLength(1);
    expect(loop!.liveness()).toEqual({ alive: true });
    await run(3_540_000, 60_000); // 59 minutes later
    expect(events.samplerTicked).toHaveLength(1);
    expect(loop!.liveness()).toEqual({ alive: true });
    loop!.stop();
    expect(loop!.liveness()).toEqual({ alive: false, reason: 'the sampling loop is not running' });
  });

  it('is not alive once the next tick is overdue by more than the grace (a lost timer)', async () => {
    // A clock that loses every timer set after the first tick: the loop never runs again.
    let loseTimers = false;
    const setTimeoutOf = clock.setTimeout.bind(clock);
    clock.setTimeout = (callback, delayMs) => setTimeoutOf(loseTimers ? () => {} : callback, delayMs);
    makeLoop(fakeSensors().sensors).start();
    loseTimers = true;
    await run(0);
    await run(5000 + LIVENESS_GRACE_MS);
    expect(loop!.liveness()).toEqual({ alive: true });
    await run(1000);
    expect(loop!.liveness()).toEqual({ alive: false, reason: 'the next sampling tick is 31 s overdue' });
  });

  it('is not healthy after a tick in which every sensor failed, healthy again when one answers', async () => {
    const fakes = fakeSensors();
    for (const sensor of [fakes.climate, fakes.light, fakes.soil, fakes.water]) sensor.mode = 'fail';
    makeLoop(fakes.sensors).start();
    await run(4000);
    expect(events.samplerTicked![0]!.failedSensors).toHaveLength(4);
    expect(loop!.healthy()).toBe(false);
    // The loop itself ran: the watchdog keeps being fed (a restart would not reconnect a sensor).
    expect(loop!.liveness()).toEqual({ alive: true });
    fakes.soil.mode = 'ok';
    await run(5000);
    expect(loop!.healthy()).toBe(true);
  });
});
