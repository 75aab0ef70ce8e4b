// String literals, test function names and long numbers of a Python test file: what a policy that
// games the hidden tests would copy. A scanner, not a parser (python-scan.ts reads the literals);
// it never throws on odd input.
import { scanPython } from './python-scan.ts';

export type PythonLiteral = { value: string; line: number; formatted: boolean };

export function pythonStringLiterals(source: string): PythonLiteral[] {
  const found: PythonLiteral[] = [];
  scanPython(source, {
    string: ({ value, prefix, line }) => found.push({ value, line, formatted: /[fF]/.test(prefix) }),
  });
  return found;
}

export function pythonTestNames(source: string): { name: string; line: number }[] {
  const names: { name: string; line: number }[] = [];
  source.split('\n').forEach((text, index) => {
    const match = /^\s*(?:async\s+)?def\s+(test_\w+)\s*\(/.exec(text) ?? /^\s*class\s+(Test\w+)\s*[(:]/.exec(text);
    if (match) names.push({ name: match[1]!, line: index + 1 });
  });
  return names;
}
