// Validation failures in words a grower uses ("Invalid body: password must NOT have fewer
// than 8 characters" and a raw regex for usernames were shown as they came). The gateway's 400 answers
// carry `errors: [{ field, message }]` with ajv's wording; this maps the first one to a sentence.

const FIELD_LABELS: Record<string, string> = {
  username: 'Username',
  password: 'Password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  email: 'Email',
  role: 'Role',
  deviceId: 'Device ID',
  deviceName: 'Device name',
  deviceType: 'Device type',
  powerConsumption: 'Power consumption',
  location: 'Location',
  dataRetentionDays: 'Data retention (days)',
  updateInterval: 'Update interval (seconds)',
};

/** Allowed characters, said in words, for fields whose pattern a person cannot read. */
const PATTERN_HINTS: Record<string, string> = {
  username: 'Username may use only letters, digits, dots, dashes and underscores',
  deviceId: 'Device ID may use only letters, digits, dashes and underscores',
};

export function fieldLabel(field: string): string {
  const last = field.split('.').pop() ?? field;
  if (FIELD_LABELS[last]) return FIELD_LABELS[last];
  const words = last.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One validation issue as a sentence, or null when its wording is not recognised. */
export function humanIssue(field: string, message: string): string | null {
  const label = fieldLabel(field);
  const last = field.split('.').pop() ?? field;
  let m: RegExpMatchArray | null;
  if (/is required$/.test(message)) return `${label} is required`;
  if ((m = message.match(/must NOT have fewer than (\d+) characters/))) return `${label} must be at least ${m[1]} characters`;
  if ((m = message.match(/must NOT have more than (\d+) characters/))) return `${label} must be at most ${m[1]} characters`;
  if (/must match pattern/.test(message)) return PATTERN_HINTS[last] ?? `${label} contains characters that are not allowed`;
  if (/must match format "email"/.test(message)) return 'Enter a valid email address';
  if ((m = message.match(/must be >= (\S+)/))) return `${label} must be at least ${m[1]}`;
  if ((m = message.match(/must be <= (\S+)/))) return `${label} must be at most ${m[1]}`;
  if ((m = message.match(/must be > (\S+)/))) return `${label} must be more than ${m[1]}`;
  if ((m = message.match(/must be < (\S+)/))) return `${label} must be less than ${m[1]}`;
  if (/must be (number|integer)/.test(message)) return `${label} must be a number`;
  if (/must be boolean/.test(message)) return `${label} must be on or off`;
  if (/has an invalid value/.test(message)) return `${label} has a value that is not allowed`;
  if (/is not an accepted field/.test(message)) return `${label} is not a field this form can change`;
  return null;
}

/** The sentence for a failed call's body, or null to keep the server's own message. */
export function humanFailure(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors) || errors.length === 0) return null;
  const first = errors[0] as { field?: unknown; message?: unknown };
  if (typeof first.field !== 'string' || typeof first.message !== 'string') return null;
  return humanIssue(first.field, first.message);
}
