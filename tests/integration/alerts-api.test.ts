import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import type { SensorField } from '../../server/contract/reading.ts';
import { snapshotOf } from '../support/snapshots.ts';
import { hardwareWith } from '../support/fake-sensors.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { TestSocket } from '../support/ws.ts';

let gw: TestGateway;
let http: HttpClient;
let admin: string;
let viewer: string;
let clock: ManualClock;
const G = 'greenhouse-001';

beforeAll(async () => {
  clock = new ManualClock(Date.parse('2026-06-01T12:00:00Z'));
  // No sensors: these tests publish the samples themselves (with the simulator, the sampler would add
  // its own ticks, and under a synchronously advanced ManualClock its reads time out).
  gw = await startTestGateway({}, { clock, hardware: hardwareWith({}) });
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'boss' });
  viewer = await registerUser(http, { username: 'watcher', role: 'viewer' }, admin);
  // These tests are about threshold alerts at 36-44 °C; the heater cut-off (default 35 °C) would raise
  // its own alert beside them, so it is lifted out of their range.
  gw.settings.updateDevices({ heaterCutoffC: 60 });
});
afterAll(async () => gw?.dispose());

function sample(values: Partial<Record<SensorField, number>>) {
  clock.advance(5000);
  gw.bus.emit('sampleTaken', { greenhouseId: G, readings: [], snapshot: snapshotOf(values, clock.now()) });
}

const stats = async () => (await http.get(`/api/alerts/stats/${G}`, admin)).body.stats.overall;
const create = async (body: object, token = admin) => http.post(`/api/alerts/${G}`, body, token);
const allAlerts = async () => (await http.get(`/api/alerts/${G}`, admin)).body.data as any[];

function expectBad(result: { status: number; body: any }, field: string, status = 400) {
  expect(result.status).toBe(status);
  expect(result.body.success).toBe(false);
  expect(result.body.message).toContain(field);
}

describe('create, list, resolve, delete', () => {
  it('creates an alert (201) and lists it as active, newest first', async () => {
    const first = await create({ alertType: 'CUSTOM_CHECK', severity: 'LOW', message: 'first', deviceId: 'fan-1' });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ alertType: 'CUSTOM_CHECK', severity: 'LOW', message: 'first', deviceId: 'fan-1', isResolved: false, resolvedAt: null, actionTaken: null, greenhouseId: G });
    expect(first.body.data._id).toMatch(/^\d+$/);
    clock.advance(1000);
    const second = await create({ alertType: 'DOOR_OPEN', severity: 'HIGH', message: 'second' });
    expect(second.body.data.deviceId).toBeNull();
    const active = await http.get(`/api/alerts/active/${G}`, admin);
    expect(active.status).toBe(200);
    expect(active.body.data.map((a: any) => a.message)).toEqual(['second', 'first']);
    const viaDefault = await http.get('/api/alerts/active/default', viewer);
    expect(viaDefault.body.data).toHaveLength(2);
  });

  it('refuses bad create bodies naming the field, changing nothing', async () => {
    const before = await stats();
    expectBad(await create({ severity: 'LOW', message: 'x' }), 'alertType');
    expectBad(await create({ alertType: 'lower_case', severity: 'LOW', message: 'x' }), 'alertType');
    expectBad(await create({ alertType: 'A', severity: 'URGENT', message: 'x' }), 'severity');
    expectBad(await create({ alertType: 'A', severity: 'LOW' }), 'message');
    expectBad(await create({ alertType: 'A', severity: 'LOW', message: 5 }), 'message');
    expectBad(await create({ alertType: 'A', severity: 'LOW', message: '   ' }), 'message');
    expectBad(await create({ alertType: 'A', severity: 'LOW', message: 'x', deviceId: 7 }), 'deviceId');
    expectBad(await create({ alertType: 'A', severity: 'LOW', message: 'x'.repeat(1001) }), 'message');
    expect((await http.request('POST', `/api/alerts/${G}`, { rawBody: '{bad', token: admin })).status).toBe(400);
    expect(await stats()).toEqual(before);
  });

  it('viewers may read but not create, resolve or delete (403)', async () => {
    const before = await stats();
    const id = (await allAlerts())[0]._id;
    expect((await create({ alertType: 'A', severity: 'LOW', message: 'x' }, viewer)).status).toBe(403);
    expect((await http.put(`/api/alerts/${id}/resolve`, {}, viewer)).status).toBe(403);
    expect((await http.del(`/api/alerts/${id}`, viewer)).status).toBe(403);
    expect((await http.get(`/api/alerts/${G}`, viewer)).status).toBe(200);
    expect(await stats()).toEqual(before);
  });

  it('needs a token and a known greenhouse', async () => {
    expect((await http.get(`/api/alerts/${G}`)).status).toBe(401);
    expect((await http.get(`/api/alerts/export/${G}`)).status).toBe(401);
    expect((await http.get('/api/alerts/elsewhere', admin)).status).toBe(404);
    expect((await http.get('/api/alerts/active/elsewhere', admin)).status).toBe(404);
    expect((await http.post('/api/alerts/elsewhere', { alertType: 'A', severity: 'LOW', message: 'x' }, admin)).status).toBe(404);
  });

  it('resolves with the default action, then answers 409; custom action text is kept', async () => {
    const [a, b] = await allAlerts();
    clock.advance(2000);
    const resolved = await http.put(`/api/alerts/${a._id}/resolve`, { actionTaken: 'Manually resolved by user' }, admin);
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ _id: a._id, isResolved: true, actionTaken: 'Manually resolved by user' });
    expect(resolved.body.data.resolvedAt).toBe(new Date(clock.now()).toISOString());
    expectBad(await http.put(`/api/alerts/${a._id}/resolve`, {}, admin), 'already resolved', 409);
    const noBody = await http.request('PUT', `/api/alerts/${b._id}/resolve`, { token: admin });
    expect(noBody.status).toBe(200);
    expect(noBody.body.data.actionTaken).toBe('Manually resolved by user');
    const c = (await create({ alertType: 'X', severity: 'MEDIUM', message: 'c' })).body.data;
    const custom = await http.put(`/api/alerts/${c._id}/resolve`, { actionTaken: 'Replaced the fuse' }, admin);
    expect(custom.body.data.actionTaken).toBe('Replaced the fuse');
  });

  it('refuses bad ids (400 naming id) and unknown ids (404), never 500', async () => {
    const before = await stats();
    for (const bad of ['abc', '0', '-1', '1.5', '1e3', '99999999999999999999', '%20']) {
      expectBad(await http.put(`/api/alerts/${bad}/resolve`, {}, admin), 'id');
      expectBad(await http.del(`/api/alerts/${bad}`, admin), 'id');
    }
    expectBad(await http.put('/api/alerts/99999/resolve', {}, admin), '99999', 404);
    expectBad(await http.del('/api/alerts/99999', admin), '99999', 404);
    const id = (await allAlerts())[0]._id;
    expectBad(await http.put(`/api/alerts/${id}/resolve`, { actionTaken: 5 }, admin), 'actionTaken');
    expect(await stats()).toEqual(before);
  });

  it('deletes unresolved alerts only', async () => {
    const fresh = (await create({ alertType: 'TO_DELETE', severity: 'LOW', message: 'bye' })).body.data;
    const deleted = await http.del(`/api/alerts/${fresh._id}`, admin);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, message: 'Alert deleted successfully' });
    expect((await allAlerts()).some((a) => a._id === fresh._id)).toBe(false);
    expect((await http.del(`/api/alerts/${fresh._id}`, admin)).status).toBe(404);
    const resolved = (await allAlerts()).find((a) => a.isResolved);
    expectBad(await http.del(`/api/alerts/${resolved._id}`, admin), 'resolved', 409);
  });
});

describe('filters and stats', () => {
  it('filters by status and severity, limits, and refuses bad filters naming the field', async () => {
    await create({ alertType: 'CRIT_ONE', severity: 'CRITICAL', message: 'c1' });
    const all = await allAlerts();
    const active = (await http.get(`/api/alerts/${G}?status=active`, admin)).body.data;
    const resolved = (await http.get(`/api/alerts/${G}?status=resolved`, admin)).body.data;
    expect(active.every((a: any) => !a.isResolved)).toBe(true);
    expect(resolved.every((a: any) => a.isResolved)).toBe(true);
    expect(active.length + resolved.length).toBe(all.length);
    const critical = (await http.get(`/api/alerts/${G}?severity=CRITICAL`, admin)).body.data;
    expect(critical.map((a: any) => a.message)).toEqual(['c1']);
    expect((await http.get(`/api/alerts/${G}?status=resolved&severity=CRITICAL`, admin)).body.data).toEqual([]);
    expect((await http.get(`/api/alerts/${G}?limit=1`, admin)).body.data).toHaveLength(1);
    expectBad(await http.get(`/api/alerts/${G}?status=open`, admin), 'status');
    expectBad(await http.get(`/api/alerts/${G}?severity=critical`, admin), 'severity');
    expectBad(await http.get(`/api/alerts/${G}?limit=0`, admin), 'limit');
    expectBad(await http.get(`/api/alerts/${G}?limit=ten`, admin), 'limit');
    expectBad(await http.get(`/api/alerts/export/${G}?severity=BAD`, admin), 'severity');
  });

  it('answers stats both as data and at top level', async () => {
    const result = await http.get(`/api/alerts/stats/${G}`, viewer);
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual(result.body.stats);
    const all = await allAlerts();
    const active = all.filter((a) => !a.isResolved).length;
    expect(result.body.stats.overall).toEqual({ totalAlerts: all.length, totalActive: active, totalResolved: all.length - active });
    const crit = result.body.stats.bySeverity.find((s: any) => s._id === 'CRITICAL');
    expect(crit).toEqual({ _id: 'CRITICAL', total: 1, active: 1, resolved: 0 });
    expect(result.body.stats.bySeverity.map((s: any) => s._id)).toEqual(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW']);
  });
});

describe('export', () => {
  it('downloads the filtered history as CSV, escaped and formula-safe', async () => {
    await create({ alertType: 'INJECT', severity: 'MEDIUM', message: '=HYPERLINK("http://evil")', deviceId: '@dev,1' });
    const result = await http.get(`/api/alerts/export/${G}`, viewer);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(result.headers.get('content-disposition')).toMatch(/^attachment; filename="alerts-greenhouse-001-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = (result.body as string).replace(/^\uFEFF/, '');
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('createdAt,alertType,severity,message,deviceId,status,resolvedAt,actionTaken');
    expect(lines).toHaveLength((await allAlerts()).length + 1);
    expect(lines[1]).toMatch(/^\S+,INJECT,MEDIUM,"'=HYPERLINK\(""http:\/\/evil""\)","'@dev,1",active,,$/);
    const resolvedOnly = ((await http.get(`/api/alerts/export/${G}?status=resolved`, admin)).body as string).trimEnd().split('\r\n');
    expect(resolvedOnly.slice(1).every((l) => l.includes(',resolved,'))).toBe(true);
    expect(resolvedOnly.length - 1).toBe((await http.get(`/api/alerts/${G}?status=resolved`, admin)).body.data.length);
  });
});

describe('alerts from the bus', () => {
  it('raises once per cause, escalates in place, self-resolves; relays newAlert/alertResolved', async () => {
    const socket = new TestSocket(gw.url);
    await socket.join(viewer);
    const before = (await allAlerts()).length;
    sample({ temperature: 36 }); // default high threshold 35 °C
    const raised = await socket.next('newAlert', (a) => a.alertType === 'TEMPERATURE_HIGH');
    expect(raised).toMatchObject({ severity: 'LOW', isResolved: false, value: 36, threshold: 35 });
    sample({ temperature: 36.5 });
    sample({ temperature: 41 });
    const escalated = await socket.next('newAlert', (a) => a.alertType === 'TEMPERATURE_HIGH' && a.severity === 'HIGH');
    expect(escalated._id).toBe(raised._id);
    expect(escalated.message).toBe('Temperature 41 °C is above the high threshold of 35 °C');
    expect((await allAlerts()).length).toBe(before + 1);
    sample({ temperature: 34.8 });
    expect((await allAlerts()).find((a) => a._id === raised._id).isResolved).toBe(false);
    sample({ temperature: 34.4 });
    const resolved = await socket.next('alertResolved', (a) => a._id === raised._id);
    expect(resolved.actionTaken).toBe('Auto-resolved: temperature back to 34.4 °C (threshold 35 °C)');
    socket.close();
  });

  it('a person resolving a threshold alert still out of range is not undone every tick', async () => {
    sample({ temperature: 36 });
    const raised = (await http.get(`/api/alerts/active/${G}`, admin)).body.data.find((a: any) => a.alertType === 'TEMPERATURE_HIGH');
    expect(raised.severity).toBe('LOW');
    expect((await http.put(`/api/alerts/${raised._id}/resolve`, {}, admin)).status).toBe(200);
    const temperatureAlerts = async () => (await allAlerts()).filter((a) => a.alertType === 'TEMPERATURE_HIGH' && !a.isResolved);
    sample({ temperature: 36.5 });
    sample({ temperature: 36 });
    expect(await temperatureAlerts()).toEqual([]);
    // Worse than acknowledged: reported again.
    sample({ temperature: 38 });
    const again = await temperatureAlerts();
    expect(again.map((a) => a.severity)).toEqual(['MEDIUM']);
    // Deleting acknowledges too; back in range ends the acknowledgement, and a new excursion is reported.
    expect((await http.del(`/api/alerts/${again[0]._id}`, admin)).status).toBe(200);
    sample({ temperature: 38 });
    expect(await temperatureAlerts()).toEqual([]);
    sample({ temperature: 30 });
    sample({ temperature: 36 });
    expect((await temperatureAlerts()).map((a) => a.severity)).toEqual(['LOW']);
    sample({ temperature: 30 });
    expect(await temperatureAlerts()).toEqual([]);
  });

  it('applies a threshold change at once to the last reading', async () => {
    sample({ humidity: 70 });
    const before = (await http.get(`/api/alerts/active/${G}`, admin)).body.data.length;
    expect((await http.put(`/api/settings/${G}/thresholds`, { alertThresholds: { humidity: { high: 60 } } }, admin)).status).toBe(200);
    const active = (await http.get(`/api/alerts/active/${G}`, admin)).body.data;
    expect(active.length).toBe(before + 1);
    expect(active[0]).toMatchObject({ alertType: 'HUMIDITY_HIGH', severity: 'HIGH', value: 70, threshold: 60 });
  });

  it('sensor faults and safety events raise and clear', async () => {
    const at = new Date(clock.now()).toISOString();
    gw.bus.emit('sensorHealthChanged', { greenhouseId: G, sensorType: 'SOIL_MOISTURE', healthy: false, fault: 'no_answer', message: 'Soil probe not answering', at });
    gw.bus.emit('safetyEvent', { greenhouseId: G, kind: 'DRY_RUN_LOCKOUT', deviceId: 'pump-1', active: true, message: 'Pump locked out: tank low', at });
    let active = (await http.get(`/api/alerts/active/${G}`, admin)).body.data;
    expect(active.find((a: any) => a.alertType === 'SENSOR_FAULT')).toMatchObject({ severity: 'HIGH', deviceId: 'SOIL_MOISTURE', message: 'Soil probe not answering' });
    expect(active.find((a: any) => a.alertType === 'DRY_RUN_LOCKOUT')).toMatchObject({ severity: 'CRITICAL', deviceId: 'pump-1' });
    gw.bus.emit('sensorHealthChanged', { greenhouseId: G, sensorType: 'SOIL_MOISTURE', healthy: true, fault: null, message: '', at });
    gw.bus.emit('safetyEvent', { greenhouseId: G, kind: 'DRY_RUN_LOCKOUT', deviceId: 'pump-1', active: false, message: 'released', at });
    active = (await http.get(`/api/alerts/active/${G}`, admin)).body.data;
    expect(active.some((a: any) => a.alertType === 'SENSOR_FAULT' || a.alertType === 'DRY_RUN_LOCKOUT')).toBe(false);
  });

  it('the database allows one active alert per cause', () => {
    const insert = gw.database.sqlite.prepare(
      "INSERT INTO alerts (greenhouse_id, alert_type, severity, message, cause_key) VALUES ('greenhouse-001', 'X', 'LOW', 'm', 'test:cause')",
    );
    insert.run();
    expect(() => insert.run()).toThrow(/UNIQUE/);
  });
});

describe('notification status', () => {
  it('says email is not configured without SMTP', async () => {
    const result = await http.get('/api/notifications/status', viewer);
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual({ emailConfigured: false });
    expect((await http.get('/api/notifications/status')).status).toBe(401);
  });
});
