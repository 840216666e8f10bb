/*
 * What a response serializer needs of a schema: the shape of the JSON and each value's type, not the
 * checks a request validator makes. fast-json-stringify serializes an `anyOf` by testing the value
 * against each branch with an Ajv validator it generates inline, and TypeBox writes every union of
 * literals (a device type, a status, a severity) and every nullable value as an `anyOf`. For the device
 * list that made a 156 kB module, generated at build time but compiled on the route's first request:
 * about 290 ms of a Pi core's event loop (docs/performance.md, "Serializers without inline validators").
 *
 * Here an `anyOf` whose branches each have one type, and no two of them the same structured type (one
 * object, one array at most), becomes one schema with the list of their types: fast-json-stringify
 * serializes that with a `typeof` switch, each type as its branch says (an object's properties, an
 * array's items, a string's format). The JSON written for any value the data can hold is the same: a
 * literal is written as its type is, and checks such as a number's bounds never changed the output.
 * Other unions (two object shapes, say) stay as they are.
 */

type Schema = Record<string, unknown>;

/** Keywords whose value is a schema or a list of schemas. */
const SUBSCHEMAS = new Set(['items', 'prefixItems', 'additionalItems', 'additionalProperties', 'contains', 'anyOf', 'allOf', 'oneOf', 'not', 'if', 'then', 'else']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
const COMBINERS = ['anyOf', 'allOf', 'oneOf', 'not', '$ref'];

/** The response schema with every union of differently typed branches made one schema with a list of types. */
export function serializerSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(serializerSchema);
  if (!isSchemaObject(schema)) return schema;
  const merged = Array.isArray(schema.anyOf) ? mergedBranches(schema) : null;
  if (merged) return serializerSchema(merged);
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(key) && isSchemaObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, serializerSchema(sub)]));
    else if (SUBSCHEMAS.has(key)) out[key] = serializerSchema(value);
    else out[key] = value; // a keyword whose value is data (const, enum, default, required) or a number
  }
  return out;
}

/** The anyOf's branches as one schema with a list of types, or null when they cannot be told apart by type alone. */
function mergedBranches(schema: Schema): Schema | null {
  const { anyOf, ...holder } = schema as Schema & { anyOf: unknown[] };
  const types: string[] = [];
  const byType = new Map<string, Schema[]>();
  for (const branch of flattened(anyOf)) {
    const type = isSchemaObject(branch) ? typeOf(branch) : null;
    if (type === null) return null;
    if (!types.includes(type)) types.push(type);
    byType.set(type, [...(byType.get(type) ?? []), branch as Schema]);
  }
  // One object shape and one array shape at most; a string's format only when it is the only string.
  if ((byType.get('object')?.length ?? 0) > 1 || (byType.get('array')?.length ?? 0) > 1) return null;
  const strings = byType.get('string') ?? [];
  if (strings.length > 1 && strings.some((s) => s.format !== undefined)) return null;
  // A number and an integer together are a number.
  const listed = types.includes('number') ? types.filter((t) => t !== 'integer') : types;
  const structured = [...(byType.get('object') ?? []), ...(byType.get('array') ?? [])];
  const merged: Schema = { ...holder };
  for (const branch of structured) Object.assign(merged, withoutTypeAndConst(branch));
  if (strings.length === 1 && strings[0]!.format !== undefined) merged.format = strings[0]!.format;
  merged.type = listed.length === 1 ? listed[0] : listed;
  return merged;
}

/** The branches with every branch that is only a union (a union of literals made nullable) replaced by its own. */
function flattened(branches: unknown[]): unknown[] {
  return branches.flatMap((branch) =>
    isSchemaObject(branch) && Array.isArray(branch.anyOf) && Object.keys(branch).every((key) => key === 'anyOf' || key === 'description' || key === 'title')
      ? flattened(branch.anyOf)
      : [branch],
  );
}

/** A branch's one type (a literal's from its value), or null for a union, a reference or several types. */
function typeOf(branch: Schema): string | null {
  if (COMBINERS.some((keyword) => keyword in branch)) return null;
  if (typeof branch.type === 'string') return TYPES.has(branch.type) ? branch.type : null;
  if (branch.type === undefined && 'const' in branch) {
    const value = branch.const;
    if (value === null) return 'null';
    if (typeof value === 'string' || typeof value === 'boolean') return typeof value;
    if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  }
  return null;
}

function withoutTypeAndConst(branch: Schema): Schema {
  const { type: _type, const: _const, ...rest } = branch;
  return rest;
}

function isSchemaObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
