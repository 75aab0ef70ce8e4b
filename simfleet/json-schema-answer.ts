// Deterministic JSON that satisfies a JSON schema (the common subset used for structured outputs):
// objects with their properties, enums and consts, bounded numbers and strings, sized arrays, local
// $refs, anyOf/oneOf/allOf. Generic on purpose: an LLM judge asks for its verdict this way.
import type { DeterministicRandom } from './deterministic-random.ts';

type Schema = Record<string, unknown>;

const words = [
  'amber',
  'brisk',
  'cedar',
  'delta',
  'ember',
  'fable',
  'grove',
  'harbor',
  'ivory',
  'juniper',
  'kestrel',
  'lumen',
  'meadow',
  'nectar',
  'orbit',
  'prism',
  'quartz',
  'river',
  'summit',
  'tundra',
];
const maxDepth = 8;

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** Follows a local reference such as #/$defs/Verdict. */
function resolveRef(ref: string, root: Schema): Schema {
  if (!ref.startsWith('#')) return {};
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isSchema(node) ? node[key] : undefined;
  }
  return isSchema(node) ? node : {};
}

function typeOf(schema: Schema, random: DeterministicRandom): string | undefined {
  const type = schema['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const choices = type.filter((t): t is string => typeof t === 'string');
    // Prefer a real value to null when a type list allows both.
    const nonNull = choices.filter((t) => t !== 'null');
    return nonNull.length > 0 ? random.pick(nonNull) : choices[0];
  }
  if (isSchema(schema['properties'])) return 'object';
  if (schema['items'] !== undefined) return 'array';
  return undefined;
}

function answerString(schema: Schema, random: DeterministicRandom): string {
  const format = schema['format'];
  let text: string;
  if (format === 'date-time') text = '2026-01-01T00:00:00Z';
  else if (format === 'date') text = '2026-01-01';
  else if (format === 'email') text = 'simulated@example.invalid';
  else if (format === 'uri' || format === 'url') text = 'https://example.invalid/simulated';
  else if (format === 'uuid')
    text = `${random.hex(8)}-${random.hex(4)}-4${random.hex(3)}-8${random.hex(3)}-${random.hex(12)}`;
  else text = Array.from({ length: random.integer(2, 5) }, () => random.pick(words)).join(' ');
  const minLength = numberOr(schema['minLength'], 0);
  const maxLength = numberOr(schema['maxLength'], Number.POSITIVE_INFINITY);
  while (text.length < minLength) text += ` ${random.pick(words)}`;
  return text.length > maxLength ? text.slice(0, maxLength) : text;
}

function answerNumber(schema: Schema, integer: boolean, random: DeterministicRandom): number {
  const exclusiveMinimum = schema['exclusiveMinimum'];
  const exclusiveMaximum = schema['exclusiveMaximum'];
  let low = numberOr(schema['minimum'], Number.NEGATIVE_INFINITY);
  let high = numberOr(schema['maximum'], Number.POSITIVE_INFINITY);
  const step = integer ? 1 : 0.01;
  if (typeof exclusiveMinimum === 'number') low = Math.max(low, exclusiveMinimum + step);
  if (typeof exclusiveMaximum === 'number') high = Math.min(high, exclusiveMaximum - step);
  if (!Number.isFinite(low)) low = Number.isFinite(high) ? Math.min(0, high - 100) : 0;
  if (!Number.isFinite(high)) high = low + 100;
  if (integer) return random.integer(Math.ceil(low), Math.floor(high));
  const value = Math.round((low + random.next() * (high - low)) * 100) / 100;
  return Math.min(high, Math.max(low, value));
}

function answerObject(
  schema: Schema,
  root: Schema,
  random: DeterministicRandom,
  depth: number,
): Record<string, unknown> {
  const properties = isSchema(schema['properties']) ? schema['properties'] : {};
  const required = new Set(
    Array.isArray(schema['required']) ? schema['required'].filter((k): k is string => typeof k === 'string') : [],
  );
  const result: Record<string, unknown> = {};
  for (const [key, propertySchema] of Object.entries(properties)) {
    // Deep recursive schemas stop at the required properties.
    if (depth >= maxDepth && !required.has(key)) continue;
    result[key] = answerFor(isSchema(propertySchema) ? propertySchema : {}, root, random.derive(key), depth + 1);
  }
  for (const key of required) if (!(key in result)) result[key] = random.pick(words);
  return result;
}

function answerArray(schema: Schema, root: Schema, random: DeterministicRandom, depth: number): unknown[] {
  const items = isSchema(schema['items']) ? schema['items'] : {};
  const prefixItems = Array.isArray(schema['prefixItems']) ? schema['prefixItems'] : [];
  const minItems = numberOr(schema['minItems'], 0);
  const maxItems = numberOr(schema['maxItems'], Number.POSITIVE_INFINITY);
  const count = Math.min(maxItems, Math.max(minItems, prefixItems.length, depth >= maxDepth ? 0 : 1));
  return Array.from({ length: count }, (_, i) => {
    const itemSchema = prefixItems[i];
    return answerFor(isSchema(itemSchema) ? itemSchema : items, root, random.derive(String(i)), depth + 1);
  });
}

function mergeAllOf(schema: Schema, root: Schema): Schema {
  const parts = (schema['allOf'] as unknown[])
    .filter(isSchema)
    .map((part) => (typeof part['$ref'] === 'string' ? resolveRef(part['$ref'], root) : part));
  const merged: Schema = { ...schema };
  delete merged['allOf'];
  const properties: Schema = {};
  const required: unknown[] = [];
  for (const part of [...parts, schema]) {
    for (const [key, value] of Object.entries(part))
      if (key !== 'properties' && key !== 'required' && key !== 'allOf') merged[key] = value;
    if (isSchema(part['properties'])) Object.assign(properties, part['properties']);
    if (Array.isArray(part['required'])) required.push(...part['required']);
  }
  if (Object.keys(properties).length > 0) merged['properties'] = properties;
  if (required.length > 0) merged['required'] = [...new Set(required)];
  return merged;
}

function answerFor(schema: Schema, root: Schema, random: DeterministicRandom, depth: number): unknown {
  // A schema that requires itself without end gets cut off rather than recursing forever.
  if (depth > 4 * maxDepth) return null;
  if (typeof schema['$ref'] === 'string')
    return answerFor({ ...resolveRef(schema['$ref'], root), ...withoutKey(schema, '$ref') }, root, random, depth);
  if (Array.isArray(schema['allOf'])) return answerFor(mergeAllOf(schema, root), root, random, depth);
  if ('const' in schema) return schema['const'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return random.pick(schema['enum']);
  const alternatives = Array.isArray(schema['anyOf'])
    ? schema['anyOf']
    : Array.isArray(schema['oneOf'])
      ? schema['oneOf']
      : undefined;
  if (alternatives && alternatives.length > 0) {
    // oneOf must match exactly one branch: the first is the safest pick; anyOf may take any non-null one.
    const branches = alternatives.filter(isSchema);
    const nonNull = branches.filter((b) => b['type'] !== 'null');
    const choice = Array.isArray(schema['oneOf']) ? branches[0] : random.pick(nonNull.length > 0 ? nonNull : branches);
    return answerFor({ ...withoutKey(withoutKey(schema, 'anyOf'), 'oneOf'), ...(choice ?? {}) }, root, random, depth);
  }
  switch (typeOf(schema, random)) {
    case 'object':
      return answerObject(schema, root, random, depth);
    case 'array':
      return answerArray(schema, root, random, depth);
    case 'string':
      return answerString(schema, random);
    case 'integer':
      return answerNumber(schema, true, random);
    case 'number':
      return answerNumber(schema, false, random);
    case 'boolean':
      return random.next() < 0.5;
    case 'null':
      return null;
    default:
      return answerString(schema, random);
  }
}

function withoutKey(schema: Schema, key: string): Schema {
  const copy = { ...schema };
  delete copy[key];
  return copy;
}

/** A value satisfying the schema, fixed by the random stream's key. */
export function answerForSchema(schema: unknown, random: DeterministicRandom): unknown {
  const root = isSchema(schema) ? schema : {};
  return answerFor(root, root, random, 0);
}

/** The answer to `json_object` mode, which has no schema: a small object with a short text. */
export function answerForJsonObject(modelId: string, random: DeterministicRandom): Record<string, unknown> {
  return { simulated: true, model: modelId, answer: answerString({}, random) };
}
