import { and, eq } from 'drizzle-orm';
import type { Clock } from '../../common/clock.ts';
import type { Severity } from '../contract/alert.ts';
import type { PushSubscriptionView } from '../contract/push.ts';
import type { OpenedDatabase } from '../db/open.ts';
import { pushSubscriptions } from '../db/schema.ts';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

export interface SubscriptionInput {
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  minSeverity: Severity;
}

/** The push_subscriptions table: one row per subscribed browser, owned by an account. */
export class PushSubscriptionsRepo {
  readonly #db: OpenedDatabase['db'];
  readonly #clock: Clock;

  constructor(options: { db: OpenedDatabase['db']; clock: Clock }) {
    this.#db = options.db;
    this.#clock = options.clock;
  }

  /** Adds a browser, or updates it (keys, severity, owner) when its endpoint is known: one row per browser. */
  upsert(input: SubscriptionInput): PushSubscriptionRow {
    const now = new Date(this.#clock.now());
    return this.#db
      .insert(pushSubscriptions)
      .values({ ...input, createdAt: now })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId: input.userId, p256dh: input.p256dh, auth: input.auth, minSeverity: input.minSeverity, lastError: null },
      })
      .returning()
      .get();
  }

  /** Removes the caller's own subscription; false when that endpoint is not theirs (or unknown). */
  removeOwn(userId: number, endpoint: string): boolean {
    return this.#db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint))).run().changes > 0;
  }

  /** The push service says the browser is gone (404/410): the row goes. */
  removeById(id: number): void {
    this.#db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id)).run();
  }

  forUser(userId: number): PushSubscriptionRow[] {
    return this.#db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).all();
  }

  all(): PushSubscriptionRow[] {
    return this.#db.select().from(pushSubscriptions).all();
  }

  recordDelivered(id: number): void {
    this.#db.update(pushSubscriptions).set({ lastDeliveredAt: new Date(this.#clock.now()), lastError: null }).where(eq(pushSubscriptions.id, id)).run();
  }

  recordFailure(id: number, message: string): void {
    this.#db.update(pushSubscriptions).set({ lastError: message.slice(0, 300) }).where(eq(pushSubscriptions.id, id)).run();
  }
}

export function toView(row: PushSubscriptionRow): PushSubscriptionView {
  return {
    endpoint: row.endpoint,
    minSeverity: row.minSeverity,
    createdAt: row.createdAt.toISOString(),
    lastDeliveredAt: row.lastDeliveredAt?.toISOString() ?? null,
    lastError: row.lastError,
  };
}
