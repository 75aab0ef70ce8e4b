// How long the input-bounded computations the tests check for linear work take as their input
// grows (Invariant 7): the tests count steps, this prints the time. Each row is the best of three
// runs after a warm-up; "ns per unit" stays about flat when the work is linear in the input.
//   node --import tsx bench/linear-work.ts
import { performance } from 'node:perf_hooks';
import { jsonDepth, parseJsonBounded } from '../common/bounded-json.ts';
import type { DecisionInput } from '../contracts/seat.ts';
import { tokenizePython } from '../screening/python-tokens.ts';
import { LineSplitter } from '../policy/host/line-splitter.ts';
import { decideChallenge } from '../scoring/decision-rule.ts';
import { judgeFiles } from '../simfleet/judge-heuristics.ts';
import { scenarios } from '../simfleet/testing/fixtures.ts';

interface Work {
  name: string;
  unit: string;
  sizes: number[];
  /** Builds the input outside the timing, then returns what is timed. */
  prepare(size: number): () => unknown;
}

function splitLines(chunks: readonly Buffer[]): number {
  let lines = 0;
  const splitter = new LineSplitter(
    64 << 20,
    () => lines++,
    () => undefined,
  );
  for (const chunk of chunks) splitter._write(chunk, 'utf8', () => undefined);
  return lines;
}

function decisionInput(scenarioCount: number, resamples: number): DecisionInput {
  const side = (packHash: string, offset: number) => {
    const perScenario = Array.from({ length: scenarioCount }, (_, i) => ({
      scenario: `s${i}`,
      testsTotal: 10,
      testsPassed: (i + offset) % 11,
    }));
    const testsPassed = perScenario.reduce((sum, row) => sum + row.testsPassed, 0);
    return [
      {
        packHash,
        workflowId: `wf-${packHash.slice(0, 4)}`,
        status: 'completed' as const,
        testsPassed,
        testsTotal: 10 * scenarioCount,
        perScenario,
      },
    ];
  };
  const [incumbentPackHash, challengerPackHash] = ['a'.repeat(64), 'b'.repeat(64)];
  return {
    incumbentPackHash,
    challengerPackHash,
    incumbent: side(incumbentPackHash, 0),
    challenger: side(challengerPackHash, 3),
    bootstrapResamples: resamples,
  };
}

const hostileJudgeStarts = [
  '{ tools',
  'tool_choice',
  'tests/',
  'delete ',
  "'echo ",
  'ignore ',
  'text.includes(x)\nreturn ',
];

const works: Work[] = [
  {
    name: 'line splitter: one line in 1-byte writes',
    unit: 'byte',
    sizes: [1 << 18, 1 << 20, 1 << 22],
    prepare(size) {
      const line = Buffer.alloc(size, 0x61);
      const chunks: Buffer[] = [];
      for (let i = 0; i < size; i++) chunks.push(line.subarray(i, i + 1));
      chunks.push(Buffer.from('\n'));
      return () => splitLines(chunks);
    },
  },
  {
    name: 'line splitter: short lines in one write',
    unit: 'byte',
    sizes: [1 << 21, 1 << 23, 1 << 25],
    prepare(size) {
      const chunk = Buffer.from('{}\n'.repeat(Math.floor(size / 3)));
      return () => splitLines([chunk]);
    },
  },
  {
    name: 'decision rule: 26 scenarios, B resamples',
    unit: 'resample',
    sizes: [10_000, 100_000, 1_000_000],
    prepare(size) {
      const input = decisionInput(26, size);
      return () => decideChallenge(input);
    },
  },
  {
    // The depth walk jumps from quote to quote inside a string and counts the backslashes before each:
    // a string of escaped quotes and long backslash runs is its worst case.
    name: 'bounded JSON: depth of escaped quotes and backslash runs',
    unit: 'byte',
    sizes: [1 << 19, 1 << 21, 1 << 23],
    prepare(size) {
      const unit = '\\"' + '\\'.repeat(30) + '"x';
      const text = Buffer.from(`["${unit.repeat(Math.floor((size - 4) / unit.length))}"]`);
      return () => jsonDepth(text);
    },
  },
  {
    name: 'bounded JSON: nesting refused',
    unit: 'byte',
    sizes: [1 << 19, 1 << 21, 1 << 23],
    prepare(size) {
      const deep = '['.repeat(size / 2) + ']'.repeat(size / 2);
      return () => {
        try {
          parseJsonBounded(deep);
        } catch {
          // JsonTooDeepError: what is timed is reaching the refusal.
        }
      };
    },
  },
  {
    name: 'Python tokenizer: strings, comments, words',
    unit: 'byte',
    sizes: [1 << 17, 1 << 19, 1 << 21],
    prepare(size) {
      const piece = "x1 = rb'a\\'b' + f\"{y}\" # note \"q\"\ns = '''doc\nmore''' ; n = 0x1f + 1.5e3\n";
      const code = piece.repeat(Math.ceil(size / piece.length)).slice(0, size);
      return () => tokenizePython(code);
    },
  },
  {
    name: 'judge heuristics: 28 hostile files',
    unit: 'byte per file',
    sizes: [1 << 13, 1 << 15, 1 << 17],
    prepare(size) {
      const files = hostileJudgeStarts.flatMap((start) =>
        [' ', 'a', '/', "'"].map((filler) => ({ path: 'x.ts', text: `${start}${filler.repeat(size)}z` })),
      );
      return () => files.forEach((file) => judgeFiles([file], scenarios));
    },
  },
];

function bestOfThreeMs(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

const rows: string[][] = [['work', 'size', 'unit', 'ms', 'ns per unit']];
for (const work of works) {
  work.prepare(work.sizes[0]!)(); // warm-up
  for (const size of work.sizes) {
    const ms = bestOfThreeMs(work.prepare(size));
    rows.push([work.name, String(size), work.unit, ms.toFixed(1), ((ms * 1e6) / size).toFixed(1)]);
  }
}
const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
