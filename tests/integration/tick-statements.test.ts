// A sampling tick reuses the statements it reads devices and their control log with
// (server/devices/devices-repo.ts): building and compiling them again every tick was most of a tick's
// main-thread time. Counted on the real gateway's connection, not timed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';

let gateway: TestGateway;
const prepared: string[] = [];

beforeAll(async () => {
  gateway = await startTestGateway({}, { clock: new ManualClock() });
  const sqlite = gateway.database.sqlite;
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    prepared.push(source);
    return prepare(source);
  }) as typeof sqlite.prepare;
});
afterAll(async () => gateway?.dispose());

const onDeviceTables = (sql: string) => /\b(from|into|update)\s+"?(devices|control_log)"?/i.test(sql);

describe('a sampling tick', () => {
  it('prepares no statement on the devices or their control log once the first ticks have run', async () => {
    // Devices switched, so the control log has entries to read.
    const http = httpClient(gateway.url);
    const token = await registerUser(http, { username: 'grower' });
    const devices = (await http.get('/api/devices/greenhouse-001', token)).body.data as Array<{ deviceId: string }>;
    expect(devices.length).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++) await gateway.sampler.sampleNow();
    prepared.length = 0;
    for (let i = 0; i < 10; i++) await gateway.sampler.sampleNow();
    expect(prepared.filter(onDeviceTables)).toEqual([]);
  });
});
