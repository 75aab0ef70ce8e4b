// Benchmark: what verifying from a snapshot costs (tasks without agent_outputs). For each scenario,
// the oracle's solution runs in an agent container, which is then stopped and committed; the table
// gives the commit's seconds and megabytes and the start of a verifier container from the snapshot.
// The default scenario is the one with the largest image. `--extra-mb N` also writes N MB of
// incompressible data into the agent's container after the solution (an agent that leaves a mess):
// the snapshot's cost grows with what the agent wrote, not with the image.
//   node --import tsx bench/snapshot-cost.ts [--scenario NAME]… [--extra-mb N]…
import { parseArgs } from 'node:util';
import { createDockerClient } from '../sandbox/docker-client.ts';
import { bootstrap } from '../infra/bootstrap.ts';
import { currentWorkerIdentity } from '../sandbox/worker-identity.ts';
import { listScenarioFolders } from '../catalog/list-scenarios.ts';
import { loadScenario } from '../catalog/load-scenario.ts';
import { ensureScenarioImage } from '../sandbox/scenario-image.ts';
import { ContainerSession } from '../sandbox/container-session.ts';
import { removeSnapshot, snapshotAgentContainer, snapshotTag } from '../sandbox/agent-snapshot.ts';
import { OracleAgent } from '../agents/oracle-agent.ts';
import { renderTable } from '../cli/render-table.ts';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', multiple: true, default: [] },
    'extra-mb': { type: 'string', multiple: true, default: ['0', '256'] },
  },
});
process.env.TRL_QUIET ??= '1';
const docker = createDockerClient();
const { baseImage } = await bootstrap(docker);
const owner = currentWorkerIdentity();

const folders = await listScenarioFolders();
const images = await Promise.all(
  folders.map(async (folder) => {
    const imageTag = await ensureScenarioImage(docker, baseImage, folder);
    const { Size } = (await docker.getImage(imageTag).inspect()) as { Size: number };
    return { folder, imageTag, sizeBytes: Size };
  }),
);
const chosen = values.scenario!.length
  ? images.filter((image) => values.scenario!.includes(image.folder.name))
  : [images.sort((a, b) => b.sizeBytes - a.sizeBytes)[0]!];

const rows = [];
const extraSizesMb = values['extra-mb']!.map(Number);
for (const { folder, imageTag, sizeBytes } of chosen)
  for (const extraMb of extraSizesMb) {
    const scenario = await loadScenario(folder.dir);
    const spec = {
      image: imageTag,
      scenario: folder.name,
      workflowId: 'bench-snapshot',
      cpus: scenario.config.environment.cpus,
      memoryMb: scenario.config.environment.memory_mb,
      owner,
    };
    const session = await ContainerSession.start(docker, { ...spec, role: 'agent' });
    let snapshotImage: string | undefined;
    try {
      const record = await new OracleAgent().run({
        session,
        task: { scenario: folder.name, scenarioDir: folder.dir, instruction: scenario.instruction, workdir: '/app' },
        deadlineMs: performance.now() + scenario.config.agent.timeout_sec * 1000,
        onTick: () => undefined,
      });
      if (extraMb > 0)
        await session.exec({
          command: ['sh', '-c', `head -c ${extraMb * 1024 * 1024} /dev/urandom > /var/tmp/agent-mess`],
          deadlineMs: performance.now() + 300_000,
        });
      const snapshot = await snapshotAgentContainer(docker, session, {
        owner,
        scenario: folder.name,
        tag: snapshotTag([folder.name, 'bench', String(Date.now())]),
      });
      snapshotImage = snapshot.imageTag;
      const started = performance.now();
      const verifier = await ContainerSession.start(docker, { ...spec, image: snapshot.imageTag, role: 'verifier' });
      const startMs = performance.now() - started;
      await verifier.remove();
      rows.push({
        name: folder.name,
        extraMb,
        imageMb: sizeBytes / 1e6,
        solveExit: record.exitCode,
        layerMb: snapshot.sizeBytes / 1e6,
        commitSec: snapshot.commitMs / 1000,
        startSec: startMs / 1000,
      });
    } finally {
      await session.remove();
      if (snapshotImage) await removeSnapshot(docker, snapshotImage);
    }
  }

process.stdout.write(
  renderTable(
    [
      { header: 'scenario', value: (r) => r.name },
      { header: 'image MB', value: (r) => r.imageMb.toFixed(0), align: 'right' },
      { header: 'agent wrote MB', value: (r) => String(r.extraMb), align: 'right' },
      { header: 'solve exit', value: (r) => String(r.solveExit), align: 'right' },
      { header: 'snapshot MB', value: (r) => r.layerMb.toFixed(1), align: 'right' },
      { header: 'commit s', value: (r) => r.commitSec.toFixed(2), align: 'right' },
      { header: 'verifier start s', value: (r) => r.startSec.toFixed(2), align: 'right' },
    ],
    rows,
  ) + '\n',
);
