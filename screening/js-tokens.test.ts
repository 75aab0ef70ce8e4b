import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cookEscapes, tokenize } from './js-tokens.ts';

const summary = (code: string) => tokenize(code).map((token) => `${token.type}:${token.value ?? token.raw}`);

test('strings are cooked, comments and regexes kept apart from code', () => {
  assert.deepEqual(summary(`const a = 'x\\ty'; // note\n/* block */ b = /a[/]b/g.test("\\x41");`), [
    'keyword:const',
    'identifier:a',
    'punct:=',
    'string:x\ty',
    'punct:;',
    'comment:// note',
    'comment:/* block */',
    'identifier:b',
    'punct:=',
    'regex:/a[/]b/g',
    'punct:.',
    'identifier:test',
    'punct:(',
    'string:A',
    'punct:)',
    'punct:;',
  ]);
});

test('a slash after a value divides; after an operator it starts a regex', () => {
  assert.deepEqual(
    summary('x / 2 / y').filter((entry) => entry.startsWith('regex')),
    [],
  );
  assert.deepEqual(
    summary('return /ab/.test(s)').filter((entry) => entry.startsWith('regex')),
    ['regex:/ab/'],
  );
});

test('template literals are split into chunks around their substitutions, nesting included', () => {
  const tokens = tokenize('`a${ {k: `in${1}`}.k }b${c}d`');
  const chunks = tokens
    .filter((token) => token.type === 'template')
    .map((token) => `${token.templatePart}:${token.value}`);
  assert.deepEqual(chunks, ['head:a', 'head:in', 'tail:', 'middle:b', 'tail:d']);
});

test('line numbers follow newlines inside strings, templates and comments', () => {
  const tokens = tokenize('a\n`x\ny`\n/* 1\n2 */\nb');
  assert.deepEqual(
    tokens.map((token) => token.line),
    [1, 2, 4, 6],
  );
});

test('hostile input never throws: unterminated strings, comments and templates end at the end', () => {
  for (const code of ['"abc', '/* open', '`a${b', "'\\", '}}}{{{', '\\u0000', '#x'])
    assert.doesNotThrow(() => tokenize(code), code);
});

test('escapes: hex, unicode (both forms), line continuations', () => {
  assert.equal(cookEscapes('\\x2fapp\\u002f\\u{1F600}a\\\nb'), '/app/\u{1F600}ab');
});
