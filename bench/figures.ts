// How the benches print and summarise their figures.

/** The middle value (the upper one of an even count). */
export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A figure for the table: thousands separated, at most `digits` decimals; NaN and Infinity as words. */
export const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits }) : String(n));
