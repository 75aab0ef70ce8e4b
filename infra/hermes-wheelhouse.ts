// The Hermes wheelhouse: every wheel of infra/hermes/requirements.lock, fetched once through pip
// for the sandbox's Python (Debian bookworm: CPython 3.11, x86_64), so the image installs Hermes
// with --no-index and nothing is downloaded when a container runs.
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hermesWheelhouseDir, repoRoot } from '../common/data-layout.ts';
import { say } from '../common/log.ts';
import { CommandFailedError } from '../common/run-command.ts';
import { pipDownload } from './pip-download.ts';

export const hermesLockFile = path.join(repoRoot, 'infra', 'hermes', 'requirements.lock');
const completeMarker = '.complete';

export interface HermesWheelhouse {
  dir: string;
  lock: string;
  lockHash: string;
  hermesVersion: string;
  wheels: string[];
}

export async function readHermesLock(): Promise<{ lock: string; lockHash: string; hermesVersion: string }> {
  const lock = await readFile(hermesLockFile, 'utf8');
  const version = /^hermes-agent==(\S+)$/m.exec(lock)?.[1];
  if (!version) throw new Error(`${hermesLockFile} must pin hermes-agent==<version>`);
  return { lock, lockHash: createHash('sha256').update(lock).digest('hex').slice(0, 12), hermesVersion: version };
}

export async function ensureHermesWheelhouse(): Promise<HermesWheelhouse> {
  const { lock, lockHash, hermesVersion } = await readHermesLock();
  const dir = hermesWheelhouseDir(lockHash);
  const done = await access(path.join(dir, completeMarker)).then(
    () => true,
    () => false,
  );
  if (!done) {
    say(`downloading the Hermes ${hermesVersion} wheelhouse from PyPI into ${dir}`);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const download = await pipDownload({
      requirements: { file: hermesLockFile },
      dir,
      // The agent's Python in the base image, whatever the host's.
      target: {
        pythonVersion: '3.11',
        implementation: 'cp',
        abis: ['cp311', 'abi3', 'none'],
        platforms: [
          'manylinux2014_x86_64',
          'manylinux_2_17_x86_64',
          'manylinux_2_28_x86_64',
          'manylinux1_x86_64',
          'manylinux2010_x86_64',
          'any',
        ],
      },
    });
    if (download.exitCode !== 0) throw new CommandFailedError('pip download of the Hermes wheelhouse', download);
    await writeFile(path.join(dir, completeMarker), `${lockHash}\n`);
  }
  const wheels = (await readdir(dir)).filter((name) => name.endsWith('.whl')).sort();
  return { dir, lock, lockHash, hermesVersion, wheels };
}
