// `trl serve`: a pack's policy (a directory or JSON file, a stored pack's hash, or the seated pack)
// as the OpenAI model `auto` on 127.0.0.1, each conversation on its own policy instance in its real
// sandbox behind a metered gateway; the upstream is TRL_UPSTREAM_* or else the sim fleet.
// `trl serve keys add|list|revoke` manages the API keys it then requires.
import { readFile } from 'node:fs/promises';
import { WorkflowNotFoundError } from '@temporalio/client';
import { createDockerClient } from '../../sandbox/docker-client.ts';
import { bootstrap } from '../../infra/bootstrap.ts';
import { packFile, serveCallLogFile, serveKeysFile, serveShadowLogFile } from '../../common/data-layout.ts';
import { followSeat } from '../../serving/seat-follower.ts';
import { renderShadowSummary, type ScenarioScore } from '../serve-shadow-view.ts';
import { listRuns } from './runs-command.ts';
import { connectTemporal } from '../temporal-connection.ts';
import { log } from '../../common/log.ts';
import { canonicalPackSchema, packHash, type CanonicalPack } from '../../packs/canonical-pack.ts';
import { readLocalPack } from '../../packs/read-pack.ts';
import { readChainConfig } from '../../chain/chain-config.ts';
import { seatWorkflowId } from '../../contracts/temporal-names.ts';
import { seatQuery } from '../../contracts/seat-signals.ts';
import { readWorkerConfig } from '../../workers/worker-config.ts';
import { startModelUpstream } from '../../workers/model-upstream.ts';
import { startServing } from '../../workers/serve-policy.ts';
import type { ServeSettings } from '../../workers/serve-settings.ts';
import { addApiKey, readApiKeys, revokeApiKey } from '../../serving/api-keys.ts';
import { createKeyGate } from '../../serving/key-gate.ts';
import { renderTable } from '../render-table.ts';
import { UsageError } from '../usage-error.ts';

export interface ServeOptions {
  pack?: string;
  seated: boolean;
  seatPollSec: number;
  shadow?: { pack: string; sampleRate: number; capUsd: number };
  settings: ServeSettings;
}

/** The seat's pack hash, or undefined when the seat is empty or has no workflow yet. */
async function currentSeatHash(): Promise<string | undefined> {
  return seatedPackHash().catch((error: unknown) => {
    if (error instanceof UsageError) return undefined;
    throw error;
  });
}

async function seatedPackHash(): Promise<string> {
  const config = readChainConfig();
  const { client, connection } = await connectTemporal();
  try {
    const view = await client.workflow.getHandle(seatWorkflowId(config.TRL_NETUID)).query(seatQuery);
    if (!view.incumbent)
      throw new UsageError(`the seat of subnet ${config.TRL_NETUID} is empty: serve a pack with --pack DIR|HASH`);
    return view.incumbent.packHash;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError)
      throw new UsageError(`no seat yet on subnet ${config.TRL_NETUID}; the first cycle of \`trl up\` creates it`);
    throw error;
  } finally {
    await connection.close();
  }
}

/** Each pack's newest finished evaluation, beside the shadow table; none when Temporal is not there. */
async function latestScenarioScores(packs: {
  live: string;
  shadow: string;
}): Promise<{ live?: ScenarioScore; shadow?: ScenarioScore }> {
  try {
    const { client, connection } = await connectTemporal();
    try {
      const latest = async (pack: string): Promise<ScenarioScore | undefined> => {
        const row = (await listRuns(client, { pack, limit: 20, json: false })).find(
          (run) => run.testsTotal !== undefined,
        );
        return row
          ? { testsPassed: row.testsPassed ?? 0, testsTotal: row.testsTotal!, workflowId: row.workflowId }
          : undefined;
      };
      return { live: await latest(packs.live), shadow: await latest(packs.shadow) };
    } finally {
      await connection.close();
    }
  } catch {
    return {};
  }
}

async function storedPack(hash: string): Promise<CanonicalPack> {
  let text: string;
  try {
    text = await readFile(packFile(hash), 'utf8');
  } catch {
    throw new UsageError(`no stored pack ${hash} (packs are stored when submitted or evaluated)`);
  }
  const pack = canonicalPackSchema.parse(JSON.parse(text));
  if (packHash(pack) !== hash) throw new UsageError(`the stored pack ${hash} does not match its hash`);
  return pack;
}

function packNamed(pack: string): Promise<CanonicalPack> {
  return /^[0-9a-f]{64}$/.test(pack) ? storedPack(pack) : readLocalPack(pack);
}

async function packToServe(options: ServeOptions): Promise<CanonicalPack> {
  if (options.seated === (options.pack !== undefined))
    throw new UsageError('trl serve needs exactly one of --pack DIR|FILE|HASH and --seated');
  if (options.seated) return storedPack(await seatedPackHash());
  return packNamed(options.pack!);
}

export async function serveCommand(options: ServeOptions): Promise<number> {
  const pack = await packToServe(options);
  const shadowPack = options.shadow ? await packNamed(options.shadow.pack) : undefined;
  const config = readWorkerConfig();
  const keys = (await readApiKeys(serveKeysFile)).filter((key) => !key.revoked);
  const gate = keys.length ? await createKeyGate(keys, serveCallLogFile) : undefined;
  const docker = createDockerClient();
  process.stdout.write('trl serve: checking the sandbox images…\n');
  const stack = await bootstrap(docker);
  const upstream = await startModelUpstream(config);
  const serving = await startServing({
    pack,
    docker,
    policyImage: stack.policyImage,
    sidecarImage: stack.sidecarImage,
    upstream: upstream.client,
    settings: options.settings,
    gate,
    ...(options.shadow && shadowPack
      ? { shadow: { pack: shadowPack, sampleRate: options.shadow.sampleRate, capUsd: options.shadow.capUsd } }
      : {}),
  });
  // --seated follows the seat: a new incumbent takes new conversations, open ones drain on the old.
  const follower = options.seated
    ? followSeat({
        initialHash: packHash(pack),
        intervalMs: options.seatPollSec * 1000,
        readSeatHash: currentSeatHash,
        onChange: async (hash) => {
          await serving.switchPack(await storedPack(hash));
          process.stdout.write(
            `trl serve: the seat changed hands: new conversations go to ${hash}; open ones finish on the old policy (up to ${options.settings.drainSec}s)\n`,
          );
        },
        onError: (error) => log.warn('serve_seat_poll_failed', { error: error.message }),
      })
    : undefined;
  const { settings } = options;
  process.stdout.write(
    `trl serve: pack ${packHash(pack)} as model "auto" at ${serving.server.url}\n` +
      `  upstream ${upstream.description}\n` +
      `  up to ${serving.maxInstances} policy instances, idle ones stopped after ${settings.idleSec}s, $${settings.instanceCapUsd} cap per instance\n` +
      `  ${gate ? `${keys.length} API key(s) required (${serveKeysFile})` : 'no API keys configured: every local client is served (add one with `trl serve keys add LABEL`)'}\n` +
      (serving.shadow
        ? `  shadow: ${serving.shadow.summary().shadowPack} mirrors ${(options.shadow!.sampleRate * 100).toFixed(0)}% of conversations, up to $${options.shadow!.capUsd}\n`
        : '') +
      (options.seated
        ? `  following the seat every ${options.seatPollSec}s; open conversations drain ${options.settings.drainSec}s on a change\n`
        : '') +
      `  records under .data/serve/instances/${serving.runId}/; Ctrl-C stops\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  process.stdout.write('trl serve: stopping the policy instances…\n');
  follower?.stop();
  await serving.close();
  if (serving.shadow) {
    const summary = serving.shadow.summary();
    const scores = await latestScenarioScores({ live: serving.router.current.packHash, shadow: summary.shadowPack });
    process.stdout.write(
      renderShadowSummary(summary, scores) + `\n  every mirrored request: ${serveShadowLogFile(serving.runId)}\n`,
    );
  }
  await upstream.close();
  return 0;
}

export async function serveKeysCommand(args: {
  action: string | undefined;
  arg?: string;
  spendLimitUsd?: number;
  requestsPerMinute?: number;
  json: boolean;
}): Promise<number> {
  switch (args.action) {
    case 'add': {
      if (!args.arg) throw new UsageError('trl serve keys add needs a LABEL');
      const { key, secret } = await addApiKey(serveKeysFile, {
        label: args.arg,
        spendLimitUsd: args.spendLimitUsd,
        requestsPerMinute: args.requestsPerMinute,
      });
      process.stdout.write(
        args.json
          ? JSON.stringify({ ...key, key: secret }) + '\n'
          : `key ${key.id} (${key.label}): ${secret}\nkeep it now: only its sha256 is stored\n`,
      );
      return 0;
    }
    case 'list': {
      const keys = await readApiKeys(serveKeysFile);
      const gate = await createKeyGate(keys, serveCallLogFile);
      const rows = keys.map((key) => ({ ...key, spentUsd: key.revoked ? undefined : gate.spentUsd(key.id) }));
      if (args.json)
        process.stdout.write(
          JSON.stringify(
            rows.map(({ sha256: _hash, ...row }) => row),
            null,
            2,
          ) + '\n',
        );
      else
        process.stdout.write(
          renderTable<(typeof rows)[number]>(
            [
              { header: 'id', value: (r) => r.id },
              { header: 'label', value: (r) => r.label },
              { header: 'created', value: (r) => r.createdAt.replace(/\.\d+Z$/, 'Z') },
              {
                header: 'spent $',
                value: (r) => (r.spentUsd === undefined ? 'revoked' : r.spentUsd.toFixed(4)),
                align: 'right',
              },
              { header: 'limit $', value: (r) => r.spendLimitUsd ?? '—', align: 'right' },
              { header: 'req/min', value: (r) => r.requestsPerMinute ?? '—', align: 'right' },
            ],
            rows,
          ) + '\n',
        );
      return 0;
    }
    case 'revoke': {
      if (!args.arg) throw new UsageError('trl serve keys revoke needs a key id (see trl serve keys list)');
      if (!(await revokeApiKey(serveKeysFile, args.arg))) throw new UsageError(`no key ${args.arg}`);
      process.stdout.write(`key ${args.arg} revoked (a running trl serve reads keys at start: restart it)\n`);
      return 0;
    }
    default:
      throw new UsageError(
        'trl serve keys add LABEL [--spend-limit-usd X] [--requests-per-minute N] | list | revoke ID',
      );
  }
}
