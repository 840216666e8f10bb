import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, type Clock } from '../../../../common/clock.ts';
import type { Reading, SensorSnapshot } from '../../../../server/contract/reading.ts';
import { DEFAULT_ALERT_THRESHOLDS, DEFAULT_DEVICE_SETTINGS, DEFAULT_SYSTEM_SETTINGS, type Settings } from '../../../../server/contract/settings.ts';
import { openDatabase, type OpenedDatabase } from '../../../../server/db/open.ts';
import { EventBus } from '../../../../server/events/bus.ts';
import { ReadingsRepo } from '../../../../server/sensors/readings-repo.ts';
import { SamplingLoop } from '../../../../server/sensors/sampling-loop.ts';
import { MonotoneReadings } from '../../../../server/time/monotone-readings.ts';
import { fakeSensors } from '../../../support/fake-sensors.ts';

const HOUR_MS = 3_600_000;

/**
 * A wall clock that can be stepped like NTP steps a Pi's clock, over a ManualClock that stands for
 * monotonic time: timers run on the monotonic one (as Node's do), `now()` is the wall clock.
 */
class SteppableWallClock implements Clock {
  offsetMs = 0;
  constructor(readonly monotonic: ManualClock) {}
  now = () => this.monotonic.now() + this.offsetMs;
  setTimeout: Clock['setTimeout'] = (callback, delayMs) => this.monotonic.setTimeout(callback, delayMs);
  clearTimeout: Clock['clearTimeout'] = (handle) => this.monotonic.clearTimeout(handle);
}

let dir: string;
let database: OpenedDatabase;
let monotonic: ManualClock;
let wall: SteppableWallClock;
let loop: SamplingLoop;
let held: Array<{ sensorType: string; behindMs: number }>;
let monotone: MonotoneReadings;
/** What the dashboard and the rules were handed: each sampleTaken's readings and snapshot. */
let published: Array<{ readings: Reading[]; snapshot: SensorSnapshot }>;

function start(intervalSeconds: number) {
  const settings: Settings = {
    greenhouseId: 'greenhouse-001',
    alertThresholds: DEFAULT_ALERT_THRESHOLDS,
    systemSettings: { ...DEFAULT_SYSTEM_SETTINGS, updateInterval: intervalSeconds },
    deviceSettings: DEFAULT_DEVICE_SETTINGS,
  };
  const repo = new ReadingsRepo(database.sqlite);
  monotone = new MonotoneReadings({ repo, greenhouseId: 'greenhouse-001', onHeldBack: (sensorType, behindMs) => held.push({ sensorType, behindMs }) });
  const bus = new EventBus({ error: () => {} });
  bus.on('sampleTaken', 'test', ({ readings, snapshot }) => published.push({ readings, snapshot }));
  loop = new SamplingLoop({
    sensors: fakeSensors().sensors.sensors,
    repo: monotone,
    bus,
    settings: { get: () => settings },
    clock: wall,
    greenhouseId: 'greenhouse-001',
    logger: pino({ level: 'silent' }),
    monotonicMs: () => monotonic.now(),
  });
  loop.start();
}

async function run(ms: number, stepMs = 1000) {
  const flush = async () => {
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  monotonic.advance(0);
  await flush();
  for (let done = 0; done < ms; done += stepMs) {
    monotonic.advance(stepMs);
    await flush();
  }
}

const stamps = () =>
  database.sqlite.prepare(`SELECT taken_at AS at FROM readings WHERE sensor_type = 'DHT11' ORDER BY id`).all().map((row) => (row as { at: number }).at);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wall-step-'));
  database = openDatabase(dir);
  monotonic = new ManualClock();
  wall = new SteppableWallClock(monotonic);
  held = [];
  published = [];
});
afterEach(async () => {
  await loop.stop();
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a wall-clock step under the sampling loop', () => {
  it('+3 h at a 60 s interval: the loop stays alive for the watchdog and the next tick comes on time', async () => {
    start(60);
    await run(10_000);
    wall.offsetMs += 3 * HOUR_MS;
    // Before the fix, liveness read the wall clock: the next tick looked 3 h overdue and the watchdog starved.
    expect(loop.liveness()).toEqual({ alive: true });
    await run(50_000);
    expect(loop.liveness()).toEqual({ alive: true });
    expect(stamps()).toHaveLength(2);
    expect(stamps()[1]! - stamps()[0]!).toBe(3 * HOUR_MS + 60_000);
  });

  it('-3 h: ticks keep their interval, and nothing is stored into the past until the clock passes the newest reading', async () => {
    start(5);
    await run(10_000); // ticks at 0, 5 and 10 s
    const before = stamps();
    expect(before).toHaveLength(3);
    wall.offsetMs -= 3 * HOUR_MS;
    published = [];
    await run(30_000);
    expect(loop.liveness()).toEqual({ alive: true });
    // Sampling went on every 5 s (the snapshot is fresh), but no row went before the newest stored one.
    expect(Date.parse(loop.snapshot().takenAt)).toBe(wall.now());
    expect(stamps()).toEqual(before);
    // Every sensor's reading is held back, the DHT11's unchanging fake value too (not a driver-cached
    // repeat: the time since its last fresh answer is negative, not within the cache window).
    expect(held.map((h) => h.sensorType).sort()).toEqual(['DHT11', 'LDR', 'SOIL_MOISTURE', 'WATER_LEVEL']);
    expect(held.find((h) => h.sensorType === 'LDR')!.behindMs).toBe(3 * HOUR_MS - 5000);
    // ...and still handed to the dashboard and the rules at every tick, read now: the rules are not blind.
    expect(published).toHaveLength(6);
    const last = published.at(-1)!;
    expect(last.snapshot.readAtMs.temperature).toBe(wall.now());
    expect(last.snapshot.readAtMs.waterLevel).toBe(wall.now());
    expect(last.readings.map((r) => Date.parse(r.timestamp))).toEqual([wall.now(), wall.now(), wall.now(), wall.now()]);
    // The Now screen's first load gets these values too, not the ones stored before the step.
    const latest = monotone.latest(new ReadingsRepo(database.sqlite).latest('greenhouse-001'));
    expect(latest.map((r) => Date.parse(r.timestamp))).toEqual([wall.now(), wall.now(), wall.now(), wall.now()]);
    // NTP steps it back to the true time: storing resumes, still in order.
    wall.offsetMs += 3 * HOUR_MS;
    await run(10_000);
    const after = stamps();
    expect(after.length).toBeGreaterThan(before.length);
    expect(after).toEqual([...after].sort((a, b) => a - b));
  });

  it('a fresh database and a clock that boots at 1970 store at once (nothing to be out of order with)', async () => {
    wall.offsetMs = -monotonic.now();
    start(5);
    await run(0);
    expect(stamps()).toEqual([0]);
  });
});
