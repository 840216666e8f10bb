/** The history ranges of spec section 2 (Sensors, Analytics): hours and their labels; default 24. */
export const HISTORY_RANGES = [
  { hours: 1, label: 'Last Hour' },
  { hours: 6, label: 'Last 6 Hours' },
  { hours: 24, label: 'Last 24 Hours' },
  { hours: 72, label: 'Last 3 Days' },
  { hours: 168, label: 'Last Week' },
] as const;
