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
}

/** Storage of accounts. Usernames are unique without regard to case. */
export class UsersRepo {
  constructor(
    private readonly db: Db,
    private readonly greenhouseId: string,
    private readonly now: () => number,
  ) {}

  count(): number {
    return this.db.select({ n: count() }).from(users).get()?.n ?? 0;
  }

  findByUsername(username: string): UserRow | undefined {
    return this.db
      .select()
      .from(users)
      .where(sql`lower(${users.username}) = lower(${username})`)
      .get();
  }

  findById(id: number): UserRow | undefined {
    return this.db.select().from(users).where(eq(users.id, id)).get();
  }

  /**
   * Creates the account; the very first account becomes admin whatever it asked for. The count and the
   * insert run in one transaction so two simultaneous first registrations cannot both become admin.
   */
  create(user: NewUser): UserRow {
    return this.db.transaction((tx) => {
      const existing = tx.select({ n: count() }).from(users).get()?.n ?? 0;
      const role: Role = existing === 0 ? 'admin' : user.role;
      const nowDate = new Date(this.now());
      return tx
        .insert(users)
        .values({ ...user, role, preferences: DEFAULT_PREFERENCES, createdAt: nowDate, updatedAt: nowDate })
        .returning()
        .get();
    });
  }

  recordLogin(id: number): UserRow {
    return this.update(id, { lastLoginAt: new Date(this.now()) });
  }

  update(id: number, changes: Partial<Pick<UserRow, 'email' | 'preferences' | 'passwordHash' | 'lastLoginAt' | 'tokenVersion'>>): UserRow {
    const row = this.db
      .update(users)
      .set({ ...changes, updatedAt: new Date(this.now()) })
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
      lastLogin: toIso(row.lastLoginAt),
      greenhouseAccess: [{ greenhouseId: this.greenhouseId }],
      preferences: { ...DEFAULT_PREFERENCES, ...(row.preferences as Partial<Preferences>) },
      createdAt: toIso(row.createdAt),
    };
  }
}
