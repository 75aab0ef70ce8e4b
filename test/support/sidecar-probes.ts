// What the policy-sidecar suite uses to look into its containers, and the allowlist the examples name.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { repoRoot } from '../../common/data-layout.ts';
import { loadAllowlist, type Allowlist } from '../../gateway/catalog/allowlist.ts';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { listManagedContainers } from '../../sandbox/orphan-cleanup.ts';

/**
 * The allowlist the examples' models are on. The examples and the policy.json check name the
 * season's models (FUSION_MODELS in the SDK); while gateway/catalog still has other ids, catalog
 * entries are renamed to them in catalog order (prices and sim profiles kept). Once the catalog
 * holds the season's names this is the catalog itself.
 */
export async function seasonAllowlist(): Promise<Allowlist> {
  const catalog = loadAllowlist();
  const source = await readFile(path.join(repoRoot, 'policy', 'python', 'trajrl_policy', 'policy_json.py'), 'utf8');
  const season = [...source.match(/FUSION_MODELS = \(([^)]*)\)/)![1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  const ids = new Set(catalog.models.map((m) => m.id));
  const missing = season.filter((id) => !ids.has(id));
  const spare = catalog.models.filter((m) => !season.includes(m.id));
  return {
    ...catalog,
    models: catalog.models.map((m) => (spare.includes(m) && missing.length ? { ...m, id: missing.shift()! } : m)),
  };
}

/** The sidecar container of a run, and a command run in a container as uid 65534. */
export function containerProbes(docker: Docker) {
  async function sidecarOf(workflowId: string): Promise<Docker.Container> {
    const [info] = await listManagedContainers(docker, [
      `${containerLabels.role}=policy-sidecar`,
      `${containerLabels.workflowId}=${workflowId}`,
    ]);
    assert.ok(info, `no sidecar container labelled for ${workflowId}`);
    return docker.getContainer(info.Id);
  }

  /** A command in a container as uid 65534, stdout and stderr as text. */
  async function execIn(container: Docker.Container, command: string[]): Promise<string> {
    const exec = await container.exec({ Cmd: command, User: '65534:65534', AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({ hijack: true, stdin: false });
    const output = new PassThrough();
    const chunks: Buffer[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk));
    docker.modem.demuxStream(stream, output, output);
    await new Promise((resolve) => stream.on('end', resolve));
    return Buffer.concat(chunks).toString('utf8').trim();
  }

  return { sidecarOf, execIn };
}

export const probeScript = (host: string, port: number) =>
  `import socket\ntry:\n  s=socket.create_connection((${JSON.stringify(host)},${port}),timeout=2)\n  print('connected')\nexcept Exception as e:\n  print(type(e).__name__)`;
