// What the journal gets from requests (server/app.ts): at the unit's info level nothing for an answered
// request (six phones polling would write a hundred thousand lines a day to the SD card), one line each
// at debug, and the failure itself when one fails.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { applianceLoggerOptions } from '../../server/appliance/logging.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';

let gateway: TestGateway | null = null;
afterEach(async () => {
  await gateway?.dispose();
  gateway = null;
});

async function gatewayLoggingAt(level: string): Promise<{ lines: () => Array<Record<string, unknown>>; url: string }> {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      written.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  gateway = await startTestGateway({}, { logger: pino(applianceLoggerOptions({ LOG_LEVEL: level }), stream) });
  return { lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>), url: gateway.url };
}

describe('request logging', () => {
  it('writes nothing for answered requests at the info level', async () => {
    const { lines, url } = await gatewayLoggingAt('info');
    const http = httpClient(url);
    const token = await registerUser(http, { username: 'grower' });
    const before = lines().length;
    for (let i = 0; i < 5; i++) expect((await http.get('/api/sensors/latest/greenhouse-001', token)).status).toBe(200);
    expect((await http.get('/api/devices/greenhouse-001', token)).status).toBe(200);
    expect(lines().slice(before).filter((line) => line.req !== undefined || line.res !== undefined || line.msg === 'request')).toEqual([]);
  });

  it('writes one line per request at debug: method, path, status and time, and never the token', async () => {
    const { lines, url } = await gatewayLoggingAt('debug');
    const http = httpClient(url);
    const token = await registerUser(http, { username: 'grower' });
    expect((await http.get('/api/devices/greenhouse-001', token)).status).toBe(200);
    expect((await http.get('/api/devices/no-such-greenhouse', token)).status).toBe(404);
    const requests = lines().filter((line) => line.msg === 'request' && String(line.url).startsWith('/api/devices/'));
    expect(requests).toEqual([
      expect.objectContaining({ level: 20, method: 'GET', url: '/api/devices/greenhouse-001', statusCode: 200, responseTimeMs: expect.any(Number) }),
      expect.objectContaining({ level: 20, method: 'GET', url: '/api/devices/no-such-greenhouse', statusCode: 404 }),
    ]);
    expect(JSON.stringify(lines())).not.toContain(token);
  });
});
