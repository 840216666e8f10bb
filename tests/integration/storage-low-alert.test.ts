import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { STORAGE_CHECK_EVERY_MS } from '../../server/lifecycle/storage-watch.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

const GH = 'greenhouse-001';

/**
 * The data disk filling up, through the real gateway over HTTP: its free space comes from an injected
 * statfs (a disk cannot be filled to the megabyte here), on the gateway's injected clock.
 */
describe('STORAGE_LOW while the data disk fills up', () => {
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  let freeMb = 9_000;
  let reads = 0;
  const clock = new ManualClock(Date.parse('2026-06-01T08:00:00Z'));
  const storageAlerts = async (status: 'active' | 'resolved') =>
    ((await http.get(`/api/alerts/${GH}?status=${status}&limit=100`, admin)).body.data as any[]).filter((a) => a.alertType === 'STORAGE_LOW');
  async function fiveMinutesLater(): Promise<void> {
    const before = reads;
    clock.advance(STORAGE_CHECK_EVERY_MS);
    // The watch has read the disk; its event goes out as the read's promise settles, before any request.
    await expect.poll(() => reads).toBe(before + 1);
    await new Promise((resolve) => setImmediate(resolve));
  }

  beforeAll(async () => {
    const statfs = async () => {
      reads++;
      return { bavail: freeMb * 256, blocks: 15_000 * 256, bsize: 4096 };
    };
    gw = await startTestGateway({}, { clock, statfs });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'boss' });
  });
  afterAll(() => gw?.dispose());

  it('warns (HIGH) under 256 MB, becomes CRITICAL under 64 MB in place, and resolves only above 512 MB', async () => {
    await fiveMinutesLater();
    expect(await storageAlerts('active')).toEqual([]);

    freeMb = 200;
    await fiveMinutesLater();
    const [warned, ...more] = await storageAlerts('active');
    expect(more).toEqual([]);
    expect(warned).toMatchObject({ severity: 'HIGH', value: 200, threshold: 256, deviceId: null });
    expect(warned.message).toMatch(/^Storage almost full: 200 MB free of 14\.6 GB on the data disk \(.+\)\. When it is full, switches, readings and alerts can no longer be recorded/);

    freeMb = 40;
    await fiveMinutesLater();
    const [critical] = await storageAlerts('active');
    expect(critical).toMatchObject({ _id: warned._id, severity: 'CRITICAL', value: 40 });

    freeMb = 300;
    await fiveMinutesLater();
    expect(await storageAlerts('active')).toHaveLength(1);

    freeMb = 2_000;
    await fiveMinutesLater();
    expect(await storageAlerts('active')).toEqual([]);
    expect((await storageAlerts('resolved')).find((a) => a._id === warned._id)).toMatchObject({ actionTaken: 'Auto-resolved: 2000 MB free on the data disk' });
  });
});
