import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { applianceLoggerOptions } from '../../../server/appliance/logging.ts';

/** A Fastify app logging through the appliance's options into `lines`. */
function appLoggingAtInfo() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { app: Fastify({ logger: { ...applianceLoggerOptions({ LOG_LEVEL: 'info' }), stream } }), lines };
}

describe('appliance logger', () => {
  it('censors tokens, passwords and the SMTP password wherever they are logged', async () => {
    const { app, lines } = appLoggingAtInfo();
    app.log.info({ req: { headers: { authorization: 'Bearer eyJsecret' } } }, 'request');
    app.log.info({ body: { username: 'ann', password: 'hunter22', newPassword: 'n3w-pass', currentPassword: 'old-pass' } }, 'body');
    app.log.info({ config: { smtp: { host: 'mail', pass: 'smtp-secret' } }, token: 'tok-secret' }, 'config');
    // The MQTT password too, and an error that carries the config it failed on.
    app.log.info({ mqtt: { url: 'mqtt://broker', password: 'mqtt-secret' } }, 'mqtt');
    app.log.error({ err: { message: 'connect failed', config: { mqtt: { password: 'mqtt-secret-2' } } } }, 'mqtt error');
    await app.close();
    const text = lines.join('');
    for (const secret of ['eyJsecret', 'hunter22', 'n3w-pass', 'old-pass', 'smtp-secret', 'tok-secret', 'mqtt-secret', 'mqtt-secret-2']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[redacted]');
    expect(text).toContain('"username":"ann"');
  });

  it('censors secrets at any depth, in arrays and on errors, without changing what was logged', async () => {
    const { app, lines } = appLoggingAtInfo();
    const settings = { a: { b: { c: { d: { smtp: { host: 'mail', pass: 'deep-secret' } } } } } };
    const failure = Object.assign(new Error('broker refused'), { options: { password: 'err-secret', host: 'broker' } });
    app.log.info({ settings, channels: [{ kind: 'ntfy', token: 'array-secret' }] }, 'settings');
    app.log.error({ err: failure }, 'mqtt failed');
    await app.close();
    const text = lines.join('');
    for (const secret of ['deep-secret', 'array-secret', 'err-secret']) expect(text).not.toContain(secret);
    const errorLine = JSON.parse(lines[1]!) as { err: { type: string; message: string; stack: string; options: { host: string } } };
    expect(errorLine.err).toMatchObject({ type: 'Error', message: 'broker refused', options: { host: 'broker', password: '[redacted]' } });
    expect(errorLine.err.stack).toContain('broker refused');
    // The application's own objects keep their values.
    expect(settings.a.b.c.d.smtp.pass).toBe('deep-secret');
    expect(failure.options.password).toBe('err-secret');
  });
});
