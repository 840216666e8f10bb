import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Clock } from '../../common/clock.ts';
import { GreenhouseParams } from '../contract/common.ts';
import { SENSOR_TYPES, type Reading, type SensorType } from '../contract/reading.ts';
import { jsonArrayInPieces, jsonItems, sendJsonPieces } from '../http/json-pieces.ts';
import { ok } from '../http/reply.ts';
import { TurnTaking } from '../history/turn-taking.ts';
import { HistoryAnswers } from './history-answers.ts';
import { addHourOfDaySums, hourlyBuckets } from './hour-of-day.ts';
import { bucketMsFor, historicalRange, historicalSlices, ROWS_PER_HISTORY_SLICE, type ReadingsRepo } from './readings-repo.ts';
import { dailyLightIntegral, LIGHT_BUCKET_MS, windowStartMs } from './light-integral.ts';
import type { SamplingLoop } from './sampling-loop.ts';
import { failures, InstancesReply, HistoricalQuery, HistoricalReply, HoursQuery, HourlyReply, LatestReply, LightIntegralQuery, LightIntegralReply, StatsReply } from './schemas.ts';
import { sensorStatus } from './status.ts';

export interface SensorRoutesOptions {
  repo: ReadingsRepo;
  /** The newest reading per sensor type (default the table's; the sampler's batch when it holds newer). */
  latest?: (greenhouseId: string) => Reading[];
  clock: Clock;
  /**
   * Resolves when the rollups are current enough to answer from (after a restore, their catch-up);
   * rejects with a 503 that says how far a catch-up is when it takes long (history/history-wait.ts).
   */
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
  const answers = new HistoryAnswers<Buffer[]>();
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
  const answer = async (reply: FastifyReply, question: string, slotMs: number, compute: () => Promise<Buffer[]>): Promise<void> => {
    const pieces = dataVersion ? await answers.get(question, { dataVersion: dataVersion(), nowMs: clock.now(), slotMs }, compute) : await compute();
    await sendJsonPieces(reply, pieces);
  };
  const whole = async (data: unknown): Promise<Buffer[]> => [Buffer.from(JSON.stringify(ok(data)))];

  /**
   * A history is read a slice of time at a time (historicalSlices, about ROWS_PER_HISTORY_SLICE stored
   * rows in all, each zone with its own columns), one turn of the event loop each, and each slice's
   * points are serialised in the same turn, in the order one query gives (time, then sensor type). A
   * week of all four zones in one query held the loop for 45-80 ms at full speed, most of a second on
   * a Pi core; a slice is about a twentieth of that (docs/performance.md, "A week's history, a slice at
   * a time", and "Last Week's answer in pieces").
   */
  const historicalInSlices = (greenhouseId: string, hours: number, sensorType: SensorType | undefined): Promise<Buffer[]> => {
    const { fromMs, untilMs, bucketMs } = historicalRange(hours, clock.now());
    const zones = sensorType ? [sensorType] : SENSOR_TYPES;
    const slices = historicalSlices(fromMs, untilMs, bucketMs, ROWS_PER_HISTORY_SLICE / zones.length);
    const slicePoints = (from: number, until: number) => {
      const points = zones.flatMap((zone) => repo.historicalSlice(greenhouseId, from, until, bucketMs, zone));
      // One zone's points come in time order; several zones' are put in the order of one query.
      return jsonItems(zones.length === 1 ? points : points.sort(byTimeThenSensorType));
    };
    return jsonArrayInPieces(ok([]), slices.map(([from, until]) => () => turns.run(() => slicePoints(from, until))));
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
      return whole(zones.flat().sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)));
    });
  });

  app.get('/hourly/:greenhouseId', { schema: { params, querystring: HoursQuery, response: { 200: HourlyReply, ...failures } } }, async (request, reply) => {
    const { greenhouseId } = request.params;
    const hours = request.query.hours ?? DEFAULT_HOURS;
    await historyReady();
    await answer(reply, `hourly|${greenhouseId}|${hours}`, SUMMARY_SLOT_MS, async () => {
      const nowMs = clock.now();
      const zones = await Promise.all(SENSOR_TYPES.map((zone) => turns.run(() => repo.hourOfDaySums(greenhouseId, hours, nowMs, zone))));
      return whole(hourlyBuckets(addHourOfDaySums(zones)));
    });
  });
}

/** One history query's order: bucket start (ISO-8601 UTC strings sort as times), then sensor type. */
function byTimeThenSensorType(a: Reading, b: Reading): number {
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? -1 : 1;
  return a.sensorType < b.sensorType ? -1 : a.sensorType > b.sensorType ? 1 : 0;
}
