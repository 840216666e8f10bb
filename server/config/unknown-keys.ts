import type { TSchema } from 'typebox';

type Schemaish = { properties?: Record<string, TSchema>; items?: TSchema; anyOf?: TSchema[] };

/**
 * Keys of a config value that its schema does not know, each as one problem line naming the key and,
 * when a known key is one or two edits away, the one probably meant. A typo (`"registation"`) would
 * otherwise leave the default in force without a word: the gateway refuses to start instead.
 */
export function unknownKeys(schema: TSchema, value: unknown, path = ''): string[] {
  const s = schema as Schemaish;
  if (Array.isArray(value)) {
    return s.items ? value.flatMap((item, i) => unknownKeys(s.items!, item, `${path}${path ? '.' : ''}${i}`)) : [];
  }
  if (typeof value !== 'object' || value === null) return [];
  if (s.anyOf) {
    // A union of objects (one per sensor kind, say): judge by the branch that fits best, so a key
    // that one kind knows is not called unknown because another kind does not.
    const judged = s.anyOf.filter((branch) => (branch as Schemaish).properties).map((branch) => unknownKeys(branch, value, path));
    return judged.length === 0 ? [] : judged.reduce((best, next) => (next.length < best.length ? next : best));
  }
  if (!s.properties) return [];
  const known = Object.keys(s.properties);
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
    const at = `${path}${path ? '.' : ''}${key}`;
    if (!Object.hasOwn(s.properties!, key)) {
      const meant = known.find((candidate) => editDistance(candidate.toLowerCase(), key.toLowerCase()) <= 2);
      return [`${at}: unknown key${meant ? ` (did you mean "${meant}"?)` : ''}`];
    }
    return unknownKeys(s.properties![key]!, child, at);
  });
}

/** Levenshtein distance (keys are short: a plain table is enough). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
