/**
 * The history ranges of the Sensors and Analytics screens: docs/product.md §2's five, then 30 days and a
 * year, which the server answers from its hourly rollups as cheaply as a day (default 24).
 */
export const HISTORY_RANGES = [
  { hours: 1, label: 'Last Hour' },
  { hours: 6, label: 'Last 6 Hours' },
  { hours: 24, label: 'Last 24 Hours' },
  { hours: 72, label: 'Last 3 Days' },
  { hours: 168, label: 'Last Week' },
  { hours: 720, label: 'Last 30 Days' },
  { hours: 8760, label: 'Last Year' },
] as const;
