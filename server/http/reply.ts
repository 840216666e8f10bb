/** The success envelope of every API answer (docs/decisions.md, Contract). */
export function ok<T>(data: T, message?: string): { success: true; data: T; message?: string } {
  return message === undefined ? { success: true, data } : { success: true, data, message };
}
