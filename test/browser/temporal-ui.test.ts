// The Temporal Web UI as an operator sees it, in headless Chromium (Debian's package, driven by
// puppeteer-core): a finished evaluation is found in the list by its search attributes, its
// timeline names each activity's scenario, and its user metadata shows the summary and the outcome
// table. Screenshots go to browserScreenshotsDir. Run with `trl test --browser`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import puppeteer, { type Browser, type Frame, type Page } from 'puppeteer-core';
import { browserScreenshotsDir } from '../../common/data-layout.ts';
import { evaluationWorkflowId, searchAttributes } from '../../contracts/temporal-names.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { ensureChromium } from '../../infra/chromium.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

const scenarios = ['csv-sales-report', 'newton-root-solver'];
// The UI fetches and renders on its own schedule; this bounds a wait, it is not asserted on.
const renderWaitMs = 60_000;

async function textOf(target: Page | Frame): Promise<string> {
  return target.evaluate(() => document.body?.innerText ?? '');
}

/** Waits until the page (or one of its frames) shows every string, then returns that text. */
async function waitForText(page: Page, wanted: string[]): Promise<string> {
  const deadline = Date.now() + renderWaitMs;
  let seen = '';
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      seen = await textOf(frame).catch(() => '');
      if (wanted.every((w) => seen.includes(w))) return seen;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const all = (await Promise.all(page.frames().map((f) => textOf(f).catch(() => '')))).join('\n---\n');
  assert.fail(`the page never showed ${JSON.stringify(wanted)}; it shows:\n${all.slice(0, 3000)}`);
}

describe('the Temporal Web UI explains an evaluation', () => {
  let harness: Harness;
  let browser: Browser;
  let page: Page;
  let result: EvaluationResult;
  let runId: string;
  const submissionId = uniqueId('browser');
  const workflowId = evaluationWorkflowId(submissionId);
  const ui = process.env.TRL_TEMPORAL_UI_URL ?? 'http://127.0.0.1:8233';
  const shot = (name: string) => path.join(browserScreenshotsDir, `${submissionId}-${name}.png`);

  before(async () => {
    const executablePath = await ensureChromium();
    // The worker stays up while the browser looks: the current details are answered by a query.
    harness = await startHarness();
    result = await harness.evaluate({
      submissionId,
      pack: { kind: 'directory', path: examplePackDir },
      agent: 'oracle',
      scenarios,
    });
    runId = (await harness.client.workflow.getHandle(workflowId).describe()).runId;
    await mkdir(browserScreenshotsDir, { recursive: true });
    browser = await puppeteer.launch({
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--window-size=1600,1100'],
      defaultViewport: { width: 1600, height: 1100 },
    });
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  test('the list finds the run by role and spec hash, completed', async () => {
    const query = `${searchAttributes.role.name}="local" AND ${searchAttributes.specHash.name}="${result.manifestHash}"`;
    await page.goto(`${ui}/namespaces/${harness.namespace}/workflows?query=${encodeURIComponent(query)}`);
    const text = await waitForText(page, [workflowId]);
    // The row: its status badge, then the id (innerText applies the badge's upper case).
    assert.match(text, new RegExp(`completed\\s+${workflowId}`, 'i'));
    await page.screenshot({ path: shot('list'), fullPage: true });
  });

  test('the timeline names the scenario of every sandbox activity', async () => {
    await page.goto(`${ui}/namespaces/${harness.namespace}/workflows/${workflowId}/${runId}/timeline`);
    const labels = scenarios.flatMap((name) => [
      `prepareScenario • ${name}`,
      `runScenario • ${name}`,
      `verifyScenario • ${name}`,
    ]);
    const text = await waitForText(page, labels);
    assert.ok(text.includes('fetchPack • single-model'), 'the pack fetch is named by the pack');
    await page.screenshot({ path: shot('timeline'), fullPage: true });
  });

  test('user metadata: the static summary, and current details ending in the outcome table', async () => {
    await page.goto(`${ui}/namespaces/${harness.namespace}/workflows/${workflowId}/${runId}/user-metadata`);
    await waitForText(page, ['local · pack single-model · local · oracle']);
    const details = await waitForText(page, [`${result.testsPassed} of ${result.testsTotal} tests passed`]);
    // The markdown renderer sets "/" as a fraction slash (U+2044).
    for (const s of result.perScenario)
      assert.match(details, new RegExp(`${s.name}\\s+completed\\s+${s.testsPassed}[/\u2044]${s.testsTotal}`), details);
    await page.screenshot({ path: shot('user-metadata'), fullPage: true });
  });
});
