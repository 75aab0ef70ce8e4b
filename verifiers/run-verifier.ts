// The verifier contract: a fresh container of the scenario image with no network, the hidden tests
// and the declared agent outputs only; tests/test.sh under the verifier timeout; ctrf.json read back.
// A verifier that crashes, times out or reports nothing is an infrastructure error, never a zero.
import path from 'node:path';
import type { ContainerSession } from '../sandbox/container-session.ts';
import { packDirectory } from '../sandbox/tar-archive.ts';
import { parseCtrf, parseReward, VerifierReportError, type TestCounts } from './ctrf-report.ts';
import type { VerifierFailureType } from '../contracts/failure-types.ts';

export type VerifierFailureKind = VerifierFailureType;

export class VerifierFailure extends Error {
  constructor(readonly kind: VerifierFailureKind, message: string, readonly log: string) {
    super(message);
    this.name = 'VerifierFailure';
  }
}

export interface VerifierRun {
  counts: TestCounts;
  reportText: string;
  log: string;
  wallMs: number;
}

const reportLimitBytes = 4 * 1024 * 1024;

export async function runVerifier(request: {
  session: ContainerSession;
  scenarioDir: string;
  outputsArchive: Buffer;
  timeoutSec: number;
  onTick: () => void;
  signal?: AbortSignal;
}): Promise<VerifierRun> {
  const { session } = request;
  // Outputs first, tests last: nothing an agent produced can land on top of /tests.
  await session.exec({ command: ['sh', '-c', 'rm -rf /logs/verifier /tests && mkdir -p /logs/verifier'], deadlineMs: performance.now() + 30_000 });
  await session.upload(request.outputsArchive, '/');
  await session.upload(await packDirectory(path.join(request.scenarioDir, 'tests'), 'tests'), '/');
  const result = await session.exec({
    command: ['bash', '/tests/test.sh'],
    user: 'root',
    workdir: '/tests',
    deadlineMs: performance.now() + request.timeoutSec * 1000,
    onTick: request.onTick,
    signal: request.signal,
  });
  const log = [result.stdout, result.stderr && `[stderr]\n${result.stderr}`, `[exit ${result.exitCode ?? 'killed'}${result.timedOut ? ', timed out' : ''}]`].filter(Boolean).join('\n');
  if (result.timedOut) throw new VerifierFailure('verifier_timeout', `tests/test.sh ran past the verifier timeout of ${request.timeoutSec}s`, log);

  const ctrf = await readSingleFile(session, '/logs/verifier/ctrf.json');
  const reward = ctrf === undefined ? await readSingleFile(session, '/logs/verifier/reward.txt') : undefined;
  try {
    if (ctrf !== undefined) return { counts: parseCtrf(ctrf), reportText: ctrf, log, wallMs: result.wallMs };
    if (reward !== undefined) return { counts: parseReward(reward), reportText: reward, log, wallMs: result.wallMs };
  } catch (error) {
    if (error instanceof VerifierReportError) throw new VerifierFailure('verifier_report_invalid', error.message, log);
    throw error;
  }
  throw new VerifierFailure('verifier_crashed', `tests/test.sh exited ${result.exitCode} without writing ctrf.json or reward.txt`, log);
}

async function readSingleFile(session: ContainerSession, file: string): Promise<string | undefined> {
  const entries = await session.download(file, reportLimitBytes);
  const entry = entries?.find((e) => e.type === 'file');
  return entry?.content?.toString('utf8');
}

