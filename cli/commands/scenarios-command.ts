// `trl scenarios`: the active scenarios with category, difficulty and hidden-test count, and any
// test that would run agent code inside the (trusted) test process (verifiers/agent-import-check.ts).
import path from 'node:path';
import { listScenarioFolders } from '../../catalog/list-scenarios.ts';
import { loadScenario } from '../../catalog/load-scenario.ts';
import { renderTable } from '../render-table.ts';
import { notDeclared } from '../../contracts/task-config.ts';
import { readRegistry } from '../../catalog/registry.ts';
import { testsInFolder } from '../../catalog/count-tests.ts';
import { scenariosDir as defaultScenariosDir } from '../../common/data-layout.ts';
import { checkScenarioTestsForAgentCode, describeAgentCodeFinding } from '../../verifiers/agent-import-check.ts';
import { scenarioContentHash } from '../../catalog/scenario-content-hash.ts';
import { scenarioSetHash } from '../../catalog/spec-manifest.ts';

/** Test count read statically: a task's test code never runs on the host (pytest collection would execute it). */
async function countTests(scenarioDir: string): Promise<number> {
  return testsInFolder(path.join(scenarioDir, 'tests')).catch(() => 0);
}

export async function scenariosCommand(options: { scenariosDir?: string; json: boolean }): Promise<number> {
  const rows = [];
  const findings: string[] = [];
  for (const descriptor of await listScenarioFolders(options.scenariosDir)) {
    const scenario = await loadScenario(descriptor.dir);
    const agentCode = await checkScenarioTestsForAgentCode(descriptor.dir);
    findings.push(...agentCode.map((finding) => `${scenario.name}: ${describeAgentCodeFinding(finding)}`));
    rows.push({ name: scenario.name, category: scenario.config.metadata.category ?? notDeclared, difficulty: scenario.config.metadata.difficulty ?? notDeclared, tests: await countTests(descriptor.dir), agentCode: agentCode.length, contentHash: await scenarioContentHash(descriptor.dir) });
  }
  const registry = await readRegistry(path.resolve(options.scenariosDir ?? defaultScenariosDir));
  // The scenario part of the spec manifest each result is stamped with (the rest: images, agent, prices, cap).
  const setHash = scenarioSetHash(registry?.spec ?? null, rows);
  if (options.json) {
    process.stdout.write(JSON.stringify({ spec: registry?.spec ?? null, scenarioSetHash: setHash, scenarios: rows, agentCodeFindings: findings }, null, 2) + '\n');
    return findings.length ? 2 : 0;
  }
  process.stdout.write(registry ? `active scenario set, spec ${registry.spec}` : `all scenario folders (no registry.json)`);
  process.stdout.write(` · scenario set ${setHash.slice(0, 12)}… (the scenarios of every result's spec manifest)\n\n`);
  const total = { name: `${rows.length} scenarios`, category: '', difficulty: '', tests: rows.reduce((t, r) => t + r.tests, 0), agentCode: findings.length };
  process.stdout.write(
    renderTable(
      [
        { header: 'scenario', value: (r) => r.name },
        { header: 'category', value: (r) => r.category },
        { header: 'difficulty', value: (r) => r.difficulty },
        { header: 'tests', value: (r) => r.tests, align: 'right' },
        { header: 'agent code in tests', value: (r) => (r.agentCode ? `${r.agentCode} finding(s)` : 'none'), align: 'right' },
      ],
      rows,
      total,
    ) + '\n',
  );
  if (findings.length) {
    // A test that loads agent code into the test process lets that code forge the report.
    process.stdout.write(`\ntests that would run agent code with the test runner's rights (call it through trl_agent_run instead):\n${findings.map((f) => `  ${f}`).join('\n')}\n`);
    return 2;
  }
  return 0;
}
