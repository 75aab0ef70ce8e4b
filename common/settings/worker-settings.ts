// How a worker runs scenarios: its slots and host id, what one agent container may write, how long
// the policy may take, and where a pack may be fetched from (read by workers/, sandbox/, policy/host/,
// activities/ and packs/).
import { z } from 'zod';
import { sandboxHostIdPattern } from '../../contracts/temporal-names.ts';
import { blankAsUnset, optionalText, settingTable, wholeNumber } from './setting.ts';

const positiveSeconds = (name: string, seconds: number) =>
  blankAsUnset(
    z.coerce
      .number({ error: `${name} must be a positive number of seconds` })
      .positive(`${name} must be a positive number of seconds`)
      .default(seconds),
  );

/** One scenario's peak memory (agent + policy sidecar + verifier), measured by bench/epoch.ts (docs/figures/epoch.md:
 * at most 144 MiB over 16 scenarios through Hermes with cost-cascade) with the runtime estimate's tenth of headroom. */
const calibratedScenarioMemoryBytes = 160 * 1024 * 1024;
/** A scenario's CPU share until measured. Not the measured mean (at most 0.032 cores): the verifiers' bursts make a
 * host that trusts the mean admit past what its cores carry (verifier timeouts in docs/figures/epoch.md). */
const calibratedScenarioCpus = 0.15;

export const workerSettings = settingTable({
  TRL_MAX_CONCURRENT_ACTIVITIES: {
    schema: blankAsUnset(wholeNumber('TRL_MAX_CONCURRENT_ACTIVITIES', 'a whole number of at least 1').optional()),
    defaultText: '4 for the orchestration worker; unset: a sandbox host is bounded by its memory and CPU budget alone',
    description:
      'Activity slots of the orchestration worker; when set, also a cap on the scenarios a sandbox host claims at once, on top of its budget (`TRL_HOST_MEMORY_BYTES`, `TRL_HOST_CPUS`).',
  },
  TRL_HOST_MEMORY_BYTES: {
    schema: blankAsUnset(wholeNumber('TRL_HOST_MEMORY_BYTES', 'a whole number of bytes, at least 1').optional()),
    defaultText: "three quarters of this machine's memory",
    description:
      'Memory a sandbox host lends to scenarios: it claims one more while the held ones (measured, else estimated) and the next fit.',
  },
  TRL_HOST_CPUS: {
    schema: blankAsUnset(z.coerce.number().positive('TRL_HOST_CPUS must be a positive number of cores').optional()),
    defaultText: "this machine's cores",
    description: 'Cores a sandbox host lends to scenarios, by the mean CPU share each uses over its life.',
  },
  TRL_SCENARIO_MEMORY_BYTES: {
    schema: blankAsUnset(
      wholeNumber('TRL_SCENARIO_MEMORY_BYTES', 'a whole number of bytes, at least 1').default(
        calibratedScenarioMemoryBytes,
      ),
    ),
    description:
      "One scenario's memory (agent container + policy sidecar + verifier) until the host has measured three of its own (docs/figures/epoch.md).",
  },
  TRL_SCENARIO_CPUS: {
    schema: blankAsUnset(z.coerce.number().positive().default(calibratedScenarioCpus)),
    description:
      "One scenario's mean CPU share until the host has measured three of its own (docs/figures/epoch.md); most of a scenario is waiting on models.",
  },
  TRL_WORKER_HOST_ID: {
    schema: z
      .string()
      .regex(
        sandboxHostIdPattern,
        'TRL_WORKER_HOST_ID must be 1–100 letters, digits, ".", "_" or "-", starting with a letter or digit',
      )
      .optional(),
    defaultText: '`<hostname>-<pid>`',
    description:
      "The sandbox host's id, which names its queue `<queue>-host-<id>`; unique per sandbox process. A restarted process gets a new queue by default: the old one's tasks time out and their scenarios start over elsewhere.",
  },
  TRL_TASK_QUEUE: {
    schema: optionalText,
    defaultText: '`trl-evaluations`',
    description:
      'The evaluation task queue of a worker started directly (`node --import tsx workers/all-in-one.ts`, both roles); the sandbox and host queues derive from it.',
  },
  TRL_WORKER_PID_FILE: {
    schema: optionalText,
    defaultText: 'none (`trl up` writes `.data/worker.pid`)',
    description: 'Where a worker started directly (`workers/all-in-one.ts`) writes its pid while it runs.',
  },
  TRL_MAX_AGENT_OUTPUT_BYTES: {
    schema: blankAsUnset(
      wholeNumber('TRL_MAX_AGENT_OUTPUT_BYTES', 'a whole number of bytes, at least 1').default(64 * 1024 * 1024),
    ),
    description:
      'Cap on the outputs copied out of one agent container, as an archive (headers count); also at most 20 000 entries.',
  },
  TRL_AGENT_DISK_BUDGET_BYTES: {
    schema: blankAsUnset(
      wholeNumber('TRL_AGENT_DISK_BUDGET_BYTES', 'a whole number of bytes, at least 1').default(2 * 1024 * 1024 * 1024),
    ),
    description:
      "What one agent container may write to its writable layer: `StorageOpt size` where the storage driver supports it, and always a watchdog (`inspect --size` every 2 s) that stops the agent past it; the scenario is then verified with no outputs (the policy's failure).",
  },
  TRL_POLICY_REQUEST_TIMEOUT_SEC: {
    schema: z.coerce.number().positive().max(3600).default(300),
    description: 'How long one agent request may wait for the policy.',
  },
  TRL_WATCHDOG_FIRST_CALL_SEC: {
    schema: positiveSeconds('TRL_WATCHDOG_FIRST_CALL_SEC', 120),
    description:
      "The agent is stopped when no model call has completed in the first this-many seconds it waited on the policy (counted only while an agent request is open and no model call is in flight: the agent's own work and the model's latency are not the policy's); its outputs are still verified.",
  },
  TRL_WATCHDOG_IDLE_SEC: {
    schema: positiveSeconds('TRL_WATCHDOG_IDLE_SEC', 600),
    description:
      'After a completed call, the agent is stopped when no other completes in this many seconds of it waiting on the policy (counted as for `TRL_WATCHDOG_FIRST_CALL_SEC`); its outputs are still verified.',
  },
  TRL_POLICY_DEFAULT_MODEL: {
    schema: optionalText,
    defaultText: 'the cheapest tool-capable allowlisted model',
    description:
      "What model `auto` means in a Python or data pack's sidecar (its `DEFAULT_MODEL`); a model not on the allowlist is ignored.",
  },
  TRL_PACK_FETCH_ALLOW: {
    schema: optionalText,
    defaultText: 'none: public addresses only',
    description:
      '`address:port` endpoints (IPv6 in brackets, comma-separated) a pack URL may also lead to besides public addresses: a private pack mirror, or a test server.',
  },
  TRL_PREEVAL_FILE: {
    schema: optionalText,
    defaultText: '`screening/preeval.json`',
    description: "The pre-evaluation's configuration (static rules, similarity, judge, probe).",
  },
  TRL_INJECTION_CHECK: {
    schema: z
      .enum(['enforce', 'observe'], { error: 'TRL_INJECTION_CHECK must be "enforce" or "observe"' })
      .default('enforce'),
    description:
      'The run-time check of hidden scenario content a policy carries into model calls: `enforce` refuses the call and ends the scenario (`injected_scenario_content`); `observe` refuses nothing, to measure what a coaching pack gains without it (bench/realistic-fleet.ts). Never `observe` on a validator.',
  },
});
