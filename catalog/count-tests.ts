// Counting a scenario's hidden tests without running them: test functions, with the cases of each
// `@pytest.mark.parametrize` multiplied in. pytest's own collection is the authority; this is what
// the command line falls back to and what the calibration bench reads.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The arguments of a call starting at `open` (the index of its "("), split at top-level commas;
 * strings and nested brackets respected. Good enough for decorator arguments, not a Python parser.
 */
function callArguments(source: string, open: number): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let current = '';
  for (let index = open + 1; index < source.length; index++) {
    const character = source[index]!;
    if (quote !== undefined) {
      if (character === '\\') {
        current += character + (source[index + 1] ?? '');
        index++;
        continue;
      }
      if (character === quote) quote = undefined;
    } else if (character === '"' || character === "'") quote = character;
    else if ('([{'.includes(character)) depth++;
    else if (')]}'.includes(character)) {
      if (depth === 0) break;
      depth--;
    } else if (character === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += character;
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}

/** Cases of one parametrize decorator: the length of its list (or tuple) of argument values. */
function parametrizeCases(source: string, open: number): number {
  const values = callArguments(source, open)[1];
  if (values === undefined || !/^[[(]/.test(values)) return 1;
  return Math.max(1, callArguments(values, 0).length);
}

/**
 * Tests as pytest would collect them, read statically: each `def test_…` counts once, times the
 * length of each `@pytest.mark.parametrize(names, [...])` list above it. The registry does not list
 * test counts, and running pytest 26 times takes seconds; on the current set this equals pytest's
 * own count (checked with `pytest --collect-only` when this was written).
 */
export function countPythonTests(source: string): number {
  const definitions = [...source.matchAll(/^[ \t]*(?:async[ \t]+)?def[ \t]+test_\w*/gm)];
  let count = 0;
  let previousEnd = 0;
  for (const definition of definitions) {
    const decorators = source.slice(previousEnd, definition.index);
    let cases = 1;
    for (const parametrize of decorators.matchAll(/@pytest\.mark\.parametrize\(/g)) {
      cases *= parametrizeCases(decorators, parametrize.index + parametrize[0].length - 1);
    }
    count += cases;
    previousEnd = definition.index + definition[0].length;
  }
  return count;
}

export async function testsInFolder(testsDir: string): Promise<number> {
  let count = 0;
  for (const file of (await readdir(testsDir)).sort()) {
    if (file.endsWith('.py')) count += countPythonTests(await readFile(path.join(testsDir, file), 'utf8'));
  }
  return count;
}
