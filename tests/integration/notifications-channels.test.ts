import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';

describe('notification channels API', () => {
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  let operator: string;

  beforeAll(async () => {
    gw = await startTestGateway({ smtp: { host: '127.0.0.1', port: 2525, secure: false, from: 'greenhouse@farm.test' } });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'owner' });
    operator = await registerUser(http, { username: 'staff', role: 'operator' }, admin);
  });
  afterAll(async () => {
    await gw?.dispose();
  });

  it('creates, lists, updates and deletes channels of every kind; the secret never comes back', async () => {
    const webhook = await http.post(
      '/api/notifications/channels',
      { channelId: 'farm-hook', kind: 'webhook', target: 'https://hooks.farm.test/greenhouse', minSeverity: 'HIGH', secret: 'a-long-shared-secret' },
      admin,
    );
    expect(webhook.status).toBe(201);
    expect(webhook.body.data).toMatchObject({ channelId: 'farm-hook', kind: 'webhook', minSeverity: 'HIGH', quietHours: null, hasSecret: true });
    expect(JSON.stringify(webhook.body)).not.toContain('a-long-shared-secret');

    const others = [
      { channelId: 'phone', kind: 'ntfy', target: 'https://ntfy.sh/greenhouse-42', minSeverity: 'MEDIUM', quietHours: { from: '22:00', to: '06:30' } },
      { channelId: 'bot', kind: 'telegram', target: '-1001234567', minSeverity: 'CRITICAL', secret: TOKEN },
      { channelId: 'mail', kind: 'email', target: 'grower@farm.test', minSeverity: 'CRITICAL' },
    ];
    for (const body of others) expect((await http.post('/api/notifications/channels', body, admin)).status).toBe(201);

    const list = await http.get('/api/notifications/channels', admin);
    expect(list.body.data.map((c: any) => c.channelId)).toEqual(['bot', 'farm-hook', 'mail', 'phone']);
    expect(JSON.stringify(list.body)).not.toContain(TOKEN);

    // An update without `secret` keeps it; null removes it.
    const moved = await http.put('/api/notifications/channels/farm-hook', { target: 'http://10.0.0.5:8123/api/webhook/gh', minSeverity: 'LOW' }, admin);
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ target: 'http://10.0.0.5:8123/api/webhook/gh', minSeverity: 'LOW', hasSecret: true });
    const unsigned = await http.put('/api/notifications/channels/farm-hook', { secret: null }, admin);
    expect(unsigned.body.data.hasSecret).toBe(false);

    expect((await http.post('/api/notifications/channels', { ...others[0], target: 'https://ntfy.sh/other' }, admin)).status).toBe(409);
    expect((await http.del('/api/notifications/channels/mail', admin)).status).toBe(200);
    expect((await http.del('/api/notifications/channels/mail', admin)).status).toBe(404);
    expect((await http.put('/api/notifications/channels/nope', { minSeverity: 'LOW' }, admin)).status).toBe(404);
  });

  it('is for admins only', async () => {
    expect((await http.get('/api/notifications/channels', operator)).status).toBe(403);
    expect((await http.get('/api/notifications/log', operator)).status).toBe(403);
    const attempt = await http.post('/api/notifications/channels', { channelId: 'sneaky', kind: 'webhook', target: 'https://evil.test/', minSeverity: 'LOW' }, operator);
    expect(attempt.status).toBe(403);
    expect((await http.post('/api/notifications/channels/farm-hook/test', {}, operator)).status).toBe(403);
    expect((await http.get('/api/notifications/channels')).status).toBe(401);
  });

  it.each([
    ['a URL that is not http(s)', { kind: 'webhook', target: 'ftp://files.farm.test/hook' }, 'target'],
    ['a file URL for ntfy', { kind: 'ntfy', target: 'file:///etc/passwd' }, 'target'],
    ['no URL at all', { kind: 'webhook', target: 'hooks.farm.test' }, 'target'],
    ['an ntfy server without a topic', { kind: 'ntfy', target: 'https://ntfy.sh/' }, 'target'],
    ['a secret shorter than 16 characters', { kind: 'webhook', target: 'https://hooks.farm.test/', secret: 'short-secret' }, 'secret'],
    ['quiet hours from = to', { kind: 'ntfy', target: 'https://ntfy.sh/gh', quietHours: { from: '22:00', to: '22:00' } }, 'quietHours'],
    ['quiet hours not HH:MM', { kind: 'ntfy', target: 'https://ntfy.sh/gh', quietHours: { from: '25:00', to: '06:00' } }, 'quietHours'],
    ['a Telegram channel without its bot token', { kind: 'telegram', target: '12345' }, 'secret'],
    ['a Telegram chat that is a URL', { kind: 'telegram', target: 'https://t.me/x', secret: TOKEN }, 'target'],
    ['an e-mail channel without an address', { kind: 'email', target: 'grower at farm' }, 'target'],
    ['an unknown kind', { kind: 'pager', target: 'https://pager.test/' }, 'kind'],
    ['an unknown key', { kind: 'webhook', target: 'https://hooks.farm.test/', retries: 3 }, 'retries'],
  ])('refuses %s with a 400 naming the field, and stores nothing', async (_, fields, field) => {
    const before = (await http.get('/api/notifications/channels', admin)).body.data;
    const response = await http.post('/api/notifications/channels', { channelId: 'bad-one', minSeverity: 'LOW', ...fields }, admin);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(field);
    expect((await http.get('/api/notifications/channels', admin)).body.data).toEqual(before);
  });

  it('refuses a bad update with a 400 and keeps the channel as it was', async () => {
    const before = (await http.get('/api/notifications/channels', admin)).body.data.find((c: any) => c.channelId === 'phone');
    for (const [body, field] of [
      [{ target: 'javascript:alert(1)' }, 'target'],
      [{ secret: 'tiny' }, 'secret'],
      [{ quietHours: { from: '06:00', to: '06:00' } }, 'quietHours'],
      [{ minSeverity: 'URGENT' }, 'minSeverity'],
    ] as const) {
      const response = await http.put('/api/notifications/channels/phone', body, admin);
      expect(response.status).toBe(400);
      expect(response.body.message).toContain(field);
    }
    expect((await http.get('/api/notifications/channels', admin)).body.data.find((c: any) => c.channelId === 'phone')).toEqual(before);
    expect((await http.put('/api/notifications/channels/bad%20id', { minSeverity: 'LOW' }, admin)).status).toBe(400);
  });

  it('refuses an e-mail channel when no SMTP server is configured', async () => {
    const local = await startTestGateway();
    try {
      const client = httpClient(local.url);
      const owner = await registerUser(client, { username: 'owner' });
      const response = await client.post('/api/notifications/channels', { channelId: 'mail', kind: 'email', target: 'a@farm.test', minSeverity: 'LOW' }, owner);
      expect(response.status).toBe(400);
      expect(response.body.message).toContain('smtp');
    } finally {
      await local.dispose();
    }
  });
});
