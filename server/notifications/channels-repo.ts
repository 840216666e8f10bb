import { asc, eq } from 'drizzle-orm';
import type { Clock } from '../../common/clock.ts';
import type { Severity } from '../contract/alert.ts';
import type { ChannelKind, NotificationChannel, QuietHours } from '../contract/notification.ts';
import { toIso, type Db } from '../db/open.ts';
import { notificationChannels } from '../db/schema.ts';

export type ChannelRow = typeof notificationChannels.$inferSelect;

/** A channel with its secret, as the senders need it (never sent to a browser). */
export interface StoredChannel {
  channelId: string;
  kind: ChannelKind;
  target: string;
  minSeverity: Severity;
  quietHours: QuietHours | null;
  secret: string | null;
}

export function toStored(row: ChannelRow): StoredChannel {
  return {
    channelId: row.channelId,
    kind: row.kind as ChannelKind,
    target: row.target,
    minSeverity: row.minSeverity,
    quietHours: row.quietFrom && row.quietTo ? { from: row.quietFrom, to: row.quietTo } : null,
    secret: row.secret,
  };
}

export function toWire(row: ChannelRow): NotificationChannel {
  const { secret, ...rest } = toStored(row);
  return { ...rest, hasSecret: secret !== null, createdAt: toIso(row.createdAt), updatedAt: toIso(row.updatedAt) };
}

/** The channels table. The gateway and the OnFailure script (on-failure.ts) both read it. */
export class ChannelsRepo {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  list(): ChannelRow[] {
    return this.deps.db.select().from(notificationChannels).orderBy(asc(notificationChannels.channelId)).all();
  }

  find(channelId: string): ChannelRow | undefined {
    return this.deps.db.select().from(notificationChannels).where(eq(notificationChannels.channelId, channelId)).get();
  }

  insert(channel: StoredChannel): ChannelRow {
    const now = new Date(this.deps.clock.now());
    return this.deps.db
      .insert(notificationChannels)
      .values({ ...columnsOf(channel), channelId: channel.channelId, createdAt: now, updatedAt: now })
      .returning()
      .get();
  }

  update(channel: StoredChannel): ChannelRow {
    return this.deps.db
      .update(notificationChannels)
      .set({ ...columnsOf(channel), updatedAt: new Date(this.deps.clock.now()) })
      .where(eq(notificationChannels.channelId, channel.channelId))
      .returning()
      .get()!;
  }

  delete(channelId: string): boolean {
    return this.deps.db.delete(notificationChannels).where(eq(notificationChannels.channelId, channelId)).run().changes > 0;
  }
}

function columnsOf(channel: StoredChannel) {
  return {
    kind: channel.kind,
    target: channel.target,
    minSeverity: channel.minSeverity,
    quietFrom: channel.quietHours?.from ?? null,
    quietTo: channel.quietHours?.to ?? null,
    secret: channel.secret,
  };
}
