/**
 * Sorts strings by code point, for machine-made keys (ISO dates, file names with timestamps), where it is
 * the right order. Not `localeCompare`: its first call loads ICU's collation tables, about 2.3 MB of the
 * process's resident memory kept for good, to order strings no person reads (docs/performance.md).
 */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
