// Submitting a pack: its canonical form goes into the content-addressed pack store (where
// fetchPack finds it by hash), and `"{hash}|{url}"` is committed on chain for the signer.
import { readLocalPack } from '../../packs/read-pack.ts';
import { canonicalJson, packHash } from '../../packs/canonical-pack.ts';
import { checkPackFormat } from '../../packs/pack-format.ts';
import { PackError } from '../../packs/pack-error.ts';
import { packFile } from '../../common/data-layout.ts';
import { writeArtifact } from '../../common/write-artifact.ts';
import { formatPackCommitment, parsePackCommitment } from '../../chain/pack-commitment.ts';
import type { ChainClient, CommitmentReceipt } from '../../chain/chain-client.ts';

/**
 * The URL committed for packs submitted to the local chain: `.invalid` never resolves, which is
 * right — the pack is found in the store by its hash and never downloaded.
 */
export const localPackUrl = 'https://packs.trl.invalid/local';

export interface PreparedSubmission {
  packHash: string;
  text: string;
  storedAt: string;
}

/** Reads, checks and stores the pack, and builds its commitment text. */
export async function preparePackSubmission(dir: string, url: string): Promise<PreparedSubmission> {
  const pack = await readLocalPack(dir);
  const problems = checkPackFormat(pack);
  if (problems.length) throw new PackError('pack_invalid', problems.map((p) => `[${p.code}] ${p.message}`).join('; '));
  const hash = packHash(pack);
  const text = formatPackCommitment(hash, url);
  const parsed = parsePackCommitment(text);
  if (!parsed.ok)
    throw new PackError('pack_invalid', `the commitment would be refused by validators: ${parsed.reason}`);
  const stored = await writeArtifact(packFile(hash), canonicalJson(pack));
  return { packHash: hash, text, storedAt: stored.path };
}

export async function commitPack(
  chain: ChainClient,
  netuid: number,
  prepared: PreparedSubmission,
): Promise<CommitmentReceipt> {
  return chain.setCommitment(netuid, prepared.text);
}
