// Static check of a scenario's hidden tests for the verifier's trust rule: the test process (root, the
// report's writer) never runs code the agent produced. Agent code goes through trl_agent_run, which
// runs it as the agent user. Flagged, per line of every Python file under tests/:
//   in-process-import — importing something that is neither the standard library, pytest, the
//     verifier's helpers nor a file of tests/; sys.path / site.addsitedir pointing outside tests/;
//     importlib / runpy / __import__ / exec loading code by name or path;
//   unprivileged-run-missing — a child process started without trl_agent_run (subprocess.*, os.system,
//     os.popen, os.exec*, os.spawn*, pty.spawn, asyncio subprocesses): it would run as root. A line
//     ending in `# trl: trusted-command` is exempt (a fixed tool on the tests' own data).
// Text inside string literals is ignored: a runner script passed to a child is the child's business.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pythonStdlibModules } from './python-stdlib-modules.ts';

export type AgentCodeFindingKind = 'in-process-import' | 'unprivileged-run-missing';

export interface AgentCodeFinding {
  file: string;
  line: number;
  kind: AgentCodeFindingKind;
  text: string;
  reason: string;
}

export interface PythonFile {
  /** Path relative to tests/, e.g. `test_outputs.py` or `helpers/gen.py`. */
  name: string;
  text: string;
}

const allowedModules = new Set(['pytest', '_pytest', 'trl_agent_run', 'trl_ctrf', '__future__']);
const trustedCommandMarker = /#\s*trl:\s*trusted-command\b/;
const childProcessCall =
  /\b(?:subprocess\s*\.\s*(?:run|Popen|call|check_call|check_output|getoutput|getstatusoutput)|os\s*\.\s*(?:system|popen|exec\w*|spawn\w*|posix_spawnp?|fork\w*)|pty\s*\.\s*spawn|asyncio\s*\.\s*create_subprocess_\w+|create_subprocess_(?:exec|shell))\s*\(/;
const dynamicLoad =
  /\b(?:importlib\s*\.\s*(?:import_module|util\s*\.\s*spec_from_file_location|util\s*\.\s*module_from_spec|machinery)|SourceFileLoader|spec_from_file_location|import_module|__import__|runpy\s*\.\s*run_\w+|imp\s*\.\s*load_\w+|exec)\s*\(/;
const pathExtension =
  /\b(?:sys\s*\.\s*path\s*(?:\.\s*(?:insert|append|extend)\s*\(|\[[^\]]*\]\s*=|\+=)|site\s*\.\s*addsitedir\s*\()/;
const importStatement = /^\s*(?:from\s+(\.*[\w.]*)\s+import\b|import\s+(.+))/;

/** Replaces the contents of string literals and comments with spaces, keeping line breaks and columns. */
export function blankStringsAndComments(source: string): string {
  let out = '';
  let index = 0;
  while (index < source.length) {
    const char = source[index]!;
    if (char === '#') {
      const end = source.indexOf('\n', index);
      const stop = end === -1 ? source.length : end;
      out += ' '.repeat(stop - index);
      index = stop;
      continue;
    }
    if (char === '"' || char === "'") {
      const triple = source.startsWith(char.repeat(3), index);
      const quote = triple ? char.repeat(3) : char;
      let cursor = index + quote.length;
      while (cursor < source.length) {
        if (source[cursor] === '\\') {
          cursor += 2;
          continue;
        }
        if (source.startsWith(quote, cursor)) break;
        if (!triple && source[cursor] === '\n') break;
        cursor += 1;
      }
      const stop = Math.min(source.length, cursor + (source.startsWith(quote, cursor) ? quote.length : 0));
      out += source.slice(index, stop).replace(/[^\n]/g, ' ');
      index = stop;
      continue;
    }
    out += char;
    index += 1;
  }
  return out;
}

function importedTopNames(match: RegExpMatchArray): string[] {
  if (match[1] !== undefined) return [match[1]];
  return match[2]!
    .split(',')
    .map((part) =>
      part
        .trim()
        .split(/\s+as\s+/)[0]!
        .trim(),
    )
    .filter(Boolean);
}

/** Findings for one scenario's test files (pure). `localModules` are the tests' own module names. */
export function findAgentCodeInTestProcess(files: PythonFile[]): AgentCodeFinding[] {
  const localModules = new Set(files.map((f) => f.name.split('/')[0]!.replace(/\.py$/, '')));
  const findings: AgentCodeFinding[] = [];
  for (const file of files) {
    const originalLines = file.text.split('\n');
    const codeLines = blankStringsAndComments(file.text).split('\n');
    // Names bound to the tests' own folder (`HERE = os.path.dirname(__file__)`) may go on sys.path.
    const testsDirNames = [...file.text.matchAll(/^(\w+)\s*=.*__file__/gm)].map((m) => m[1]!);
    const testsDirReference = new RegExp(
      ['__file__', '["\']/tests\\b', ...testsDirNames.map((n) => `\\b${n}\\b`)].join('|'),
    );
    codeLines.forEach((code, index) => {
      const original = originalLines[index] ?? '';
      const add = (kind: AgentCodeFindingKind, reason: string) =>
        findings.push({ file: file.name, line: index + 1, kind, text: original.trim().slice(0, 200), reason });
      if (childProcessCall.test(code) && !trustedCommandMarker.test(original)) {
        add(
          'unprivileged-run-missing',
          'starts a child process as root; run agent code with trl_agent_run.run / trl_agent_run.Popen',
        );
      }
      if (
        /^\s*from\s+subprocess\s+import\b.*\b(?:run|Popen|call|check_call|check_output|getoutput|getstatusoutput)\b/.test(
          code,
        ) &&
        !trustedCommandMarker.test(original)
      ) {
        add('unprivileged-run-missing', 'imports a subprocess launcher by name; run agent code with trl_agent_run');
      }
      if (dynamicLoad.test(code)) add('in-process-import', 'loads code by name or path into the test process');
      if (pathExtension.test(code) && !testsDirReference.test(original)) {
        add('in-process-import', 'adds a folder outside tests/ to the import path of the test process');
      }
      const imported = code.match(importStatement);
      if (imported) {
        for (const name of importedTopNames(imported)) {
          if (name.startsWith('.')) continue; // relative: a file of tests/
          const top = name.split('.')[0]!;
          if (top === 'importlib' && /^importlib\.(?:util|machinery)\b/.test(name))
            add('in-process-import', `imports ${name}, the machinery for loading code by path`);
          if (pythonStdlibModules.has(top) || allowedModules.has(top) || localModules.has(top)) continue;
          add(
            'in-process-import',
            `imports ${name}, which is neither the standard library, pytest nor a file of tests/`,
          );
        }
      }
    });
  }
  return findings;
}

async function pythonFilesUnder(dir: string, prefix = ''): Promise<PythonFile[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: PythonFile[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await pythonFilesUnder(full, name)));
    else if (entry.isFile() && entry.name.endsWith('.py')) files.push({ name, text: await readFile(full, 'utf8') });
  }
  return files;
}

/** Findings for the scenario folder `scenarioDir` (reads its tests/ folder). */
export async function checkScenarioTestsForAgentCode(scenarioDir: string): Promise<AgentCodeFinding[]> {
  return findAgentCodeInTestProcess(await pythonFilesUnder(path.join(scenarioDir, 'tests')));
}

export function describeAgentCodeFinding(finding: AgentCodeFinding): string {
  return `tests/${finding.file}:${finding.line}: ${finding.kind}: ${finding.reason} — ${finding.text}`;
}
