// A scenario's hidden content as the sim fleet sees it: distinctive lines of its reference
// solution and the strings its tests expect, which a coaching policy would carry into a prompt.
import { normaliseWhitespace } from './normalise-whitespace.ts';

const boringSolutionLine =
  /^(?:#|--|from \S+ import|import |set -[euxo]|cd |mkdir |exit\b|fi$|done$|then$|else$|do$|esac$|EOF$|PY$|}$|\)$|cat <<|cat >|python3? - <<|python3? <<)/;

/**
 * Hidden content of a scenario, as normalised lines: distinctive lines of its reference solution and the
 * string literals its tests compare against, minus anything the instruction itself says (and imports,
 * comments, shell boilerplate): at most 30 solution lines and 10 expected values.
 */
export function hiddenScenarioLines(
  instruction: string,
  solveScript: string,
  testSources: readonly string[],
): string[] {
  const normalisedInstruction = normaliseWhitespace(instruction);
  const solution = new Set<string>();
  for (const raw of solveScript.split('\n')) {
    const line = normaliseWhitespace(raw);
    if (line.length < 20 || boringSolutionLine.test(line)) continue;
    if (!normalisedInstruction.includes(line)) solution.add(line);
  }
  const found = new Set<string>();
  for (const source of testSources) {
    for (const raw of source.split('\n')) {
      if (!/\bassert\b|==/.test(raw)) continue;
      for (const match of raw.matchAll(/(["'])([^"'\n]{10,120})\1/g)) {
        const literal = normaliseWhitespace(match[2]!);
        if (literal.length >= 10 && !normalisedInstruction.includes(literal) && !literal.startsWith('/app/'))
          found.add(literal);
      }
    }
  }
  return [...[...solution].slice(0, 30), ...[...found].filter((value) => !solution.has(value)).slice(0, 10)];
}
