import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { DeterministicRandom } from './deterministic-random.ts';
import { answerForJsonObject, answerForSchema } from './json-schema-answer.ts';

// Each zod schema is turned into JSON schema, answered, and the answer checked by the zod schema itself.
const judgeVerdict = z.object({
  verdict: z.enum(['pass', 'reject']),
  confidence: z.number().min(0).max(1),
  reasons: z.array(z.string().min(3).max(40)).min(2).max(4),
  flags: z.object({ hardCoding: z.boolean(), scenarioSpecific: z.boolean() }),
  score: z.int().min(1).max(10),
  note: z.string().nullable(),
  kind: z.literal('judge'),
  tags: z.array(z.enum(['a', 'b'])).optional(),
});

const assorted = z.object({
  id: z.uuid(),
  when: z.iso.datetime(),
  count: z.int().gt(3).lt(6),
  ratio: z.number().positive().max(0.5),
  pair: z.tuple([z.string(), z.int()]),
  either: z.union([z.object({ a: z.string() }), z.object({ b: z.int().min(100) })]),
  nested: z.array(z.object({ level: z.int().nonnegative(), children: z.array(z.string()).length(3) })).min(1),
});

test('answers validate against the schema they were made from', () => {
  for (const schema of [judgeVerdict, assorted]) {
    const jsonSchema = z.toJSONSchema(schema);
    for (let i = 0; i < 50; i++) {
      const answer = answerForSchema(jsonSchema, new DeterministicRandom(`case-${i}`));
      const parsed = schema.safeParse(answer);
      assert.ok(parsed.success, `${JSON.stringify(answer)}: ${parsed.success ? '' : parsed.error.message}`);
    }
  }
});

test('answers are deterministic per key, and enums and booleans vary across keys', () => {
  const jsonSchema = z.toJSONSchema(judgeVerdict);
  assert.deepEqual(
    answerForSchema(jsonSchema, new DeterministicRandom('k')),
    answerForSchema(jsonSchema, new DeterministicRandom('k')),
  );
  const verdicts = new Set<unknown>();
  const flags = new Set<unknown>();
  for (let i = 0; i < 40; i++) {
    const answer = answerForSchema(jsonSchema, new DeterministicRandom(`v${i}`)) as {
      verdict: string;
      flags: { hardCoding: boolean };
    };
    verdicts.add(answer.verdict);
    flags.add(answer.flags.hardCoding);
  }
  assert.deepEqual([...verdicts].sort(), ['pass', 'reject']);
  assert.equal(flags.size, 2);
});

test('local $refs, allOf and recursive schemas are handled', () => {
  const schema = {
    type: 'object',
    $defs: {
      node: {
        type: 'object',
        properties: { name: { type: 'string' }, child: { $ref: '#/$defs/node' } },
        required: ['name'],
      },
      base: { type: 'object', properties: { id: { type: 'integer', minimum: 5, maximum: 5 } }, required: ['id'] },
    },
    properties: {
      tree: { $ref: '#/$defs/node' },
      merged: {
        allOf: [{ $ref: '#/$defs/base' }, { properties: { extra: { type: 'boolean' } }, required: ['extra'] }],
      },
      anything: {},
    },
    required: ['tree', 'merged', 'anything'],
  };
  const answer = answerForSchema(schema, new DeterministicRandom('refs')) as {
    tree: { name: string };
    merged: { id: number; extra: boolean };
  };
  assert.equal(typeof answer.tree.name, 'string');
  assert.equal(answer.merged.id, 5);
  assert.equal(typeof answer.merged.extra, 'boolean');
  assert.ok(JSON.stringify(answer).length < 20_000, 'recursion is bounded');
});

test('json_object mode gives a small object', () => {
  const answer = answerForJsonObject('glm-5.2', new DeterministicRandom('o'));
  assert.equal(answer['simulated'], true);
  assert.equal(answer['model'], 'glm-5.2');
});
