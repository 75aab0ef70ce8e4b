// Reading what a verifier left in /logs/verifier into test counts, as Harbor reads it: the CTRF
// report when it holds tests, else reward.txt / reward.json (fractions of the task's declared test
// count); zero tests collected is 0 passed of that count, never an error.
import { z } from 'zod';

const ctrfSchema = z.object({
  results: z.object({
    summary: z.object({
      tests: z.number().int().nonnegative(),
      passed: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
      skipped: z.number().int().nonnegative().default(0),
    }),
    tests: z.array(z.object({ name: z.string(), status: z.string(), message: z.string().optional() })).default([]),
  }),
});

export interface TestCounts {
  testsTotal: number;
  testsPassed: number;
  testsFailed: number;
  source: 'ctrf' | 'reward';
  tests: { name: string; status: string }[];
  /** The reward the verifier wrote (reward.txt / reward.json), when the counts come from it. */
  reward?: number;
}

export class VerifierReportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerifierReportError';
  }
}

/** The report's results as the schema reads them; a report that is not JSON or not CTRF is a VerifierReportError. */
function readCtrfResults(text: string): z.infer<typeof ctrfSchema>['results'] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new VerifierReportError(`ctrf.json is not JSON: ${(error as Error).message}`);
  }
  const parsed = ctrfSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new VerifierReportError(`ctrf.json field "${issue?.path.join('.')}": ${issue?.message}`);
  }
  return parsed.data.results;
}

export function parseCtrf(text: string): TestCounts {
  const { summary, tests } = readCtrfResults(text);
  if (summary.passed + summary.failed > summary.tests)
    throw new VerifierReportError('ctrf.json summary is inconsistent (passed + failed > tests)');
  return {
    testsTotal: summary.tests,
    testsPassed: summary.passed,
    testsFailed: summary.failed,
    source: 'ctrf',
    tests: tests.map(({ name, status }) => ({ name, status })),
  };
}

/** The report's tests that did not pass, with the message each failed with (for a reader: a log, an assertion). */
export function failedTests(text: string): { name: string; message: string }[] {
  let tests: z.infer<typeof ctrfSchema>['results']['tests'];
  try {
    tests = readCtrfResults(text).tests;
  } catch {
    return [];
  }
  return tests
    .filter((test) => test.status !== 'passed')
    .map((test) => ({ name: test.name, message: test.message ?? '' }));
}

/** A reward in [0, 1] as a share of the declared tests (at least one), rounded down: never more than earned. */
export function countsFromReward(reward: number, declaredTests: number): TestCounts {
  const total = Math.max(1, Math.floor(declaredTests));
  const passed = Math.min(total, Math.floor(reward * total + 1e-9));
  return { testsTotal: total, testsPassed: passed, testsFailed: total - passed, source: 'reward', tests: [], reward };
}

function rewardValue(value: unknown, file: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new VerifierReportError(`${file} holds ${JSON.stringify(value)?.slice(0, 40)}, not a number in [0, 1]`);
  }
  return value;
}

/** reward.txt holds one number in [0, 1]. */
export function parseReward(text: string, declaredTests = 1): TestCounts {
  const trimmed = text.trim();
  return countsFromReward(rewardValue(trimmed === '' ? Number.NaN : Number(trimmed), 'reward.txt'), declaredTests);
}

/** reward.json: `{"reward": r}`, or one named reward, or several (their mean), each in [0, 1]. */
export function parseRewardJson(text: string, declaredTests = 1): TestCounts {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new VerifierReportError(`reward.json is not JSON: ${(error as Error).message}`);
  }
  if (typeof raw === 'number') return countsFromReward(rewardValue(raw, 'reward.json'), declaredTests);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new VerifierReportError('reward.json must be an object of named rewards');
  const rewards = raw as Record<string, unknown>;
  if ('reward' in rewards) return countsFromReward(rewardValue(rewards.reward, 'reward.json'), declaredTests);
  const values = Object.values(rewards).map((value) => rewardValue(value, 'reward.json'));
  if (values.length === 0) throw new VerifierReportError('reward.json holds no reward');
  return countsFromReward(values.reduce((sum, value) => sum + value, 0) / values.length, declaredTests);
}

export interface VerifierFiles {
  ctrf?: string;
  rewardTxt?: string;
  rewardJson?: string;
}

export interface VerifierScore {
  counts: TestCounts;
  /** The file the counts came from, and its text. */
  reportName: 'ctrf.json' | 'reward.txt' | 'reward.json';
  reportText: string;
  notes: string[];
}

/**
 * The score of one verification. CTRF with tests wins; a CTRF report of zero tests is 0 passed of
 * the declared count; else reward.txt, else reward.json. A placeholder CTRF report beside a reward
 * is noted and passed over. Throws VerifierReportError only when nothing usable was written.
 */
export function readVerifierScore(files: VerifierFiles, declaredTests: number): VerifierScore {
  const notes: string[] = [];
  let ctrfProblem: VerifierReportError | undefined;
  if (files.ctrf !== undefined) {
    try {
      const counts = parseCtrf(files.ctrf);
      if (counts.testsTotal > 0) return { counts, reportName: 'ctrf.json', reportText: files.ctrf, notes };
      const zero = countsFromReward(0, declaredTests);
      notes.push(`ctrf.json reports no tests collected: 0 passed of the ${zero.testsTotal} declared`);
      return {
        counts: { ...zero, source: 'ctrf', reward: undefined },
        reportName: 'ctrf.json',
        reportText: files.ctrf,
        notes,
      };
    } catch (error) {
      if (!(error instanceof VerifierReportError)) throw error;
      ctrfProblem = error;
      notes.push(`${error.message}; the reward file decides`);
    }
  }
  const problems: string[] = ctrfProblem ? [ctrfProblem.message] : [];
  for (const [name, text, parse] of [
    ['reward.txt', files.rewardTxt, parseReward],
    ['reward.json', files.rewardJson, parseRewardJson],
  ] as const) {
    if (text === undefined) continue;
    try {
      return { counts: parse(text, declaredTests), reportName: name, reportText: text, notes };
    } catch (error) {
      if (!(error instanceof VerifierReportError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length) throw new VerifierReportError(problems.join('; '));
  throw new VerifierReportError('no ctrf.json, reward.txt or reward.json in /logs/verifier');
}
