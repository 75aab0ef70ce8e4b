// The shell commands a simulated model emits for a scenario, each ending with a marker comment
// `# trl-sim model=<id> attempt=<kind>`. The markers make the agent policy stateless: the conversation
// itself records which model tried what.
import path from 'node:path';
import type { SimScenario } from './scenario-recognition.ts';

export type AttemptKind = 'solve' | 'partial' | 'wrong';

export interface AttemptMark {
  model: string;
  attempt: AttemptKind;
}

const markerPattern = /# trl-sim model=([a-z0-9][a-z0-9._-]*) attempt=(solve|partial|wrong)\b/g;
// Where failed attempts keep the original outputs, so a later solve starts from the shipped files.
const undoDir = '/tmp/trl-sim-undo';

export function attemptMarker(model: string, attempt: AttemptKind): string {
  return `# trl-sim model=${model} attempt=${attempt}`;
}

/** Every marker in a text (a command, tool-call arguments, a message), in order. */
export function findAttemptMarks(text: string): AttemptMark[] {
  return [...text.matchAll(markerPattern)].map((match) => ({ model: match[1]!, attempt: match[2] as AttemptKind }));
}

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function heredocDelimiter(script: string): string {
  const lines = new Set(script.split('\n'));
  let delimiter = 'TRL_SIM_EOF';
  for (let n = 2; lines.has(delimiter); n++) delimiter = `TRL_SIM_EOF_${n}`;
  return delimiter;
}

/** Writes a script to a fresh temp file through a quoted heredoc (no expansion) and runs it with bash. */
function runScriptCommand(script: string, marker: string, prelude: string[]): string {
  const delimiter = heredocDelimiter(script);
  const body = script.endsWith('\n') ? script : `${script}\n`;
  return [
    ...prelude,
    'script=$(mktemp /tmp/trl-sim-XXXXXX)',
    `cat > "$script" <<'${delimiter}'`,
    `${body}${delimiter}`,
    `bash "$script" ${marker}`,
  ].join('\n');
}

function quotedOutputs(scenario: SimScenario): string {
  return scenario.agentOutputs.map(shellQuote).join(' ');
}

/** Keeps a copy of each output that exists before a failed attempt can change it. */
function snapshotOutputs(scenario: SimScenario): string {
  return `for p in ${quotedOutputs(scenario)}; do if [ -e "$p" ] && [ ! -e "${undoDir}$p" ]; then mkdir -p "${undoDir}$(dirname "$p")" && cp -a "$p" "${undoDir}$p"; fi; done 2>/dev/null || true`;
}

/** Puts back the outputs an earlier failed attempt changed, file by file. */
function restoreOutputs(scenario: SimScenario): string {
  return `for p in ${quotedOutputs(scenario)}; do if [ -d "${undoDir}$p" ]; then cp -a "${undoDir}$p/." "$p/"; elif [ -f "${undoDir}$p" ]; then cp -a "${undoDir}$p" "$p"; fi; done 2>/dev/null || true`;
}

const placeholderByExtension: Record<string, string> = {
  '.json': '{}',
  '.sql': 'SELECT 1;',
  '.csv': 'id,value',
  '.py': '# TODO',
  '.md': 'TODO',
};

/** A plausible first try that does not do the task: look around, then write an incomplete output. */
function wrongAttemptLines(scenario: SimScenario): string[] {
  const lines = ['cd /app 2>/dev/null || cd ~', 'ls -la', 'find . -maxdepth 2 -type f | sort | head -n 20'];
  for (const output of scenario.agentOutputs) {
    const quoted = shellQuote(output);
    const extension = path.extname(output);
    if (extension === '') {
      // A directory: inspect what is there, or create it empty.
      lines.push(`if [ -d ${quoted} ]; then ls -la ${quoted}; else mkdir -p ${quoted}; fi`);
    } else {
      const placeholder = placeholderByExtension[extension] ?? 'TODO';
      lines.push(
        `if [ -e ${quoted} ]; then head -n 40 ${quoted}; else mkdir -p ${shellQuote(path.dirname(output))} && printf '%s\\n' ${shellQuote(placeholder)} > ${quoted}; fi`,
      );
    }
  }
  return lines;
}

export interface AttemptCommandInput {
  scenario: SimScenario;
  model: string;
  attempt: AttemptKind;
  /** True when the conversation already holds a failed attempt whose changes a solve must undo. */
  afterFailedAttempt: boolean;
}

export function attemptCommand({ scenario, model, attempt, afterFailedAttempt }: AttemptCommandInput): string {
  const marker = attemptMarker(model, attempt);
  if (attempt === 'solve')
    return runScriptCommand(scenario.solveScript, marker, afterFailedAttempt ? [restoreOutputs(scenario)] : []);
  if (attempt === 'partial' && scenario.partialScript !== undefined)
    return runScriptCommand(scenario.partialScript, marker, [snapshotOutputs(scenario)]);
  const lines = [snapshotOutputs(scenario), ...wrongAttemptLines(scenario)];
  lines[lines.length - 1] += ` ${marker}`;
  return lines.join('\n');
}
