// The embedded Temporal dev server: SQLite under .data (state survives restarts), gRPC and Web UI on
// loopback, the project's search attributes registered. Readiness is probed, never slept for.
import { openSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { msToTs } from '@temporalio/common/lib/time.js';
import { defaultTemporalAddress, searchAttributes, temporalUiPort } from '../contracts/temporal-names.ts';
import { temporalDbFile, temporalLogFile, temporalPidFile } from '../common/data-layout.ts';
import { say } from '../common/log.ts';
import { ensureTemporalCli } from './temporal-cli.ts';
import { temporalConnectionOptions, type TemporalConnectionOptions } from './temporal-connection-options.ts';
import { readSetting } from '../common/settings/setting.ts';
import { temporalSettings } from '../common/settings/temporal-settings.ts';

const readinessTimeoutMs = 60_000;

export interface TemporalEndpoint {
  address: string;
  namespace: string;
  uiUrl: string;
}

/** TRL_TEMPORAL_ADDRESS: an external Temporal, or undefined for the embedded dev server. */
function externalTemporalAddress(): string | undefined {
  return readSetting(temporalSettings, 'TRL_TEMPORAL_ADDRESS');
}

export function temporalEndpoint(): TemporalEndpoint {
  return {
    address: externalTemporalAddress() ?? defaultTemporalAddress,
    namespace: readSetting(temporalSettings, 'TRL_TEMPORAL_NAMESPACE'),
    uiUrl: readSetting(temporalSettings, 'TRL_TEMPORAL_UI_URL') ?? `http://127.0.0.1:${temporalUiPort}`,
  };
}

/** Whether a Temporal frontend answers on this address (one short connect and a system-info call). */
export async function probeFrontend(
  address: string,
  connect: TemporalConnectionOptions = temporalConnectionOptions(address),
): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ ...connect, connectTimeout: 1000 });
    await connection.workflowService.getSystemInfo({});
    return true;
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

async function probeUi(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** Starts the dev server if nothing answers on the configured address, then registers search attributes. */
export async function ensureTemporalServer(): Promise<TemporalEndpoint> {
  const endpoint = temporalEndpoint();
  if (!(await probeFrontend(endpoint.address))) {
    if (externalTemporalAddress()) {
      throw new Error(
        `no Temporal server answers at TRL_TEMPORAL_ADDRESS=${endpoint.address}; start it or unset the variable to use the embedded one`,
      );
    }
    await startDevServer(endpoint);
  }
  await registerSearchAttributes(endpoint);
  return endpoint;
}

/** The dev server's SQLite settings (`--sqlite-pragma`); the write-ahead log, once set, stays with the file. */
const sqlitePragmas = ['journal_mode=wal', 'synchronous=normal'] as const;

async function startDevServer(endpoint: TemporalEndpoint): Promise<void> {
  const binary = await ensureTemporalCli();
  const [host, port] = endpoint.address.split(':');
  mkdirSync(path.dirname(temporalDbFile), { recursive: true });
  say(`starting the Temporal dev server on ${endpoint.address} (UI ${endpoint.uiUrl}, data ${temporalDbFile})`);
  const logFd = openSync(temporalLogFile, 'a');
  const child = spawn(
    binary,
    [
      'server',
      'start-dev',
      '--ip',
      host ?? '127.0.0.1',
      '--port',
      port ?? '7233',
      '--ui-ip',
      '127.0.0.1',
      '--ui-port',
      String(temporalUiPort),
      '--db-filename',
      temporalDbFile,
      // SQLite's default rollback journal with full sync wrote and synced a journal file for every transaction (every
      // workflow task): the server's largest cost in the suite. A write-ahead log synced at checkpoints survives a
      // crash of the server or of the machine's processes; a power cut may lose the last transactions, never the file.
      ...sqlitePragmas.flatMap((pragma) => ['--sqlite-pragma', pragma]),
      '--namespace',
      endpoint.namespace,
      '--log-level',
      'warn',
      '--ui-disable-news-fetch',
    ],
    { detached: true, stdio: ['ignore', logFd, logFd] },
  );
  child.unref();
  if (child.pid) writeFileSync(temporalPidFile, String(child.pid));
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? -1;
  });
  const deadline = performance.now() + readinessTimeoutMs;
  while (performance.now() < deadline) {
    if (exited !== null) throw new Error(`the Temporal dev server exited with ${exited}; see ${temporalLogFile}`);
    if ((await probeFrontend(endpoint.address)) && (await probeUi(endpoint.uiUrl))) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `the Temporal dev server did not answer within ${readinessTimeoutMs / 1000}s; see ${temporalLogFile}`,
  );
}

// Workflow histories of a namespace the bootstrap creates are kept this long after a run closes.
const createdNamespaceRetentionSeconds = 30 * 24 * 3600;
/** How a namespace the bootstrap created describes itself; only such a namespace's retention is ever changed. */
const createdNamespaceDescription = 'created by the TrajectoryRL validator bootstrap';
const namespaceReadyTimeoutMs = 30_000;

const isNotFound = (error: unknown) => (error as { code?: unknown })?.code === 5; // gRPC NOT_FOUND

/**
 * Creates the namespace when the server lacks it (TRL_TEMPORAL_NAMESPACE naming one a shared
 * server never had), then waits until it answers: registration is asynchronous in Temporal.
 */
export async function ensureNamespace(connection: Connection, namespace: string): Promise<boolean> {
  try {
    await connection.workflowService.describeNamespace({ namespace });
    return false;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  say(`creating the Temporal namespace ${namespace} (it did not exist)`);
  try {
    await connection.workflowService.registerNamespace({
      namespace,
      description: createdNamespaceDescription,
      workflowExecutionRetentionPeriod: msToTs(createdNamespaceRetentionSeconds * 1000),
    });
  } catch (error) {
    // Another worker created it first.
    if ((error as { code?: unknown })?.code !== 6) {
      throw new Error(
        `the Temporal namespace "${namespace}" does not exist and could not be created (${(error as Error).message}); ` +
          'create it on the server (temporal operator namespace create) or set TRL_TEMPORAL_NAMESPACE to one that exists',
      );
    }
  }
  const deadline = performance.now() + namespaceReadyTimeoutMs;
  for (;;) {
    try {
      await connection.workflowService.describeNamespace({ namespace });
      await connection.operatorService.listSearchAttributes({ namespace });
      return true;
    } catch (error) {
      if (!isNotFound(error) || performance.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Creates the namespace if it is missing, then registers the project's search attributes that it lacks (the
 * embedded server's wrong types are re-created). */
export async function registerSearchAttributes(
  endpoint: Pick<TemporalEndpoint, 'address' | 'namespace'>,
  connect: TemporalConnectionOptions = temporalConnectionOptions(endpoint.address),
): Promise<void> {
  const connection = await Connection.connect(connect);
  try {
    await ensureNamespace(connection, endpoint.namespace);
    const listed = await connection.operatorService.listSearchAttributes({ namespace: endpoint.namespace });
    const existing = listed.customAttributes ?? {};
    const types = proto.temporal.api.enums.v1.IndexedValueType;
    const missing: Record<string, proto.temporal.api.enums.v1.IndexedValueType> = {};
    const wrongType: string[] = [];
    for (const key of Object.values(searchAttributes)) {
      const wanted =
        key.type === 'INT'
          ? types.INDEXED_VALUE_TYPE_INT
          : key.type === 'DOUBLE'
            ? types.INDEXED_VALUE_TYPE_DOUBLE
            : types.INDEXED_VALUE_TYPE_KEYWORD;
      const current = existing[key.name];
      if (current === wanted) continue;
      if (current !== undefined) wrongType.push(key.name);
      missing[key.name] = wanted;
    }
    if (wrongType.length > 0) {
      // A wrong type makes every upsert fail; the embedded server can be corrected, production must be fixed by its
      // operator.
      if (externalTemporalAddress())
        throw new Error(
          `search attributes ${wrongType.join(', ')} have the wrong type on ${endpoint.address}; remove and re-create them`,
        );
      say(`re-creating search attributes with the wrong type: ${wrongType.join(', ')}`);
      await connection.operatorService.removeSearchAttributes({
        namespace: endpoint.namespace,
        searchAttributes: wrongType,
      });
    }
    if (Object.keys(missing).length === 0) return;
    say(`registering search attributes ${Object.keys(missing).join(', ')}`);
    await connection.operatorService.addSearchAttributes({ namespace: endpoint.namespace, searchAttributes: missing });
  } finally {
    await connection.close();
  }
}

/** Sets how long the namespace keeps closed runs (the suite's: see bootstrapForTests), if the bootstrap created it:
 * a namespace someone else made is theirs, and left as it is. */
export async function setClosedRunRetention(
  endpoint: Pick<TemporalEndpoint, 'address' | 'namespace'>,
  seconds: number,
  connect: TemporalConnectionOptions = temporalConnectionOptions(endpoint.address),
): Promise<void> {
  const connection = await Connection.connect(connect);
  try {
    const described = await connection.workflowService.describeNamespace({ namespace: endpoint.namespace });
    if (described.namespaceInfo?.description !== createdNamespaceDescription) return;
    const current = described.config?.workflowExecutionRetentionTtl?.seconds;
    if (Number(current ?? 0) === seconds) return;
    await connection.workflowService.updateNamespace({
      namespace: endpoint.namespace,
      config: { workflowExecutionRetentionTtl: msToTs(seconds * 1000) },
    });
  } finally {
    await connection.close();
  }
}
