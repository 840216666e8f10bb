/** A text that starts like a spreadsheet formula: = + - @, or a tab or carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A formula hidden after a separator: a spreadsheet opened in a locale that splits on `;` (or a tool
 * that splits on tabs or `|`) turns `ok;=HYPERLINK(...)` into two cells, the second a formula.
 */
const FORMULA_AFTER_SEPARATOR = /([,;|\t\r\n])([ \t\r]*)(?=[=+\-@])/g;

/**
 * One CSV cell of text (RFC 4180) that no spreadsheet will run (OWASP "CSV injection"): a leading
 * formula character, and one after any separator inside the text, gets a single quote before it.
 * Only for text: numbers are written as numbers (a negative reading is not a formula).
 */
export function csvCell(value: string | null | undefined): string {
  let text = (value ?? '').replace(FORMULA_AFTER_SEPARATOR, "$1$2'");
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",;\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
