// docs/reference/settings.md: every environment variable the project reads, with its default and
// meaning, from the settings registry (common/settings/).
import { settingGroups } from '../../common/settings/all-settings.ts';
import { documentedDefault } from '../../common/settings/setting.ts';
import { code, generatedHeader, markdownTable } from './markdown.ts';

export function settingsPage(): string {
  const sections = settingGroups.map((group) => {
    const rows = Object.entries(group.settings).map(([name, setting]) => [
      code(name),
      documentedDefault(setting),
      `${setting.description}${setting.secret ? ' Secret: never echoed in an error or a log.' : ''}`,
    ]);
    return `## ${group.title}\n\n${group.about}\n\n${markdownTable(['variable', 'default', 'meaning'], rows)}`;
  });
  const count = settingGroups.reduce((sum, group) => sum + Object.keys(group.settings).length, 0);
  return [
    generatedHeader('common/settings/'),
    '# Settings',
    '',
    `The ${count} environment variables the project reads, all optional, each declared once in`,
    '`common/settings/` with the zod schema that checks it: a bad value stops the process with a message',
    'naming the variable and what it expects. The last section is not for operators.',
    '',
    sections.join('\n'),
  ].join('\n');
}
