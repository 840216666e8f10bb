import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectHealth, cpuTemperatureReader, healthStatus, type HealthSources } from '../../../server/health/health.ts';

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);

function sources(overrides: Partial<HealthSources> = {}): HealthSources {
  return {
    clock: { now: () => NOW },
    uptimeSeconds: () => 3600,
    checkDatabase: () => {},
    cpuTemperatureC: async () => 48.3,
    version: '1.2.3',
    hardwareMode: 'raspberry-pi',
    ...overrides,
  };
}

describe('healthStatus', () => {
  const fresh = { DHT11: 5, LDR: 5, SOIL_MOISTURE: 5, WATER_LEVEL: 5 };
  const base = { databaseOk: true, sensorAgesSeconds: fresh, drivers: [], uptimeSeconds: 3600 };

  it('is ok when the database answers, drivers work and samples are fresh', () => {
    expect(healthStatus(base)).toBe('ok');
  });
  it('is degraded by a database failure, an unavailable driver or a stale sensor', () => {
    expect(healthStatus({ ...base, databaseOk: false })).toBe('degraded');
    expect(healthStatus({ ...base, drivers: [{ name: 'pigpio', available: false, reason: 'Pi 5' }] })).toBe('degraded');
    expect(healthStatus({ ...base, sensorAgesSeconds: { ...fresh, DHT11: 301 } })).toBe('degraded');
    expect(healthStatus({ ...base, sensorAgesSeconds: { ...fresh, DHT11: 300 } })).toBe('ok');
  });
  it('is degraded while a feature failed to start, and names it', async () => {
    expect(healthStatus({ ...base, failedFeatures: 1 })).toBe('degraded');
    expect(healthStatus({ ...base, failedFeatures: 0 })).toBe('ok');
    const health = await collectHealth(sources({ failedFeatures: () => ['devices'] }));
    expect(health).toMatchObject({ status: 'degraded', failedFeatures: ['devices'] });
    expect(await collectHealth(sources({ failedFeatures: () => [] }))).not.toHaveProperty('failedFeatures');
  });
  it('is degraded at once when no sensor answered the last sampling tick', () => {
    expect(healthStatus({ ...base, samplerHealthy: false })).toBe('degraded');
    expect(healthStatus({ ...base, samplerHealthy: true })).toBe('ok');
  });
  it('does not count a sensor without a sample yet until the gateway has run past the stale limit', () => {
    const none = { ...fresh, LDR: null };
    expect(healthStatus({ ...base, sensorAgesSeconds: none, uptimeSeconds: 10 })).toBe('ok');
    expect(healthStatus({ ...base, sensorAgesSeconds: none, uptimeSeconds: 301 })).toBe('degraded');
  });
});

describe('collectHealth', () => {
  it('reports sample ages per sensor type, driver status and the database error', async () => {
    const health = await collectHealth(
      sources({
        lastSampleAt: (sensorType) => ({ DHT11: NOW - 4_000, LDR: null, SOIL_MOISTURE: NOW - 12_400 })[sensorType as string] ?? null,
        driverStatus: () => [{ name: 'dht11', available: false, reason: 'node-dht-sensor cannot drive the Pi 5' }],
        checkDatabase: () => {
          throw new Error('SQLITE_CORRUPT: database disk image is malformed');
        },
      }),
    );
    expect(health).toEqual({
      status: 'degraded',
      uptimeSeconds: 3600,
      database: { ok: false, error: 'SQLITE_CORRUPT: database disk image is malformed' },
      sensors: { DHT11: 4, LDR: null, SOIL_MOISTURE: 12, WATER_LEVEL: null },
      drivers: [{ name: 'dht11', available: false, reason: 'node-dht-sensor cannot drive the Pi 5' }],
      cpuTemperatureC: 48.3,
      version: '1.2.3',
      hardwareMode: 'raspberry-pi',
      clock: { synchronised: true, source: 'assumed', synchronisedAt: null, steps: 0, lastStep: null },
    });
  });

  it('is degraded and says so while the wall clock is not synchronised', async () => {
    const unsynced = { synchronised: false, source: 'timesyncd' as const, synchronisedAt: null, steps: 0, lastStep: null };
    const health = await collectHealth(sources({ clockStatus: () => unsynced }));
    expect(health.clock).toEqual(unsynced);
    expect(health.status).toBe('degraded');
    const base = { databaseOk: true, sensorAgesSeconds: {}, drivers: [], uptimeSeconds: 3600 };
    expect(healthStatus({ ...base, clockSynchronised: false })).toBe('degraded');
    expect(healthStatus({ ...base, clockSynchronised: true })).toBe('ok');
  });
});

describe('cpuTemperatureReader', () => {
  it('reads millidegrees from the thermal zone, and null where there is none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thermal-'));
    try {
      writeFileSync(join(dir, 'temp'), '48312\n');
      expect(await cpuTemperatureReader(join(dir, 'temp'))()).toBe(48.3);
      expect(await cpuTemperatureReader(join(dir, 'missing'))()).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
