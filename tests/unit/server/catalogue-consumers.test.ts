// Every quantity of the catalogue reaches every consumer: a quantity added to common/catalogue.ts and
// missing from one of them (a column, the wire contract, realtime, MQTT, metrics, CSV, the dashboard's
// charts) fails here, naming the quantity and the consumer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QUANTITIES, QUANTITY_KEYS, SENSOR_KINDS, ZONE_QUANTITIES, ZONES } from '../../../common/catalogue.ts';
import { CSV_COLUMNS, CSV_SOURCE_COLUMNS } from '../../../server/analytics/csv-format.ts';
import { AllSensorsUpdate, FieldValues, Reading, SENSOR_FIELDS, SENSOR_UNITS } from '../../../server/contract/reading.ts';
import { openDatabase } from '../../../server/db/open.ts';
import { READING_FIELD_COLUMNS } from '../../../server/db/schema.ts';
import { GatewayMetrics } from '../../../server/metrics/gateway-metrics.ts';
import { QUANTITIES as MQTT_QUANTITIES } from '../../../server/mqtt/quantities.ts';
import { allSensorsUpdate } from '../../../server/sensors/all-sensors-update.ts';
import { FIELD_OF_COLUMN } from '../../../server/sensors/reading-row.ts';
import { chartSeries } from '../../../web/src/sensors/quantities.ts';
import { snapshotOf } from '../../support/snapshots.ts';

const dir = mkdtempSync(join(tmpdir(), 'greenhouse-catalogue-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const columnsOf = (db: ReturnType<typeof openDatabase>, table: string) =>
  new Set((db.sqlite.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name));

describe.each(QUANTITY_KEYS)('quantity %s', (key) => {
  const q = QUANTITIES[key];

  it('has a readings column and rollup aggregates after the real migrations', () => {
    const db = openDatabase(dir);
    try {
      expect(columnsOf(db, 'readings')).toContain(q.column);
      const rollups = columnsOf(db, 'reading_rollups');
      for (const suffix of ['_n', '_sum', '_min', '_max']) expect(rollups).toContain(`${q.column}${suffix}`);
    } finally {
      db.close();
    }
    expect(READING_FIELD_COLUMNS).toContain(q.column);
    expect(FIELD_OF_COLUMN[q.column]).toBe(q.field);
  });

  it('is on the wire: readings, min/max, allSensorsUpdate, units and its zone', () => {
    expect(Object.keys(Reading.properties)).toContain(q.field);
    expect(Object.keys(FieldValues.properties)).toContain(q.field);
    expect(Object.keys(AllSensorsUpdate.properties)).toContain(q.field);
    expect(SENSOR_UNITS[q.field]).toBe(q.unit);
    expect(SENSOR_FIELDS[q.zone]).toContain(q.field);
    expect(allSensorsUpdate('g', snapshotOf({ [q.field]: 12 }, 0))[q.field]).toBe(12);
  });

  it('reaches MQTT (state and Home Assistant discovery), metrics and the CSV export', () => {
    expect(MQTT_QUANTITIES.find((m) => m.key === key)).toMatchObject({ field: q.field, deviceClass: q.homeAssistant.deviceClass, unit: q.homeAssistant.unit });
    const metrics = new GatewayMetrics({ greenhouseId: 'g' } as never);
    expect(metrics.registry.getSingleMetric(q.metric.name), q.metric.name).toBeDefined();
    expect(q.metric.name).toMatch(/^greenhouse_[a-z0-9_]+_(celsius|ratio|meters|pascals|lux)$/);
    expect(CSV_COLUMNS).toContain(q.field);
    expect(CSV_SOURCE_COLUMNS).toContain(q.column);
  });

  it("reaches the dashboard's charts with its label, unit, precision and colour", () => {
    expect(chartSeries(q.zone).find((s) => s.field === q.field)).toMatchObject({ name: q.label, unit: q.unit, precision: q.precision, color: q.chart.colour });
  });

  it('is measured by at least one sensor kind, each with a datasheet accuracy for it', () => {
    const kinds = Object.values(SENSOR_KINDS).filter((k) => (k.quantities as readonly string[]).includes(key));
    expect(kinds.length).toBeGreaterThan(0);
    for (const kind of kinds) expect((kind.accuracy as Record<string, unknown>)[key], kind.label).toBeDefined();
  });
});

it('puts every quantity in exactly one zone', () => {
  expect(ZONES.flatMap((z) => ZONE_QUANTITIES[z]).sort()).toEqual([...QUANTITY_KEYS].sort());
});
