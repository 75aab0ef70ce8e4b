// Headless Chromium from Debian's package, for the browser checks of the Temporal Web UI
// (test/browser/). Installed on demand only: the validator itself never needs a browser.
import { ensureDebianPackages } from './debian-packages.ts';
import { runCommand } from '../common/run-command.ts';

export const chromiumPackages = ['chromium'];

/** Installs Debian's chromium when missing and returns the path of its binary. */
export async function ensureChromium(): Promise<string> {
  await ensureDebianPackages(chromiumPackages);
  const found = await runCommand('sh', ['-c', 'command -v chromium'], { allowFailure: true });
  const binary = found.stdout.trim();
  if (found.exitCode !== 0 || !binary)
    throw new Error('the chromium package is installed but no chromium binary is on PATH');
  return binary;
}
