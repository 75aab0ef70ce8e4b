// `trl submit <pack>`: on the local chain, store the pack and commit `"{hash}|{url}"` for a miner
// hotkey (registering it there if needed); for Subtensor, print the commitment to make.
import path from 'node:path';
import { readChainConfig } from '../../chain/chain-config.ts';
import { openLocalChain } from '../../chain/open-chain.ts';
import { localPackUrl, preparePackSubmission } from '../client/submit-pack.ts';
import { parsePackCommitment } from '../../chain/pack-commitment.ts';
import { UsageError } from '../usage-error.ts';

/** The miner key used on the local chain when none is given: a dev URI, fine offline only. */
export const defaultLocalMinerUri = '//TrlMiner';

export async function submitCommand(options: {
  pack: string;
  hotkey?: string;
  url?: string;
  json: boolean;
}): Promise<number> {
  const config = readChainConfig();
  const print = (lines: Record<string, string | number>) => {
    if (options.json) process.stdout.write(JSON.stringify(lines, null, 2) + '\n');
    else for (const [key, value] of Object.entries(lines)) process.stdout.write(`${key.padEnd(12)} ${value}\n`);
  };

  if (config.TRL_CHAIN === 'subtensor') {
    if (!options.url)
      throw new UsageError(
        'on Subtensor the commitment needs --url https://… where validators can download the pack (its canonical JSON from `trl pack <dir> --out FILE`)',
      );
    const prepared = await preparePackSubmission(path.resolve(options.pack), options.url);
    print({
      pack: prepared.packHash,
      commitment: prepared.text,
      netuid: config.TRL_NETUID,
      next: `commit field 0 = the commitment with Commitments.set_commitment on subnet ${config.TRL_NETUID}, signed by your miner hotkey`,
    });
    return 0;
  }

  const url = options.url ?? localPackUrl;
  const checked = parsePackCommitment(`${'0'.repeat(64)}|${url}`);
  if (!checked.ok) throw new UsageError(`--url: ${checked.reason}`);
  const uri = options.hotkey ?? defaultLocalMinerUri;
  if (!uri.startsWith('//'))
    throw new UsageError(
      '--hotkey takes a dev URI such as //Alice on the local chain (secrets never go on the command line)',
    );
  const prepared = await preparePackSubmission(path.resolve(options.pack), url);
  const chain = await openLocalChain(config, uri);
  const signer = chain.signer!;
  const uid = await chain.register(config.TRL_NETUID, { hotkey: signer });
  const receipt = await chain.setCommitment(config.TRL_NETUID, prepared.text);
  print({
    pack: prepared.packHash,
    hotkey: signer,
    uid,
    block: receipt.block,
    commitment: receipt.text,
    chain: chain.file,
    next: `the seat takes it at the next cycle (every ${config.TRL_CYCLE_INTERVAL_SEC} s while \`trl up\` runs); watch it with \`trl seat\``,
  });
  return 0;
}
