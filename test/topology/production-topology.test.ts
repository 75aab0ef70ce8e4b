// The production topology on one machine (docs/how-to/production-topology.md), run by
// `./trl test --topology`: Temporal's own server on PostgreSQL (both built or installed by the
// project: infra/postgres-cluster.ts, infra/temporal-postgres-server.ts), its Web UI server, moto's
// S3 server as the shared store, the frontend behind mutual TLS, and the validator as separate processes — one
// orchestration
// worker and sandbox workers (`trl worker --role …`), each with its own data directory, sharing
// only Temporal and the bucket. The oracle is evaluated on every scenario with one sandbox worker,
// then with two (throughput, scenarios per minute), then with two again while one is SIGKILLed
// mid-run: the evaluation finishes on the other with the same score.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { Client, Connection } from '@temporalio/client';
import { repoRoot, scenariosDir } from '../../common/data-layout.ts';
import { evaluationTaskQueue, evaluationWorkflowId, sandboxHostTaskQueue } from '../../contracts/temporal-names.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startEvaluation } from '../../cli/client/start-evaluation.ts';
import { createS3Client } from '../../common/store/s3-blob-store.ts';
import { storeConfigFromEnvironment, type S3StoreConfig } from '../../common/store/store-config.ts';
import { openBlobStore } from '../../common/store/open-blob-store.ts';
import { artifactRefsIn } from '../../common/store/publish-artifacts.ts';
import { ensureMotoServer, startS3TestServer, type S3TestServer } from '../../infra/s3-test-server.ts';
import { startPostgresCluster, type PostgresCluster } from '../../infra/postgres-cluster.ts';
import { startTemporalPostgresServer, type TemporalPostgresServer } from '../../infra/temporal-postgres-server.ts';
import { startTemporalUiServer, type TemporalUiServer } from '../../infra/temporal-ui-server.ts';
import { examplePackDir } from '../support/fixture-packs.ts';
import { waitFor } from '../support/worker-process.ts';
import { makeTestCertificates, type TestCertificates } from '../support/test-certificates.ts';
import { temporalConnectionOptions } from '../../infra/temporal-connection-options.ts';
import { probeFrontend } from '../../infra/temporal-server.ts';
import { uniqueId } from '../support/evaluation-harness.ts';

const bucket = 'trl-topology';

describe('production topology: Temporal on PostgreSQL, the Web UI, one orchestration and two sandbox workers over S3', () => {
  let root: string;
  let database: PostgresCluster;
  let temporal: TemporalPostgresServer;
  let ui: TemporalUiServer;
  let s3: S3TestServer;
  let connection: Connection;
  let client: Client;
  let scenarios: string[];
  let certificates: TestCertificates;
  const processes = new Map<string, ChildProcess>();

  /** The settings every role gets: the ones infra/deploy/ uses, pointing at this machine's services. */
  const deploymentEnv = (): NodeJS.ProcessEnv => ({
    TRL_TEMPORAL_ADDRESS: temporal.address,
    TRL_TEMPORAL_NAMESPACE: temporal.namespace,
    TRL_TEMPORAL_TLS_CA_FILE: certificates.caFile,
    TRL_TEMPORAL_TLS_CERT_FILE: certificates.clientCertFile,
    TRL_TEMPORAL_TLS_KEY_FILE: certificates.clientKeyFile,
    TRL_TEMPORAL_TLS_SERVER_NAME: 'localhost',
    TRL_TEMPORAL_UI_URL: ui.url,
    TRL_STORE: 's3',
    TRL_S3_BUCKET: bucket,
    TRL_S3_ENDPOINT: s3.endpoint,
    AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    TRL_SPEND_LEDGER: 'workflow',
  });

  /** `trl worker --role ROLE` in a process of its own with its own data directory; resolves once it polls. */
  const startRole = async (name: string, role: 'orchestration' | 'sandbox', extra: NodeJS.ProcessEnv = {}) => {
    const dataDir = path.join(root, `data-${name}`);
    const env = {
      ...process.env,
      ...deploymentEnv(),
      TRL_DATA_DIR: dataDir,
      TRL_QUIET: '1',
      TRL_LOG_LEVEL: 'error',
      // The suite's fleet is the fast one (the product's default is realistic).
      TRL_SIM_FLEET_MODE: 'fast',
      ...extra,
    };
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'cli', 'main.ts'), 'worker', '--role', role],
      { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    processes.set(name, child);
    await new Promise<void>((resolve, reject) => {
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-4000);
        if (stderr.includes('worker polling')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${stderr}`)));
    });
  };
  const stopRole = async (name: string, signal: NodeJS.Signals = 'SIGTERM') => {
    const child = processes.get(name);
    processes.delete(name);
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  const evaluate = async (label: string) => {
    const submissionId = uniqueId(`topology-${label}`);
    const started = performance.now();
    const handle = await startEvaluation(
      client,
      { submissionId, pack: { kind: 'directory', path: examplePackDir }, agent: 'oracle', scenarios },
      evaluationTaskQueue,
    );
    return { submissionId, handle, started };
  };
  const perMinute = (count: number, ms: number) => count / (ms / 60_000);

  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'trl-topology-'));
    // PostgreSQL runs as its own user: it must be able to reach its folder inside.
    await chmod(root, 0o755);
    scenarios = (await readdir(scenariosDir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    // The frontend requires mutual TLS, as a production Temporal would.
    certificates = await makeTestCertificates(path.join(root, 'certificates'));
    database = await startPostgresCluster({ dir: path.join(root, 'postgres') });
    temporal = await startTemporalPostgresServer({ dir: path.join(root, 'temporal'), database, tls: certificates });
    ui = await startTemporalUiServer({
      dir: path.join(root, 'ui'),
      temporalAddress: temporal.address,
      namespace: temporal.namespace,
      tls: { caFile: certificates.caFile, certFile: certificates.clientCertFile, keyFile: certificates.clientKeyFile },
    });
    s3 = await startS3TestServer(await ensureMotoServer());
    const s3Client = createS3Client(storeConfigFromEnvironment(deploymentEnv()) as S3StoreConfig);
    await s3Client.send(new CreateBucketCommand({ Bucket: bucket }));
    s3Client.destroy();
    // This process connects the way the roles do: through the same settings.
    connection = await Connection.connect(temporalConnectionOptions(temporal.address, deploymentEnv()));
    client = new Client({ connection, namespace: temporal.namespace });
    await startRole('orchestration', 'orchestration');
    await startRole('host-a', 'sandbox', { TRL_WORKER_HOST_ID: 'host-a' });
  });
  after(async () => {
    for (const name of [...processes.keys()]) await stopRole(name, 'SIGKILL');
    await connection?.close();
    await ui?.stop();
    await temporal?.stop();
    await database?.stop();
    await s3?.close();
  });

  let oneHost: EvaluationResult;
  let oneHostMs = 0;

  test('one sandbox worker: every scenario through Temporal on PostgreSQL, the pack read from the bucket', async (t) => {
    // mTLS is enforced: no client certificate, or no TLS at all, and the frontend refuses.
    assert.equal(
      await probeFrontend(temporal.address, {
        address: temporal.address,
        tls: { serverRootCACertificate: await readFile(certificates.caFile), serverNameOverride: 'localhost' },
      }),
      false,
    );
    assert.equal(await probeFrontend(temporal.address, { address: temporal.address }), false);
    const run = await evaluate('one-host');
    oneHost = await run.handle.result();
    oneHostMs = performance.now() - run.started;
    assert.equal(
      oneHost.status,
      'completed',
      JSON.stringify(oneHost.perScenario.filter((s) => s.status !== 'completed')),
    );
    assert.equal(oneHost.testsPassed, oneHost.testsTotal);
    t.diagnostic(
      `one sandbox worker: ${scenarios.length} scenarios in ${(oneHostMs / 1000).toFixed(1)} s = ${perMinute(scenarios.length, oneHostMs).toFixed(1)} scenarios/min`,
    );

    // Every artifact the result names (the pack, pre-evaluation, each scenario's run and
    // verification) was published to the bucket by the worker that wrote it.
    const refs = artifactRefsIn(oneHost);
    assert.ok(refs.length >= scenarios.length, `${refs.length} artifacts`);
    const bucketStore = openBlobStore(storeConfigFromEnvironment(deploymentEnv()));
    const missing = [];
    for (const ref of refs) if (!(await bucketStore.has(ref))) missing.push(ref.path);
    assert.deepEqual(missing, [], 'artifacts only on their host');

    // The Web UI server reads the same Temporal: the run is listed through its API.
    const listed = await fetch(
      `${ui.url}/api/v1/namespaces/${temporal.namespace}/workflows?query=${encodeURIComponent(`WorkflowId="${evaluationWorkflowId(run.submissionId)}"`)}`,
    );
    assert.equal(listed.status, 200);
    const body = (await listed.json()) as { executions?: { execution?: { workflowId?: string } }[] };
    assert.deepEqual(
      body.executions?.map((execution) => execution.execution?.workflowId),
      [evaluationWorkflowId(run.submissionId)],
    );
  });

  test('two sandbox workers: the same score, faster; the ratio of scenarios per minute', async (t) => {
    await startRole('host-b', 'sandbox', { TRL_WORKER_HOST_ID: 'host-b' });
    const run = await evaluate('two-hosts');
    const result = await run.handle.result();
    const twoHostsMs = performance.now() - run.started;
    assert.equal(result.status, 'completed');
    assert.deepEqual(
      result.perScenario.map((s) => [s.name, s.testsPassed, s.testsTotal]),
      oneHost.perScenario.map((s) => [s.name, s.testsPassed, s.testsTotal]),
    );
    const history = await run.handle.fetchHistory();
    const hosts = new Set(
      (history.events ?? []).flatMap((event) => {
        const scheduled = event.activityTaskScheduledEventAttributes;
        return scheduled?.activityType?.name === 'runScenario' ? [scheduled.taskQueue?.name] : [];
      }),
    );
    assert.deepEqual(
      [...hosts].sort(),
      ['host-a', 'host-b'].map((host) => sandboxHostTaskQueue(evaluationTaskQueue, host)),
      'both hosts ran scenarios',
    );
    const ratio = perMinute(scenarios.length, twoHostsMs) / perMinute(scenarios.length, oneHostMs);
    t.diagnostic(
      `two sandbox workers: ${scenarios.length} scenarios in ${(twoHostsMs / 1000).toFixed(1)} s = ${perMinute(scenarios.length, twoHostsMs).toFixed(1)} scenarios/min; ratio to one worker ${ratio.toFixed(2)}`,
    );
  });

  test('a sandbox worker SIGKILLed mid-run: the evaluation finishes on the other with the same score', async () => {
    const run = await evaluate('killed-host');
    await waitFor(
      async () => {
        const events = (await run.handle.fetchHistory()).events ?? [];
        return events.some(
          (event) =>
            event.activityTaskScheduledEventAttributes?.activityType?.name === 'runScenario' &&
            event.activityTaskScheduledEventAttributes.taskQueue?.name ===
              sandboxHostTaskQueue(evaluationTaskQueue, 'host-b'),
        )
          ? true
          : undefined;
      },
      300_000,
      'a run on host B',
    );
    await stopRole('host-b', 'SIGKILL');
    const result = await run.handle.result();
    assert.equal(
      result.status,
      'completed',
      JSON.stringify(result.perScenario.filter((s) => s.status !== 'completed')),
    );
    assert.deepEqual(
      result.perScenario.map((s) => [s.name, s.status, s.testsPassed, s.testsTotal]),
      oneHost.perScenario.map((s) => [s.name, s.status, s.testsPassed, s.testsTotal]),
    );
  });
});
