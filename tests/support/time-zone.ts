import { afterAll, beforeAll } from 'vitest';

/**
 * Runs the enclosing describe block in `zone` (process.env.TZ, which Node honours when assigned) and
 * puts the previous zone back after it: test files share a worker (`isolate: false`), so a zone left
 * behind would move every later file's local times. Compute local instants inside the tests, not
 * while the block is collected (the zone is set only before its tests run).
 */
export function inTimeZone(zone: string): void {
  let previous: string | undefined;
  beforeAll(() => {
    previous = process.env.TZ;
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  });
}

/** Every `stepMs` from `fromMs` (included) to `toMs` (excluded). */
export function* instants(fromMs: number, toMs: number, stepMs = 60_000): Generator<number> {
  for (let t = fromMs; t < toMs; t += stepMs) yield t;
}

/** The local wall clock of `ms` as `HH:MM` in the current zone. */
export const wall = (ms: number): string => {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};
