// Installs Debian packages the project needs (docker.io, debootstrap, ...) with apt, once.
import { say } from '../common/log.ts';
import { runCommand } from '../common/run-command.ts';
import { readSetting } from '../common/settings/setting.ts';
import { machineSettings } from '../common/settings/machine-settings.ts';

let aptUpdated = false;
// apt holds one lock per machine: callers that overlap (bootstrap runs Docker's and the base
// image's preparation beside Temporal's) take turns here instead of failing on the lock.
let aptTurn: Promise<unknown> = Promise.resolve();

async function isInstalled(pkg: string): Promise<boolean> {
  const result = await runCommand('dpkg-query', ['-W', '-f=${Status}', pkg], { allowFailure: true });
  return result.exitCode === 0 && result.stdout.includes('install ok installed');
}

export function ensureDebianPackages(packages: string[]): Promise<void> {
  const turn = aptTurn.then(() => installMissing(packages));
  aptTurn = turn.catch(() => undefined);
  return turn;
}

async function installMissing(packages: string[]): Promise<void> {
  const missing: string[] = [];
  for (const pkg of packages) if (!(await isInstalled(pkg))) missing.push(pkg);
  if (missing.length === 0) return;
  say(`installing Debian packages: ${missing.join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    await runCommand('apt-get', ['update', '-qq'], { env });
    aptUpdated = true;
  }
  await runCommand('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
}

/** The Debian mirror apt is configured with on this machine (never hard-coded here). */
export async function configuredDebianMirror(): Promise<string> {
  const configured = readSetting(machineSettings, 'TRL_DEBIAN_MIRROR');
  if (configured) return configured;
  const { readFile, readdir } = await import('node:fs/promises');
  const candidates: string[] = [];
  try {
    for (const name of await readdir('/etc/apt/sources.list.d')) {
      if (name.endsWith('.sources') || name.endsWith('.list')) candidates.push(`/etc/apt/sources.list.d/${name}`);
    }
  } catch {
    /* no directory */
  }
  candidates.push('/etc/apt/sources.list');
  for (const file of candidates) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const deb822 = /^URIs:\s*(\S+)/.exec(line);
      const oneLine = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)/.exec(line);
      const uri = deb822?.[1] ?? oneLine?.[1];
      if (uri && !uri.includes('security')) return uri;
    }
  }
  throw new Error('no Debian mirror found in apt sources; set TRL_DEBIAN_MIRROR');
}
