/**
 * Serialised history answers, kept while they cannot have changed: same question, same committed data
 * (the caller's `dataVersion`: it moves whenever readings are committed) and the same time slot
 * (`slotMs`: a window ending "now" only moves by whole buckets). Six phones opening Last Week at once
 * then cost one query and one serialisation, not six: on a Pi core each is hundreds of milliseconds
 * the sampler and the rules would wait for (docs/performance.md). Phones asking the same question
 * while its answer is still being computed wait for that one computation rather than start their own.
 */
export class HistoryAnswers<Body> {
  readonly #answers = new Map<string, { version: string; body: Promise<Body> }>();

  constructor(private readonly maxEntries = 16) {}

  /** The stored (or in-flight) answer to `question`, or `compute()`'s, stored for next time. */
  get(question: string, version: { dataVersion: number; nowMs: number; slotMs: number }, compute: () => Promise<Body>): Promise<Body> {
    const stamp = `${version.dataVersion}:${Math.floor(version.nowMs / version.slotMs)}`;
    const known = this.#answers.get(question);
    if (known && known.version === stamp) return known.body;
    const entry = { version: stamp, body: compute() };
    // A failed computation is not kept: the next asker tries again.
    entry.body.catch(() => {
      if (this.#answers.get(question) === entry) this.#answers.delete(question);
    });
    // The newest question goes last: the oldest is the first to go when full.
    this.#answers.delete(question);
    this.#answers.set(question, entry);
    while (this.#answers.size > this.maxEntries) this.#answers.delete(this.#answers.keys().next().value!);
    return entry.body;
  }
}
