import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/*
 * Bad input to the climate program's routes gets a 400 naming the field and changes nothing, never a
 * 500 (docs/climate.md): a curve's `from` out of range, names a reader could be fooled by, a crop start
 * that is no sane date. Real gateway, real SQLite and HTTP, a ManualClock on 10 June 2026.
 */
const period = (start: string, heatBelowC: number, ventAboveC: number) => ({ start, heatBelowC, ventAboveC, rampMinutes: 0 });
const PROGRAM = {
  periods: [period('06:00', 18, 24), period('20:00', 14, 20)],
  windowSafePosition: 'closed',
  crop: { name: 'Tomatoes', startDate: '2026-05-01' },
  stages: [{ name: 'flowering', fromDay: 30, periods: [period('07:00', 17, 23)] }],
};

describe('bad input to climate programs', () => {
  const clock = new ManualClock(new Date(2026, 5, 10, 12, 0).getTime());
  let gw: TestGateway;
  let http: HttpClient;
  let admin: string;
  const stored = async () => (await http.get('/api/climate/default', admin)).body.data;

  beforeAll(async () => {
    gw = await startTestGateway({}, { clock });
    http = httpClient(gw.url);
    admin = await registerUser(http, { username: 'grower', email: 'grower@farm.test' });
    expect((await http.put('/api/climate/default', PROGRAM, admin)).status).toBe(200);
  });
  afterAll(async () => {
    await gw?.dispose();
  });

  it.each(['0001-01-01T00:00:00Z', '0099-12-31T00:00:00Z', '1900-01-01T00:00:00Z', '1999-12-31T23:59:59Z', '2100-01-01T00:00:01Z', '9999-12-31T00:00:00Z'])(
    'refuses a curve from %s with a 400 naming from',
    async (from) => {
      const before = await stored();
      const res = await http.get(`/api/climate/default/curve?hours=1&from=${from}`, admin);
      expect(res.status).toBe(400);
      expect(res.body.errors).toContainEqual({ field: 'from', message: expect.stringMatching(/^from must be a time from 2000-01-01T00:00:00.000Z to 2100-01-01T00:00:00.000Z/) });
      expect(await stored()).toEqual(before);
    },
  );

  it.each(['2000-01-01T00:00:00Z', '2100-01-01T00:00:00Z', '2026-06-10T00:00:00Z'])('draws a curve from %s, at the ends of the range too', async (from) => {
    const res = await http.get(`/api/climate/default/curve?hours=168&from=${from}`, admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(289);
    expect(res.body.data[0].at).toBe(new Date(from).toISOString());
  });

  it.each([
    ['a NUL in the crop name', { crop: { ...PROGRAM.crop, name: 'To\u0000mato' } }, 'crop.name'],
    ['a right-to-left override in the crop name', { crop: { ...PROGRAM.crop, name: 'abc\u202Eevil' } }, 'crop.name'],
    ['a blank crop name', { crop: { ...PROGRAM.crop, name: '   ' } }, 'crop.name'],
    ['a line break in a stage name', { stages: [{ ...PROGRAM.stages[0], name: 'a\nb' }] }, 'stages.0.name'],
    ['a zero-width space as a stage name', { stages: [{ ...PROGRAM.stages[0], name: '\u200B' }] }, 'stages.0.name'],
    ['a crop start in year 9999', { crop: { ...PROGRAM.crop, startDate: '9999-12-31' } }, 'crop.startDate'],
    ['a crop start more than a year ahead', { crop: { ...PROGRAM.crop, startDate: '2027-06-11' } }, 'crop.startDate'],
    ['a crop start before 2000', { crop: { ...PROGRAM.crop, startDate: '1999-12-31' } }, 'crop.startDate'],
    ['a crop start in year 1', { crop: { ...PROGRAM.crop, startDate: '0001-01-01' } }, 'crop.startDate'],
    ['a crop start that is no day of the calendar', { crop: { ...PROGRAM.crop, startDate: '2026-02-30' } }, 'crop.startDate'],
  ])('refuses %s with a 400 naming the field, changing nothing', async (_name, change, field) => {
    const before = await stored();
    const res = await http.put('/api/climate/default', { ...PROGRAM, ...change }, admin);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.field).toBe(field);
    expect(res.body.message).toContain(field);
    expect(await stored()).toEqual(before);
  });

  it('takes a crop planned a year ahead and names with accents and inner spaces', async () => {
    const program = { ...PROGRAM, crop: { name: 'Cœur de bœuf', startDate: '2027-06-10' }, stages: [{ ...PROGRAM.stages[0], name: 'Floración 2' }] };
    expect((await http.put('/api/climate/default', program, admin)).status).toBe(200);
    expect(await stored()).toMatchObject({ crop: program.crop, stages: [{ name: 'Floración 2' }] });
  });
});
