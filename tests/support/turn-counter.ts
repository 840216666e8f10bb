/**
 * Counts turns of the event loop (a zero timer that re-arms itself) until stopped: a test reads `now()`
 * where work happens, to show that two pieces of it ran in different turns, with timers between them.
 */
export function turnCounter(): { now(): number; stop(): void } {
  let turn = 0;
  let counting = true;
  const count = () => {
    turn++;
    if (counting) setTimeout(count, 0);
  };
  setTimeout(count, 0);
  return { now: () => turn, stop: () => void (counting = false) };
}
