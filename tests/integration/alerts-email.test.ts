import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import type { SensorField } from '../../server/contract/reading.ts';
import { snapshotOf } from '../support/snapshots.ts';
import { startSmtpReceiver } from '../support/smtp.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';

describe('email notifications over real SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let gw: TestGateway;
  const clock = new ManualClock(Date.parse('2026-06-01T12:00:00Z'));

  function sample(values: Partial<Record<SensorField, number>>) {
    clock.advance(5000);
    gw.bus.emit('sampleTaken', { greenhouseId: 'greenhouse-001', readings: [], snapshot: snapshotOf(values, clock.now()) });
  }

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    gw = await startTestGateway(
      { smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'greenhouse@farm.test' } },
      { clock },
    );
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it('sends exactly one email per cause to opted-in users, rate-limited against flapping and floods', async () => {
    const http = httpClient(gw.url);
    const admin = await registerUser(http, { username: 'grower', email: 'grower@farm.test' });
    await registerUser(http, { username: 'quiet', email: 'quiet@farm.test' }, admin);
    const optIn = await http.put('/api/auth/profile', { preferences: { emailNotifications: true } }, admin);
    expect(optIn.status).toBe(200);
    expect((await http.get('/api/notifications/status', admin)).body.data).toEqual({ emailConfigured: true });

    // A HIGH alert sends nothing; very dry soil is CRITICAL and sends one email.
    sample({ temperature: 41 });
    sample({ soilMoisture: 5 });
    // The soil reading flaps around the threshold for a while: new alerts, but no new emails.
    for (let i = 0; i < 10; i++) {
      sample({ soilMoisture: 40 });
      sample({ soilMoisture: 5 });
    }
    // Nine more distinct CRITICAL causes reach the hourly cap of 10; the tenth is held back.
    for (let i = 1; i <= 10; i++) {
      const created = await http.post('/api/alerts/greenhouse-001', { alertType: `MANUAL_${i}`, severity: 'CRITICAL', message: `manual ${i}` }, admin);
      expect(created.status).toBe(201);
    }
    // Once the per-cause window (30 min) and the hourly window have passed, the same cause may email again.
    clock.advance(61 * 60 * 1000);
    sample({ soilMoisture: 40 });
    sample({ soilMoisture: 5 });
    const soilAlerts = (await http.get('/api/alerts/greenhouse-001?severity=CRITICAL', admin)).body.data.filter((a: any) => a.alertType === 'SOIL_MOISTURE_LOW');
    expect(soilAlerts).toHaveLength(12);

    // Stopping the gateway waits for every email it started.
    await gw.dispose();
    expect(smtp.received).toHaveLength(11);
    for (const mail of smtp.received) {
      expect(mail.to).toEqual(['grower@farm.test']);
      expect(mail.from).toBe('greenhouse@farm.test');
    }
    const soilMails = smtp.received.filter((m) => m.raw.includes('SOIL MOISTURE LOW'));
    expect(soilMails).toHaveLength(2);
    expect(soilMails[0]!.raw).toContain('Subject: [Greenhouse greenhouse-001] CRITICAL: SOIL MOISTURE LOW');
    expect(smtp.received.some((m) => m.raw.includes('MANUAL 10'))).toBe(false);
    expect(smtp.received.some((m) => m.raw.includes('TEMPERATURE'))).toBe(false);
  });

  it('an unreachable mail server neither blocks nor breaks alerting', async () => {
    const deadPort = await freePort();
    const local = await startTestGateway({ smtp: { host: '127.0.0.1', port: deadPort, secure: false, from: 'greenhouse@farm.test' } });
    try {
      const http = httpClient(local.url);
      const admin = await registerUser(http, { username: 'grower', email: 'grower@farm.test' });
      await http.put('/api/auth/profile', { preferences: { emailNotifications: true } }, admin);
      const created = await http.post('/api/alerts/greenhouse-001', { alertType: 'TANK_EMPTY', severity: 'CRITICAL', message: 'Tank empty' }, admin);
      expect(created.status).toBe(201);
      const active = await http.get('/api/alerts/active/greenhouse-001', admin);
      expect(active.body.data.map((a: any) => a.alertType)).toEqual(['TANK_EMPTY']);
    } finally {
      // Stopping waits for the failed send; it must not throw.
      await local.dispose();
    }
  });
});

/** A loopback port with nothing listening on it. */
async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
