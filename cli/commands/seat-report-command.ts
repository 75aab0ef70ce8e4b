// `trl seat --report [--decision N] [--out FILE]`: a seat decision's evidence page from its decision
// file under the data directory (no Temporal needed), written beside it by default.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readChainConfig } from '../../chain/chain-config.ts';
import { seatDecisionReportFile, seatDir } from '../../common/data-layout.ts';
import { decisionFileSchema, renderSeatReport, type DecisionFile } from '../report/seat-report.ts';
import { UsageError } from '../usage-error.ts';

const decisionFileName = /^decision-(\d+)-([0-9a-f]+)\.json$/;

/** The decision files of a subnet, by number. */
export async function decisionFiles(netuid: number): Promise<{ number: number; file: string }[]> {
  const dir = seatDir(netuid);
  if (!existsSync(dir)) return [];
  return (await readdir(dir))
    .map((name) => ({ name, match: decisionFileName.exec(name) }))
    .filter((entry) => entry.match)
    .map((entry) => ({ number: Number(entry.match![1]), file: path.join(dir, entry.name) }))
    .sort((a, b) => a.number - b.number);
}

export async function seatReportCommand(options: {
  decision?: number;
  out?: string;
  netuid?: number;
}): Promise<number> {
  const netuid = options.netuid ?? readChainConfig().TRL_NETUID;
  const files = await decisionFiles(netuid);
  if (!files.length)
    throw new UsageError(`no seat decisions on subnet ${netuid} in ${seatDir(netuid)}; \`trl seat\` shows the seat`);
  const chosen = options.decision === undefined ? files.at(-1)! : files.find((f) => f.number === options.decision);
  if (!chosen)
    throw new UsageError(
      `no decision #${options.decision} on subnet ${netuid}; there are #${files[0]!.number} to #${files.at(-1)!.number}`,
    );
  const parsed = decisionFileSchema.safeParse(JSON.parse(await readFile(chosen.file, 'utf8')));
  if (!parsed.success)
    throw new UsageError(
      `${chosen.file} is not a decision file this version reads: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const decision = parsed.data as unknown as DecisionFile;
  const html = renderSeatReport(decision, new Date().toISOString());
  const file = options.out ?? seatDecisionReportFile(netuid, decision.record.number, decision.challenge.packHash);
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await writeFile(file, html);
  process.stdout.write(`${file}\n`);
  return 0;
}
