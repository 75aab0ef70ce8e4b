// docs/reference/: each page written from the code that defines it. `trl docs` writes them,
// `trl docs --check` and test/layout/reference-docs.test.ts compare them with what is committed.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import { commandsPage } from './commands-page.ts';
import { blamePage, failureTypesPage, searchAttributesPage } from './contract-pages.ts';
import { dataLayoutPage } from './data-layout-page.ts';
import { generatedHeader } from './markdown.ts';
import { metricsPage } from './metrics-page.ts';
import { settingsPage } from './settings-page.ts';

export const referenceDir = path.join(repoRoot, 'docs', 'reference');

export interface ReferencePage {
  name: string;
  title: string;
  about: string;
  text: string;
}

const sources: readonly { name: string; title: string; about: string; render: () => string }[] = [
  { name: 'commands.md', title: 'Commands', about: 'every `trl` command and flag', render: commandsPage },
  {
    name: 'settings.md',
    title: 'Settings',
    about: 'every environment variable, its default and meaning',
    render: settingsPage,
  },
  {
    name: 'blame.md',
    title: 'Blame',
    about: 'who is to blame for each failure, its consequence, and the test that proves it',
    render: blamePage,
  },
  {
    name: 'failure-types.md',
    title: 'Failure types',
    about: 'every failure type across the Temporal boundary, retried or not',
    render: failureTypesPage,
  },
  {
    name: 'search-attributes.md',
    title: 'Search attributes',
    about: 'what each evaluation is searchable by in Temporal',
    render: searchAttributesPage,
  },
  { name: 'metrics.md', title: 'Metrics', about: "the worker's Prometheus metrics", render: metricsPage },
  {
    name: 'data-layout.md',
    title: 'Data layout',
    about: 'every path on disk and what it holds',
    render: dataLayoutPage,
  },
];

function indexPage(): string {
  return [
    generatedHeader('cli/reference/reference-pages.ts'),
    '# Reference',
    '',
    'Each page here is written by `./trl docs` from the code that defines it, and',
    '`test/layout/reference-docs.test.ts` fails when a committed page differs from what the code would write',
    '(`./trl docs --check` says the same).',
    '',
    ...sources.map((source) => `- [${source.title}](${source.name}): ${source.about}.`),
    '',
  ].join('\n');
}

/** Every page as the code would write it now. */
export function referencePages(): ReferencePage[] {
  return [
    { name: 'README.md', title: 'Reference', about: 'this index', text: indexPage() },
    ...sources.map((source) => ({
      name: source.name,
      title: source.title,
      about: source.about,
      text: source.render(),
    })),
  ];
}

/** The pages whose committed file is missing or differs. */
export async function stalePages(pagesNow: readonly ReferencePage[] = referencePages()): Promise<string[]> {
  const stale: string[] = [];
  for (const page of pagesNow) {
    const committed = await readFile(path.join(referenceDir, page.name), 'utf8').catch(() => undefined);
    if (committed !== page.text) stale.push(`docs/reference/${page.name}`);
  }
  return stale;
}
