// Runs a host command for bootstrap steps, keeping a bounded tail of its output for errors.
import { spawn } from 'node:child_process';

export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export class CommandFailedError extends Error {
  constructor(
    readonly command: string,
    readonly result: CommandResult,
  ) {
    super(`${command} exited with ${result.exitCode}: ${result.stderr.slice(-2000) || result.stdout.slice(-2000)}`);
    this.name = 'CommandFailedError';
  }
}

const tailLimitChars = 64 * 1024;

export function runCommand(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; allowFailure?: boolean } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout = (stdout + chunk.toString()).slice(-tailLimitChars);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-tailLimitChars);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const result = { exitCode: code ?? -1, stdout, stderr };
      if (result.exitCode !== 0 && !options.allowFailure)
        reject(new CommandFailedError([file, ...args].join(' '), result));
      else resolve(result);
    });
    // A command that exits without reading its input closes the pipe: not an error of ours.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

export async function commandExists(name: string): Promise<boolean> {
  const result = await runCommand('sh', ['-c', `command -v ${name}`], { allowFailure: true });
  return result.exitCode === 0;
}
