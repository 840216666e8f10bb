import { createHash } from 'node:crypto';
import type { Gateway } from '../../server/gateway.ts';

/** A hash of every row of every table: equal before and after means the request changed nothing stored. */
export function databaseChecksum(gw: Pick<Gateway, 'database'>): string {
  const hash = createHash('sha256');
  const tables = gw.database.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>;
  for (const { name } of tables) {
    hash.update(name);
    for (const row of gw.database.sqlite.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).iterate()) hash.update(JSON.stringify(row));
  }
  return hash.digest('hex');
}
