import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  billedBodyJson,
  countCharacterClasses,
  fixedOverheadTokens,
  generationKnobs,
  promptEstimateFromCounts,
  promptEstimateTokens,
} from './prompt-estimate.ts';

const hello = { messages: [{ role: 'user', content: 'Hi there' }] };

test('a small body, worked by hand', () => {
  // {"messages":[{"role":"user","content":"Hi there"}]}
  // plain: messages(8) role(4) user(4) content(7) "Hi there"(8, the space is plain) = 31
  // other: { " " : [ { " " : " " , " " : " " } ] } = 20
  // floor((31 / 3 + 20) × 1.25) + 16 = floor(37.916…) + 16 = 53
  assert.equal(billedBodyJson(hello), '{"messages":[{"role":"user","content":"Hi there"}]}');
  assert.deepEqual(countCharacterClasses(billedBodyJson(hello)), { plainCharacters: 31, otherCharacters: 20 });
  assert.equal(promptEstimateTokens(hello), 53);
});

test('an empty body still costs the fixed overhead', () => {
  // "{}" is two other characters: floor(2 × 1.25) + 16 = 18
  assert.equal(promptEstimateTokens({}), 18);
});

test('the integer formula matches the live floating-point formula', () => {
  for (let plainCharacters = 0; plainCharacters < 200; plainCharacters++) {
    for (let otherCharacters = 0; otherCharacters < 50; otherCharacters++) {
      const live = Math.trunc((plainCharacters / 3 + otherCharacters) * 1.25) + 16;
      assert.equal(promptEstimateFromCounts({ plainCharacters, otherCharacters }), live);
    }
  }
});

test('generation knobs are not counted, whatever their size', () => {
  const withKnobs: Record<string, unknown> = { ...hello };
  for (const knob of generationKnobs) withKnobs[knob] = 'x'.repeat(10_000);
  assert.equal(generationKnobs.length, 18);
  assert.equal(promptEstimateTokens(withKnobs), promptEstimateTokens(hello));
});

test('knobs are removed only at the top level; the same names inside messages count', () => {
  const nested = { messages: [{ role: 'user', content: 'Hi there', temperature: 1 }] };
  assert.ok(promptEstimateTokens(nested) > promptEstimateTokens(hello));
});

test('unknown fields are counted: every byte of the request counts', () => {
  const padded = { ...hello, prediction: { type: 'content', content: 'y'.repeat(3000) } };
  // the added fragment ,"prediction":{"type":"content","content":"yyy…"} has
  // plain prediction(10) type(4) content(7) content(7) y×3000 = 3028 and other , " " : { " " : " " , " " : " " } = 17
  const base = countCharacterClasses(billedBodyJson(hello));
  const grown = countCharacterClasses(billedBodyJson(padded));
  assert.deepEqual(grown, {
    plainCharacters: base.plainCharacters + 3028,
    otherCharacters: base.otherCharacters + 17,
  });
  assert.equal(promptEstimateTokens(padded), promptEstimateFromCounts(grown));
});

test('a __proto__ key from JSON.parse is an ordinary field and is counted', () => {
  const body = JSON.parse('{"messages":[],"__proto__":{"hidden":"' + 'z'.repeat(900) + '"}}') as Record<
    string,
    unknown
  >;
  assert.ok(billedBodyJson(body).includes('hidden'));
  assert.ok(promptEstimateTokens(body) > 300);
});

test('nested tools are counted character by character', () => {
  const tools = [
    {
      type: 'function',
      function: {
        name: 'list_files',
        description: 'List files.',
        parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      },
    },
  ];
  const withTools = { ...hello, tools };
  const fragment = ',"tools":' + JSON.stringify(tools);
  const base = countCharacterClasses(billedBodyJson(hello));
  const added = countCharacterClasses(fragment);
  assert.deepEqual(countCharacterClasses(billedBodyJson(withTools)), {
    plainCharacters: base.plainCharacters + added.plainCharacters,
    otherCharacters: base.otherCharacters + added.otherCharacters,
  });
  // "list_files" has an underscore and "List files." a full stop: both are other characters
  assert.equal(countCharacterClasses('list_files').otherCharacters, 1);
  assert.equal(countCharacterClasses('List files.').otherCharacters, 1);
});

test('non-ASCII characters are one token each; an astral character is one, not two', () => {
  assert.deepEqual(countCharacterClasses('é世🙂'), { plainCharacters: 0, otherCharacters: 3 });
  assert.deepEqual(countCharacterClasses('ab 🙂🙂'), { plainCharacters: 3, otherCharacters: 2 });
  // a lone surrogate is one character
  assert.deepEqual(countCharacterClasses('\ud800a'), { plainCharacters: 1, otherCharacters: 1 });
  // 300 CJK characters price at 375 tokens plus the wrapper, where 300 letters price at 125
  const cjk = { messages: [{ role: 'user', content: '世'.repeat(300) }] };
  const latin = { messages: [{ role: 'user', content: 'a'.repeat(300) }] };
  assert.equal(promptEstimateTokens(cjk) - promptEstimateTokens(latin), 250);
});

test('characters JSON escapes are counted as escaped', () => {
  // a newline in content becomes backslash + n: one other, one plain
  assert.equal(billedBodyJson({ content: '\n' }), '{"content":"\\n"}');
  assert.deepEqual(countCharacterClasses(billedBodyJson({ content: '\n' })), {
    plainCharacters: 8, // content + n
    otherCharacters: 8, // { " " : " \ " }
  });
});

test('a 1 MB body of one repeated character prices exactly', () => {
  const million = 1_000_000;
  // wrapper {"messages":[{"role":"user","content":""}]}: 23 plain, 20 other
  // letters: floor((1,000,023 / 3 + 20) × 1.25) + 16 = floor(416,701.25) + 16 = 416,717
  const letters = { messages: [{ role: 'user', content: 'a'.repeat(million) }] };
  assert.equal(promptEstimateTokens(letters), 416_717);
  // braces: floor((23 / 3 + 1,000,020) × 1.25) + 16 = floor(1,250,034.58…) + 16 = 1,250,050
  const braces = { messages: [{ role: 'user', content: '{'.repeat(million) }] };
  assert.equal(promptEstimateTokens(braces), 1_250_050);
  // quotes are escaped to \" : two other characters each
  const quotes = { messages: [{ role: 'user', content: '"'.repeat(million) }] };
  assert.equal(promptEstimateTokens(quotes), Math.floor((23 / 3 + 2 * million + 20) * 1.25) + 16);
});

test('a body JSON cannot serialise is priced at the fixed overhead, as the live meter does', () => {
  const cyclic: Record<string, unknown> = { messages: [] };
  cyclic.self = cyclic;
  assert.equal(promptEstimateTokens(cyclic), fixedOverheadTokens);
});

test('the count over UTF-8 bytes agrees with a walk over code points, on any text', () => {
  // The reference: a string's iterator yields code points, and a lone surrogate alone.
  const byCodePoints = (text: string) => {
    let plainCharacters = 0;
    let characters = 0;
    for (const character of text) {
      characters += 1;
      if (/^[A-Za-z0-9 \t\n\r]$/.test(character)) plainCharacters += 1;
    }
    return { plainCharacters, otherCharacters: characters - plainCharacters };
  };
  // Pieces the walk must tell apart: every ASCII class, two- and three-byte characters, an astral
  // pair, lone high and low surrogates, a high surrogate before another high one, U+FFFD itself.
  const pieces = [
    'a',
    'Z',
    '7',
    ' ',
    '\t',
    '\n',
    '\r',
    '{',
    '"',
    '\\',
    '\u0000',
    '\u007f',
    'é',
    'ß',
    '世',
    '\u2028',
    '🙂',
    '\ud800',
    '\udc00',
    '\ud800\ud800\udc00',
    '\ufffd',
  ];
  let seed = 42;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
  for (let round = 0; round < 500; round++) {
    let text = '';
    for (let length = next() % 40; length > 0; length--) text += pieces[next() % pieces.length];
    assert.deepEqual(countCharacterClasses(text), byCodePoints(text), JSON.stringify(text));
  }
});
