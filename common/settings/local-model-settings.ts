// The local model (`--upstream local-model`, infra/local-model/): which model, where it listens,
// how many requests it serves at once.
import { z } from 'zod';
import { blankAsUnset, optionalText, settingTable } from './setting.ts';

const wholeNumber = (name: string, min: number, max: number) =>
  blankAsUnset(
    z.coerce
      .number()
      .int(`${name} must be a whole number from ${min} to ${max}`)
      .min(min, `${name} must be a whole number from ${min} to ${max}`)
      .max(max, `${name} must be a whole number from ${min} to ${max}`)
      .optional(),
  );

export const localModelSettings = settingTable({
  TRL_LOCAL_MODEL: {
    schema: optionalText,
    defaultText: 'the chosen model of infra/local-model/local-model-catalog.ts',
    description: 'Which GGUF model from PyPI the local llama-server loads (an id of local-model-catalog.ts).',
  },
  TRL_LOCAL_MODEL_PORT: {
    schema: wholeNumber('TRL_LOCAL_MODEL_PORT', 0, 65535),
    defaultText: 'a free port on 127.0.0.1',
    description: 'The port the local llama-server listens on (always on 127.0.0.1).',
  },
  TRL_LOCAL_MODEL_SLOTS: {
    schema: wholeNumber('TRL_LOCAL_MODEL_SLOTS', 1, 64),
    defaultText: 'what fits the cores',
    description: 'Requests the local llama-server decodes at once; more wait in its queue.',
  },
  TRL_REAL_MODEL_SCENARIOS: {
    schema: optionalText,
    defaultText: 'csv-sales-report,fix-inventory-bug,sqlite-orders-analytics (the tape test: fix-inventory-bug)',
    description:
      'The scenarios (comma-separated) the Hermes files of `./trl test --real-model` run on the local model.',
  },
});
