// The broker set-up of docs/fleet.md, as written there: password accounts and the ACL block, on a real
// Mosquitto. Each gateway only has its own subtree; Home Assistant may command; a wrong password is
// reported without being printed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { startMosquitto, Subscriber, type Broker } from '../support/mosquitto.ts';

/** The ```conf block that follows "/etc/mosquitto/acl" in docs/fleet.md. */
function aclFromDocs(): string {
  const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'fleet.md'), 'utf8');
  const match = /`\/etc\/mosquitto\/acl`[\s\S]*?```conf\n([\s\S]*?)```/.exec(doc);
  if (!match) throw new Error('docs/fleet.md has no ACL block after /etc/mosquitto/acl');
  return match[1]!;
}

const USERS = { 'house-a': 'pw-house-a-1', 'house-b': 'pw-house-b-1', homeassistant: 'pw-ha-1', telegraf: 'pw-telegraf-1' };
let broker: Broker;
const gateways: TestGateway[] = [];
const subscribers: Subscriber[] = [];
beforeAll(async () => {
  broker = await startMosquitto({ users: USERS, acl: aclFromDocs() });
});
afterAll(async () => {
  for (const sub of subscribers) await sub.close();
  for (const gw of gateways) await gw.dispose();
  await broker?.dispose();
});

async function gateway(greenhouseId: string, password: string): Promise<TestGateway> {
  const gw = await startTestGateway({ greenhouseId, mqtt: { url: broker.url, username: greenhouseId, password } as never });
  gateways.push(gw);
  return gw;
}
async function client(user: keyof typeof USERS, filters: string[]): Promise<Subscriber> {
  const sub = await Subscriber.connect(broker.url, filters, { username: user, password: USERS[user] });
  subscribers.push(sub);
  return sub;
}

describe('the docs/fleet.md broker ACL', () => {
  it('lets each gateway publish its own house and discovery, Home Assistant command it, and no one else', async () => {
    const ha = await client('homeassistant', ['greenhouse/#', 'homeassistant/#']);
    const a = await gateway('house-a', USERS['house-a']);
    await gateway('house-b', USERS['house-b']);
    await ha.next((m) => m.topic === 'greenhouse/house-a/status' && m.payload === 'online', 20_000, 'house-a online');
    await ha.next((m) => m.topic === 'greenhouse/house-b/status' && m.payload === 'online', 20_000, 'house-b online');
    await ha.next((m) => m.topic === 'homeassistant/switch/house-a/fan-1/config', 20_000, 'house-a discovery');
    await ha.next((m) => m.topic === 'homeassistant/switch/house-b/fan-1/config', 20_000, 'house-b discovery');

    // Home Assistant commands house-a's fan.
    const done = ha.nextNew((m) => m.topic === 'greenhouse/house-a/devices/fan-1/result', 20_000, 'command answer');
    await ha.publish('greenhouse/house-a/devices/fan-1/set', 'ON');
    expect(JSON.parse((await done).payload)).toMatchObject({ ok: true, status: 'ON' });

    // Read-only Telegraf cannot: the broker refuses its command, the fan stays on, no answer comes.
    const telegraf = await client('telegraf', ['greenhouse/+/sensors/state']);
    await expect(telegraf.publish('greenhouse/house-a/devices/fan-1/set', 'OFF')).rejects.toThrow(/not authori[sz]ed/i);
    // Nor can another house's account, nor may it pass for house-a in Home Assistant.
    const houseB = await Subscriber.connect(broker.url, [], { username: 'house-b', password: USERS['house-b'] });
    subscribers.push(houseB);
    await expect(houseB.publish('greenhouse/house-a/devices/fan-1/set', 'OFF')).rejects.toThrow(/not authori[sz]ed/i);
    await expect(houseB.publish('homeassistant/switch/house-a/fan-1/config', '')).rejects.toThrow(/not authori[sz]ed/i);
    // Sync point: a command Home Assistant sends afterwards is the next one answered.
    const next = ha.nextNew((m) => m.topic === 'greenhouse/house-a/devices/light-1/result', 20_000, 'light answer');
    await ha.publish('greenhouse/house-a/devices/light-1/set', 'ON');
    await next;
    expect(ha.messages.filter((m) => m.topic === 'greenhouse/house-a/devices/fan-1/result')).toHaveLength(1);
    const aHttp = httpClient(a.url);
    const devices = await aHttp.get('/api/health', await registerUser(aHttp, { username: 'owner' }));
    expect(devices.body.data.mqtt).toMatchObject({ state: 'connected', commandsReceived: 2 });
  });

  it('reports a refused password in the health answer without printing it', async () => {
    const gw = await gateway('house-c', 'wrong-password-123');
    const http = httpClient(gw.url);
    const owner = await registerUser(http, { username: 'owner' });
    let status = (await http.get('/api/health', owner)).body.data.mqtt;
    for (let i = 0; i < 100 && status.lastError === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await http.get('/api/health', owner)).body.data.mqtt;
    }
    expect(status.state).not.toBe('connected');
    expect(status.lastError).toMatch(/not authori[sz]ed/i);
    expect(JSON.stringify(status)).not.toContain('wrong-password-123');
  });
});
