import { eq } from 'drizzle-orm';
import type { Db } from '../../db/open.ts';
import { irrigationCycles } from '../../db/schema.ts';
import { IDLE, type CycleState } from './program.ts';

/** The `irrigation_cycles` table: each pump program's phase, so a restart resumes a soak and keeps a pause. */
export class CycleStore {
  constructor(private readonly deps: { db: Db; nowMs: () => number }) {}

  load(deviceId: string): CycleState {
    const row = this.deps.db.select().from(irrigationCycles).where(eq(irrigationCycles.deviceId, deviceId)).get();
    if (!row) return { ...IDLE };
    return { phase: row.phase, pulses: row.pulses, startPct: row.startPct, untilMs: row.untilMs, lastPulseAtMs: row.lastPulseAtMs, fallback: row.fallback };
  }

  save(deviceId: string, state: CycleState): void {
    const values = { ...state, updatedAt: new Date(this.deps.nowMs()) };
    this.deps.db.insert(irrigationCycles).values({ deviceId, ...values }).onConflictDoUpdate({ target: irrigationCycles.deviceId, set: values }).run();
  }

  remove(deviceId: string): void {
    this.deps.db.delete(irrigationCycles).where(eq(irrigationCycles.deviceId, deviceId)).run();
  }
}
