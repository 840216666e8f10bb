/** The local calendar date of `ms` as `YYYY-MM-DD` (the gateway's time zone, as the dashboard's days are). */
export function localDateText(ms: number | Date): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
