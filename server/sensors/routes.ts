import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Clock } from '../../common/clock.ts';
import { GreenhouseParams } from '../contract/common.ts';
import { SENSOR_TYPES, type Reading, type SensorType } from '../contract/reading.ts';
import { ok } from '../http/reply.ts';
import { nextTurn, TurnTaking } from '../history/turn-taking.ts';
import { HistoryAnswers } from './history-answers.ts';
import { addHourOfDaySums, hourlyBuckets } from './hour-of-day.ts';
import { bucketMsFor, historicalRange, historicalSlices, type ReadingsRepo } from './readings-repo.ts';
import { dailyLightIntegral, LIGHT_BUCKET_MS, windowStartMs } from './light-integral.ts';
import type { SamplingLoop } from './sampling-loop.ts';
import { failures, InstancesReply, HistoricalQuery, HistoricalReply, HoursQuery, HourlyReply, LatestReply, LightIntegralQuery, LightIntegralReply, StatsReply } from './schemas.ts';
import { sensorStatus } from './status.ts';

export interface SensorRoutesOptions {
  repo: ReadingsRepo;
  /** The newest reading per sensor type (default the table's; the sampler's batch when it holds newer). */
  latest?: (greenhouseId: string) => Reading[];
  clock: Clock;
  /** Resolves when the rollups are current enough to answer from (after a restore, their catch-up). */
  historyReady?: () => Promise<void>;
  /** Config light.ppfdPerLux: the daily light integral's lux-to-PPFD factor. */
  ppfdPerLux: number;
  /** Instance health and zone faults. */
  sampler: Pick<SamplingLoop, 'instances' | 'zoneFault'>;
  /** Moves whenever stored data changes (default: never, answers are then computed each time). */
  dataVersion?: () => number;
}

/** Stats and hourly answers over a moving window are kept at most this long. */
const SUMMARY_SLOT_MS = 60_000;

const DEFAULT_HOURS = 24;

/** /api/sensors: the readings as the dashboard asks for them (docs/decisions.md contract table). */
export async function sensorRoutes(fastify: FastifyInstance, options: SensorRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { repo, clock } = options;
  const historyReady = options.historyReady ?? (() => Promise.resolve());
  // One history query per event-loop turn, however many dashboards ask at once.
  const turns = new TurnTaking();
  const params = GreenhouseParams;
  const answers = new HistoryAnswers();
  const dataVersion = options.dataVersion;
  /**
   * Sends the answer's JSON: the kept one while data and time slot are the same, else computed. The
   * history answers are serialised by V8's JSON.stringify, not by the route's schema serializer: a week's
   * points (about 1 MB) took fast-json-stringify 50-100 ms at full speed (its per-item checks of the
   * optional and nullable fields), JSON.stringify about 9, and it has nothing to compile on a route's
   * first request; on a Pi core that is the difference between a loop held for most of a second and
   * under a tenth of one (docs/performance.md). The repository builds these answers from the contract's
   * fields only, so the output is the same (tests/integration/history-serialisation.test.ts checks it).
   */
  const answer = async (reply: FastifyReply, question: string, slotMs: number, compute: () => Promise<unknown>): Promise<void> => {
    const serialise = async () => stringifyInTurns(ok(await compute()));
    const body = dataVersion ? await answers.get(question, { dataVersion: dataVersion(), nowMs: clock.now(), slotMs }, serialise) : await serialise();
    await reply.type('application/json; charset=utf-8').send(body);
  };

  /**
   * A history is read a zone and a slice of time at a time (historicalSlices), one turn of the event
   * loop each, and put back in the order one query gives (time, then sensor type). A week of all four
   * zones in one query held the loop for 45-80 ms at full speed, most of a second on a Pi core; a slice
   * is about a twentieth of that (docs/performance.md, "A week's history, a slice at a time").
   */
  const historicalInSlices = async (greenhouseId: string, hours: number, sensorType: SensorType | undefined): Promise<Reading[]> => {
    const { fromMs, untilMs, bucketMs } = historicalRange(hours, clock.now());
    const slices = historicalSlices(fromMs, untilMs, bucketMs);
    const zones = sensorType ? [sensorType] : SENSOR_TYPES;
    const parts = await Promise.all(zones.flatMap((zone) => slices.map(([from, until]) => turns.run(() => repo.historicalSlice(greenhouseId, from, until, bucketMs, zone)))));
    // One zone's slices come in time order already.
    return zones.length === 1 ? parts.flat() : parts.flat().sort(byTimeThenSensorType);
  };

  // Estimated from the LDR's lux over the 5-minute rollups, per local day (docs/decisions.md, Climate metrics).
  app.get(
    '/light-integral/:greenhouseId',
    { schema: { params, querystring: LightIntegralQuery, response: { 200: LightIntegralReply, ...failures } } },
    async (request) => {
      const nowMs = clock.now();
      await historyReady();
      const buckets = await turns.run(() => repo.lightBuckets(request.params.greenhouseId, windowStartMs(nowMs, request.query.days ?? 7), nowMs + 1, LIGHT_BUCKET_MS));
      return ok(dailyLightIntegral(buckets, LIGHT_BUCKET_MS, options.ppfdPerLux));
    },
  );

  app.get('/latest/:greenhouseId', { schema: { params, response: { 200: LatestReply, ...failures } } }, async (request) => {
    const nowMs = clock.now();
    const latest = options.latest ? options.latest(request.params.greenhouseId) : repo.latest(request.params.greenhouseId);
    return ok(latest.map((r) => ({ ...r, status: sensorStatus(Date.parse(r.timestamp), nowMs, options.sampler.zoneFault(r.sensorType) !== null) })));
  });

  // Every configured sensor that could be opened, with its own health, newest values and accuracy.
  app.get('/instances/:greenhouseId', { schema: { params, response: { 200: InstancesReply, ...failures } } }, async () => ok(options.sampler.instances()));

  app.get(
    '/historical/:greenhouseId',
    { schema: { params, querystring: HistoricalQuery, response: { 200: HistoricalReply, ...failures } } },
    async (request, reply) => {
      const { hours = DEFAULT_HOURS, sensorType } = request.query;
      const { greenhouseId } = request.params;
      await historyReady();
      await answer(reply, `historical|${greenhouseId}|${hours}|${sensorType ?? ''}`, bucketMsFor(hours), () => historicalInSlices(greenhouseId, hours, sensorType));
    },
  );

  app.get('/stats/:greenhouseId', { schema: { params, querystring: HoursQuery, response: { 200: StatsReply, ...failures } } }, async (request, reply) => {
    const { greenhouseId } = request.params;
    const hours = request.query.hours ?? DEFAULT_HOURS;
    await historyReady();
    await answer(reply, `stats|${greenhouseId}|${hours}`, SUMMARY_SLOT_MS, async () => {
      const nowMs = clock.now();
      const zones = await Promise.all(SENSOR_TYPES.map((zone) => turns.run(() => repo.stats(greenhouseId, hours, nowMs, zone))));
      return zones.flat().sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
    });
  });

  app.get('/hourly/:greenhouseId', { schema: { params, querystring: HoursQuery, response: { 200: HourlyReply, ...failures } } }, async (request, reply) => {
    const { greenhouseId } = request.params;
    const hours = request.query.hours ?? DEFAULT_HOURS;
    await historyReady();
    await answer(reply, `hourly|${greenhouseId}|${hours}`, SUMMARY_SLOT_MS, async () => {
      const nowMs = clock.now();
      const zones = await Promise.all(SENSOR_TYPES.map((zone) => turns.run(() => repo.hourOfDaySums(greenhouseId, hours, nowMs, zone))));
      return hourlyBuckets(addHourOfDaySums(zones));
    });
  });
}

/** One history query's order: bucket start (ISO-8601 UTC strings sort as times), then sensor type. */
function byTimeThenSensorType(a: Reading, b: Reading): number {
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? -1 : 1;
  return a.sensorType < b.sensorType ? -1 : a.sensorType > b.sensorType ? 1 : 0;
}

/** Points serialised in one turn of the event loop (a week's 4,000 points are 1.3 MB of JSON). */
const POINTS_PER_TURN = 500;

/**
 * JSON.stringify of an answer, its data array POINTS_PER_TURN items a turn (a macrotask between them),
 * so a long history never holds the loop for its whole serialisation. The text is JSON.stringify's.
 */
async function stringifyInTurns(answer: { data: unknown }): Promise<string> {
  const { data } = answer;
  if (!Array.isArray(data) || data.length <= POINTS_PER_TURN) return JSON.stringify(answer);
  const pieces: string[] = [];
  for (let i = 0; i < data.length; i += POINTS_PER_TURN) {
    if (i > 0) await nextTurn();
    pieces.push(JSON.stringify(data.slice(i, i + POINTS_PER_TURN)).slice(1, -1));
  }
  // The answer's own JSON with an empty data array, the pieces put in it.
  const shell = JSON.stringify({ ...answer, data: [] });
  const at = shell.indexOf('"data":[]') + '"data":['.length;
  return `${shell.slice(0, at)}${pieces.join(',')}${shell.slice(at)}`;
}
