import type { Clock } from '../../common/clock.ts';
import { count, eq, sql } from 'drizzle-orm';
import { DEFAULT_PREFERENCES, type Preferences, type PublicUser, type Role } from '../contract/user.ts';
import { toIso, type Db } from '../db/open.ts';
import { users } from '../db/schema.ts';

export type UserRow = typeof users.$inferSelect;

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  role: Role;
  /** What a self-registered account asked for while it waits for an admin. */
  requestedRole?: Role | null;
}

export interface UsersRepoDeps {
  db: Db;
  greenhouseId: string;
  clock: Clock;
}

/** Storage of accounts. Usernames are unique without regard to case. */
export class UsersRepo {
  /**
   * The account of every authenticated request and websocket command, prepared once: built through
   * drizzle and compiled by SQLite again on each request, it was about a third of a request's guard
   * (docs/performance.md, "Last Week's answer in pieces").
   */
  #byId: ReturnType<typeof byIdStatement> | null = null;

  constructor(private readonly deps: UsersRepoDeps) {}

  count(): number {
    return this.deps.db.select({ n: count() }).from(users).get()?.n ?? 0;
  }

  findByUsername(username: string): UserRow | undefined {
    return this.deps.db
      .select()
      .from(users)
      .where(sql`lower(${users.username}) = lower(${username})`)
      .get();
  }

  findById(id: number): UserRow | undefined {
    this.#byId ??= byIdStatement(this.deps.db);
    return this.#byId.get({ id });
  }

  /** Addresses of every granted account that opted in to alert e-mails (a pending one is nobody's to mail yet). */
  emailRecipients(): string[] {
    return this.deps.db
      .select({ email: users.email, preferences: users.preferences, requestedRole: users.requestedRole })
      .from(users)
      .all()
      .filter((u) => u.requestedRole === null && (u.preferences as Partial<Preferences> | null)?.emailNotifications === true && u.email.includes('@'))
      .map((u) => u.email);
  }

  /** Every account, pending requests first, then by name. */
  list(): UserRow[] {
    return this.deps.db
      .select()
      .from(users)
      .orderBy(sql`${users.requestedRole} IS NULL`, sql`lower(${users.username})`)
      .all();
  }

  countAdmins(): number {
    return this.deps.db.select({ n: count() }).from(users).where(eq(users.role, 'admin')).get()?.n ?? 0;
  }

  /**
   * Changes an account's role, clears its request and revokes its tokens, refusing to leave the
   * gateway without an admin. Count and update share one transaction so two demotions cannot race.
   * Granting a pending account keeps its tokens: it only gains, and its owner, waiting on the "request
   * sent" screen, goes straight in instead of being signed out without a word.
   */
  changeRole(id: number, role: Role): { account: UserRow; changed: boolean } | 'last-admin' {
    return this.deps.db.transaction((tx) => {
      const current = tx.select().from(users).where(eq(users.id, id)).get();
      if (!current) throw new Error(`user ${id} vanished during role change`);
      // The role it has, and no request pending: nothing changes, so no token is revoked.
      if (current.role === role && current.requestedRole === null) return { account: current, changed: false };
      if (current.role === 'admin' && role !== 'admin') {
        const admins = tx.select({ n: count() }).from(users).where(eq(users.role, 'admin')).get()?.n ?? 0;
        if (admins <= 1) return 'last-admin';
      }
      const tokenVersion = current.requestedRole !== null ? current.tokenVersion : current.tokenVersion + 1;
      const account = tx
        .update(users)
        .set({ role, requestedRole: null, tokenVersion, updatedAt: new Date(this.deps.clock.now()) })
        .where(eq(users.id, id))
        .returning()
        .get()!;
      return { account, changed: true };
    });
  }

  /** Deletes an account unless it is the last admin. */
  remove(id: number): 'removed' | 'last-admin' {
    return this.deps.db.transaction((tx) => {
      const current = tx.select().from(users).where(eq(users.id, id)).get();
      if (!current) return 'removed';
      if (current.role === 'admin') {
        const admins = tx.select({ n: count() }).from(users).where(eq(users.role, 'admin')).get()?.n ?? 0;
        if (admins <= 1) return 'last-admin';
      }
      tx.delete(users).where(eq(users.id, id)).run();
      return 'removed';
    });
  }

  /** Creates the account with the role given (an admin's choice, or a self-registration's outcome). */
  create(user: NewUser): UserRow {
    const nowDate = new Date(this.deps.clock.now());
    return this.deps.db
      .insert(users)
      .values({ ...user, requestedRole: user.requestedRole ?? null, preferences: DEFAULT_PREFERENCES, createdAt: nowDate, updatedAt: nowDate })
      .returning()
      .get();
  }

  /**
   * Creates the first account, an admin, or answers null when any account exists. The count and the
   * insert share one transaction (SQLite runs one writer at a time), so however many first-run
   * registrations race, exactly one becomes admin.
   */
  createFirstAdmin(user: Omit<NewUser, 'role' | 'requestedRole'>): UserRow | null {
    return this.deps.db.transaction((tx) => {
      if ((tx.select({ n: count() }).from(users).get()?.n ?? 0) > 0) return null;
      const nowDate = new Date(this.deps.clock.now());
      return tx
        .insert(users)
        .values({ ...user, role: 'admin', requestedRole: null, preferences: DEFAULT_PREFERENCES, createdAt: nowDate, updatedAt: nowDate })
        .returning()
        .get();
    });
  }

  /** A new sign-in: the newest one becomes the previous one (what "Last Login" shows). */
  recordLogin(id: number): UserRow {
    const current = this.findById(id);
    return this.update(id, { previousLoginAt: current?.lastLoginAt ?? null, lastLoginAt: new Date(this.deps.clock.now()) });
  }

  update(id: number, changes: Partial<Pick<UserRow, 'email' | 'preferences' | 'passwordHash' | 'lastLoginAt' | 'previousLoginAt' | 'tokenVersion' | 'role' | 'requestedRole'>>): UserRow {
    const row = this.deps.db
      .update(users)
      .set({ ...changes, updatedAt: new Date(this.deps.clock.now()) })
      .where(eq(users.id, id))
      .returning()
      .get();
    if (!row) throw new Error(`user ${id} vanished during update`);
    return row;
  }

  toPublic(row: UserRow): PublicUser {
    return {
      _id: String(row.id),
      username: row.username,
      email: row.email,
      role: row.role,
      requestedRole: row.requestedRole ?? null,
      pending: row.requestedRole !== null,
      lastLogin: toIso(row.lastLoginAt),
      previousLogin: toIso(row.previousLoginAt),
      greenhouseAccess: [{ greenhouseId: this.deps.greenhouseId }],
      preferences: { ...DEFAULT_PREFERENCES, ...(row.preferences as Partial<Preferences>) },
      createdAt: toIso(row.createdAt),
    };
  }
}

function byIdStatement(db: Db) {
  return db.select().from(users).where(eq(users.id, sql.placeholder('id'))).prepare();
}
