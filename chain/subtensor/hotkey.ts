// The validator's (or miner's) signing hotkey: from TRL_CHAIN_HOTKEY_URI (a secret URI or
// mnemonic) or TRL_CHAIN_HOTKEY_FILE (a bittensor wallet hotkey JSON, or a text file holding a
// URI/mnemonic). sr25519, ss58 prefix 42. Error messages name the variable or file and the fix;
// they never repeat the secret, nor pass on a library message that might.
import { readFile } from 'node:fs/promises';
import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { z } from 'zod';
import { settingsShape } from '../../common/settings/setting.ts';
import { chainSettings } from '../../common/settings/chain-settings.ts';

export const hotkeyUriVariable = 'TRL_CHAIN_HOTKEY_URI' as const;
export const hotkeyFileVariable = 'TRL_CHAIN_HOTKEY_FILE' as const;

export class HotkeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HotkeyError';
  }
}

const hotkeyEnvironmentSchema = z.object(settingsShape(chainSettings, [hotkeyUriVariable, hotkeyFileVariable]));

/** The bittensor wallet's hotkey file (`~/.bittensor/wallets/<wallet>/hotkeys/<name>`), unencrypted. */
const walletHotkeyFileSchema = z
  .object({
    secretPhrase: z.string().trim().min(1).optional(),
    secretSeed: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/)
      .optional(),
    ss58Address: z.string().optional(),
  })
  .refine((file) => file.secretPhrase !== undefined || file.secretSeed !== undefined);

/** Where a key came from, for messages: never the key itself. */
type KeySource = { variable: string; file?: string };

function describe(source: KeySource): string {
  return source.file ? `the key file ${source.file} (${source.variable})` : `${source.variable}`;
}

function pairFromSecret(secret: string, source: KeySource): KeyringPair {
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  try {
    return keyring.addFromUri(secret);
  } catch {
    throw new HotkeyError(
      `${describe(source)} does not hold a valid secret URI, mnemonic or 0x seed; check the value (it is not shown here)`,
    );
  }
}

function secretFromFileText(text: string, source: KeySource): { secret: string; expectedAddress?: string } {
  const trimmed = text.trim();
  if (trimmed.length === 0)
    throw new HotkeyError(`${describe(source)} is empty; put the hotkey's mnemonic or wallet JSON in it`);
  if (!trimmed.startsWith('{')) {
    if (/^\$(NACL|BT)/.test(trimmed))
      throw new HotkeyError(
        `${describe(source)} is encrypted; use an unencrypted hotkey file (bittensor hotkeys are unencrypted by default)`,
      );
    return { secret: trimmed };
  }
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    throw new HotkeyError(
      `${describe(source)} starts like JSON but does not parse; expected {"secretPhrase": …} or {"secretSeed": "0x…"}`,
    );
  }
  const parsed = walletHotkeyFileSchema.safeParse(json);
  if (!parsed.success)
    throw new HotkeyError(
      `${describe(source)} has neither a "secretPhrase" string nor a "secretSeed" of 0x + 64 hex digits`,
    );
  return { secret: parsed.data.secretPhrase ?? parsed.data.secretSeed!, expectedAddress: parsed.data.ss58Address };
}

/** Loads the hotkey named by the environment; undefined when neither variable is set. */
export async function loadHotkey(env: NodeJS.ProcessEnv = process.env): Promise<KeyringPair | undefined> {
  const parsed = hotkeyEnvironmentSchema.safeParse(env);
  if (!parsed.success)
    throw new HotkeyError(`${hotkeyUriVariable} / ${hotkeyFileVariable} must be non-empty strings when set`);
  const uri = parsed.data[hotkeyUriVariable];
  const file = parsed.data[hotkeyFileVariable];
  if (uri && file) throw new HotkeyError(`set only one of ${hotkeyUriVariable} and ${hotkeyFileVariable}`);
  if (!uri && !file) return undefined;
  await cryptoWaitReady();
  if (uri) return pairFromSecret(uri, { variable: hotkeyUriVariable });

  const source = { variable: hotkeyFileVariable, file: file! };
  let text: string;
  try {
    text = await readFile(file!, 'utf8');
  } catch (error) {
    throw new HotkeyError(
      `cannot read ${describe(source)}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}; check the path and its permissions`,
    );
  }
  const { secret, expectedAddress } = secretFromFileText(text, source);
  const pair = pairFromSecret(secret, source);
  if (expectedAddress && expectedAddress !== pair.address) {
    throw new HotkeyError(
      `${describe(source)} says ss58Address ${expectedAddress} but its secret derives ${pair.address}; the file is inconsistent or not an sr25519 key`,
    );
  }
  return pair;
}

/** As `loadHotkey`, for commands that cannot run without a key. */
export async function requireHotkey(env: NodeJS.ProcessEnv = process.env): Promise<KeyringPair> {
  const pair = await loadHotkey(env);
  if (!pair)
    throw new HotkeyError(
      `no signing key: set ${hotkeyUriVariable} to the hotkey's mnemonic or secret URI, or ${hotkeyFileVariable} to its wallet file`,
    );
  return pair;
}
