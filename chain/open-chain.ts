// Opens the configured chain: the local file chain (creating subnet and validator on first use)
// or Subtensor through @polkadot/api. Only workers and commands call this.
import type { ChainClient } from './chain-client.ts';
import type { ChainConfig } from './chain-config.ts';
import { LocalChain } from './local/local-chain.ts';
import { addressFromUri } from './local/dev-keys.ts';

/** Stake the local validator starts with: enough for a permit, shown in the consensus preview. */
const localValidatorStakeTao = 1000;

export async function openLocalChain(
  config: ChainConfig,
  signerUri = config.TRL_LOCAL_VALIDATOR_URI,
): Promise<LocalChain> {
  const validator = await addressFromUri(config.TRL_LOCAL_VALIDATOR_URI);
  const chain = new LocalChain({
    file: config.TRL_LOCAL_CHAIN_FILE,
    blockMs: config.TRL_LOCAL_CHAIN_BLOCK_MS,
    signer: await addressFromUri(signerUri),
  });
  await chain.ensureSubnet(config.TRL_NETUID);
  const neurons = (await chain.metagraph(config.TRL_NETUID)).neurons;
  if (!neurons.some((n) => n.hotkey === validator)) {
    await chain.register(config.TRL_NETUID, {
      hotkey: validator,
      stakeTao: localValidatorStakeTao,
      validatorPermit: true,
    });
  }
  return chain;
}

export async function openChain(config: ChainConfig): Promise<ChainClient> {
  if (config.TRL_CHAIN === 'local') return openLocalChain(config);
  const { openSubtensorFromConfig } = await import('./subtensor/open-subtensor.ts');
  return openSubtensorFromConfig(config);
}
