// Reading a verifier's CTRF report (or reward.txt when there is none) into test counts.
import { z } from 'zod';

const ctrfSchema = z.object({
  results: z.object({
    summary: z.object({
      tests: z.number().int().nonnegative(),
      passed: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
      skipped: z.number().int().nonnegative().default(0),
    }),
    tests: z.array(z.object({ name: z.string(), status: z.string() })).default([]),
  }),
});

export interface TestCounts {
  testsTotal: number;
  testsPassed: number;
  testsFailed: number;
  source: 'ctrf' | 'reward';
  tests: { name: string; status: string }[];
}

export class VerifierReportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerifierReportError';
  }
}

export function parseCtrf(text: string): TestCounts {
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
  const { summary, tests } = parsed.data.results;
  if (summary.tests === 0) throw new VerifierReportError('ctrf.json reports no tests: the test suite did not run');
  if (summary.passed + summary.failed > summary.tests) throw new VerifierReportError('ctrf.json summary is inconsistent (passed + failed > tests)');
  return { testsTotal: summary.tests, testsPassed: summary.passed, testsFailed: summary.failed, source: 'ctrf', tests: tests.map(({ name, status }) => ({ name, status })) };
}

/** reward.txt holds a number in [0, 1]; without a CTRF report it counts as one test, passed only at 1. */
export function parseReward(text: string): TestCounts {
  const value = Number(text.trim());
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new VerifierReportError(`reward.txt holds ${JSON.stringify(text.trim().slice(0, 40))}, not a number in [0, 1]`);
  const passed = value >= 1 ? 1 : 0;
  return { testsTotal: 1, testsPassed: passed, testsFailed: 1 - passed, source: 'reward', tests: [] };
}
