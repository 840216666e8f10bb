import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { databaseChecksum } from '../support/db-checksum.ts';
import { listRoutes, type RouteInfo } from '../support/routes.ts';

/**
 * Property-based fuzz of every route over real HTTP (the users API included): random
 * params, query strings and bodies, mostly signed in as admin (so validation, not auth, is what
 * answers), sometimes as a viewer, with no token or with garbage. Never a 5xx, the process keeps serving, and a
 * refused request (4xx) leaves every table exactly as it was. The clock is manual, so no sampling tick
 * or rule changes the database between two requests.
 */
const RUNS = 2_500;
const ADMIN = { username: 'fuzz-admin', password: 'correct-horse-1' };
const VIEWER = { username: 'fuzz-viewer', password: 'correct-horse-1' };

const FIELDS = [
  'username', 'password', 'email', 'role', 'currentPassword', 'newPassword', 'firstName', 'lastName',
  'deviceId', 'deviceName', 'deviceType', 'action', 'greenhouseId', 'extras', 'status', 'mode', 'outputId',
  'alertThresholds', 'systemSettings', 'deviceSettings', 'temperature', 'humidity', 'soilMoisture',
  'lightIntensity', 'waterLevel', 'min', 'max', 'updateInterval', 'dataRetentionDays', 'maintenanceMode',
  'autoBackup', 'notifications', 'email', 'resolution', 'actionTaken', 'powerW', 'automationRules',
  'value', 'duration', 'durationMinutes', 'hours', 'sensorType', 'severity', 'position', 'enabled', 'rules',
  // The users API and the keys an attacker tries on it.
  'requestedRole', 'isAdmin', 'tokenVersion', 'passwordHash', 'type',
];
const QUERY_KEYS = ['hours', 'sensorType', 'status', 'severity', 'limit', 'page', 'format', 'from', 'to', 'type', 'deviceId', 'q'];

const weirdString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', ' ', '0', '-1', '1e309', 'NaN', 'null', 'true', '[]', '{}', '../../etc/passwd', '%00', '\u0000', "' OR 1=1 --", 'x'.repeat(5000), 'DHT11', 'WATER_PUMP', 'ON', 'OFF', 'admin', 'viewer', 'active', 'critical'),
);
const scalar = fc.oneof(
  weirdString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.5),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(fc.constantFrom(...FIELDS), tie('v'), { maxKeys: 4 })),
})).v;
const body = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }),
  value,
);
const rawBody = fc.constantFrom('{', '{"a":', 'null', '[]', '"text"', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}');
const pathParam = fc.oneof(
  fc.constantFrom('default', 'greenhouse-001', 'pump-1', 'fan-1', 'window-1', 'nope', '1', '0', 'fuzz-admin', 'fuzz-viewer', 'FUZZ-ADMIN', 'relay-1'),
  fc.string({ minLength: 1, maxLength: 30 }),
);
const query = fc.dictionary(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 8 })), weirdString, { maxKeys: 4 });

function fillPath(url: string, params: string[]): string {
  let i = 0;
  return url.replace(/:[A-Za-z_]+/g, () => encodeURIComponent(params[i++ % params.length] ?? 'x'));
}

const checksum = databaseChecksum;

describe('fuzzing every route over HTTP', () => {
  let gw: TestGateway;
  let http: HttpClient;
  let token = '';
  let viewerToken = '';
  let routes: RouteInfo[] = [];

  beforeAll(async () => {
    gw = await startTestGateway({}, { clock: new ManualClock() });
    http = httpClient(gw.url);
    token = await registerUser(http, ADMIN);
    viewerToken = await registerUser(http, { ...VIEWER, role: 'viewer' }, token);
    routes = listRoutes(gw.app).filter((route) => route.url.startsWith('/api/'));
  });
  afterAll(() => gw.dispose());

  it('finds the routes to fuzz, the users API among them', () => {
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.filter((r) => r.url.startsWith('/api/users')).length).toBeGreaterThanOrEqual(4);
  });

  it(`answers ${RUNS} random requests without a 5xx, and a 4xx changes nothing`, { timeout: 240_000 }, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: 10_000 }),
        fc.array(pathParam, { minLength: 1, maxLength: 3 }),
        query,
        fc.oneof({ weight: 9, arbitrary: body.map((b) => ({ json: b })) }, { weight: 1, arbitrary: rawBody.map((raw) => ({ raw })) }),
        fc.constantFrom('admin', 'admin', 'admin', 'viewer', 'none', 'garbage'),
        async (pick, params, queryValues, payload, who) => {
          const route = routes[pick % routes.length]!;
          const search = new URLSearchParams(queryValues as Record<string, string>).toString();
          const path = `${fillPath(route.url, params)}${search ? `?${search}` : ''}`;
          const before = checksum(gw);
          const auth = who === 'admin' ? token : who === 'viewer' ? viewerToken : who === 'garbage' ? 'not.a.jwt' : undefined;
          const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
          const res = await http.request(route.method, path, {
            token: auth,
            ...(hasBody && 'json' in payload && payload.json !== undefined ? { body: payload.json } : {}),
            ...(hasBody && 'raw' in payload ? { rawBody: payload.raw } : {}),
          });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expect(res.status, `${route.method} ${path} -> ${JSON.stringify(res.body).slice(0, 300)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(res.body?.success, `${route.method} ${path}`).toBe(false);
            expect(typeof res.body?.message).toBe('string');
            expect(checksum(gw), `${route.method} ${path} answered ${res.status} but changed the database`).toBe(before);
          }
          // A random call may have signed the admin out (logout, password change): sign in again.
          if (res.status === 401 && auth === token) {
            const login = await http.post('/api/auth/login', ADMIN);
            if (login.status === 200) token = login.body.token ?? login.body.data?.token;
          }
          if (res.status === 401 && auth === viewerToken) {
            const login = await http.post('/api/auth/login', VIEWER);
            if (login.status === 200) viewerToken = login.body.token ?? login.body.data?.token;
          }
        },
      ),
      { numRuns: RUNS, seed: 20260601, endOnFailure: true },
    );
    // Still serving, and the admin can still work.
    expect((await http.get('/api/health')).status).toBe(200);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(RUNS / 10);
    expect([...statuses.keys()].some((status) => status < 300)).toBe(true);
  });
});
