// A scenario's declared test count for scoring (the scale of a reward, the total when zero are
// collected): pytest's collection inside the scenario image, cached by content hash and image id.
import type Docker from 'dockerode';
import type { WorkerIdentity } from '../sandbox/worker-identity.ts';
import { collectTestsInContainer, type CollectedTests } from './collect-tests.ts';
import { readCachedTestCount, writeCachedTestCount } from './test-count-cache.ts';

export async function scenarioTestCount(request: {
  docker: Docker;
  imageTag: string;
  /** The image's id when the caller already inspected it. */
  imageId?: string;
  scenario: { name: string; dir: string };
  contentHash: string;
  owner: WorkerIdentity;
  workflowId: string;
  env?: string[];
  onTick?: () => void;
}): Promise<CollectedTests & { cached: boolean }> {
  const imageId = request.imageId ?? (await request.docker.getImage(request.imageTag).inspect()).Id;
  const cached = await readCachedTestCount(request.contentHash, imageId);
  if (cached) return { count: cached.count, source: cached.source, notes: cached.notes, wallMs: 0, cached: true };
  const collected = await collectTestsInContainer(request);
  await writeCachedTestCount(request.contentHash, imageId, collected);
  return { ...collected, cached: false };
}
