/** A macrotask: timers, sockets and the sampler's I/O all get a turn before the promise resolves. */
export const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Runs synchronous jobs (history queries) one per event-loop turn. Six dashboards opening a week at once
 * send their requests in the same instant; run back to back, their queries would add up to one long
 * stall of the loop the sampler, the rules and the safety timers share. Taking turns, the loop is held
 * for one query at most, whatever the number of clients.
 */
export class TurnTaking {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(job: () => T): Promise<T> {
    const result = this.#tail.then(nextTurn).then(job);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
