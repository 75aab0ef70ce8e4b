// The test runner's one setting, and the variables only tests read or the validator sets for its own
// child processes (listed apart on the reference page).
import { z } from 'zod';
import { blankAsUnset, optionalText, settingTable, wholeNumber } from './setting.ts';

export const testRunnerSettings = settingTable({
  TRL_TEST_CONCURRENCY: {
    schema: blankAsUnset(
      wholeNumber('TRL_TEST_CONCURRENCY', 'a whole number from 1 to 16, e.g. TRL_TEST_CONCURRENCY=2')
        .max(16, 'TRL_TEST_CONCURRENCY must be a whole number from 1 to 16, e.g. TRL_TEST_CONCURRENCY=2')
        .default(4),
    ),
    description:
      'Test files `./trl test` runs at once (1 to 16); the fault and topology suites always run one at a time.',
  },
  TRL_TEST_TEMPORAL_NAMESPACE: {
    schema: optionalText.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,63}$/)
        .default('trl-test'),
    ),
    description:
      "The Temporal namespace `./trl test` runs its workflows in (it creates it); its test files get it as `TRL_TEMPORAL_NAMESPACE`, so `trl up`'s Web UI and `trl runs` never list a test run. A namespace it created keeps closed runs a day.",
  },
});

export const internalSettings = settingTable({
  TRL_VERIFIER_CACHE_DIR: {
    schema: optionalText,
    defaultText: 'set by `trl test`',
    description:
      "A folder of the test run's verifier results by outputs, hidden tests and image: a worker answers a repeated verification from it (`verifiers/verifier-cache.ts`); tests of the verifier itself turn it off.",
  },
  TRL_POLICY_CHANNEL: {
    schema: optionalText,
    defaultText: 'set by the policy host',
    description:
      "The channel a TypeScript policy's sandboxed runner (`policy/runtime/runner.mjs`) talks to its host on; the runner deletes it before the policy runs.",
  },
  TRL_SHARED_CHAIN_DIR: {
    schema: optionalText,
    defaultText: '`test/fixtures/chain`',
    description: "The chain tests' data (a raw chain spec and recorded answers).",
  },
  TRL_POLICY_PYTHON: {
    schema: optionalText,
    defaultText: '`python3`',
    description: 'The Python the Python-policy tests run a policy with on the host.',
  },
  TRL_FAULT_KILLS: {
    schema: z.coerce.number().int().positive().default(10),
    description: 'How many times `test/faults/worker-sigkill.test.ts` kills the worker.',
  },
});
