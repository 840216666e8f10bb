import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../common/clock.ts';
import { ConfigSchema } from '../../../server/config/schema.ts';
import type { GatewayEvents } from '../../../server/events/bus.ts';
import { DomainError } from '../../../server/domain/errors.ts';
import { clientErrorOf, type HttpError } from '../../../server/http/errors.ts';
import Value from 'typebox/value';
import { openDatabase, type OpenedDatabase } from '../../../server/db/open.ts';
import { fakeHardware, fakeOutputs, type FakeOutput } from '../../support/fake-outputs.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { snapshotOf } from '../../support/snapshots.ts';

// The safety layer over the real gateway (real SQLite, real bus) with fake outputs and a ManualClock.
const defaultOutputs = (Value.Default(ConfigSchema, {}) as { outputs: Parameters<typeof fakeOutputs>[0] }).outputs;

let gw: TestGateway;
let clock: ManualClock;
let outputs: Map<string, FakeOutput>;
let safetyEvents: Array<GatewayEvents['safetyEvent']>;

const user = { source: 'user' as const, actor: 'tester' };
const status = (deviceId: string) => statusOf(deviceId);
function statusOf(deviceId: string) {
  return (gw.database.sqlite.prepare('SELECT status FROM devices WHERE device_id = ?').get(deviceId) as { status: string }).status;
}
function lastLog(db: OpenedDatabase, deviceId: string) {
  const row = db.sqlite.prepare('SELECT source, previous_status, new_status FROM control_log WHERE device_id = ? ORDER BY id DESC').get(deviceId);
  if (db !== gw.database) db.close();
  return row;
}
async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  // The domain refuses with a DomainError; the status is what the one error handler answers with.
  expect(err).toBeInstanceOf(DomainError);
  return clientErrorOf(err)!;
}
/** Lets queued control calls (safety switch-offs) finish. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

beforeEach(async () => {
  clock = new ManualClock();
  outputs = fakeOutputs(defaultOutputs);
  gw = await startTestGateway({}, { clock, hardware: fakeHardware(outputs) });
  safetyEvents = [];
  gw.bus.on('safetyEvent', 'test', (event) => safetyEvents.push(event));
});
afterEach(async () => {
  await gw.dispose();
});

describe('pump maximum run time', () => {
  it('switches the pump off after pumpMaxRunSeconds, logs it as safety and emits PUMP_MAX_RUNTIME', async () => {
    gw.settings.updateDevices({ pumpMaxRunSeconds: 60 });
    await gw.control.control({ deviceId: 'pump-1', action: 'turn_on', ...user });
    expect(outputs.get('relay-1')!.on).toBe(true);

    clock.advance(59_000);
    await settle();
    expect(status('pump-1')).toBe('ON');

    clock.advance(1_000);
    await settle();
    expect(status('pump-1')).toBe('OFF');
    expect(outputs.get('relay-1')!.on).toBe(false);
    expect(safetyEvents).toMatchObject([{ kind: 'PUMP_MAX_RUNTIME', deviceId: 'pump-1', active: true }]);
    const log = gw.database.sqlite.prepare("SELECT * FROM control_log WHERE device_id = 'pump-1' ORDER BY id DESC").get() as Record<string, string>;
    expect(log).toMatchObject({ source: 'safety', actor: 'PUMP_MAX_RUNTIME', previous_status: 'ON', new_status: 'OFF' });
  });

  it('a spent run budget refuses rules and users alike until the window has slid past it', async () => {
    gw.settings.updateDevices({ pumpMaxRunSeconds: 60, pumpRunWindowMinutes: 10, minOffSeconds: 0 });
    await gw.control.control({ deviceId: 'pump-1', action: 'turn_on', ...user });
    clock.advance(60_000);
    await settle();
    const byRule = await refusal(gw.control.control({ deviceId: 'pump-1', action: 'turn_on', source: 'rule', actor: 'soilMoistureLow' }));
    expect(byRule.statusCode).toBe(409);
    const byUser = await refusal(gw.control.control({ deviceId: 'pump-1', action: 'turn_on', ...user }));
    expect(byUser.lock).toMatchObject({ kind: 'run_budget', until: new Date(clock.now() - 60_000 + 10 * 60_000 + 1_000).toISOString() });
    clock.advance(10 * 60_000);
    await gw.control.control({ deviceId: 'pump-1', action: 'turn_on', ...user });
    expect(status('pump-1')).toBe('ON');
    expect(safetyEvents.map((e) => [e.kind, e.active])).toEqual([['PUMP_MAX_RUNTIME', true]]);
  });

  it('a pump switched off in time leaves no timer behind', async () => {
    gw.settings.updateDevices({ pumpMaxRunSeconds: 60 });
    await gw.control.control({ deviceId: 'pump-1', action: 'turn_on', ...user });
    clock.advance(30_000);
    await gw.control.control({ deviceId: 'pump-1', action: 'turn_off', ...user });
    clock.advance(120_000);
    await settle();
    expect(safetyEvents).toEqual([]);
  });
});

describe('dry-run lockout', () => {
  it('refuses to start a pump when the tank is low (409) and changes nothing', async () => {
    gw.bus.emit('sampleTaken', { greenhouseId: 'greenhouse-001', readings: [], snapshot: snapshotOf({ waterLevel: 5 }, clock.now()) });
    const err = await refusal(gw.control.control({ deviceId: 'pump-1', action: 'turn_on', ...user }));
    expect(err.statusCode).toBe(409);
    expect(err.message).toMatch(/Tank low \(5\.0 cm, minimum 10 cm\)/);
    expect(err.lock).toMatchObject({ kind: 'dry_run' });
    expect(status('pump-1')).toBe('OFF');
    expect(outputs.get('relay-1')!.calls).toEqual([]);
    expect(safetyEvents).toMatchObject([{ kind: 'DRY_RUN_LOCKOUT', deviceId: 'pump-1', active: true }]);
  });

  it('switches a running pump off when the level falls, and releases above low + band', async () => {
    gw.settings.updateDevices({ minOffSeconds: 0 });
    gw.bus.emit('sampleTaken', { greenhouseId: 'greenhouse-001', readings: [], snapshot: snapshotOf({ waterLevel: 50 }, clock.now()) });
    await gw.control.control({ deviceId: 'pump-1', action: 'turn_on', ...user });
    gw.bus.emit('sampleTaken', { greenhouseId: 'greenhouse-001', readings: [], snapshot: snapshotOf({ waterLevel: 9 }, clock.now()) });
    await settle();
    expect(status('pump-1')).toBe('OFF');
    // Refilled a little, but still inside the release band: stays locked.
    gw.bus.emit('sampleTaken', { greenhouseId: 'greenhouse-001', readings: [], snapshot: snapshotOf({ waterLevel: 11 }, clock.now()) });
    expect((await refusal(gw.control.control({ deviceId: 'pump-1', action: 'turn_on', ...user }))).statusCode).toBe(409);
    gw.bus.emit('sampleTaken', { greenhouseId: 'greenhouse-001', readings: [], snapshot: snapshotOf({ waterLevel: 30 }, clock.now()) });
    await gw.control.control({ deviceId: 'pump-1', action: 'turn_on', ...user });
    expect(status('pump-1')).toBe('ON');
    expect(safetyEvents.map((e) => [e.kind, e.active])).toEqual([
      ['DRY_RUN_LOCKOUT', true],
      ['DRY_RUN_LOCKOUT', false],
    ]);
    const log = gw.database.sqlite.prepare("SELECT source, actor FROM control_log WHERE device_id = 'pump-1' AND source = 'safety'").all();
    expect(log).toEqual([{ source: 'safety', actor: 'DRY_RUN_LOCKOUT' }]);
  });

  it('a stale low level never acts', async () => {
    gw.bus.emit('sampleTaken', { greenhouseId: 'greenhouse-001', readings: [], snapshot: snapshotOf({ waterLevel: 3 }, clock.now() - 10 * 60_000) });
    await gw.control.control({ deviceId: 'pump-1', action: 'turn_on', ...user });
    expect(status('pump-1')).toBe('ON');
    expect(safetyEvents).toEqual([]);
  });
});

describe('heater / cooling interlock', () => {
  // A heater needs a fresh air temperature to be switched on at all.
  beforeEach(() => {
    gw.bus.emit('sampleTaken', { greenhouseId: 'greenhouse-001', readings: [], snapshot: snapshotOf({ temperature: 15 }, clock.now()) });
  });

  it('refuses the heater while the cooling runs (and the reverse), then releases', async () => {
    await gw.control.control({ deviceId: 'cooling-1', action: 'on', ...user });
    const err = await refusal(gw.control.control({ deviceId: 'heater-1', action: 'on', ...user }));
    expect(err.statusCode).toBe(409);
    expect(err.message).toContain('heater and cooling never run together');
    expect(status('heater-1')).toBe('OFF');
    expect(outputs.get('relay-4')!.calls).toEqual([]);
    expect(safetyEvents).toMatchObject([{ kind: 'INTERLOCK', deviceId: 'heater-1', active: true }]);

    await gw.control.control({ deviceId: 'cooling-1', action: 'off', ...user });
    expect(safetyEvents).toMatchObject([{ kind: 'INTERLOCK', active: true }, { kind: 'INTERLOCK', deviceId: 'heater-1', active: false }]);
    await gw.control.control({ deviceId: 'heater-1', action: 'on', ...user });
    expect((await refusal(gw.control.control({ deviceId: 'cooling-1', action: 'on', ...user }))).statusCode).toBe(409);
  });

  it('for rules the newer request loses: concurrent requests never end with both on', async () => {
    const results = await Promise.allSettled([
      gw.control.control({ deviceId: 'heater-1', action: 'on', source: 'rule', actor: 'temperatureLow' }),
      gw.control.control({ deviceId: 'cooling-1', action: 'on', source: 'rule', actor: 'temperatureHigh' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect([statusOf('heater-1'), statusOf('cooling-1')]).toEqual(['ON', 'OFF']);
  });
});

describe('maintenance mode', () => {
  it('refuses every control except switching off, with 409', async () => {
    await gw.control.control({ deviceId: 'fan-1', action: 'on', ...user });
    gw.settings.updateSystem({ maintenanceMode: true });
    const err = await refusal(gw.control.control({ deviceId: 'light-1', action: 'toggle', ...user }));
    expect(err.statusCode).toBe(409);
    expect(err.message).toContain('Maintenance mode');
    expect((await refusal(gw.control.control({ deviceId: 'window-1', action: 'open', source: 'rule', actor: 'temperatureHigh' }))).statusCode).toBe(409);
    await gw.control.control({ deviceId: 'fan-1', action: 'toggle', ...user });
    expect(statusOf('fan-1')).toBe('OFF');
    expect(statusOf('light-1')).toBe('OFF');
  });
});

describe('safe state at start', () => {
  it('rows that said ON are set OFF at start with a system log entry', async () => {
    await gw.control.control({ deviceId: 'fan-1', action: 'on', ...user });
    const dataDir = gw.dataDir;
    await gw.stop();
    expect(lastLog(openDatabase(dataDir), 'fan-1')).toEqual({ source: 'system', previous_status: 'ON', new_status: 'OFF' });
    // A power cut skips the shutdown: the rows still say ON / OPEN.
    const db = openDatabase(dataDir);
    db.sqlite.prepare("UPDATE devices SET status = 'ON' WHERE device_id = 'fan-1'").run();
    db.sqlite.prepare("UPDATE devices SET status = 'OPEN' WHERE device_id = 'window-1'").run();
    db.close();
    gw = await startTestGateway({ dataDir }, { clock, hardware: fakeHardware(outputs) });
    expect(statusOf('fan-1')).toBe('OFF');
    expect(statusOf('window-1')).toBe('CLOSED');
    expect(lastLog(gw.database, 'fan-1')).toEqual({ source: 'system', previous_status: 'ON', new_status: 'OFF' });
    expect(lastLog(gw.database, 'window-1')).toEqual({ source: 'system', previous_status: 'OPEN', new_status: 'CLOSED' });
  });
});
