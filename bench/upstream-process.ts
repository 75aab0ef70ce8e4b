// A bench's upstream in its own process (as the upstream is in production, so its CPU is not the
// bench's event loop): started with node, ready once it prints `listening on <url>`.
import { spawn } from 'node:child_process';
import { repoRoot } from '../common/data-layout.ts';

export interface UpstreamProcess {
  url: string;
  close(): Promise<void>;
}

export async function startUpstreamProcess(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<UpstreamProcess> {
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'], env });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (bytes: Buffer) => {
      seen += bytes.toString('utf8');
      const found = /listening on (\S+)/.exec(seen);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the upstream (${args.join(' ')}) exited with code ${code}`)));
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
