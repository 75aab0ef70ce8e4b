// `trl report` and `trl seat --report` pages in headless Chromium (Debian's package, puppeteer-core)
// with every request that is not the file itself refused and recorded: the pages render their
// charts and tables and ask the network for nothing. Screenshots go to browserScreenshotsDir.
// Run with `trl test --browser`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { browserScreenshotsDir } from '../../common/data-layout.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { ensureChromium } from '../../infra/chromium.ts';
import { reportCommand } from '../../cli/commands/report-command.ts';
import { renderSeatReport } from '../../cli/report/seat-report.ts';
import { decideChallenge } from '../../scoring/decision-rule.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

/** Opens a file with all other requests refused; returns what was asked for besides the file. */
async function openOffline(page: Page, file: string): Promise<string[]> {
  const asked: string[] = [];
  const url = pathToFileURL(file).href;
  await page.setRequestInterception(true);
  page.removeAllListeners('request');
  page.on('request', (request) => {
    if (request.url() === url) void request.continue();
    else {
      asked.push(request.url());
      void request.abort();
    }
  });
  await page.goto(url, { waitUntil: 'load' });
  return asked;
}

async function svgBoxes(page: Page): Promise<{ label: string; width: number; height: number }[]> {
  return page.$$eval('svg', (nodes) =>
    nodes.map((n) => ({
      label: n.getAttribute('aria-label') ?? '',
      width: n.getBoundingClientRect().width,
      height: n.getBoundingClientRect().height,
    })),
  );
}

describe('report pages in a browser, offline', () => {
  let harness: Harness;
  let browser: Browser;
  let page: Page;
  let result: EvaluationResult;
  const id = uniqueId('report');
  let dir: string;

  before(async () => {
    const executablePath = await ensureChromium();
    harness = await startHarness();
    result = await harness.evaluate({
      pack: { kind: 'directory', path: examplePackDir },
      agent: 'oracle',
      scenarios: ['csv-sales-report'],
    });
    dir = await mkdtemp(path.join(os.tmpdir(), 'trl-report-pages-'));
    await mkdir(browserScreenshotsDir, { recursive: true });
    browser = await puppeteer.launch({
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
      defaultViewport: { width: 1200, height: 1000 },
    });
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  test('an evaluation report renders its charts and asks for nothing', async () => {
    const file = path.join(dir, 'report.html');
    assert.equal(await reportCommand({ workflowId: result.workflowId, out: file }), 0);
    assert.deepEqual(await openOffline(page, file), []);
    const text = await page.evaluate(() => document.body.innerText);
    assert.ok(text.includes(`${result.testsPassed}/${result.testsTotal}`));
    assert.ok(
      text.includes('Routing timeline') && text.includes('no conversation recorded'),
      'the oracle went through no policy',
    );
    const boxes = await svgBoxes(page);
    assert.ok(
      boxes.some((b) => b.label === 'tests passed per scenario' && b.width > 100 && b.height > 10),
      JSON.stringify(boxes),
    );
    assert.ok(boxes.some((b) => b.label === 'tests passed against cost' && b.width > 100));
    await page.screenshot({ path: path.join(browserScreenshotsDir, `${id}-evaluation.png`), fullPage: true });
  });

  test('a seat evidence page renders its bootstrap histogram and asks for nothing', async () => {
    const names = ['csv-sales-report', 'fix-inventory-bug', 'sqlite-orders-analytics'];
    const side = (packHash: string, passed: number[]) => ({
      packHash,
      workflowId: `evaluate-seat-11-1-${packHash[0]}`,
      status: 'completed' as const,
      testsPassed: passed.reduce((t, p) => t + p, 0),
      testsTotal: 30,
      perScenario: passed.map((testsPassed, i) => ({ scenario: names[i]!, testsPassed, testsTotal: 10 })),
    });
    const incumbent = side('a'.repeat(64), [5, 6, 4]);
    const challenger = side('b'.repeat(64), [9, 8, 9]);
    const decision = decideChallenge({
      incumbentPackHash: incumbent.packHash,
      challengerPackHash: challenger.packHash,
      incumbent: [incumbent],
      challenger: [challenger],
      bootstrapResamples: 10_000,
      confidence: 0.998,
    });
    const file = path.join(dir, 'seat.html');
    await writeFile(
      file,
      renderSeatReport(
        {
          netuid: 11,
          record: {
            number: 1,
            packHash: challenger.packHash,
            hotkey: 'hotkey',
            outcome: decision.outcome,
            reason: decision.reason,
            decidedAt: new Date().toISOString(),
            evaluations: [],
          },
          challenge: { packHash: challenger.packHash, hotkey: 'hotkey' },
          decision,
          evaluations: [challenger, incumbent],
        },
        'now',
      ),
    );
    assert.deepEqual(await openOffline(page, file), []);
    const boxes = await svgBoxes(page);
    assert.ok(
      boxes.some((b) => b.label === 'bootstrap distribution of C − I' && b.width > 300 && b.height > 100),
      JSON.stringify(boxes),
    );
    const bars = await page.$$eval(
      'svg[aria-label="bootstrap distribution of C − I"] rect',
      (rects) => rects.filter((r) => r.getBoundingClientRect().height > 0).length,
    );
    assert.ok(bars >= 2, `${bars} visible histogram bars`);
    await page.screenshot({ path: path.join(browserScreenshotsDir, `${id}-seat.png`), fullPage: true });
  });
});
