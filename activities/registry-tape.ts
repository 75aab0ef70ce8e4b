// Registry access at verify time without live egress. When a task's tests/test.sh installs from the
// package registries (pip, uv / uvx, apt, npm, go, a registry-shipped installer), the validator
// rehearses test.sh once per scenario image — a fresh container of the image, no agent output, no
// solution — through the recording proxy (only GETs to the package hosts go out), and every
// verification of that image then runs on a network of its own whose one reachable port is the
// replay proxy: exactly the recorded responses, nothing live behind it, anything else 404 and listed
// in the verifier log. So test.sh runs as published, every verification serves the same bytes, and
// agent code inside the verifier can fetch nothing new and send nothing out.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ActivityDependencies } from './activity-context.ts';
import { registryTapeDir } from '../common/data-layout.ts';
import { configuredDebianMirror } from '../infra/debian-packages.ts';
import { log } from '../common/log.ts';
import { ContainerSession } from '../sandbox/container-session.ts';
import { createRunNetwork } from '../sandbox/run-network.ts';
import { packFiles } from '../sandbox/tar-archive.ts';
import { packageHosts } from '../sandbox/registry-tape/package-hosts.ts';
import { tapeCertificates } from '../sandbox/registry-tape/tape-certificates.ts';
import { hostCaBundle, startTapeProxy, type TapeProxyStats } from '../sandbox/registry-tape/tape-proxy.ts';
import { readTape } from '../sandbox/registry-tape/tape-store.ts';
import {
  rewriteUvInstaller,
  rewriteUvPython,
  tapeToolsDir,
  uvInstallerScript,
  verifyTimeInstalls,
} from '../sandbox/registry-tape/verify-time-installs.ts';
import { runVerifier } from '../verifiers/run-verifier.ts';
import { scenarioContentHash } from '../catalog/scenario-content-hash.ts';

export interface TapeScenario {
  name: string;
  dir: string;
  imageTag: string;
  /** The scenario's content hash (computed when absent). */
  contentHash?: string;
  cpus: number;
  memoryMb: number;
  containerEnv?: string[];
  verifierUser?: string;
  /** Where test.sh runs from (the task's working directory). */
  workdir?: string;
  verifierEnv?: string[];
  verifierTimeoutSec: number;
  testsDeclared?: number;
}

export interface RegistryTapePlan {
  dir: string;
  /** Scripts of tests/ as they run (the uv installer rewritten), by name; absent when unchanged. */
  rewrittenTests?: Record<string, string>;
  notes: string[];
}

/** The rehearsal runs test.sh at most this long, whatever the task's verifier timeout. */
const rehearsalMostSec = 900;
const caBundle = '/etc/ssl/certs/ca-certificates.crt';

/** The shell scripts at the top of tests/ (test.sh, a TB1 task's run-tests.sh), at most 16, each read up to 256 KB. */
async function testScripts(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(path.join(dir, 'tests')).catch(() => [] as string[]))
    .filter((name) => name.endsWith('.sh'))
    .sort()
    .slice(0, 16);
  const scripts: Record<string, string> = {};
  for (const name of names) {
    const text = await readFile(path.join(dir, 'tests', name), 'utf8').catch(() => undefined);
    if (text !== undefined && text.length <= 256 * 1024) scripts[name] = text;
  }
  return scripts;
}

async function tapeNeeded(
  scenario: TapeScenario,
): Promise<{ installs: string[]; rewrittenTests?: Record<string, string>; notes: string[] }> {
  const scripts = await testScripts(scenario.dir);
  const installs = Object.values(scripts).flatMap((script) => verifyTimeInstalls(script));
  if (!installs.length) return { installs, notes: [] };
  const rewrittenTests: Record<string, string> = {};
  const notes: string[] = [];
  for (const [name, script] of Object.entries(scripts)) {
    const rewrite = rewriteUvPython(rewriteUvInstaller(script));
    if (rewrite.script === script) continue;
    rewrittenTests[name] = rewrite.script;
    notes.push(...rewrite.notes.map((note) => note.replace(/^tests\/test\.sh/, `tests/${name}`)));
  }
  return { installs, ...(Object.keys(rewrittenTests).length ? { rewrittenTests } : {}), notes };
}

const rehearsals = new Map<string, Promise<RegistryTapePlan | undefined>>();

/** The scenario's tape, rehearsed now if this image has none; undefined when test.sh installs nothing. */
export async function ensureRegistryTape(
  deps: Pick<ActivityDependencies, 'docker' | 'owner'>,
  scenario: TapeScenario,
  workflowId: string,
): Promise<RegistryTapePlan | undefined> {
  const needed = await tapeNeeded(scenario);
  if (!needed.installs.length) return undefined;
  const image = (await deps.docker.getImage(scenario.imageTag).inspect()) as { Id: string };
  // The tape is of this image, these tests and this way of serving them (the installer, the rewrites).
  const recipe = createHash('sha256')
    .update(scenario.contentHash ?? (await scenarioContentHash(scenario.dir)))
    .update(uvInstallerScript)
    .update(JSON.stringify(needed.rewrittenTests ?? {}))
    .digest('hex');
  const dir = registryTapeDir(image.Id, recipe);
  const plan = (extra: string[]): RegistryTapePlan => ({
    dir,
    ...(needed.rewrittenTests ? { rewrittenTests: needed.rewrittenTests } : {}),
    notes: [...needed.notes, ...extra],
  });
  const existing = await readTape(dir);
  if (existing) return plan([tapeNote(Object.keys(existing.entries).length, existing.refused)]);
  let running = rehearsals.get(dir);
  if (!running) {
    running = rehearse(deps, scenario, workflowId, dir, needed.rewrittenTests).then((stats) =>
      plan([tapeNote(stats.served, stats.refused)]),
    );
    rehearsals.set(dir, running);
    running.finally(() => rehearsals.delete(dir)).catch(() => undefined);
  }
  return running;
}

function tapeNote(responses: number, refused: string[]): string {
  return (
    `tests/test.sh installs at verify time: served from a registry tape (${responses} responses recorded by a rehearsal without agent output)` +
    (refused.length ? `; refused while recording: ${refused.slice(0, 5).join('; ')}` : '')
  );
}

async function rehearse(
  deps: Pick<ActivityDependencies, 'docker' | 'owner'>,
  scenario: TapeScenario,
  workflowId: string,
  dir: string,
  rewrittenTests: Record<string, string> | undefined,
): Promise<TapeProxyStats> {
  const started = performance.now();
  const tape = await openTapeNetwork(deps, 'record', dir, workflowId);
  let stats: TapeProxyStats | undefined;
  try {
    const session = await ContainerSession.start(deps.docker, {
      image: scenario.imageTag,
      role: 'verifier',
      scenario: scenario.name,
      workflowId,
      cpus: scenario.cpus,
      memoryMb: scenario.memoryMb,
      owner: deps.owner,
      networkMode: tape.networkName,
      env: scenario.containerEnv ?? [],
    });
    try {
      await tape.install(session);
      // The score is nothing here (there is no agent output); what test.sh fetched is the tape.
      await runVerifier({
        session,
        scenarioDir: scenario.dir,
        timeoutSec: Math.min(scenario.verifierTimeoutSec, rehearsalMostSec),
        ...(scenario.testsDeclared !== undefined ? { declaredTests: scenario.testsDeclared } : {}),
        ...(scenario.verifierUser ? { user: scenario.verifierUser } : {}),
        ...(scenario.workdir ? { workdir: scenario.workdir } : {}),
        env: { ...envTable(scenario.verifierEnv), ...tape.env },
        ...(rewrittenTests ? { rewrittenTests } : {}),
      }).catch(() => undefined);
    } finally {
      await session.remove();
    }
  } finally {
    stats = await tape.close();
  }
  log.info('registry_tape_recorded', {
    scenario: scenario.name,
    responses: stats.served,
    refused: stats.refused.length,
    seconds: Math.round((performance.now() - started) / 1000),
  });
  return stats;
}

export interface TapeNetwork {
  networkName: string;
  /** The proxy and CA variables test.sh runs with. */
  env: Record<string, string>;
  /** Trusts the tape's CA and places the uv installer (as root, before anything else runs). */
  install(session: ContainerSession): Promise<void>;
  /** Stops the proxy (record: writes the tape) and removes the network. */
  close(): Promise<TapeProxyStats>;
}

/** A run network whose one reachable port is a tape proxy on its bridge address. */
export async function openTapeNetwork(
  deps: Pick<ActivityDependencies, 'docker' | 'owner'>,
  mode: 'record' | 'replay',
  dir: string,
  workflowId: string,
): Promise<TapeNetwork> {
  const hosts = await packageHosts(await configuredDebianMirror().catch(() => undefined));
  const certificates = await tapeCertificates(hosts);
  const network = await createRunNetwork(deps.docker, deps.owner, workflowId);
  let proxy: Awaited<ReturnType<typeof startTapeProxy>>;
  try {
    proxy = await startTapeProxy({
      mode,
      dir,
      hosts,
      certificates,
      bindHost: network.hostAddress,
      ...(mode === 'record' ? { upstreamCa: await hostCaBundle() } : {}),
    });
    await network.allowOnlyPort(proxy.port).catch(async (error: unknown) => {
      await proxy.close();
      throw error;
    });
  } catch (error) {
    await network.remove();
    throw error;
  }
  const env: Record<string, string> = {
    http_proxy: proxy.url,
    https_proxy: proxy.url,
    HTTP_PROXY: proxy.url,
    HTTPS_PROXY: proxy.url,
    no_proxy: 'localhost,127.0.0.1',
    NO_PROXY: 'localhost,127.0.0.1',
    SSL_CERT_FILE: caBundle,
    REQUESTS_CA_BUNDLE: caBundle,
    PIP_CERT: caBundle,
    CURL_CA_BUNDLE: caBundle,
    NODE_EXTRA_CA_CERTS: caBundle,
    npm_config_https_proxy: proxy.url,
    npm_config_proxy: proxy.url,
  };
  let closing: Promise<TapeProxyStats> | undefined;
  return {
    networkName: network.name,
    env,
    async install(session) {
      await session.upload(
        await packFiles([
          { name: `${tapeToolsDir.slice(1)}/install_uv.py`, content: Buffer.from(uvInstallerScript), mode: 0o755 },
          { name: `${tapeToolsDir.slice(1)}/ca.crt`, content: Buffer.from(certificates.caCertificate), mode: 0o644 },
        ]),
        '/',
      );
      const result = await session.exec({
        command: [
          'sh',
          '-c',
          `mkdir -p /etc/ssl/certs /usr/local/share/ca-certificates && cp ${tapeToolsDir}/ca.crt /usr/local/share/ca-certificates/trl-registry-tape.crt && cat ${tapeToolsDir}/ca.crt >> ${caBundle}`,
        ],
        deadlineMs: performance.now() + 30_000,
      });
      if (result.exitCode !== 0)
        throw new Error(`could not add the registry tape's CA: ${result.stderr.slice(0, 300)}`);
    },
    close() {
      // Once: the success path closes it to log the stats, the cleanup path again.
      closing ??= (async () => {
        const stats = proxy.stats();
        await proxy.close().finally(() => network.remove());
        return stats;
      })();
      return closing;
    },
  };
}

export function envTable(entries: string[] | undefined): Record<string, string> {
  return Object.fromEntries(
    (entries ?? []).map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

/** The verifier log's account of the replay: responses served, requests not on the tape. */
export function replayLogLines(stats: TapeProxyStats): string {
  return [
    `[registry tape] ${stats.served} recorded responses served`,
    ...(stats.missed.length ? [`[registry tape] not recorded (404): ${stats.missed.join('; ')}`] : []),
    ...(stats.refused.length ? [`[registry tape] refused: ${stats.refused.join('; ')}`] : []),
  ].join('\n');
}
