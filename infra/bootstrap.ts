// Everything the embedded default needs on a fresh machine of this kind, idempotent and quiet when done.
import type Docker from 'dockerode';
import { ensureDockerEngine } from './docker-engine.ts';
import { ensureBaseImage } from './base-image.ts';
import { ensurePolicySandboxImage } from './policy-sandbox-image.ts';
import { ensurePolicySidecarImage } from './policy-sidecar-image.ts';
import {
  ensureTemporalServer,
  registerSearchAttributes,
  setClosedRunRetention,
  type TemporalEndpoint,
} from './temporal-server.ts';
import { ensureDebianPackages } from './debian-packages.ts';
import { ensureMotoServer } from './s3-test-server.ts';

/** The host's Python for policy.py / policy.json packs run outside a container (the SDK tests). */
export const hostPolicyPythonPackages = ['python3-aiohttp', 'python3-httpx'];

export interface BootstrapResult {
  temporal: TemporalEndpoint;
  baseImage: string;
  policyImage: string;
  /** The image Python (policy.py) and data (policy.json) packs run in, one container per scenario. */
  sidecarImage: string;
}

export async function bootstrap(docker: Docker): Promise<BootstrapResult> {
  // Temporal's download and start share nothing with Docker and the images, so on a fresh machine
  // they overlap (both mostly wait on the network); when everything is there each is quick.
  const [temporal, images] = await Promise.all([ensureTemporalServer(), ensureSandboxImages(docker)]);
  return { temporal, ...images };
}

async function ensureSandboxImages(docker: Docker): Promise<Omit<BootstrapResult, 'temporal'>> {
  await ensureDockerEngine(docker);
  const [baseImage] = await Promise.all([ensureBaseImage(docker), ensureDebianPackages(hostPolicyPythonPackages)]);
  // Both policy images stand on the base and not on each other.
  const [policyImage, sidecarImage] = await Promise.all([
    ensurePolicySandboxImage(docker, baseImage),
    ensurePolicySidecarImage(docker, baseImage),
  ]);
  return { baseImage, policyImage, sidecarImage };
}

/** The suite's closed runs are kept a day, the least Temporal allows, not the 30 days of a namespace created for real
 * runs: a full `trl test` closes some 210 workflows, about 15 MB of the embedded server's SQLite file each time. */
const testRunRetentionSeconds = 24 * 3600;

/** `trl test`: the embedded default plus the test-only servers (moto's S3 server for the blob store's contract tests),
 * and the suite's own Temporal namespace (created with its search attributes), which its files are given in place of
 * the user's. */
export async function bootstrapForTests(docker: Docker, namespace: string): Promise<BootstrapResult> {
  const result = await bootstrap(docker);
  const temporal = { ...result.temporal, namespace };
  await Promise.all([
    registerSearchAttributes(temporal).then(() => setClosedRunRetention(temporal, testRunRetentionSeconds)),
    ensureMotoServer(),
  ]);
  return { ...result, temporal };
}
