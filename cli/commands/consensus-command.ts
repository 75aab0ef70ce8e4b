// `trl consensus`: from every validator's weights and stake, the Yuma consensus the chain will
// compute — whom it will pay, and how much of each validator's weight survives clipping.
import { readChainConfig } from '../../chain/chain-config.ts';
import { openChain } from '../../chain/open-chain.ts';
import { previewYumaConsensus, type ValidatorAgreement } from '../../chain/yuma-consensus.ts';
import { renderTable } from '../render-table.ts';
import { formatPercent, formatTao, shortHotkey } from '../chain-view.ts';

export async function consensusCommand(options: { json: boolean }): Promise<number> {
  const config = readChainConfig();
  const chain = await openChain(config);
  try {
    const netuid = config.TRL_NETUID;
    const [metagraph, weights, settings] = await Promise.all([
      chain.metagraph(netuid),
      chain.weights(netuid),
      chain.weightSettings(netuid),
    ]);
    const preview = previewYumaConsensus({ validators: metagraph.neurons, weights, kappa: settings.kappa });
    if (options.json) {
      process.stdout.write(JSON.stringify({ netuid, block: metagraph.block, ...preview }, null, 2) + '\n');
      return 0;
    }
    const hotkeyOf = new Map(metagraph.neurons.map((n) => [n.uid, n.hotkey]));
    const stakeOf = new Map(metagraph.neurons.map((n) => [n.uid, n.stakeTao]));
    const out: string[] = [
      `subnet ${netuid} at block ${metagraph.block} (${chain.kind} chain), κ = ${preview.kappa}`,
      '',
    ];
    out.push(
      renderTable<ValidatorAgreement>(
        [
          { header: 'validator', value: (v) => v.uid, align: 'right' },
          { header: 'hotkey', value: (v) => shortHotkey(v.hotkey) },
          { header: 'stake τ', value: (v) => formatTao(stakeOf.get(v.uid) ?? 0), align: 'right' },
          { header: 'share', value: (v) => formatPercent(v.stakeShare), align: 'right' },
          {
            header: 'weights',
            value: (v) => v.weights.map((w) => `uid ${w.uid} ${formatPercent(w.weight)}`).join(', ') || '—',
          },
          {
            header: 'agreement',
            value: (v) => (v.voting ? formatPercent(v.agreement) : (v.excludedBecause ?? 'not voting')),
          },
        ],
        preview.validators.filter((v) => v.voting || v.weights.length > 0 || (stakeOf.get(v.uid) ?? 0) > 0),
      ),
    );
    out.push('');
    if (preview.payees.length === 0) out.push('the chain would pay no miner: no weights survive consensus');
    else {
      out.push(
        renderTable(
          [
            { header: 'miner', value: (p: { uid: number; incentive: number }) => p.uid, align: 'right' },
            { header: 'hotkey', value: (p) => shortHotkey(hotkeyOf.get(p.uid) ?? '?') },
            { header: 'incentive', value: (p) => formatPercent(p.incentive), align: 'right' },
          ],
          preview.payees,
        ),
      );
    }
    for (const ignored of preview.ignoredRows)
      out.push(`ignored weights of uid ${ignored.validatorUid}: ${ignored.reason}`);
    process.stdout.write(out.join('\n') + '\n');
    return 0;
  } finally {
    await chain.close();
  }
}
