// Addresses for the local chain from secret URIs (`//Name`), the same sr25519 / ss58-42 keys
// Subtensor uses, so a local run looks like the real thing in every table.
// The key libraries are loaded on first use: they cost every process that imports the chain about
// half a second of CPU (their WebAssembly crypto), and most of those never derive a key.

export async function addressFromUri(uri: string): Promise<string> {
  const [{ Keyring }, { cryptoWaitReady }] = await Promise.all([
    import('@polkadot/keyring'),
    import('@polkadot/util-crypto'),
  ]);
  await cryptoWaitReady();
  return new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri(uri).address;
}
