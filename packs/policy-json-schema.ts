// policy.json of a format-1 pack (the data kinds pin, escalate, advisers), checked with zod. The
// sidecar's own check is policy/python/trajrl_policy/policy_json.py; the two accept the same
// documents, fill in the same defaults and name the same field (policy-json-schema.test.ts).
import { z } from 'zod';
import { JsonTooDeepError, parseJsonBounded } from '../common/bounded-json.ts';
import { byteOrderMarkProblem, showValue } from '../common/json-text-problems.ts';

export const fusionModels = [
  'deepseek-v4-flash-0731',
  'deepseek-v4.1-flash',
  'qwen3.6-35b-a3b',
  'qwen3.8-27b',
  'glm-5.3-flash',
  'glm-5.2',
  'glm-5.3',
  'kimi-k3',
] as const;
export const policySignals = ['stall', 'len', 'toolerr', 'noprog', 'repeat'] as const;
export const policyKinds = ['pin', 'escalate', 'advisers'] as const;

const show = (value: unknown) => showValue(value);

function modelField() {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      if (typeof value !== 'string' || !(fusionModels as readonly string[]).includes(value)) {
        ctx.addIssue({ code: 'custom', message: `must be one of ${fusionModels.join(', ')} (got ${show(value)})` });
      }
    })
    .transform((value) => value as (typeof fusionModels)[number]);
}

function numberField(low: number, high: number, integer: boolean) {
  const rule = `must be ${integer ? 'an integer' : 'a number'} from ${low} to ${high}`;
  return z
    .unknown()
    .superRefine((value, ctx) => {
      const ok =
        typeof value === 'number' &&
        Number.isFinite(value) &&
        value >= low &&
        value <= high &&
        (!integer || Number.isInteger(value));
      if (!ok) ctx.addIssue({ code: 'custom', message: `${rule} (got ${show(value)})` });
    })
    .transform((value) => value as number);
}

const signalsField = z
  .unknown()
  .superRefine((value, ctx) => {
    if (!Array.isArray(value) || value.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a non-empty array of ${policySignals.join(', ')} (got ${show(value)})`,
      });
      return;
    }
    value.forEach((signal, index) => {
      if (!(policySignals as readonly unknown[]).includes(signal)) {
        ctx.addIssue({
          code: 'custom',
          path: [index],
          message: `must be one of ${policySignals.join(', ')} (got ${show(signal)})`,
        });
      } else if (value.indexOf(signal) < index) {
        ctx.addIssue({ code: 'custom', path: [index], message: `repeats ${show(signal)}; list each signal once` });
      }
    });
  })
  .transform((value) => value as (typeof policySignals)[number][]);

const advisersField = z
  .unknown()
  .superRefine((value, ctx) => {
    if (!Array.isArray(value) || value.length < 1 || value.length > 8) {
      ctx.addIssue({ code: 'custom', message: `must be an array of 1 to 8 model names (got ${show(value)})` });
      return;
    }
    value.forEach((adviser, index) => {
      if (typeof adviser !== 'string' || !(fusionModels as readonly string[]).includes(adviser)) {
        ctx.addIssue({
          code: 'custom',
          path: [index],
          message: `must be one of ${fusionModels.join(', ')} (got ${show(adviser)})`,
        });
      }
    });
  })
  .transform((value) => value as (typeof fusionModels)[number][]);

export const pinPolicySchema = z.strictObject({
  kind: z.literal('pin'),
  model: modelField(),
});

export const escalatePolicySchema = z.strictObject({
  kind: z.literal('escalate'),
  cheap: modelField(),
  strong: modelField(),
  signals: signalsField.default(['stall', 'toolerr', 'repeat']),
  stall_s: numberField(1, 3600, false).default(420),
});

export const advisersPolicySchema = z.strictObject({
  kind: z.literal('advisers'),
  writer: modelField(),
  advisers: advisersField,
  max_tokens: numberField(16, 8192, true).default(400),
  temperature: numberField(0, 2, false).default(0.7),
  every: numberField(1, 1000, true).default(1),
});

export const policyJsonSchema = z.discriminatedUnion('kind', [
  pinPolicySchema,
  escalatePolicySchema,
  advisersPolicySchema,
]);
export type PolicyJson = z.infer<typeof policyJsonSchema>;

const requiredFields: Record<(typeof policyKinds)[number], string[]> = {
  pin: ['model'],
  escalate: ['cheap', 'strong'],
  advisers: ['writer', 'advisers'],
};

function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
}

export type PolicyJsonCheck = { ok: true; value: PolicyJson } | { ok: false; message: string };

/** Validates a parsed policy.json; the message is one line naming the field and the rule. */
export function checkPolicyJson(document: unknown): PolicyJsonCheck {
  const fail = (field: string, rule: string): PolicyJsonCheck => ({
    ok: false,
    message: `policy.json: ${field ? `field "${field}"` : 'the document'} ${rule}`,
  });
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return fail('', `must be a JSON object with a "kind" field (got ${show(document)})`);
  }
  const record = document as Record<string, unknown>;
  if (!('kind' in record)) return fail('kind', `is required; one of ${policyKinds.join(', ')}`);
  const kind = record.kind;
  if (!(policyKinds as readonly unknown[]).includes(kind))
    return fail('kind', `must be one of ${policyKinds.join(', ')} (got ${show(kind)})`);
  const schema = { pin: pinPolicySchema, escalate: escalatePolicySchema, advisers: advisersPolicySchema }[
    kind as (typeof policyKinds)[number]
  ];
  const allowed = Object.keys(schema.shape);
  for (const field of Object.keys(record)) {
    if (!allowed.includes(field))
      return fail(field, `is not allowed for kind "${String(kind)}"; allowed: ${allowed.join(', ')}`);
  }
  for (const field of requiredFields[kind as (typeof policyKinds)[number]]) {
    if (!(field in record)) return fail(field, `is required for kind "${String(kind)}"`);
  }
  const parsed = policyJsonSchema.safeParse(document);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0]!;
  return fail(fieldName(issue.path), issue.message);
}

/** policy.json text → the checked document, or a one-line message. */
export function parsePolicyJson(text: string): PolicyJsonCheck {
  const bom = byteOrderMarkProblem(text, 'the document');
  if (bom) return { ok: false, message: `policy.json: ${bom}` };
  let document: unknown;
  try {
    document = parseJsonBounded(text);
  } catch (error) {
    if (error instanceof JsonTooDeepError) return { ok: false, message: `policy.json: ${error.message}` };
    return { ok: false, message: `policy.json: the document is not valid JSON (${(error as Error).message})` };
  }
  return checkPolicyJson(document);
}
