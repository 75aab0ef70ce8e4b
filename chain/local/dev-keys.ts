// Addresses for the local chain from secret URIs (`//Name`), the same sr25519 / ss58-42 keys
// Subtensor uses, so a local run looks like the real thing in every table.
import { Keyring } from '@polkadot/keyring';
import { cryptoWaitReady } from '@polkadot/util-crypto';

export async function addressFromUri(uri: string): Promise<string> {
  await cryptoWaitReady();
  return new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri(uri).address;
}
