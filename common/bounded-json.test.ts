import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonDepth, JsonTooDeepError, parseJsonBounded } from './bounded-json.ts';

test('depth counts objects and arrays, not brackets in strings', () => {
  assert.equal(jsonDepth('{"a":[1,{"b":"[[[{{{\\"]]]"}]}'), 3);
  assert.equal(jsonDepth('"x"'), 0);
  assert.deepEqual(parseJsonBounded('{"a":[1,2]}'), { a: [1, 2] });
});

test('text and its UTF-8 bytes have the same depth, and parse to the same value', () => {
  const texts = [
    '{"é":["世",{"🙂":"\\"}]}',
    '["\\u005b[", ["x"]]',
    '{"a":"\ud800[[["}',
    '[["é\\"]]',
    '{"unterminated": "[[[',
    ']]]{{{',
  ];
  for (const text of texts) assert.equal(jsonDepth(Buffer.from(text, 'utf8')), jsonDepth(text), text);
  assert.equal(jsonDepth('{"é":["世",{"🙂":"\\"}]}'), 3);
  assert.deepEqual(parseJsonBounded(Buffer.from('{"é":["世"]}', 'utf8')), { é: ['世'] });
  assert.throws(() => parseJsonBounded(Buffer.from('[[[]]]'), 2), JsonTooDeepError);
});

test('a deeply nested document is refused before anything recurses over it (its time: bench/linear-work.ts)', () => {
  const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
  assert.throws(() => parseJsonBounded(deep), JsonTooDeepError);
  // What it prevents: the value parses, but walking it overflows the stack.
  assert.throws(() => JSON.stringify(JSON.parse(deep)), RangeError);
});

test('where a pack, a policy or an agent controls JSON, deep nesting is a clear refusal, not a RangeError', async () => {
  const { parsePolicyJson } = await import('../packs/policy-json-schema.ts');
  const { readJsonBody, HttpError } = await import('../gateway/http/json-body.ts');
  const { Readable } = await import('node:stream');
  const deep = `{"kind":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  const checked = parsePolicyJson(deep);
  assert.equal(checked.ok, false);
  assert.match((checked as { message: string }).message, /nested deeper than/);
  const request = Readable.from([Buffer.from(deep)]) as unknown as Parameters<typeof readJsonBody>[0];
  await assert.rejects(
    readJsonBody(request, 1 << 20),
    (error: unknown) => error instanceof HttpError && error.status === 400 && /nested deeper/.test(error.message),
  );
});

test('the depth walk agrees with a byte-by-byte scan on any mix of quotes, backslashes and brackets', () => {
  // The reference: the plain forward scan, a backslash in a string skipping the next byte.
  const reference = (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    let depth = 0;
    let deepest = 0;
    let inString = false;
    for (let i = 0; i < bytes.length; i++) {
      const code = bytes[i]!;
      if (inString) {
        if (code === 0x5c) i++;
        else if (code === 0x22) inString = false;
      } else if (code === 0x22) inString = true;
      else if (code === 0x7b || code === 0x5b) deepest = Math.max(deepest, ++depth);
      else if (code === 0x7d || code === 0x5d) depth--;
    }
    return deepest;
  };
  const pieces = ['"', '\\', '\\\\', '\\"', '[', ']', '{', '}', 'a', 'é', ',', ':'];
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
  for (let round = 0; round < 3000; round++) {
    let text = '';
    for (let length = next() % 30; length > 0; length--) text += pieces[next() % pieces.length];
    assert.equal(jsonDepth(text), reference(text), JSON.stringify(text));
  }
});
