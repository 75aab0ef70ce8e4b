// `trl seat --report`: one seat decision's evidence as a self-contained HTML page. Pure: the decision
// file in, the page out. The bootstrap distribution is drawn again from the recorded differences and
// seed with the decision rule's own sampler, and the page says whether that reproduces the bound.
import { z } from 'zod';
import type { Decision, ScoredEvaluation, SeatRecord } from '../../contracts/seat.ts';
import { SeededRandom, seedFromString } from '../../scoring/seeded-random.ts';
import { lowerBoundRank } from '../../scoring/paired-bootstrap.ts';
import { escapeHtml, htmlPage, htmlTable } from './html-page.ts';
import { histogram } from './svg-charts.ts';

/** The decision file as recordSeatDecision writes it (activities/seat-activities.ts); only what the page reads is
 * checked. */
export const decisionFileSchema = z.object({
  netuid: z.number(),
  record: z
    .object({
      number: z.number(),
      packHash: z.string(),
      hotkey: z.string(),
      outcome: z.string(),
      reason: z.string(),
      decidedAt: z.string(),
    })
    .passthrough(),
  challenge: z.object({ packHash: z.string(), hotkey: z.string() }).passthrough(),
  decision: z
    .object({
      perScenario: z.array(
        z.object({ scenario: z.string(), incumbent: z.number(), challenger: z.number(), difference: z.number() }),
      ),
      bootstrap: z.object({
        resamples: z.number(),
        seed: z.string(),
        confidence: z.number(),
        meanDifference: z.number(),
        lowerBound: z.number(),
        passed: z.boolean(),
      }),
    })
    .passthrough()
    .nullable(),
  evaluations: z.array(
    z
      .object({
        packHash: z.string(),
        workflowId: z.string(),
        status: z.string(),
        testsPassed: z.number(),
        testsTotal: z.number(),
        perScenario: z.array(
          z.object({ scenario: z.string(), testsPassed: z.number(), testsTotal: z.number() }).passthrough(),
        ),
      })
      .passthrough(),
  ),
  manifestHash: z.string().optional(),
});

export interface DecisionFile {
  netuid: number;
  record: SeatRecord;
  challenge: { packHash: string; hotkey: string };
  decision: Decision | null;
  evaluations: ScoredEvaluation[];
  manifestHash?: string;
}

/** The resampled sums of C − I, sorted, exactly as the decision rule drew them. */
export function bootstrapSums(differences: readonly number[], resamples: number, seed: string): Float64Array {
  const random = new SeededRandom(seedFromString(seed));
  const sums = new Float64Array(resamples);
  for (let resample = 0; resample < resamples; resample++) {
    let sum = 0;
    for (let draw = 0; draw < differences.length; draw++) sum += differences[random.nextInt(differences.length)]!;
    sums[resample] = sum;
  }
  return sums.sort();
}

const figure = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

function sideOf(evaluation: ScoredEvaluation, file: DecisionFile): string {
  if (/-challenger-/.test(evaluation.workflowId)) return 'challenger';
  if (/-incumbent-/.test(evaluation.workflowId)) return 'incumbent';
  return evaluation.packHash === file.challenge.packHash ? 'challenger' : 'incumbent';
}

export function renderSeatReport(file: DecisionFile, generatedAt: string): string {
  const { record, decision } = file;
  const title = `Seat decision #${record.number} (subnet ${file.netuid})`;
  const parts: string[] = [`<h1>${escapeHtml(title)}</h1>`];
  const won = record.outcome === 'challenger_takes_seat';
  parts.push(
    `<p class="meta">decided ${escapeHtml(record.decidedAt)} · outcome <b class="${won ? 'ok' : 'bad'}">${escapeHtml(record.outcome)}</b> · challenger <code>${escapeHtml(file.challenge.packHash.slice(0, 16))}…</code> from ${escapeHtml(file.challenge.hotkey)}` +
      `${record.incumbentPackHash ? ` · incumbent <code>${escapeHtml(record.incumbentPackHash.slice(0, 16))}…</code>` : ''}${file.manifestHash ? ` · spec manifest <code>${escapeHtml(file.manifestHash.slice(0, 16))}…</code>` : ''} · generated ${escapeHtml(generatedAt)}</p>`,
  );
  parts.push(`<p>${escapeHtml(record.reason)}</p>`);

  const sides = file.evaluations.map((e) => ({ evaluation: e, side: sideOf(e, file) }));
  if (sides.length) {
    parts.push('<h2 id="evaluations">Evaluations</h2>');
    parts.push(
      htmlTable(
        ['side', 'workflow', 'status', 'tests'],
        sides.map(({ evaluation, side }) => [
          side,
          evaluation.workflowId,
          evaluation.status,
          `${evaluation.testsPassed}/${evaluation.testsTotal}`,
        ]),
        { numericFrom: 3 },
      ),
    );
  }
  if (!decision) {
    parts.push(
      '<p class="note">no paired decision was computed (a side was rejected or could not be evaluated): the reason above says why</p>',
    );
    return htmlPage(title, parts.join('\n'));
  }

  parts.push(
    `<div class="cards">${[
      [figure(decision.challengerTotal), 'challenger C (tests)'],
      [figure(decision.incumbentTotal), 'incumbent I (tests)'],
      [figure(decision.requiredTotal), 'C must exceed I + I·δ(s)'],
      [
        figure(decision.bootstrap.lowerBound),
        `${(decision.bootstrap.confidence * 100).toFixed(1)}% lower bound of C − I`,
      ],
    ]
      .map(([value, label]) => `<div class="card"><b>${escapeHtml(value)}</b><span>${escapeHtml(label)}</span></div>`)
      .join('')}</div>`,
  );

  parts.push('<h2 id="margin">Noise margin</h2>');
  parts.push(
    htmlTable(
      ['figure', 'value'],
      [
        ['tests in the scenarios both sides were scored on', decision.maxTotal],
        ['incumbent share s = I / max', decision.incumbentShare.toFixed(4)],
        ['margin δ(s) (3% up to s = 0.70, falling to 0 at s = 1)', `${(decision.marginFraction * 100).toFixed(2)}%`],
        ['margin I·δ(s), in tests', figure(decision.marginTests)],
        ['required: C > I + I·δ(s)', figure(decision.requiredTotal)],
        ['challenger C', figure(decision.challengerTotal)],
        ['margin test', { html: decision.passedMargin ? '<b class="ok">passed</b>' : '<b class="bad">not met</b>' }],
        ['repeats per side (averaged)', decision.repeats ?? 1],
      ],
      { numericFrom: 1 },
    ),
  );
  if (decision.excludedScenarios?.length)
    parts.push(
      `<p class="note">left out (not in every evaluation): ${escapeHtml(decision.excludedScenarios.join(', '))}</p>`,
    );

  parts.push('<h2 id="scenarios">Both sides per scenario</h2>');
  const repeats = sides.filter((s) => s.side === 'incumbent' || s.side === 'challenger');
  const headers = [
    'scenario',
    'incumbent',
    'challenger',
    'C − I',
    ...repeats.map(({ evaluation, side }) => `${side} ${evaluation.workflowId.slice(-10)}`),
  ];
  parts.push(
    htmlTable(
      headers,
      decision.perScenario.map((row) => [
        row.scenario,
        figure(row.incumbent),
        figure(row.challenger),
        {
          html: `<span class="${row.difference > 0 ? 'ok' : row.difference < 0 ? 'bad' : ''}">${escapeHtml(figure(row.difference))}</span>`,
        },
        ...repeats.map(({ evaluation }) => {
          const score = evaluation.perScenario.find((s) => s.scenario === row.scenario);
          return score ? `${score.testsPassed}/${score.testsTotal}${score.unverified ? ' (unverified)' : ''}` : '—';
        }),
      ]),
      { numericFrom: 1 },
    ),
  );

  parts.push('<h2 id="bootstrap">Paired bootstrap</h2>');
  const { bootstrap } = decision;
  const differences = decision.perScenario.map((row) => row.difference);
  if (differences.length) {
    const sums = bootstrapSums(differences, bootstrap.resamples, bootstrap.seed);
    const bound = sums[lowerBoundRank(bootstrap.resamples, bootstrap.confidence) - 1]!;
    const observed = differences.reduce((t, d) => t + d, 0);
    parts.push(
      `<p class="note">${bootstrap.resamples} resamples of the ${differences.length} scenarios with replacement (seed ${escapeHtml(bootstrap.seed)}), each summing C − I; the bound is the ${lowerBoundRank(bootstrap.resamples, bootstrap.confidence)}th smallest sum. The challenger needs a bound above 0.</p>`,
    );
    parts.push(
      histogram(sums, {
        label: 'bootstrap distribution of C − I',
        xLabel: 'resampled sum of C − I (tests)',
        markers: [
          { value: 0, label: 'zero', color: '#1d2433' },
          { value: bound, label: 'lower bound', color: '#b42318' },
          { value: observed, label: 'observed C − I', color: '#17803d' },
        ],
      }),
    );
    const same = Math.abs(bound - bootstrap.lowerBound) < 1e-9;
    parts.push(
      htmlTable(
        ['figure', 'value'],
        [
          ['observed C − I (sum of differences)', figure(observed)],
          ['mean of resampled sums', figure(bootstrap.meanDifference)],
          [`lower bound at ${(bootstrap.confidence * 100).toFixed(1)}% (recorded)`, figure(bootstrap.lowerBound)],
          [
            'lower bound drawn again here',
            {
              html: `${escapeHtml(figure(bound))} ${same ? '<span class="ok">(matches the record)</span>' : '<b class="bad">(differs from the record: the sampler changed since the decision)</b>'}`,
            },
          ],
          [
            'bound test',
            { html: bootstrap.passed ? '<b class="ok">passed (> 0)</b>' : '<b class="bad">failed (needs > 0)</b>' },
          ],
        ],
        { numericFrom: 1 },
      ),
    );
  } else parts.push('<p class="note">no paired scenarios: no bootstrap was drawn</p>');
  return htmlPage(title, parts.join('\n'));
}
