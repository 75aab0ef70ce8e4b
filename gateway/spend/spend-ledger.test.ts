import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { SpendLedger, spendFileName } from './spend-ledger.ts';
import { SpendBook } from './spend-book.ts';
import { parseSpendLines } from './spend-events.ts';

const owner = { host: os.hostname(), pid: process.pid };
const tempDir = () => mkdtemp(path.join(os.tmpdir(), 'trl-spend-'));
const roomy = { submissionUsd: 30, dailyUsd: 500 };

function clockAt(iso: string) {
  let now = new Date(iso);
  return {
    clock: () => now,
    set: (next: string) => {
      now = new Date(next);
    },
  };
}

const reserveRequest = (attemptId: string, submissionId = 's1', amountUsd = 1) => ({
  attemptId,
  submissionId,
  scenario: 'csv',
  amountUsd,
  owner,
});

test('reserve, settle and release add up per submission and per day, and survive a reopen', async () => {
  const dir = await tempDir();
  const { clock } = clockAt('2026-03-01T12:00:00Z');
  const ledger = await SpendLedger.open({ dir, ceilings: roomy, clock });
  for (const id of ['a', 'b', 'c'])
    assert.deepEqual(await ledger.reserve(reserveRequest(id)), { ok: true, day: '2026-03-01' });
  await ledger.reserve(reserveRequest('d', 's2'));
  await ledger.settle('a', 0.125);
  await ledger.release('b', 'the environment did not start');
  await ledger.settle('a', 0.9); // a second close is ignored
  assert.deepEqual(await ledger.totals({ submissionId: 's1' }), {
    settledUsd: 0.125,
    reservedUsd: 1,
    totalUsd: 1.125,
    attempts: 3,
    openAttempts: 1,
  });
  assert.equal((await ledger.totals({ day: '2026-03-01' })).totalUsd, 2.125);
  const reopened = await SpendLedger.open({ dir, ceilings: roomy, clock });
  assert.deepEqual(await reopened.totals({ submissionId: 's1' }), await ledger.totals({ submissionId: 's1' }));
  assert.deepEqual(await readdir(dir), [spendFileName('2026-03-01')], 'one file for the day, and no lock left behind');
  const kinds = parseSpendLines(await readFile(path.join(dir, spendFileName('2026-03-01')), 'utf8')).events.map(
    (e) => `${e.kind}:${e.attemptId}`,
  );
  assert.deepEqual(kinds, ['reserve:a', 'reserve:b', 'reserve:c', 'reserve:d', 'settle:a', 'release:b']);
});

test('a reservation past the submission or the daily ceiling is refused and writes nothing', async () => {
  const dir = await tempDir();
  const ledger = await SpendLedger.open({
    dir,
    ceilings: { submissionUsd: 2, dailyUsd: 3 },
    clock: clockAt('2026-03-01T12:00:00Z').clock,
  });
  assert.equal((await ledger.reserve(reserveRequest('a'))).ok, true);
  assert.equal((await ledger.reserve(reserveRequest('b'))).ok, true);
  const third = await ledger.reserve(reserveRequest('c'));
  assert.ok(!third.ok && third.refusal.ceiling === 'submission' && third.refusal.reservedUsd === 2);
  await ledger.settle('a', 0.5);
  assert.equal((await ledger.reserve(reserveRequest('c'))).ok, false, '0.5 + 1 + 1 still passes 2');
  assert.equal((await ledger.reserve(reserveRequest('x', 's2'))).ok, true);
  const daily = await ledger.reserve(reserveRequest('y', 's3'));
  assert.ok(!daily.ok && daily.refusal.ceiling === 'daily', JSON.stringify(daily));
  const lines = (await readFile(path.join(dir, spendFileName('2026-03-01')), 'utf8')).trim().split('\n');
  assert.equal(lines.length, 4, 'three reserves and one settle');
});

test('a torn last line is left unread, then terminated so the next line survives', async () => {
  const dir = await tempDir();
  const { clock } = clockAt('2026-03-01T12:00:00Z');
  const first = await SpendLedger.open({ dir, ceilings: roomy, clock });
  await first.reserve(reserveRequest('a'));
  await first.settle('a', 0.3);
  // A crash mid-write: half a line, no newline.
  const file = path.join(dir, spendFileName('2026-03-01'));
  await appendFile(file, '{"kind":"reserve","time":"2026-03-01T12:00:01Z","attemptId":"to');
  const ledger = await SpendLedger.open({ dir, ceilings: roomy, clock });
  assert.deepEqual(await ledger.readStats(), { corruptLines: 0, tornTails: 1 });
  assert.equal((await ledger.totals({ submissionId: 's1' })).settledUsd, 0.3);
  await ledger.reserve(reserveRequest('b'));
  const reread = await SpendLedger.open({ dir, ceilings: roomy, clock });
  assert.deepEqual(await reread.readStats(), { corruptLines: 1, tornTails: 0 });
  assert.deepEqual(await reread.totals({ submissionId: 's1' }), {
    settledUsd: 0.3,
    reservedUsd: 1,
    totalUsd: 1.3,
    attempts: 2,
    openAttempts: 1,
  });
});

test('corrupt lines are skipped and counted; every other line is kept', async () => {
  const dir = await tempDir();
  const { clock } = clockAt('2026-03-01T12:00:00Z');
  const writer = await SpendLedger.open({ dir, ceilings: roomy, clock });
  await writer.reserve(reserveRequest('a'));
  const file = path.join(dir, spendFileName('2026-03-01'));
  await appendFile(file, 'garbage\n{"kind":"settle","attemptId":"a"}\n\u0000\u0000\u0000\n');
  await writer.reserve(reserveRequest('b'));
  await writer.settle('b', 0.2);
  const reader = await SpendLedger.open({ dir, ceilings: roomy, clock });
  assert.equal((await reader.readStats()).corruptLines, 3);
  assert.deepEqual(await reader.totals({ submissionId: 's1' }), {
    settledUsd: 0.2,
    reservedUsd: 1,
    totalUsd: 1.2,
    attempts: 2,
    openAttempts: 1,
  });
});

test('an attempt counts against the UTC day of its reservation, across midnight', async () => {
  const dir = await tempDir();
  const time = clockAt('2026-03-01T23:59:59.500Z');
  const ledger = await SpendLedger.open({ dir, ceilings: { submissionUsd: 100, dailyUsd: 2 }, clock: time.clock });
  await ledger.reserve(reserveRequest('late', 's1'));
  await ledger.reserve(reserveRequest('later', 's2'));
  assert.equal((await ledger.reserve(reserveRequest('full', 's3'))).ok, false, 'the first day is full');
  time.set('2026-03-02T00:00:00.200Z');
  await ledger.settle('late', 0.4);
  assert.equal(ledger.today(), '2026-03-02');
  assert.deepEqual(await ledger.reserve(reserveRequest('fresh', 's3')), { ok: true, day: '2026-03-02' });
  assert.equal((await ledger.totals({ day: '2026-03-01' })).totalUsd, 1.4);
  assert.equal((await ledger.totals({ day: '2026-03-02' })).totalUsd, 1);
  assert.deepEqual((await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort(), [
    spendFileName('2026-03-01'),
    spendFileName('2026-03-02'),
  ]);
  // The settle line went into the new day's file but names the day it counts against.
  const second = parseSpendLines(await readFile(path.join(dir, spendFileName('2026-03-02')), 'utf8')).events;
  assert.deepEqual(
    second.map((e) => [e.kind, e.attemptId, e.day]),
    [
      ['settle', 'late', '2026-03-01'],
      ['reserve', 'fresh', '2026-03-02'],
    ],
  );
  const reopened = await SpendLedger.open({ dir, ceilings: { submissionUsd: 100, dailyUsd: 2 }, clock: time.clock });
  assert.equal((await reopened.totals({ day: '2026-03-01' })).totalUsd, 1.4);
});

test('ledgers sharing a directory (several worker processes) see each other through the lock', async () => {
  const dir = await tempDir();
  const { clock } = clockAt('2026-03-01T12:00:00Z');
  const one = await SpendLedger.open({ dir, ceilings: { submissionUsd: 2, dailyUsd: 500 }, clock });
  const two = await SpendLedger.open({ dir, ceilings: { submissionUsd: 2, dailyUsd: 500 }, clock });
  assert.equal((await one.reserve(reserveRequest('a'))).ok, true);
  assert.equal((await two.reserve(reserveRequest('b'))).ok, true);
  assert.equal((await one.reserve(reserveRequest('c'))).ok, false);
  await two.settle('a', 0.1); // closing another instance's attempt works too
  assert.equal((await one.totals({ submissionId: 's1' })).totalUsd, 1.1);
});

test('closing an attempt that was never reserved is a programming error', async () => {
  const ledger = await SpendLedger.open({ dir: await tempDir(), ceilings: roomy });
  await assert.rejects(ledger.settle('nope', 1), /never reserved/);
  await ledger.reserve(reserveRequest('a'));
  await ledger.release('a', 'r');
  await assert.rejects(ledger.reserve(reserveRequest('a')), /already closed/);
});

test('property: many parallel reservations across several ledgers on one directory never pass a ceiling', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        submissionUsd: fc.double({ min: 0.5, max: 20, noNaN: true }),
        dailyUsd: fc.double({ min: 0.5, max: 30, noNaN: true }),
      }),
      fc.array(
        fc.record({
          submission: fc.integer({ min: 0, max: 3 }),
          instance: fc.integer({ min: 0, max: 2 }),
          amountUsd: fc.double({ min: 0.01, max: 3, noNaN: true }),
          // What the attempt spends, as a share of its reservation; undefined: still open at the end.
          spentShare: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
          afterMidnight: fc.boolean(),
        }),
        { minLength: 20, maxLength: 60 },
      ),
      async (ceilings, attempts) => {
        const dir = await tempDir();
        const time = clockAt('2026-03-01T23:59:59Z');
        const ledgers = await Promise.all([0, 1, 2].map(() => SpendLedger.open({ dir, ceilings, clock: time.clock })));
        let accepted = 0;
        await Promise.all(
          attempts.map(async (attempt, i) => {
            const ledger = ledgers[attempt.instance]!;
            if (attempt.afterMidnight) time.set('2026-03-02T00:00:01Z');
            const outcome = await ledger.reserve({
              attemptId: `a${i}`,
              submissionId: `s${attempt.submission}`,
              scenario: 'x',
              amountUsd: attempt.amountUsd,
              owner,
            });
            if (!outcome.ok) return;
            accepted += 1;
            if (attempt.spentShare !== undefined)
              await ledgers[(attempt.instance + 1) % 3]!.settle(`a${i}`, attempt.amountUsd * attempt.spentShare);
          }),
        );
        // Replay every line in the order the lock serialised them (the clock only moves forward, so
        // the day files in order, each in line order): no reservation may ever have put a
        // submission or a day past its ceiling.
        const book = new SpendBook();
        const files = (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort();
        const events = (
          await Promise.all(files.map(async (n) => parseSpendLines(await readFile(path.join(dir, n), 'utf8'))))
        ).flatMap((p) => p.events);
        assert.equal(events.filter((e) => e.kind === 'reserve').length, accepted);
        for (const event of events) {
          book.apply(event);
          if (event.kind !== 'reserve') continue;
          assert.ok(book.totals({ submissionId: event.submissionId }).totalUsd <= ceilings.submissionUsd + 1e-9);
          assert.ok(book.totals({ day: event.day }).totalUsd <= ceilings.dailyUsd + 1e-9);
        }
        for (const ledger of ledgers) {
          for (const s of [0, 1, 2, 3])
            assert.ok((await ledger.totals({ submissionId: `s${s}` })).totalUsd <= ceilings.submissionUsd + 1e-9);
        }
      },
    ),
    { numRuns: 25 },
  );
});
