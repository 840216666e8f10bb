/** Report downloads running at once: each holds a read connection on a worker and a share of the core. */
export interface ExportLimits {
  /** One account's downloads at once: a single viewer cannot hold every slot. */
  perAccount: number;
  total: number;
}

export const DEFAULT_EXPORT_LIMITS: ExportLimits = { perAccount: 1, total: 2 };

/**
 * The export slots, counted per account and in all. `take` answers why a slot is refused (a message
 * for the 429) or a release function that frees it exactly once, whatever path ends the download.
 */
export class ExportSlots {
  readonly #limits: ExportLimits;
  readonly #perAccount = new Map<number, number>();
  #total = 0;

  constructor(limits: ExportLimits = DEFAULT_EXPORT_LIMITS) {
    this.#limits = limits;
  }

  take(accountId: number): { release: () => void } | { refused: string } {
    const mine = this.#perAccount.get(accountId) ?? 0;
    if (mine >= this.#limits.perAccount) {
      return { refused: `You already have ${mine} report export${mine === 1 ? '' : 's'} in progress (at most ${this.#limits.perAccount} per account): wait for it to finish` };
    }
    if (this.#total >= this.#limits.total) {
      return { refused: `Too many report exports in progress (${this.#total}, at most ${this.#limits.total} at once): try again shortly` };
    }
    this.#perAccount.set(accountId, mine + 1);
    this.#total++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#total--;
        const left = (this.#perAccount.get(accountId) ?? 1) - 1;
        if (left > 0) this.#perAccount.set(accountId, left);
        else this.#perAccount.delete(accountId);
      },
    };
  }
}
