// The pack commitments of a subnet, read from the Commitments pallet at one block: each hotkey's
// entry decoded (commitment-fields.ts); an empty or undecodable entry is skipped with its reason,
// never fatal. A runtime without the pallet reads as undefined (the client names the error).
import type { PackCommitment, SkippedCommitment } from '../chain-client.ts';
import { storageItem, type BlockView } from './chain-view.ts';
import { commitmentEntryFromCodec, decodeCommitmentEntry } from './commitment-fields.ts';

export async function readCommitments(
  view: BlockView,
  netuid: number,
): Promise<{ commitments: PackCommitment[]; skipped: SkippedCommitment[] } | undefined> {
  const commitmentOf = storageItem(view, 'commitments', 'commitmentOf');
  if (!commitmentOf) return undefined;
  const commitments: PackCommitment[] = [];
  const skipped: SkippedCommitment[] = [];
  for (const [key, value] of await commitmentOf.entries(netuid)) {
    const hotkey = key.args[1]!.toString();
    const option = value as unknown as { isSome?: boolean; unwrap?: () => unknown };
    const registration = option.isSome === undefined ? value : option.isSome ? option.unwrap!() : undefined;
    if (registration === undefined) {
      skipped.push({ hotkey, reason: 'the commitment is empty', raw: '' });
      continue;
    }
    let decoded;
    try {
      decoded = decodeCommitmentEntry(commitmentEntryFromCodec(hotkey, registration));
    } catch (error) {
      skipped.push({ hotkey, reason: `the commitment does not decode: ${(error as Error).message}`, raw: '' });
      continue;
    }
    if (decoded.ok) commitments.push(decoded.commitment);
    else skipped.push(decoded.skipped);
  }
  return { commitments, skipped };
}
