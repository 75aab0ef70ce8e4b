// What an operator reads in the Temporal Web UI without opening a payload: a one-line summary on
// every activity call (which scenario, which try), and the workflow's current details, ending as a
// small markdown table of the outcome. Pure and deterministic: workflow code calls it.
import type { ActivityOptions } from '@temporalio/workflow';
import type { EvaluationProgress } from '../contracts/progress.ts';
import type { EvaluationResult } from '../contracts/results.ts';
import type { Submission } from '../contracts/submission.ts';
import type { SeatView } from '../contracts/seat.ts';
import { evaluationSearchAttributes, type EvaluationRole } from '../contracts/temporal-names.ts';

/** A proxied activity as `proxyActivities` returns it: callable, and callable with per-call options. */
interface ProxiedActivity {
  (...args: never[]): Promise<unknown>;
  executeWithOptions(options: ActivityOptions, args: unknown[]): Promise<unknown>;
}

export function shortHash(hash: string | undefined): string {
  return hash ? hash.slice(0, 12) : '?';
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function lastSegment(path: string): string {
  return path.replace(/\/+$/, '').split('/').pop() || path;
}

/**
 * `csv-sales-report` (`csv-sales-report · try 2` when the scenario runs again after upstream
 * failures). The Web UI prints the activity type before it (`runScenario • csv-sales-report`), so
 * the summary does not repeat it; an activity with nothing to name is summarized by its type.
 */
export function activitySummary(activity: string, args: readonly unknown[]): string {
  const input = args[0];
  const parts: string[] = [];
  const scenario =
    text(field(field(input, 'scenario'), 'name')) ??
    (activity === 'prepareScenario' || activity === 'claimSandboxHost' ? text(field(input, 'name')) : undefined);
  if (scenario) parts.push(scenario);
  const round = field(input, 'round');
  if (typeof round === 'number' && round > 1) parts.push(`try ${round}`);
  if (activity === 'fetchPack') {
    const sha256 = text(field(input, 'sha256'));
    const where = text(field(input, 'path'));
    if (sha256) parts.push(`pack ${shortHash(sha256)}`);
    else if (where) parts.push(lastSegment(where));
  }
  const packHash = text(field(field(input, 'pack'), 'packHash')) ?? text(field(input, 'packHash'));
  if (!scenario && packHash) parts.push(`pack ${shortHash(packHash)}`);
  const names = field(input, 'names');
  if (Array.isArray(names)) parts.push(names.length ? `${names.length} named` : 'the active set');
  const perScenario = field(input, 'perScenario');
  if (Array.isArray(perScenario)) parts.push(`${perScenario.length} scenario${perScenario.length === 1 ? '' : 's'}`);
  const scenarios = field(input, 'scenarios');
  if (Array.isArray(scenarios)) parts.push(`${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'}`);
  const record = field(input, 'record');
  const number = field(record, 'number');
  if (typeof number === 'number') parts.push(`decision #${number}`);
  const netuid = field(input, 'netuid');
  if (typeof netuid === 'number' && typeof number !== 'number') parts.push(`subnet ${netuid}`);
  return parts.length ? parts.join(' · ') : activity;
}

/**
 * The same activities, each call carrying its summary in the event history (user metadata).
 * Options set on the proxy still apply: executeWithOptions merges the summary into them.
 */
export function summarized<T extends object>(proxy: T): T {
  return new Proxy(proxy, {
    get(target, name, receiver) {
      const activity = Reflect.get(target, name, receiver) as ProxiedActivity | undefined;
      if (typeof name !== 'string' || typeof activity !== 'function') return activity;
      return (...args: unknown[]) => activity.executeWithOptions({ summary: activitySummary(name, args) }, args);
    },
  });
}

function packLabel(submission: Submission): string {
  return submission.pack.kind === 'url'
    ? `pack ${shortHash(submission.pack.sha256)}`
    : `pack ${lastSegment(submission.pack.path)}`;
}

/**
 * The workflow's static summary, one line: `challenger · pack 1a2b3c4d5e6f · 5F3sa2TJ… · hermes`.
 * Set when the workflow starts, so it names the pack as submitted (a local folder by its name).
 */
export function evaluationSummary(submission: Submission, role: EvaluationRole): string {
  const who = submission.hotkey ? `${submission.hotkey.slice(0, 8)}…` : 'local';
  const parts = [role, packLabel(submission), who, submission.agent];
  if (submission.rerunOf) parts.push(`rerun of ${submission.rerunOf}`);
  return parts.join(' · ');
}

/** A seat's child evaluation: its summary, details and search attributes, challenger or incumbent. */
export function childEvaluationMetadata(
  submission: Submission,
  role: 'challenger' | 'incumbent',
  decision: number,
  repeat: number,
) {
  return {
    staticSummary: `${evaluationSummary(submission, role)} · decision #${decision} · repeat ${repeat}`,
    staticDetails: evaluationStaticDetails(submission, role),
    typedSearchAttributes: evaluationSearchAttributes(submission, role),
  };
}

/** The workflow's static details: what was asked, in full. */
export function evaluationStaticDetails(submission: Submission, role: EvaluationRole): string {
  const pack =
    submission.pack.kind === 'url'
      ? `${submission.pack.url} (sha256 \`${submission.pack.sha256}\`)`
      : submission.pack.path;
  const rows = [
    ['role', role],
    ['pack', pack],
    ['hotkey', submission.hotkey ?? 'local'],
    ['agent', submission.agent],
    ['scenarios', submission.scenarios.length ? submission.scenarios.join(', ') : 'the active set'],
    ['seed', String(submission.seed)],
    ...(submission.rerunOf ? [['rerun of', submission.rerunOf]] : []),
  ];
  return ['| | |', '|---|---|', ...rows.map(([key, value]) => `| ${key} | ${cell(value!)} |`)].join('\n');
}

function usd(value: number): string {
  return `$${value.toFixed(4)}`;
}

/** Markdown cells never break the table: pipes and newlines are escaped. */
function cell(value: string): string {
  return value.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/** While it runs: the stage, then one row per scenario as it settles. */
export function progressDetails(progress: EvaluationProgress): string {
  const settled = progress.scenarios.filter((s) => s.phase === 'done');
  const lines = [
    `**${progress.stage}**${progress.packHash ? ` · pack \`${shortHash(progress.packHash)}\`` : ''}${progress.scenarios.length ? ` · ${settled.length} of ${progress.scenarios.length} scenarios settled` : ''}`,
  ];
  if (progress.scenarios.length) {
    lines.push('', '| scenario | phase | tests |', '|---|---|---|');
    for (const s of progress.scenarios) {
      const tests = s.testsTotal !== undefined ? `${s.testsPassed ?? 0}/${s.testsTotal}` : '';
      lines.push(`| ${cell(s.name)} | ${cell(s.phase === 'done' ? (s.status ?? 'done') : s.phase)} | ${tests} |`);
    }
  }
  return lines.join('\n');
}

/** When it ends: the totals, then the outcome table (one row per scenario). */
export function resultDetails(result: EvaluationResult): string {
  const head = `**${result.status}** · ${result.testsPassed} of ${result.testsTotal} tests passed · ${usd(result.costUsd)}`;
  const lines = [head];
  if (result.packHash)
    lines.push(
      `pack \`${shortHash(result.packHash)}\` · agent ${result.agent}${result.manifestHash ? ` · spec manifest \`${shortHash(result.manifestHash)}\`` : ''}`,
    );
  if (result.rejection?.length)
    lines.push('', ...result.rejection.map((r) => `- rejected: \`${cell(r.code)}\` ${cell(r.message).slice(0, 200)}`));
  if (result.stoppedReason) lines.push('', `stopped: ${cell(result.stoppedReason).slice(0, 200)}`);
  if (result.perScenario.length) {
    lines.push('', '| scenario | status | tests | cost |', '|---|---|---|---|');
    for (const s of result.perScenario)
      lines.push(`| ${cell(s.name)} | ${s.status} | ${s.testsPassed}/${s.testsTotal} | ${usd(s.costUsd)} |`);
  }
  return lines.join('\n');
}

const seatRowsShown = 10;

/** The seat's current details: who holds it, what is queued, the latest decisions as a table. */
export function seatDetails(view: SeatView): string {
  const seated = view.incumbent
    ? `seated: pack \`${shortHash(view.incumbent.packHash)}\` · ${view.incumbent.hotkey.slice(0, 8)}… · ${view.incumbent.seatedTestsPassed} of ${view.incumbent.seatedTestsTotal} tests`
    : 'the seat is empty';
  const lines = [
    `**subnet ${view.netuid}** · ${seated}`,
    `deciding: ${view.current ? `pack \`${shortHash(view.current.packHash)}\`` : 'nothing'} · queued: ${view.queue.length} · decisions: ${view.decisions}`,
  ];
  const latest = view.history.slice(-seatRowsShown).reverse();
  if (latest.length) {
    lines.push('', '| # | challenger | outcome | C | I | of | manifest |', '|---|---|---|---|---|---|---|');
    const figure = (value: number | undefined) =>
      value === undefined ? '' : Number.isInteger(value) ? String(value) : value.toFixed(2);
    for (const r of latest) {
      lines.push(
        `| ${r.number} | \`${shortHash(r.packHash)}\` | ${r.outcome} | ${figure(r.challengerTotal)} | ${figure(r.incumbentTotal)} | ${figure(r.testsTotal)} | ${r.evidence?.manifestHash ? `\`${shortHash(r.evidence.manifestHash)}\`` : ''} |`,
      );
    }
  }
  return lines.join('\n');
}
