// Rule previews on a worker thread: the replay of a week of 1 Hz readings runs off the event loop, is
// capped per account and in all (429), and its worker is terminated when the client goes away.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { runPreviewJob } from '../../server/devices/rules/preview-job.ts';
import { RecordedHistory } from '../../server/devices/rules/recorded-history.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { seedReadings, type SeedReading } from '../support/seed-readings.ts';

const NOW = Date.UTC(2026, 5, 8, 12, 0, 0);
const WEEK_S = 7 * 86_400;
const BODY = { automationRules: { temperatureHigh: 24 }, hours: 168 };

let gw: TestGateway;
let http: HttpClient;
let admin: string;
let operator: string;
let viewer: string;

function* week(): Generator<SeedReading> {
  for (let s = 0; s < WEEK_S; s++) {
    const takenAtMs = NOW - (WEEK_S - s) * 1000;
    yield { takenAtMs, sensorType: 'DHT11', temperatureC: 20 + 6 * Math.sin((s * 2 * Math.PI) / 86_400), humidityPct: 60 };
  }
}

/** The nice value of a thread (/proc/<task>/stat, field 19, after the parenthesised name). */
function niceOf(task: string): number {
  const stat = readFileSync(`/proc/${task}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}
const threadNices = () => readdirSync('/proc/self/task').map((tid) => niceOf(`self/task/${tid}`));

async function metric(name: string, labels = ''): Promise<number> {
  const text = String((await http.get('/api/metrics', admin)).body);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : Number.NaN;
}

/** Polls (over HTTP: the gateway answers while its previews run) until `read` gives `value`. */
async function until(read: () => Promise<number>, value: number): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if ((await read()) === value) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`never reached ${value} (last ${await read()})`);
}
const running = () => metric('greenhouse_rule_previews_running');
const outcome = (name: string) => () => metric('greenhouse_rule_previews', `outcome="${name}"`);

function startPreview(token: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${gw.url}/api/devices/fan-1/automation/preview`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(BODY),
    signal,
  });
}

beforeAll(async () => {
  gw = await startTestGateway({}, { clock: new ManualClock(NOW), previewLimits: { perAccount: 1, total: 2 } });
  seedReadings(gw.database.sqlite, week());
  http = httpClient(gw.url);
  admin = await registerUser(http, { username: 'grower' });
  operator = await registerUser(http, { username: 'helper', role: 'operator' }, admin);
  viewer = await registerUser(http, { username: 'onlooker', role: 'viewer' }, admin);
}, 120_000);
afterAll(async () => gw?.dispose());

describe('rule previews on a worker thread', () => {
  it('replays the week on a worker, while the gateway keeps answering, with the same answer as a replay in place', async () => {
    const answer = startPreview(viewer);
    await until(running, 1);
    // The event loop is free meanwhile: a request is served while the worker replays.
    expect((await http.get('/api/health')).status).toBe(200);
    // And the worker's thread runs behind the main thread (nice 19), so it only takes what the main thread leaves.
    await until(async () => (threadNices().includes(19) ? 1 : 0), 1);
    expect(niceOf('self')).toBe(0);
    const res = await answer;
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { switches: number; onSeconds: number } };
    expect(data.switches).toBeGreaterThan(0);
    await until(running, 0);

    const fan = (await http.get('/api/devices/default', admin)).body.data.find((d: any) => d.deviceId === 'fan-1');
    const { deviceSettings } = gw.settings.get();
    const inPlace = runPreviewJob(
      {
        deviceId: 'fan-1',
        device: { deviceType: fan.deviceType, powerW: fan.powerConsumption, sensorLossAction: fan.sensorLossAction, sensorLossDutyPct: fan.sensorLossDutyPct ?? null },
        rules: { ...fan.automationRules, temperatureHigh: 24 },
        deviceSettings,
        site: null,
        fromMs: NOW - 168 * 3_600_000,
        toMs: NOW,
        tickGapMs: (gw.settings.get().systemSettings.updateInterval * 1000) / 2,
        sensors: ['DHT11'],
      },
      new RecordedHistory(gw.database.sqlite, 'greenhouse-001'),
    );
    expect(data).toEqual(inPlace);
  }, 60_000);

  it('terminates the worker when the client goes away', async () => {
    const cancelledBefore = await outcome('cancelled')();
    const completedBefore = await outcome('completed')();
    const client = new AbortController();
    const answer = startPreview(admin, client.signal).catch((err: Error) => err);
    await until(running, 1);
    client.abort();
    expect(await answer).toBeInstanceOf(Error);
    await until(running, 0);
    expect(await outcome('cancelled')()).toBe(cancelledBefore + 1);
    expect(await outcome('completed')()).toBe(completedBefore);
  }, 60_000);

  it('caps previews per account and in all with a 429 that says why', async () => {
    const clients = [new AbortController(), new AbortController()];
    const first = startPreview(admin, clients[0]!.signal).catch((err: Error) => err);
    await until(running, 1);
    const again = await http.post('/api/devices/fan-1/automation/preview', BODY, admin);
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ success: false, message: expect.stringMatching(/per account/) });

    const second = startPreview(operator, clients[1]!.signal).catch((err: Error) => err);
    await until(running, 2);
    const third = await http.post('/api/devices/fan-1/automation/preview', BODY, viewer);
    expect(third.status).toBe(429);
    expect(third.body.message).toMatch(/Too many rule previews/);

    for (const client of clients) client.abort();
    await Promise.all([first, second]);
    await until(running, 0);
  }, 60_000);

  it('refuses bad input with a 400 naming the field, and no token with a 401', async () => {
    const res = await http.post('/api/devices/fan-1/automation/preview', { ...BODY, hours: 169 }, viewer);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/hours/);
    expect((await http.post('/api/devices/fan-1/automation/preview', BODY)).status).toBe(401);
    expect((await http.post('/api/devices/no-such/automation/preview', BODY, viewer)).status).toBe(404);
  });
});
