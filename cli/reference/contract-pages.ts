// The pages written from contracts/: the blame table, the failure types, the search attributes.
import { blameOf, blameSourceMeanings, blameTable, consequenceMeanings } from '../../contracts/blame.ts';
import {
  chainErrorKinds,
  chainFailureType,
  chainNonRetryableTypes,
  evaluationNonRetryableTypes,
  failureTypeMeanings,
  failureTypes,
  packFailureTypes,
  packFaultTypes,
  packRejectionTypes,
  upstreamUnavailableType,
  verifierFailureTypes,
} from '../../contracts/failure-types.ts';
import { searchAttributeMeanings, searchAttributes } from '../../contracts/temporal-names.ts';
import { code, generatedHeader, markdownTable } from './markdown.ts';

export function blamePage(): string {
  const sources = [...new Set(blameTable.map((row) => row.source))];
  const sections = sources.map((source) => {
    const rows = blameTable
      .filter((row) => row.source === source)
      .map((row) => [code(row.cause), row.blame, code(row.consequence), row.proof.replace(/^(\S+) — /, '`$1` — ')]);
    return `## ${code(source)}\n\n${blameSourceMeanings[source]}\n\n${markdownTable(['cause', 'blame', 'consequence', 'the test that proves it'], rows)}`;
  });
  const consequences = Object.entries(consequenceMeanings).map(([name, meaning]) => `- ${code(name)}: ${meaning}.`);
  return [
    generatedHeader('contracts/blame.ts'),
    '# Blame',
    '',
    "Who is to blame for every way a scenario or an evaluation can fail. The policy's failures and the agent's are",
    "scored (the pack drives both); the infrastructure's are `infra_error` and never move the seat.",
    'contracts/blame.test.ts checks that every failure type and scenario status has a row and that each named test exists.',
    '',
    ...consequences,
    '',
    sections.join('\n'),
  ].join('\n');
}

export function failureTypesPage(): string {
  const groups: [string, string, readonly string[]][] = [
    ['Pack intake', 'The first five end the evaluation as `rejected`.', Object.values(packFailureTypes)],
    [
      "The pack's own faults",
      'Raised by an activity as non-retryable: the scenario is scored 0 with the reason, and the evaluation completes.',
      Object.values(packFaultTypes),
    ],
    [
      'Verifier',
      'Infrastructure failures of the verifier: retried, then the scenario is `infra_error`.',
      Object.values(verifierFailureTypes),
    ],
    [
      'Evaluation',
      'The other failures an evaluation records.',
      [...Object.values(failureTypes), upstreamUnavailableType],
    ],
    [
      'Chain',
      "Chain failures are `chain_<kind>`; the kinds are chain/chain-error.ts's.",
      chainErrorKinds.map(chainFailureType),
    ],
  ];
  const sections = groups.map(([title, about, types]) => {
    const rows = types.map((type) => {
      const meaning = failureTypeMeanings[type];
      if (!meaning)
        throw new Error(`contracts/failure-types.ts: failure type ${type} has no entry in failureTypeMeanings`);
      const retried =
        evaluationNonRetryableTypes.includes(type) || chainNonRetryableTypes.includes(type) ? 'no' : 'yes';
      const blame = blameOf('failure_type', type);
      return [
        code(type),
        blame ? `${blame.blame}, ${code(blame.consequence)}` : '',
        retried,
        `${meaning}${packRejectionTypes.includes(type) ? ' Rejects the pack.' : ''}`,
      ];
    });
    return `## ${title}\n\n${about}\n\n${markdownTable(['type', 'blame', 'retried', 'meaning'], rows)}`;
  });
  return [
    generatedHeader('contracts/failure-types.ts'),
    '# Failure types',
    '',
    'Every failure type that crosses the Temporal boundary: activities raise them as `ApplicationFailure` types,',
    'workflows match on them, and the ones marked "retried: no" are in the retry policies\' non-retryable lists.',
    'Blame and consequence come from [the blame table](blame.md).',
    '',
    sections.join('\n'),
  ].join('\n');
}

export function searchAttributesPage(): string {
  const rows = (Object.keys(searchAttributes) as (keyof typeof searchAttributes)[]).map((key) => [
    code(searchAttributes[key].name),
    code(searchAttributes[key].type),
    searchAttributeMeanings[key],
  ]);
  return [
    generatedHeader('contracts/temporal-names.ts'),
    '# Search attributes',
    '',
    'The search attributes every evaluation carries, registered on the namespace when a worker starts. In the',
    'Temporal Web UI or `temporal workflow list --query`, e.g. `TrlStatus = "incomplete" AND TrlRole = "challenger"`.',
    '',
    markdownTable(['name', 'type', 'holds'], rows),
  ].join('\n');
}
