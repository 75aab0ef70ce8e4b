// Opens the Subtensor client from the validator's configuration: endpoint from the config, the
// hotkey from its own variables (never kept in the config), pending reveals under the data dir.
import { pendingRevealsFile } from '../../common/data-layout.ts';
import { loadHotkey } from './hotkey.ts';
import { openSubtensor, type SubtensorClient } from './subtensor-client.ts';

export { pendingRevealsFile };

export async function openSubtensorFromConfig(
  config: { TRL_CHAIN_ENDPOINT?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<SubtensorClient> {
  if (!config.TRL_CHAIN_ENDPOINT) throw new Error('TRL_CHAIN_ENDPOINT is required with TRL_CHAIN=subtensor');
  const signer = await loadHotkey(env);
  return openSubtensor({ endpoint: config.TRL_CHAIN_ENDPOINT, signer, pendingRevealsFile });
}
