// `trl scenarios`: the active scenarios with category, difficulty and hidden-test count.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { listScenarioFolders } from '../../catalog/list-scenarios.ts';
import { loadScenario } from '../../catalog/load-scenario.ts';
import { renderTable } from '../render-table.ts';

async function countTests(scenarioDir: string): Promise<number> {
  const testsDir = path.join(scenarioDir, 'tests');
  let count = 0;
  for (const file of await readdir(testsDir)) {
    if (!file.endsWith('.py')) continue;
    const text = await readFile(path.join(testsDir, file), 'utf8');
    count += (text.match(/^\s*def test_\w+/gm) ?? []).length;
  }
  return count;
}

export async function scenariosCommand(options: { scenariosDir?: string; json: boolean }): Promise<number> {
  const rows = [];
  for (const descriptor of await listScenarioFolders(options.scenariosDir)) {
    const scenario = await loadScenario(descriptor.dir);
    rows.push({ name: scenario.name, category: scenario.config.metadata.category, difficulty: scenario.config.metadata.difficulty, tests: await countTests(descriptor.dir) });
  }
  if (options.json) {
    process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
    return 0;
  }
  const total = { name: `${rows.length} scenarios`, category: '', difficulty: '', tests: rows.reduce((t, r) => t + r.tests, 0) };
  process.stdout.write(
    renderTable(
      [
        { header: 'scenario', value: (r) => r.name },
        { header: 'category', value: (r) => r.category },
        { header: 'difficulty', value: (r) => r.difficulty },
        { header: 'tests', value: (r) => r.tests, align: 'right' },
      ],
      rows,
      total,
    ) + '\n',
  );
  return 0;
}
