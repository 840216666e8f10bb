import { expect, it } from 'vitest';
import { startSmtpReceiver } from '../support/smtp.ts';
import { startTestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';

it('a recipient the mail server refuses does not stop the alert e-mail to the others', async () => {
  const smtp = await startSmtpReceiver({ rejectRecipients: ['bounced@farm.test'] });
  const gw = await startTestGateway({ smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'greenhouse@farm.test' } });
  try {
    const http = httpClient(gw.url);
    // The refused address belongs to the first account, so it comes first in the send loop.
    const owner = await registerUser(http, { username: 'owner', email: 'bounced@farm.test' });
    const grower = await registerUser(http, { username: 'grower', email: 'grower@farm.test', role: 'operator' }, owner);
    for (const token of [owner, grower]) {
      expect((await http.put('/api/auth/profile', { preferences: { emailNotifications: true } }, token)).status).toBe(200);
    }
    expect((await http.post('/api/alerts/greenhouse-001', { alertType: 'TANK_EMPTY', severity: 'CRITICAL', message: 'Tank empty' }, owner)).status).toBe(201);
  } finally {
    // Stopping waits for every e-mail started.
    await gw.dispose();
    await smtp.close();
  }
  expect(smtp.received.map((m) => m.to)).toEqual([['grower@farm.test']]);
});
