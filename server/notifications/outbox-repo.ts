import { and, asc, desc, eq, inArray, lte, min, sql } from 'drizzle-orm';
import type { Clock } from '../../common/clock.ts';
import type { Delivery, DeliveryReason } from '../contract/notification.ts';
import { toIso, type Db } from '../db/open.ts';
import { notificationAttempts, notificationOutbox } from '../db/schema.ts';
import type { NotificationMessage } from './message.ts';

export type OutboxRow = typeof notificationOutbox.$inferSelect;

export interface NewDelivery {
  channelId: string;
  alertId: number | null;
  reason: DeliveryReason;
  message: NotificationMessage;
}

/**
 * The persistent outbox: every delivery is a row committed before anything is sent (each statement
 * commits on its own, and the database runs with synchronous=FULL), so a restart or a power cut loses
 * none; every attempt is a row of the delivery log.
 */
export class OutboxRepo {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  enqueue(delivery: NewDelivery): OutboxRow {
    const now = new Date(this.deps.clock.now());
    return this.deps.db
      .insert(notificationOutbox)
      .values({
        channelId: delivery.channelId,
        alertId: delivery.alertId,
        reason: delivery.reason,
        payload: delivery.message,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      })
      .returning()
      .get();
  }

  find(id: number): OutboxRow | undefined {
    return this.deps.db.select().from(notificationOutbox).where(eq(notificationOutbox.id, id)).get();
  }

  /** Whether this alert was already queued for this channel at this severity (an in-place escalation re-announces it). */
  alreadyQueued(alertId: number, channelId: string, severity: string): boolean {
    const row = this.deps.db
      .select({ id: notificationOutbox.id })
      .from(notificationOutbox)
      .where(
        and(
          eq(notificationOutbox.alertId, alertId),
          eq(notificationOutbox.channelId, channelId),
          eq(notificationOutbox.reason, 'alert'),
          sql`json_extract(${notificationOutbox.payload}, '$.severity') = ${severity}`,
        ),
      )
      .get();
    return row !== undefined;
  }

  /** Pending deliveries due by `nowMs`, oldest first. */
  due(nowMs: number): OutboxRow[] {
    return this.deps.db
      .select()
      .from(notificationOutbox)
      .where(and(eq(notificationOutbox.status, 'pending'), lte(notificationOutbox.nextAttemptAt, new Date(nowMs))))
      .orderBy(asc(notificationOutbox.id))
      .all();
  }

  /** When the next pending delivery falls due, or null when none is pending. */
  nextDueMs(): number | null {
    const row = this.deps.db
      .select({ at: min(notificationOutbox.nextAttemptAt) })
      .from(notificationOutbox)
      .where(eq(notificationOutbox.status, 'pending'))
      .get();
    return row?.at ? new Date(row.at).getTime() : null;
  }

  /** Records one attempt and its outcome in one transaction: the log and the row never disagree. */
  recordAttempt(id: number, outcome: { ok: boolean; detail: string; nextAttemptAtMs: number | null }): void {
    const nowMs = this.deps.clock.now();
    this.deps.db.transaction((tx) => {
      tx.insert(notificationAttempts).values({ deliveryId: id, at: new Date(nowMs), ok: outcome.ok, detail: outcome.detail }).run();
      tx.update(notificationOutbox)
        .set({
          attempts: sql`${notificationOutbox.attempts} + 1`,
          status: outcome.ok ? 'delivered' : outcome.nextAttemptAtMs === null ? 'failed' : 'pending',
          lastError: outcome.ok ? null : outcome.detail,
          deliveredAt: outcome.ok ? new Date(nowMs) : null,
          ...(outcome.nextAttemptAtMs !== null ? { nextAttemptAt: new Date(outcome.nextAttemptAtMs) } : {}),
        })
        .where(eq(notificationOutbox.id, id))
        .run();
    });
  }

  /** The delivery log, newest first, each with its attempts. */
  log(options: { limit: number; channelId?: string }): Delivery[] {
    const rows = this.deps.db
      .select()
      .from(notificationOutbox)
      .where(options.channelId ? eq(notificationOutbox.channelId, options.channelId) : undefined)
      .orderBy(desc(notificationOutbox.id))
      .limit(options.limit)
      .all();
    return this.#withAttempts(rows);
  }

  delivery(id: number): Delivery | null {
    const row = this.find(id);
    return row ? this.#withAttempts([row])[0]! : null;
  }

  /** Drops finished deliveries created before `beforeMs` (retention). */
  pruneFinished(beforeMs: number): number {
    return this.deps.db
      .delete(notificationOutbox)
      .where(and(inArray(notificationOutbox.status, ['delivered', 'failed']), lte(notificationOutbox.createdAt, new Date(beforeMs))))
      .run().changes;
  }

  #withAttempts(rows: OutboxRow[]): Delivery[] {
    if (rows.length === 0) return [];
    const attempts = this.deps.db
      .select()
      .from(notificationAttempts)
      .where(inArray(notificationAttempts.deliveryId, rows.map((r) => r.id)))
      .orderBy(asc(notificationAttempts.id))
      .all();
    return rows.map((row) => {
      const message = row.payload as NotificationMessage;
      return {
        id: row.id,
        channelId: row.channelId,
        alertId: row.alertId === null ? null : String(row.alertId),
        reason: row.reason,
        severity: message.severity,
        title: message.title,
        status: row.status,
        attempts: row.attempts,
        nextAttemptAt: row.status === 'pending' ? toIso(row.nextAttemptAt) : null,
        lastError: row.lastError,
        createdAt: toIso(row.createdAt),
        deliveredAt: toIso(row.deliveredAt),
        tries: attempts.filter((a) => a.deliveryId === row.id).map((a) => ({ at: toIso(a.at), ok: a.ok, detail: a.detail })),
      };
    });
  }
}
