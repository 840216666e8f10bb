import { eq } from 'drizzle-orm';
import type { ClimateProgram } from '../contract/climate.ts';
import type { Db } from '../db/open.ts';
import { climatePrograms } from '../db/schema.ts';

/** The `climate_programs` table: one program per greenhouse, kept as JSON. */
export class ClimateProgramRepo {
  constructor(private readonly deps: { db: Db }) {}

  get(greenhouseId: string): ClimateProgram | null {
    const row = this.deps.db.select().from(climatePrograms).where(eq(climatePrograms.greenhouseId, greenhouseId)).get();
    return row ? (row.program as ClimateProgram) : null;
  }

  put(greenhouseId: string, program: ClimateProgram, atMs: number): void {
    const values = { greenhouseId, program, updatedAt: new Date(atMs) };
    this.deps.db.insert(climatePrograms).values(values).onConflictDoUpdate({ target: climatePrograms.greenhouseId, set: values }).run();
  }
}
