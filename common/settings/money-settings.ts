// Where model calls go and what they may cost: the upstream, the scenario cap, the spend ceilings
// and their ledger, the allowlist, and the sim fleet that plays the models offline (read by
// workers/worker-config.ts, gateway/catalog/ and simfleet/).
import { z } from 'zod';
import { optionalText, settingTable } from './setting.ts';

const usd = (name: string) => z.coerce.number().positive(`${name} must be a positive number of USD`);

export const moneySettings = settingTable({
  TRL_UPSTREAM_BASE_URL: {
    schema: z.string().url('TRL_UPSTREAM_BASE_URL must be an http(s) URL such as https://…/v1').optional(),
    defaultText: 'unset: the sim fleet',
    description: 'An OpenAI-compatible upstream that serves the allowlisted models (needs `TRL_UPSTREAM_API_KEY`).',
  },
  TRL_UPSTREAM_API_KEY: {
    schema: z.string().min(1).optional(),
    secret: true,
    description: "The upstream's key; it lives only in the worker's environment (the gateway alone holds it).",
  },
  TRL_UPSTREAM: {
    schema: z
      .enum(['sim-fleet', 'local-model'], { error: 'TRL_UPSTREAM must be "sim-fleet" or "local-model"' })
      .optional(),
    defaultText: 'unset: the sim fleet',
    description:
      'Which upstream answers when no provider is configured: `sim-fleet` or `local-model` (llama-server on 127.0.0.1, infra/local-model/); `--upstream` of eval, serve and up sets it. Excludes `TRL_UPSTREAM_BASE_URL`.',
  },
  TRL_UPSTREAM_TIMEOUT_SEC: {
    schema: z.coerce.number().positive().default(120),
    description: 'Per upstream call: to the whole answer, or to the first byte of a streamed one.',
  },
  TRL_BUDGET_CAP_USD: {
    schema: usd('TRL_BUDGET_CAP_USD').max(100).default(1),
    description:
      "Hard model budget of one scenario attempt (the spec's `cap_usd`); another value makes results unofficial.",
  },
  TRL_SUBMISSION_CEILING_USD: {
    schema: usd('TRL_SUBMISSION_CEILING_USD').default(30),
    description: 'Spend ceiling of one submission over all its attempts, retries included (at least the cap).',
  },
  TRL_DAILY_CEILING_USD: {
    schema: usd('TRL_DAILY_CEILING_USD').default(500),
    description: 'Spend ceiling of this validator per UTC day (at least the cap).',
  },
  TRL_SPEND_LEDGER: {
    schema: z
      .enum(['file', 'workflow'], {
        error: 'TRL_SPEND_LEDGER must be "file" (this host) or "workflow" (shared by workers on several hosts)',
      })
      .optional(),
    defaultText: '`file` with both roles in one process, `workflow` with `trl worker --role`',
    description:
      "Where the money ledger is kept: this host's `.data/spend/`, or the shared `spendLedger` workflow every sandbox host sees.",
  },
  TRL_MODELS_FILE: {
    schema: optionalText,
    defaultText: '`gateway/catalog/models.json`',
    description:
      'The model allowlist; prices come from `season-2-catalog.json` unless an entry gives `prices` (then results are unofficial).',
  },
  TRL_SIM_TIME_SCALE: {
    schema: z.coerce.number().nonnegative().optional(),
    defaultText: '`0` realistic, `0.1` fast',
    description:
      "The sim fleet's latency profile scaled: 0 answers at once, 1 as in the profile (the older name of `TRL_SIM_FLEET_TIME_SCALE`).",
  },
  TRL_SIM_FLEET_TIME_SCALE: {
    schema: z.coerce.number().nonnegative().optional(),
    defaultText: '`TRL_SIM_TIME_SCALE`, else `0` realistic, `0.1` fast',
    description:
      "The sim fleet's pace (0 answers at once, 1 at the models' real latency); wins over `TRL_SIM_TIME_SCALE` when set.",
  },
  TRL_SIM_FLEET_MODE: {
    schema: z
      .enum(['fast', 'realistic'], { error: 'TRL_SIM_FLEET_MODE must be "fast" or "realistic"' })
      .default('realistic'),
    description:
      "The sim fleet's behaviour: `realistic` (long trajectories whose outcomes depend on what the policy sends; docs/explanation/sim-fleet.md) or `fast` (one attempt, 2–4 turns: what the test harness pins).",
  },
  TRL_SIM_SCENARIOS_DIR: {
    schema: z.string().optional(),
    defaultText: '`scenarios/`',
    description: 'The scenarios the sim fleet recognises (it plays a competent model on them).',
  },
});
