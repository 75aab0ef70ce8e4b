// `trl import-tasks SRC DEST`: Terminal-Bench 1 tasks under SRC (or one or two folders deeper) into
// the Harbor layout under DEST, Harbor tasks checked and copied as they are; one line per task
// saying what changed, what the build will rewrite, or why it was refused.
import { importTerminalBenchTasks } from '../../catalog/import-terminal-bench.ts';
import { UsageError } from '../usage-error.ts';

export async function importTasksCommand(options: { src: string; dest: string; json: boolean }): Promise<number> {
  const results = await importTerminalBenchTasks(options.src, options.dest);
  if (results.length === 0)
    throw new UsageError(
      `no task (a folder with task.yaml, Terminal-Bench 1, or task.toml, Harbor) in ${options.src} or two levels below it`,
    );
  if (options.json) {
    process.stdout.write(JSON.stringify(results, null, 2) + '\n');
  } else {
    for (const result of results) {
      process.stdout.write(
        `${result.status.padEnd(8)} ${result.name}\n${result.notes.map((note) => `         ${note}\n`).join('')}`,
      );
    }
    const imported = results.filter((r) => r.status === 'imported').length;
    process.stdout.write(
      `\n${imported} of ${results.length} task(s) imported into ${options.dest}${imported ? `; run them with --scenarios-dir ${options.dest}` : ''}\n`,
    );
  }
  return results.some((r) => r.status === 'refused') ? 2 : 0;
}
