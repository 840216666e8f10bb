import { expect, it } from 'vitest';
import Value from 'typebox/value';
import { ManualClock } from '../../common/clock.ts';
import { ConfigSchema, type Config } from '../../server/config/schema.ts';
import { startReceiver } from '../support/receivers.ts';
import { startTestGateway } from '../support/gateway.ts';
import { freePort } from '../support/server-process.ts';
import { httpClient, registerUser } from '../support/http.ts';

const HOUR = 60 * 60 * 1000;

it('finished deliveries are pruned after dataRetentionDays; a pending one stays', async () => {
  const clock = new ManualClock(Date.parse('2026-06-01T12:00:00Z'));
  const receiver = await startReceiver({ kind: 'webhook' });
  // A day of gateway time takes some real seconds to replay: keep the test's keep-alive socket open meanwhile.
  const limits = { ...(Value.Default(ConfigSchema, {}) as Config).limits, keepAliveTimeoutMs: 120_000 };
  const gw = await startTestGateway({ limits }, { clock });
  try {
    const http = httpClient(gw.url);
    const admin = await registerUser(http, { username: 'owner' });
    // One sample an hour: a day of gateway time passes in a few dozen ticks.
    expect((await http.put('/api/settings/greenhouse-001/system', { systemSettings: { dataRetentionDays: 1, updateInterval: 3600 } }, admin)).status).toBe(200);
    const deadPort = await freePort();
    await http.post('/api/notifications/channels', { channelId: 'ok', kind: 'webhook', target: `${receiver.url}/in`, minSeverity: 'CRITICAL' }, admin);
    await http.post('/api/notifications/channels', { channelId: 'down', kind: 'webhook', target: `http://127.0.0.1:${deadPort}/in`, minSeverity: 'CRITICAL' }, admin);
    const id = (await http.post('/api/alerts/greenhouse-001', { alertType: 'FROST', severity: 'CRITICAL', message: 'Frost' }, admin)).body.data._id;
    // Acknowledged, so no escalation adds deliveries while the day passes.
    expect((await http.put(`/api/alerts/${id}/acknowledge`, undefined, admin)).status).toBe(200);
    await gw.notifications.worker.idle();
    const log = async () => (await http.get('/api/notifications/log?limit=500', admin)).body.data.filter((d: any) => d.alertId === id && d.reason === 'alert');
    expect((await log()).map((d: any) => [d.channelId, d.status]).sort()).toEqual([['down', 'pending'], ['ok', 'delivered']]);

    // 23 hours: still kept. Past a day: the delivered one goes, the one still retrying stays.
    for (let h = 0; h < 23; h++) clock.advance(HOUR);
    await gw.notifications.worker.idle();
    expect((await log()).map((d: any) => d.channelId).sort()).toEqual(['down', 'ok']);
    for (let h = 0; h < 2; h++) clock.advance(HOUR);
    await gw.notifications.worker.idle();
    expect((await log()).map((d: any) => d.channelId)).toEqual(['down']);
  } finally {
    await gw.dispose();
    await receiver.close();
  }
});
