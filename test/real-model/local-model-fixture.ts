// One local model server per test file (test/real-model/ runs a file at a time): llama-server with
// the chosen GGUF on loopback, and a gateway in front of it as the worker builds one.
import { after, before } from 'node:test';
import { localModelSettings } from '../../common/settings/local-model-settings.ts';
import { readSetting } from '../../common/settings/setting.ts';
import { CallLog } from '../../gateway/call-log.ts';
import { defaultAllowlistFile, loadAllowlist } from '../../gateway/catalog/allowlist.ts';
import { ModelGateway } from '../../gateway/model-gateway.ts';
import { HttpChatUpstream } from '../../gateway/upstream/http-chat-upstream.ts';
import { startLocalModel, type LocalModelServer } from '../../infra/local-model/local-model-server.ts';

export const allowlist = loadAllowlist(defaultAllowlistFile);

/** Starts the server before the file's tests and stops it after them. */
export function useLocalModel(options: { slots?: number } = {}): () => LocalModelServer {
  let server: LocalModelServer | undefined;
  before(async () => {
    server = await startLocalModel({ slots: options.slots });
  });
  after(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('the local model did not start');
    return server;
  };
}

export function gatewayOn(
  baseURL: string,
  capUsd = 0.3,
  timeoutMs = 120_000,
): { gateway: ModelGateway; log: CallLog; client: HttpChatUpstream } {
  const client = new HttpChatUpstream({ baseURL, apiKey: 'local', timeoutMs });
  const log = new CallLog();
  const gateway = new ModelGateway({ allowlist, upstream: client, capUsd, callLog: log, seed: 1, retryDelaysMs: [] });
  return { gateway, log, client };
}

/** What a call must cost at the frozen prices from the usage the server reported (its prompt cache's hits at the
 * cache-read price). */
export function frozenCost(model: string, promptTokens: number, completionTokens: number, cachedTokens = 0): number {
  const entry = allowlist.models.find((m) => m.id === model)!;
  const p = entry.pricing;
  return (
    ((promptTokens - cachedTokens) * p.inputUsdPerMillion +
      cachedTokens * p.cachedInputUsdPerMillion +
      completionTokens * p.outputUsdPerMillion) /
    1e6
  );
}

export const listFilesTool = {
  type: 'function',
  function: {
    name: 'list_files',
    description: 'List the files in a directory',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'the directory' } },
      required: ['path'],
    },
  },
};

/** The scenarios the Hermes files run: TRL_REAL_MODEL_SCENARIOS (comma-separated), else three short ones. */
export function realModelScenarios(fallback = 'csv-sales-report,fix-inventory-bug,sqlite-orders-analytics'): string[] {
  return (readSetting(localModelSettings, 'TRL_REAL_MODEL_SCENARIOS') ?? fallback).split(',').filter(Boolean);
}
