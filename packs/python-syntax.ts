// A Python pack whose files do not parse is rejected before any scenario, naming the file and the
// line. Parsing only (ast.parse, nothing executed), in a separate isolated python3 process with a
// time limit, so a hostile file (deep nesting, huge literals) costs that process, not the worker.
import { spawn } from 'node:child_process';
import type { Rejection } from '../contracts/results.ts';
import type { CanonicalPack } from './canonical-pack.ts';

const parser = [
  'import ast, json, sys',
  'files = json.load(sys.stdin)',
  'problems = []',
  'for name in sorted(files):',
  '    try:',
  '        ast.parse(files[name], filename=name)',
  '    except SyntaxError as error:',
  '        problems.append({"file": name, "line": error.lineno or 0, "message": error.msg})',
  '    except (RecursionError, MemoryError, ValueError) as error:',
  '        problems.append({"file": name, "line": 0, "message": type(error).__name__ + ": " + str(error)[:200]})',
  'json.dump(problems, sys.stdout)',
].join('\n');

export interface PythonSyntaxOptions {
  python?: string;
  timeoutMs?: number;
}

export async function checkPythonSyntax(pack: CanonicalPack, options: PythonSyntaxOptions = {}): Promise<Rejection[]> {
  const files = Object.fromEntries(Object.entries(pack.files).filter(([name]) => name.endsWith('.py')));
  if (Object.keys(files).length === 0) return [];
  const child = spawn(options.python ?? '/usr/bin/python3', ['-I', '-S', '-c', parser], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 10_000);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    if (stdout.length < 64 * 1024) stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString('utf8');
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(JSON.stringify(files));
  const exit = await new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(-1));
    child.on('close', (code) => resolve(code));
  });
  clearTimeout(timer);
  if (exit !== 0)
    return [
      {
        code: 'python_syntax_invalid',
        message: `the Python files could not be parsed within the limit (${exit === null ? 'killed' : `exit ${exit}`}): ${stderr.trim().split('\n').at(-1)?.slice(0, 200) ?? ''}`,
      },
    ];
  const problems = JSON.parse(stdout) as { file: string; line: number; message: string }[];
  return problems.slice(0, 20).map((problem) => ({
    code: 'python_syntax_invalid',
    message: `${problem.file}${problem.line ? `:${problem.line}` : ''}: ${problem.message}`,
  }));
}
