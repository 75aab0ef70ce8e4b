// Every environment variable the project reads, by group, in the order docs/reference/settings.md
// shows them. A variable is declared in exactly one group; test/layout/settings-registry.test.ts
// checks that every TRL_* name in the source is declared here.
import type { Setting, SettingGroup } from './setting.ts';
import { chainSettings } from './chain-settings.ts';
import { localModelSettings } from './local-model-settings.ts';
import { machineSettings } from './machine-settings.ts';
import { moneySettings } from './money-settings.ts';
import { observabilitySettings } from './observability-settings.ts';
import { storeSettings } from './store-settings.ts';
import { temporalSettings } from './temporal-settings.ts';
import { internalSettings, testRunnerSettings } from './test-settings.ts';
import { workerSettings } from './worker-settings.ts';

export const settingGroups: readonly SettingGroup[] = [
  { title: 'Temporal', about: 'How every process reaches Temporal.', settings: temporalSettings },
  { title: 'Worker', about: 'How a worker runs scenarios and fetches packs.', settings: workerSettings },
  {
    title: 'Models and money',
    about: 'Where model calls go and what they may cost; the sim fleet that plays the models offline.',
    settings: moneySettings,
  },
  {
    title: 'Local model',
    about: 'The real small model that `--upstream local-model` serves on loopback.',
    settings: localModelSettings,
  },
  { title: 'Metrics and logs', about: 'What a process tells its operator.', settings: observabilitySettings },
  {
    title: 'Chain and seat',
    about: 'Which chain, which key, and how the seat evaluates challengers.',
    settings: chainSettings,
  },
  {
    title: 'Blob store',
    about: 'Where packs, bundles and artifacts are kept by sha256.',
    settings: storeSettings,
  },
  { title: 'This machine', about: 'Where state and downloads live.', settings: machineSettings },
  { title: 'Test runner', about: 'What `./trl test` reads.', settings: testRunnerSettings },
  {
    title: 'Internal and test-only',
    about: 'Read only by the tests, or set by the validator for its own child processes: not for operators.',
    settings: internalSettings,
    internal: true,
  },
];

/** Every declared setting by name. */
export const allSettings: Readonly<Record<string, Setting>> = Object.assign(
  {},
  ...settingGroups.map((group) => group.settings),
);
