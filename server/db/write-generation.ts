import type Database from 'better-sqlite3';

/**
 * Says whether the database may have changed since a value was read from it: any row this connection
 * inserted, updated or deleted (SQLite's `total_changes()`, triggers included, rolled-back writes still
 * counted) or a commit by another connection (`PRAGMA data_version`). One prepared read of a few
 * microseconds, against the drizzle query and row mapping it saves.
 *
 * Reads that every sampling tick repeats (the device list, each device's newest control-log entry, the
 * active alerts) keep their answer while the stamp stays the same (docs/performance.md, "The sampling
 * tick"). Conservative by design: any write anywhere (a batch of readings, a session) refreshes them all.
 */
export class WriteGeneration {
  readonly #sqlite: Database.Database;
  readonly #statement: Database.Statement<[], [number, number]>;

  constructor(sqlite: Database.Database) {
    this.#sqlite = sqlite;
    this.#statement = sqlite.prepare<[], [number, number]>('SELECT total_changes(), data_version FROM pragma_data_version').raw(true);
  }

  /**
   * Equal stamps mean nothing was written in between. Null inside a transaction: what it reads may
   * still be rolled back, which `total_changes()` does not count back, so nothing read there is kept.
   */
  stamp(): string | null {
    if (this.#sqlite.inTransaction) return null;
    const [changes, dataVersion] = this.#statement.get()!;
    return `${changes}/${dataVersion}`;
  }
}

/** `read`'s answer, read again only once the database may have changed. */
export function untilWritten<T>(generation: WriteGeneration, read: () => T): () => T {
  let stamp: string | null = null;
  let value: T;
  return () => {
    const now = generation.stamp();
    if (now === null) return read();
    if (now !== stamp) {
      value = read();
      stamp = now;
    }
    return value;
  };
}

/** `read(key)`'s answer per key, all forgotten once the database may have changed. */
export function untilWrittenByKey<K, T>(generation: WriteGeneration, read: (key: K) => T): (key: K) => T {
  let stamp: string | null = null;
  const values = new Map<K, T>();
  return (key) => {
    const now = generation.stamp();
    if (now === null) return read(key);
    if (now !== stamp) {
      values.clear();
      stamp = now;
    }
    if (!values.has(key)) values.set(key, read(key));
    return values.get(key)!;
  };
}
