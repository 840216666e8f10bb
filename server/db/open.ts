import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { ensureIncrementalAutoVacuum, type AutoVacuumOutcome } from './auto-vacuum.ts';
import * as schema from './schema.ts';

/** The drizzle database over the connection it wraps (`$client`, for the hand-tuned parts). */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export interface OpenedDatabase {
  db: Db;
  /** The raw connection, for pragmas, backups and hand-tuned statements. */
  sqlite: Database.Database;
  path: string;
  /** Whether freed pages can be reclaimed a slice at a time (server/db/auto-vacuum.ts). */
  autoVacuum: AutoVacuumOutcome;
  close(): void;
}

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export const DATABASE_FILE = 'greenhouse.db';

/**
 * Opens (creating if needed) the gateway's SQLite file and applies the checked-in migrations before
 * anything else touches it.
 */
export function openDatabase(dataDir: string): OpenedDatabase {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, DATABASE_FILE);
  const fileBytes = existsSync(path) ? statSync(path).size : 0;
  const sqlite = new Database(path);
  // First: SQLite takes auto_vacuum only before any table exists (or through a VACUUM).
  const autoVacuum = ensureIncrementalAutoVacuum(sqlite, fileBytes);
  sqlite.pragma('journal_mode = WAL');
  // better-sqlite3 leaves WAL at synchronous=NORMAL, which can lose the last commits on a power cut.
  // Our write rate is a few transactions a second, so full durability costs nothing (docs/decisions.md).
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return {
    db,
    sqlite,
    path,
    autoVacuum,
    close: () => {
      if (sqlite.open) sqlite.close();
    },
  };
}

/** Epoch-ms Date (as drizzle returns it) to the wire's ISO-8601 string. */
export function toIso(value: Date | number): string;
export function toIso(value: Date | number | null | undefined): string | null;
export function toIso(value: Date | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return new Date(value).toISOString();
}
