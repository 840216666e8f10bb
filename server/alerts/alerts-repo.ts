import type { Clock } from '../../common/clock.ts';
import { and, desc, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Alert, AlertStats, Severity } from '../contract/alert.ts';
import { toIso, type Db } from '../db/open.ts';
import { alerts } from '../db/schema.ts';
import { untilWritten, WriteGeneration } from '../db/write-generation.ts';
import type { ActiveAlertView } from './evaluator.ts';

export type AlertRow = typeof alerts.$inferSelect;

export interface NewAlert {
  alertType: string;
  severity: Severity;
  message: string;
  deviceId: string | null;
  causeKey: string | null;
  value?: number | null;
  threshold?: number | null;
}

export interface AlertFilter {
  status?: 'active' | 'resolved';
  severity?: Severity;
  limit: number;
}

const SEVERITIES: readonly Severity[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];

export function toAlert(row: AlertRow): Alert {
  return {
    _id: String(row.id),
    greenhouseId: row.greenhouseId,
    alertType: row.alertType,
    severity: row.severity,
    message: row.message,
    deviceId: row.deviceId,
    value: row.value,
    threshold: row.threshold,
    isResolved: row.isResolved,
    createdAt: toIso(row.createdAt),
    resolvedAt: toIso(row.resolvedAt),
    actionTaken: row.actionTaken,
    acknowledgedAt: toIso(row.acknowledgedAt),
    acknowledgedBy: row.acknowledgedBy,
  };
}

export interface AlertsRepoDeps {
  db: Db;
  greenhouseId: string;
  clock: Clock;
}

/** Storage of alerts for one greenhouse. Times come from the injected clock, not SQLite's. */
export class AlertsRepo {
  #activeByCause: { all(): Array<{ id: number; causeKey: string | null; severity: Severity }> } | null = null;
  readonly #listStatements = new Map<string, { all(values: Record<string, unknown>): AlertRow[] }>();
  /** The active alerts with a cause, kept until anything is written (read by every sampling tick). */
  readonly #activeWithCause: () => ReadonlyArray<Readonly<ActiveAlertView>>;

  constructor(private readonly deps: AlertsRepoDeps) {
    this.#activeWithCause = untilWritten(new WriteGeneration(deps.db.$client), () => {
      // Prepared once (on first use, after the migrations), not rebuilt each time.
      this.#activeByCause ??= this.deps.db
        .select({ id: alerts.id, causeKey: alerts.causeKey, severity: alerts.severity })
        .from(alerts)
        .where(and(eq(alerts.greenhouseId, this.deps.greenhouseId), eq(alerts.isResolved, false), isNotNull(alerts.causeKey)))
        .prepare();
      return this.#activeByCause.all().map((r) => Object.freeze({ id: r.id, causeKey: r.causeKey!, severity: r.severity }));
    });
  }

  insert(alert: NewAlert): AlertRow {
    return this.deps.db
      .insert(alerts)
      .values({ ...alert, greenhouseId: this.deps.greenhouseId, isResolved: false, createdAt: new Date(this.deps.clock.now()) })
      .returning()
      .get();
  }

  findById(id: number): AlertRow | undefined {
    return this.deps.db.select().from(alerts).where(and(eq(alerts.id, id), eq(alerts.greenhouseId, this.deps.greenhouseId))).get();
  }

  /** Active alerts that have a cause (those the evaluator manages), by cause key. */
  activeByCause(): Map<string, ActiveAlertView> {
    return new Map(this.#activeWithCause().map((view) => [view.causeKey, view]));
  }

  list(filter: AlertFilter): AlertRow[] {
    const shape = `${filter.status ?? 'any'}/${filter.severity === undefined ? 'any' : 'one'}`;
    let statement = this.#listStatements.get(shape);
    if (!statement) {
      statement = this.#prepareList(filter);
      this.#listStatements.set(shape, statement);
    }
    // Placeholders are bound as given: is_resolved's stored form is 0 or 1.
    return statement.all({ resolved: filter.status === 'resolved' ? 1 : 0, severity: filter.severity ?? null, limit: filter.limit });
  }

  /**
   * The list's query for one shape of filter, prepared once: every phone on the Now screen asks for the
   * active alerts at each poll, and building the query through drizzle each time was most of what that
   * answer allocated (docs/performance.md, "A night on the gateway").
   */
  #prepareList(filter: AlertFilter) {
    const conditions = [eq(alerts.greenhouseId, this.deps.greenhouseId)];
    if (filter.status) conditions.push(eq(alerts.isResolved, sql.placeholder('resolved')));
    if (filter.severity) conditions.push(eq(alerts.severity, sql.placeholder('severity')));
    return this.deps.db
      .select()
      .from(alerts)
      .where(and(...conditions))
      .orderBy(desc(alerts.createdAt), desc(alerts.id))
      .limit(sql.placeholder('limit'))
      .prepare();
  }

  /** Updates an active alert's severity and message in place (escalation); undefined when not active. */
  escalate(id: number, changes: { severity: Severity; message: string; value: number | null }): AlertRow | undefined {
    return this.deps.db
      .update(alerts)
      // Turning CRITICAL announces it to the channels now: the escalation clock starts here, not at creation.
      .set({ ...changes, ...(changes.severity === 'CRITICAL' ? { escalatedAt: new Date(this.deps.clock.now()) } : {}) })
      .where(and(eq(alerts.id, id), eq(alerts.isResolved, false)))
      .returning()
      .get();
  }

  /** Marks an active alert resolved; undefined when it is unknown or already resolved. */
  resolve(id: number, actionTaken: string): AlertRow | undefined {
    return this.deps.db
      .update(alerts)
      .set({ isResolved: true, resolvedAt: new Date(this.deps.clock.now()), actionTaken })
      .where(and(eq(alerts.id, id), eq(alerts.greenhouseId, this.deps.greenhouseId), eq(alerts.isResolved, false)))
      .returning()
      .get();
  }

  /** Marks an alert seen by `by`; the first acknowledgement is kept. Undefined when it is unknown. */
  acknowledge(id: number, by: string): AlertRow | undefined {
    const scope = and(eq(alerts.id, id), eq(alerts.greenhouseId, this.deps.greenhouseId));
    this.deps.db
      .update(alerts)
      .set({ acknowledgedAt: new Date(this.deps.clock.now()), acknowledgedBy: by })
      .where(and(scope, isNull(alerts.acknowledgedAt)))
      .run();
    return this.findById(id);
  }

  /** Active CRITICAL alerts nobody acknowledged, created or last escalated at or before `dueMs`. */
  dueForEscalation(dueMs: number): AlertRow[] {
    return this.deps.db
      .select()
      .from(alerts)
      .where(
        and(
          eq(alerts.greenhouseId, this.deps.greenhouseId),
          eq(alerts.isResolved, false),
          eq(alerts.severity, 'CRITICAL'),
          isNull(alerts.acknowledgedAt),
          lte(sql`coalesce(${alerts.escalatedAt}, ${alerts.createdAt})`, dueMs),
        ),
      )
      .all();
  }

  markEscalated(id: number): void {
    this.deps.db.update(alerts).set({ escalatedAt: new Date(this.deps.clock.now()) }).where(eq(alerts.id, id)).run();
  }

  delete(id: number): boolean {
    return this.deps.db.delete(alerts).where(and(eq(alerts.id, id), eq(alerts.greenhouseId, this.deps.greenhouseId))).run().changes > 0;
  }

  stats(): AlertStats {
    const rows = this.deps.db
      .select({
        severity: alerts.severity,
        total: sql<number>`count(*)`,
        active: sql<number>`sum(case when ${alerts.isResolved} = 0 then 1 else 0 end)`,
      })
      .from(alerts)
      .where(eq(alerts.greenhouseId, this.deps.greenhouseId))
      .groupBy(alerts.severity)
      .all();
    const bySeverity = SEVERITIES.map((severity) => {
      const row = rows.find((r) => r.severity === severity);
      const total = Number(row?.total ?? 0);
      const active = Number(row?.active ?? 0);
      return { _id: severity, total, active, resolved: total - active };
    });
    const totalAlerts = bySeverity.reduce((n, s) => n + s.total, 0);
    const totalActive = bySeverity.reduce((n, s) => n + s.active, 0);
    return { overall: { totalAlerts, totalActive, totalResolved: totalAlerts - totalActive }, bySeverity };
  }
}
