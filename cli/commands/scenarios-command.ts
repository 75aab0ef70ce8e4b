// `trl scenarios`: the active scenarios with category, difficulty and hidden-test count, and any
// test that would run agent code inside the (trusted) test process (verifiers/agent-import-check.ts).
// Counts are pytest's collection inside each scenario image (cached by workers; `--collect` runs it
// now), else read from the source; test code never runs on the host.
import path from 'node:path';
import { listScenarioFolders } from '../../catalog/list-scenarios.ts';
import { loadScenario } from '../../catalog/load-scenario.ts';
import { renderTable } from '../render-table.ts';
import { notDeclared } from '../../contracts/task-config.ts';
import { readRegistry } from '../../catalog/registry.ts';
import { testsInFolder } from '../../catalog/count-tests.ts';
import { latestCachedTestCount } from '../../verifiers/test-count-cache.ts';
import type { CollectedTests } from '../../verifiers/collect-tests.ts';
import { collectScenarioTests } from '../../workers/collect-scenario-tests.ts';
import { scenariosDir as defaultScenariosDir } from '../../common/data-layout.ts';
import { checkScenarioTestsForAgentCode, describeAgentCodeFinding } from '../../verifiers/agent-import-check.ts';
import { scenarioContentHash } from '../../catalog/scenario-content-hash.ts';
import { scenarioSetHash } from '../../catalog/spec-manifest.ts';

/** pytest's count from inside the scenario image when one was collected for this version, else the static count. */
async function countTests(
  scenarioDir: string,
  contentHash: string,
  collected?: CollectedTests,
): Promise<{ tests: number; countedBy: string; notes: string[] }> {
  const found = collected ?? (await latestCachedTestCount(contentHash));
  if (found)
    return {
      tests: found.count,
      countedBy: found.source === 'pytest' ? 'pytest (in image)' : 'source (pytest could not)',
      notes: found.notes,
    };
  return { tests: await testsInFolder(path.join(scenarioDir, 'tests')).catch(() => 0), countedBy: 'source', notes: [] };
}

export async function scenariosCommand(options: {
  scenariosDir?: string;
  json: boolean;
  collect?: boolean;
}): Promise<number> {
  const rows = [];
  const findings: string[] = [];
  const descriptors = await listScenarioFolders(options.scenariosDir);
  const collected = options.collect
    ? await collectScenarioTests(descriptors, (done, total, name) => {
        if (!options.json && process.stderr.isTTY)
          process.stderr.write(`\r\x1b[2Kcollecting tests in scenario images ${done}/${total} ${name}`);
      })
    : undefined;
  if (options.collect && !options.json && process.stderr.isTTY) process.stderr.write('\r\x1b[2K');
  for (const descriptor of descriptors) {
    const scenario = await loadScenario(descriptor.dir);
    const agentCode = await checkScenarioTestsForAgentCode(descriptor.dir);
    findings.push(...agentCode.map((finding) => `${scenario.name}: ${describeAgentCodeFinding(finding)}`));
    const contentHash = await scenarioContentHash(descriptor.dir);
    const counted = await countTests(descriptor.dir, contentHash, collected?.get(scenario.name));
    rows.push({
      name: scenario.name,
      category: scenario.config.metadata.category ?? notDeclared,
      difficulty: scenario.config.metadata.difficulty ?? notDeclared,
      ...counted,
      agentCode: agentCode.length,
      contentHash,
    });
  }
  const registry = await readRegistry(path.resolve(options.scenariosDir ?? defaultScenariosDir));
  // The scenario part of the spec manifest each result is stamped with (the rest: images, agent, prices, cap).
  const setHash = scenarioSetHash(registry?.spec ?? null, rows);
  if (options.json) {
    process.stdout.write(
      JSON.stringify(
        { spec: registry?.spec ?? null, scenarioSetHash: setHash, scenarios: rows, agentCodeFindings: findings },
        null,
        2,
      ) + '\n',
    );
    return findings.length ? 2 : 0;
  }
  process.stdout.write(
    registry ? `active scenario set, spec ${registry.spec}` : `all scenario folders (no registry.json)`,
  );
  process.stdout.write(` · scenario set ${setHash.slice(0, 12)}… (the scenarios of every result's spec manifest)\n\n`);
  const total = {
    name: `${rows.length} scenarios`,
    category: '',
    difficulty: '',
    tests: rows.reduce((t, r) => t + r.tests, 0),
    countedBy: '',
    notes: [] as string[],
    agentCode: findings.length,
  };
  process.stdout.write(
    renderTable(
      [
        { header: 'scenario', value: (r) => r.name },
        { header: 'category', value: (r) => r.category },
        { header: 'difficulty', value: (r) => r.difficulty },
        { header: 'tests', value: (r) => r.tests, align: 'right' },
        { header: 'counted by', value: (r) => r.countedBy },
        {
          header: 'agent code in tests',
          value: (r) => (r.agentCode ? `${r.agentCode} finding(s)` : 'none'),
          align: 'right',
        },
      ],
      rows,
      total,
    ) + '\n',
  );
  const countNotes = rows.flatMap((row) => row.notes.map((note) => `  ${row.name}: ${note}`));
  if (countNotes.length) process.stdout.write(`\ncounts read from the source:\n${countNotes.join('\n')}\n`);
  if (!rows.some((row) => row.countedBy.startsWith('pytest')))
    process.stdout.write(
      `\ncounts read from the source; \`trl scenarios --collect\` counts with pytest inside each scenario image\n`,
    );
  if (findings.length) {
    // A test that loads agent code into the test process lets that code forge the report.
    process.stdout.write(
      `\ntests that would run agent code with the test runner's rights (call it through trl_agent_run instead):\n${findings.map((f) => `  ${f}`).join('\n')}\n`,
    );
    return 2;
  }
  return 0;
}
