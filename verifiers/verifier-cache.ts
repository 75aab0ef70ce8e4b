// A test run's verifier results by what decides them: the same outputs archive, the same hidden tests, the same
// scenario image (its tag is a hash of its build context), user, env, timeout and declared count give the same
// report (the scenario suite checks that two runs on the same outputs agree, test by test). `trl test` names a
// folder in TRL_VERIFIER_CACHE_DIR and the workers of its files answer a repeated verification from it instead of
// starting a container: most integration files verify the same few scenarios' oracle and sim-fleet outputs. A test
// of the verifier itself turns it off (the harness's `verifierCache: false`); a worker outside `trl test` never has
// one. Only a finished run is kept: a verifier that crashes or times out runs again every time.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packDirectory } from '../sandbox/tar-archive.ts';
import type { VerifierRun } from './run-verifier.ts';

/** What decides a verifier's report. */
export interface VerifierCacheKey {
  outputsSha256: string;
  scenarioDir: string;
  image: string;
  timeoutSec: number;
  declaredTests?: number;
  user?: string;
  /** The working directory test.sh runs from. */
  workdir?: string;
  env?: Record<string, string>;
}

/** The line a reused run's log ends with, so whoever reads the artifact knows no container ran. */
export const reusedLogLine = '[trl test: the result of an identical verifier run earlier in this test run]';

export class VerifierCache {
  private readonly testsHashes = new Map<string, Promise<string>>();
  hits = 0;

  constructor(readonly dir: string) {}

  /** The hidden tests' hash: their archive (modes and bytes, times zeroed), once per scenario folder. */
  private testsHash(scenarioDir: string): Promise<string> {
    let hash = this.testsHashes.get(scenarioDir);
    if (!hash) {
      hash = packDirectory(path.join(scenarioDir, 'tests'), 'tests').then((archive) =>
        createHash('sha256').update(archive).digest('hex'),
      );
      this.testsHashes.set(scenarioDir, hash);
    }
    return hash;
  }

  async keyOf(key: VerifierCacheKey): Promise<string> {
    const { scenarioDir, ...rest } = key;
    const fields = { ...rest, testsSha256: await this.testsHash(scenarioDir), env: sortedEnv(key.env) };
    return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
  }

  async get(key: string): Promise<VerifierRun | undefined> {
    const text = await readFile(this.fileOf(key), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    this.hits++;
    const run = JSON.parse(text) as VerifierRun;
    return { ...run, log: `${run.log}${run.log.endsWith('\n') || run.log === '' ? '' : '\n'}${reusedLogLine}\n` };
  }

  /** Written to a temporary name and renamed: files that verify the same outputs at once never read half a result. */
  async put(key: string, run: VerifierRun): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const temporary = `${this.fileOf(key)}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    await writeFile(temporary, JSON.stringify(run));
    await rename(temporary, this.fileOf(key));
  }

  private fileOf(key: string): string {
    return path.join(this.dir, `${key}.json`);
  }
}

function sortedEnv(env: Record<string, string> | undefined): [string, string][] {
  return Object.entries(env ?? {}).sort(([a], [b]) => a.localeCompare(b));
}
