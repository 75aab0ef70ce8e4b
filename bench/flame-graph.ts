// Where a profiled process spent its CPU: V8 profiles (`node --cpu-prof --cpu-prof-dir DIR …`) as a
// flame graph (SVG), a text tree of the widest call paths and a table of the functions with the
// most time of their own. A directory stands for every `.cpuprofile` in it (one per thread).
//   node --import tsx bench/flame-graph.ts PROFILE|DIR… [--out FILE.svg] [--title TEXT]
//     [--focus FUNCTION] [--depth 14] [--min-percent 2] [--top 20]
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { renderTable } from '../cli/render-table.ts';
import { callTree, cpuProfileSchema, selfTimeByFunction, type CpuProfile, type Frame } from './cpu-profile-tree.ts';
import { flameGraphSvg } from './flame-graph-svg.ts';

const usage =
  'usage: node --import tsx bench/flame-graph.ts PROFILE|DIR… [--out FILE.svg] [--title TEXT] [--focus FUNCTION] [--depth N] [--min-percent P] [--top N]';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(64);
}

function nonNegativeNumber(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0)
    fail(`--${name} must be a number of at least 0, not ${JSON.stringify(text)}`);
  return value;
}

async function profileFiles(argument: string): Promise<string[]> {
  const info = await stat(argument).catch(() => fail(`${argument}: no such file or directory`));
  if (!info.isDirectory()) return [argument];
  const names = (await readdir(argument)).filter((name) => name.endsWith('.cpuprofile')).sort();
  if (names.length === 0)
    fail(
      `${argument}: no .cpuprofile file in this directory (write some with node --cpu-prof --cpu-prof-dir ${argument})`,
    );
  return names.map((name) => path.join(argument, name));
}

async function readProfile(file: string): Promise<CpuProfile> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    fail(`${file}: not a JSON file (${(error as Error).message})`);
  }
  const parsed = cpuProfileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    fail(
      `${file}: not a V8 CPU profile: ${issue.path.join('.') || '(the file)'}: ${issue.message} (write one with node --cpu-prof)`,
    );
  }
  return parsed.data;
}

/** The widest paths, top down, as an indented list with each frame's share of the whole. */
function textTree(root: Frame, maxDepth: number, minPercent: number): string {
  const lines: string[] = [];
  const walk = (frame: Frame, depth: number) => {
    const share = root.totalMs > 0 ? (100 * frame.totalMs) / root.totalMs : 0;
    if (depth > 0 && share < minPercent) return;
    const where = frame.location ? `  ${frame.location}` : '';
    lines.push(
      `${share.toFixed(1).padStart(5)} %  ${frame.totalMs.toFixed(0).padStart(6)} ms  ${'  '.repeat(depth)}${frame.name}${where}`,
    );
    if (depth < maxDepth) for (const child of frame.children) walk(child, depth + 1);
  };
  walk(root, 0);
  return lines.join('\n');
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: 'string' },
    title: { type: 'string' },
    focus: { type: 'string' },
    depth: { type: 'string', default: '14' },
    'min-percent': { type: 'string', default: '2' },
    top: { type: 'string', default: '20' },
  },
});
if (positionals.length === 0) fail(usage);
const depth = nonNegativeNumber('depth', values.depth);
const minPercent = nonNegativeNumber('min-percent', values['min-percent']);
const top = nonNegativeNumber('top', values.top);

/** Node names its profiles CPU.<date>.<time>.<pid>.<thread>.<sequence>; the thread says more than the name. */
function labelOf(file: string): string {
  const name = path.basename(file, '.cpuprofile');
  const parts = /^CPU\.\d+\.\d+\.(\d+)\.(\d+)\.\d+$/.exec(name);
  return parts ? `process ${parts[1]} thread ${parts[2]}` : name;
}

const files = (await Promise.all(positionals.map(profileFiles))).flat();
const profiles = await Promise.all(
  files.map(async (file) => ({ label: labelOf(file), profile: await readProfile(file) })),
);
const tree = callTree(profiles, { focus: values.focus });
if (values.focus !== undefined && tree.totalMs === 0)
  fail(`--focus ${values.focus}: no sampled frame of that function name`);

process.stdout.write(
  `CPU time in ${files.length} profile(s): ${tree.totalMs.toFixed(0)} ms (waiting, "(idle)", left out)\n\n`,
);
process.stdout.write(`${textTree(tree, depth, minPercent)}\n\n`);
const selfTimes = selfTimeByFunction(tree).slice(0, top);
if (selfTimes.length > 0)
  process.stdout.write(
    `${renderTable(
      [
        { header: 'own ms', value: (row) => row.selfMs.toFixed(1), align: 'right' },
        {
          header: '%',
          value: (row) => (tree.totalMs > 0 ? (100 * row.selfMs) / tree.totalMs : 0).toFixed(1),
          align: 'right',
        },
        { header: 'function', value: (row) => row.name },
        { header: 'where', value: (row) => row.location },
      ],
      selfTimes,
    )}\n`,
  );
if (values.out) {
  await writeFile(
    values.out,
    flameGraphSvg(tree, {
      title: values.title ?? `CPU profile: ${files.map((file) => path.basename(file)).join(', ')}`,
    }),
  );
  process.stdout.write(`\nflame graph: ${values.out}\n`);
}
