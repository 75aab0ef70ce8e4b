// The local model as an upstream: llama-server built (once), the chosen GGUF fetched and checked
// (once), the server started on loopback for as long as the caller needs it. `trl eval|serve|up
// --upstream local-model` and the real-model tests start it here.
import { say } from '../../common/log.ts';
import { readSetting } from '../../common/settings/setting.ts';
import { localModelSettings } from '../../common/settings/local-model-settings.ts';
import { ensureLlamaServer } from './llama-server-build.ts';
import { startLlamaServer, type LlamaServer } from './llama-server-process.ts';
import { localModelMapping, localModelSpec, type LocalModelSpec } from './local-model-catalog.ts';
import { ensureModelWeights } from './model-weights.ts';
import { loadAllowlist } from '../../gateway/catalog/allowlist.ts';

export interface LocalModelServer extends LlamaServer {
  spec: LocalModelSpec;
}

export interface LocalModelOptions {
  /** TRL_LOCAL_MODEL (default: the chosen one in local-model-catalog.ts). */
  model?: string;
  /** TRL_LOCAL_MODEL_PORT (default: a free port). */
  port?: number;
  slots?: number;
}

/** Options from the environment: TRL_LOCAL_MODEL, TRL_LOCAL_MODEL_PORT, TRL_LOCAL_MODEL_SLOTS. */
export function localModelOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): LocalModelOptions {
  return {
    model: readSetting(localModelSettings, 'TRL_LOCAL_MODEL', env),
    port: readSetting(localModelSettings, 'TRL_LOCAL_MODEL_PORT', env),
    slots: readSetting(localModelSettings, 'TRL_LOCAL_MODEL_SLOTS', env),
  };
}

export async function startLocalModel(options: LocalModelOptions = {}): Promise<LocalModelServer> {
  const spec = localModelSpec(options.model);
  const binary = await ensureLlamaServer();
  const modelFile = await ensureModelWeights(spec);
  // The server answers to every allowlisted name (GET /v1/models lists them): one model behind all eight.
  const aliases = Object.keys(
    localModelMapping(
      loadAllowlist().models.map((model) => model.id),
      spec,
    ),
  );
  const server = await startLlamaServer({ binary, modelFile, spec, port: options.port, slots: options.slots, aliases });
  say(`local model ${spec.id} on ${server.baseURL} (${server.slots} slots of ${server.contextPerSlot} tokens)`);
  return { ...server, spec };
}
