import { COMMON_PASSWORDS_TEXT } from './common-passwords.ts';

/** Shortest password accepted (server/auth/README.md, "Passwords"). */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

let common: Set<string> | null = null;
const commonPasswords = () => (common ??= new Set(COMMON_PASSWORDS_TEXT.split('\n')));

/**
 * Why `password` may not be used by `username`, or null when it may. A guesser tries the list first and
 * the list with digits or a symbol stuck on ("password123!"), so both are refused; so are the username
 * itself and a run of one character (ten spaces). Length is counted in characters, not UTF-16 units.
 */
export function passwordProblem(password: string, username: string): string | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (length > MAX_PASSWORD_LENGTH) return `password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim() === '' || new Set(password).size === 1) return 'password must not be one character repeated';
  const lower = password.toLowerCase();
  const core = lower.replace(/^[\d\W_]+/u, '').replace(/[\d\W_]+$/u, '');
  const name = username.toLowerCase();
  if (lower === name || core === name) return 'password must not be the username';
  const doubled = /^(.+)\1$/u.exec(core)?.[1];
  if ([lower, core, doubled].some((candidate) => candidate !== undefined && commonPasswords().has(candidate))) {
    return 'password is too common: choose one that is not on lists of leaked passwords';
  }
  return null;
}
