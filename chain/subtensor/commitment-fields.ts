// The Commitments pallet's `Data` field, both ways. Its metadata enum has one variant per raw
// length (`Raw0` … `Raw128`, variant index = length + 1), not the `Raw(Bytes)` of
// pallet_identity, so the variant name is built from the byte length.
import { ChainError } from '../chain-error.ts';
import type { PackCommitment, SkippedCommitment } from '../chain-client.ts';
import { displayRaw, parsePackCommitment } from '../pack-commitment.ts';

export const maxRawCommitmentBytes = 128;

/** The `info` argument of `Commitments.set_commitment` with field 0 = the text. */
export function commitmentInfo(text: string): { fields: Array<Record<string, Uint8Array>> } {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > maxRawCommitmentBytes) {
    throw new ChainError(
      'preflight',
      'commitment_too_long',
      `the commitment is ${bytes.length} bytes; a Raw commitment field holds at most ${maxRawCommitmentBytes} (shorten the URL)`,
    );
  }
  return { fields: [{ [`Raw${bytes.length}`]: bytes }] };
}

/** One field as read from storage: the enum variant name and its bytes. */
export interface CommitmentField {
  variant: string;
  bytes: Uint8Array;
}

export interface CommitmentEntry {
  hotkey: string;
  block: number;
  fields: CommitmentField[];
}

export type DecodedCommitment = { ok: true; commitment: PackCommitment } | { ok: false; skipped: SkippedCommitment };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Field 0 must be Raw utf-8 text in the pack format; anything else is skipped with the reason, never thrown. */
export function decodeCommitmentEntry(entry: CommitmentEntry): DecodedCommitment {
  const skip = (reason: string, raw = ''): DecodedCommitment => ({
    ok: false,
    skipped: { hotkey: entry.hotkey, block: entry.block, reason, raw: displayRaw(raw) },
  });
  const field = entry.fields[0];
  if (!field) return skip('the commitment has no fields');
  if (!/^Raw\d+$/.test(field.variant)) return skip(`field 0 is ${field.variant}, not Raw bytes`);
  let text: string;
  try {
    text = strictUtf8.decode(field.bytes);
  } catch {
    return skip('field 0 is not valid utf-8', Buffer.from(field.bytes).toString('latin1'));
  }
  const parsed = parsePackCommitment(text);
  if (!parsed.ok) return skip(parsed.reason, text);
  return {
    ok: true,
    commitment: { hotkey: entry.hotkey, packHash: parsed.packHash, url: parsed.url, block: entry.block },
  };
}

/**
 * Reads the codec of a `Registration { deposit, block, info: { fields } }` into a plain entry.
 * Typed loosely on purpose: the shape comes from runtime metadata, not from augmented types.
 */
export function commitmentEntryFromCodec(hotkey: string, registration: unknown): CommitmentEntry {
  const value = registration as {
    block: { toNumber(): number };
    info: { fields: Array<{ type: string; value: { toU8a(bare?: boolean): Uint8Array } }> };
  };
  return {
    hotkey,
    block: value.block.toNumber(),
    fields: Array.from(value.info.fields, (field) => ({ variant: field.type, bytes: field.value.toU8a(true) })),
  };
}
