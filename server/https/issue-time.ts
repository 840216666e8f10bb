/** No certificate is dated before this: the release year of HTTPS support. */
export const EARLIEST_ISSUE_MS = Date.UTC(2026, 0, 1);

/**
 * The time certificates are issued at. Phones judge them by their own clocks, so the gateway's real
 * wall clock is used (the HTTPS feature passes Date.now(): a simulator's clock may run fast or start in the
 * past), never before EARLIEST_ISSUE_MS: a Pi that booted without a real-time clock reads 1970 until NTP
 * answers, and a CA made then would have expired decades ago. A server certificate issued from the
 * floor is renewed by the hourly check once the clock is right (it then expires within 30 days).
 */
export function issueTimeMs(wallClockMs: number): number {
  return Math.max(wallClockMs, EARLIEST_ISSUE_MS);
}
