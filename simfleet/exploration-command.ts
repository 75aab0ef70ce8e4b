// The commands a realistic simulated model runs before and after its attempt: it reads the pack's
// SKILL.md, lists and reads the task's files, looks at the environment, runs what tests there are,
// sometimes runs something that fails with a traceback, and after the attempt checks its outputs.
// All read-only (except nothing) and bounded in output; each ends with a step marker so the
// conversation records how far the trajectory has come.
import type { SimScenario } from './scenario-recognition.ts';
import { shellQuote } from './attempt-command.ts';

export type StepKind = 'explore' | 'verify';

const stepPattern = /# trl-sim-step model=([a-z0-9][a-z0-9._-]*) kind=(explore|verify)\b/g;

export function stepMarker(model: string, kind: StepKind): string {
  return `# trl-sim-step model=${model} kind=${kind}`;
}

export function findStepMarks(text: string): { model: string; kind: StepKind }[] {
  return [...text.matchAll(stepPattern)].map((match) => ({ model: match[1]!, kind: match[2] as StepKind }));
}

const readableFiles =
  "\\( -name '*.py' -o -name '*.csv' -o -name '*.json' -o -name '*.jsonl' -o -name '*.md' -o -name '*.sql' -o -name '*.sh' -o -name '*.txt' -o -name '*.toml' -o -name '*.ini' -o -name '*.c' -o -name '*.h' -o -name '*.conf' -o -name '*.log' -o -name 'Makefile' \\)";

function moduleGuess(scenario: SimScenario): string {
  return scenario.name.replace(/-/g, '_').slice(0, 40);
}

/** A command that fails the way agents' guesses fail: a traceback and a non-zero exit. */
function failingCommand(scenario: SimScenario, pick: number): string {
  const output = scenario.agentOutputs[0] ?? '/app/output.json';
  if (pick < 0.5)
    return `cd /app 2>/dev/null; python3 -c "import ${moduleGuess(scenario)}_helpers as h; print(h.__file__)"`;
  return `cd /app 2>/dev/null; python3 - <<'PY'\nimport json, pathlib\nsource = pathlib.Path(${JSON.stringify(`${output}.orig`)})\nprint(json.loads(source.read_text()))\nPY`;
}

/** The n-th exploratory command (n from 0) of a trajectory. */
export function explorationCommand(
  scenario: SimScenario,
  n: number,
  draws: { fails: boolean; readLines: number; pick: number },
): string {
  const lines = draws.readLines;
  if (n === 0)
    return 'ls -la /workspace 2>/dev/null; cat /workspace/SKILL.md 2>/dev/null; ls -la /app 2>/dev/null || ls -la';
  if (draws.fails) return failingCommand(scenario, draws.pick);
  const kinds = [
    () => `find /app -maxdepth 3 -not -path '*/.git/*' 2>/dev/null | sort | head -n ${lines}`,
    () => {
      // A different slice of the task's files on each read.
      const first = 1 + ((n * 2) % 12);
      return `for f in $(find /app -maxdepth 3 -type f ${readableFiles} -not -path '*/.git/*' 2>/dev/null | sort | sed -n '${first},${first + 1}p'); do echo "== $f"; head -n ${lines} "$f"; done`;
    },
    () =>
      `grep -rn -E 'def |class |TODO|FIXME|SELECT|CREATE' /app --include='*.py' --include='*.sql' --include='*.sh' 2>/dev/null | head -n ${lines}`,
    () =>
      `python3 --version; for t in sqlite3 gcc make git nginx jq; do command -v $t || echo "$t: not found"; done; python3 -m pip list 2>/dev/null | head -n ${Math.round(lines / 3)}`,
    () =>
      `cd /app 2>/dev/null && if ls tests test*.py >/dev/null 2>&1; then timeout 60 python3 -m pytest -q -x 2>&1 | tail -n ${Math.round(lines / 2)}; else ls -la; fi`,
    () =>
      `for p in ${scenario.agentOutputs.map(shellQuote).join(' ') || '/app'}; do ls -la "$p" 2>&1 | head -n 20; if [ -f "$p" ]; then wc -l "$p"; head -n ${lines} "$p"; fi; done`,
  ];
  return kinds[Math.floor(draws.pick * kinds.length)]!();
}

/** A check after the attempt: print the outputs back, or (when it fails) a check that throws. */
export function verificationCommand(
  scenario: SimScenario,
  draws: { fails: boolean; readLines: number; pick: number },
): string {
  if (draws.fails) return failingCommand(scenario, draws.pick);
  const outputs = scenario.agentOutputs.map(shellQuote).join(' ') || '/app';
  return `cd /app 2>/dev/null; for p in ${outputs}; do ls -la "$p" 2>&1 | head -n 20; if [ -f "$p" ]; then head -n ${draws.readLines} "$p"; fi; done`;
}

/** The visible text before a tool call, about `tokens` long (about 4.3 characters per token). */
export function answerText(kind: 'explore' | 'attempt' | 'verify', n: number, tokens: number): string {
  const openers: Record<typeof kind, string[]> = {
    explore: [
      'Let me look at what is in the working directory before changing anything.',
      'I need to understand the input files and the expected output format first.',
      'The previous output suggests I should read the relevant files more carefully.',
      'Before editing, I want to see how the existing code handles this case.',
    ],
    attempt: ['I have enough context now; I will write the fix and run it.'],
    verify: ['Now I will check that the outputs exist and look right.'],
  };
  const filler = [
    'The task statement names the files that must be produced, so I will keep those paths exactly as given.',
    'Edge cases matter here: empty inputs, malformed lines and boundary values are where these tasks usually fail.',
    'I will keep the change small and check its effect before moving on to the next step.',
    'If a command fails I will read the error rather than retrying the same thing.',
    'The output format has to match what the task describes, including ordering and precision.',
  ];
  const pool = openers[kind];
  const parts = [pool[n % pool.length]!];
  for (let i = 0; parts.join(' ').length < tokens * 4.3; i++) parts.push(filler[(n + i) % filler.length]!);
  return parts.join(' ');
}
