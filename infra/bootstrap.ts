// Everything the embedded default needs on a fresh machine of this kind, idempotent and quiet when done.
import type Docker from 'dockerode';
import { ensureDockerEngine } from './docker-engine.ts';
import { ensureBaseImage } from './base-image.ts';
import { ensurePolicySandboxImage } from './policy-sandbox-image.ts';
import { ensurePolicySidecarImage } from './policy-sidecar-image.ts';
import { ensureTemporalServer, type TemporalEndpoint } from './temporal-server.ts';
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
  // Temporal first: its download and start overlap nothing else, and it is quick when done.
  const temporal = await ensureTemporalServer();
  await ensureDockerEngine(docker);
  await ensureDebianPackages(hostPolicyPythonPackages);
  const baseImage = await ensureBaseImage(docker);
  const policyImage = await ensurePolicySandboxImage(docker, baseImage);
  const sidecarImage = await ensurePolicySidecarImage(docker, baseImage);
  return { temporal, baseImage, policyImage, sidecarImage };
}

/** `trl test`: the embedded default plus the test-only servers (moto's S3 server for the blob store's contract tests). */
export async function bootstrapForTests(docker: Docker): Promise<BootstrapResult> {
  const result = await bootstrap(docker);
  await ensureMotoServer();
  return result;
}
