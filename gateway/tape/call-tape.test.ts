// The tape on a model-call log recorded by a real Hermes run (sim fleet upstream).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import {
  firstDifference,
  loadTape,
  loadTapeCuts,
  requestFingerprint,
  TapeDivergence,
  TapePlayer,
} from './call-tape.ts';

const recorded = readFileSync(
  path.join(repoRoot, 'test', 'fixtures', 'tapes', 'hermes-csv-sales-report.model-calls.jsonl'),
  'utf8',
);

test('a recorded Hermes run loads as one entry per successful call, in order, with its answer', () => {
  const tape = loadTape(recorded);
  assert.deepEqual(
    tape.map((e) => e.requestId),
    ['req-1', 'req-2'],
  );
  assert.equal(tape[0]!.model, 'deepseek-v4.1-flash');
  assert.ok((tape[0]!.response as { choices?: unknown[] }).choices?.length);
});

test('the same requests replay the recorded answers, whatever max_tokens or stream the budget and client chose', () => {
  const tape = loadTape(recorded);
  const player = new TapePlayer(tape);
  for (const entry of tape) {
    const asked = { ...entry.request, max_tokens: 17, stream: true, stream_options: { include_usage: true } };
    assert.equal(player.next(entry.model, asked).response, entry.response);
  }
  assert.deepEqual(player.unplayed(), []);
});

test('a changed policy diverges with the turn and the first field that differs', () => {
  const tape = loadTape(recorded);
  const player = new TapePlayer(tape);
  player.next(tape[0]!.model, tape[0]!.request);
  const second = structuredClone(tape[1]!.request) as { messages: { content?: unknown }[] };
  const last = second.messages.length - 1;
  second.messages[last]!.content = 'a different tool output';
  assert.throws(
    () => player.next(tape[1]!.model, second),
    (error: unknown) => {
      assert.ok(error instanceof TapeDivergence);
      assert.equal(error.turn, 2);
      assert.equal(error.requestId, 'req-2');
      assert.equal(error.field, `messages[${last}].content`);
      assert.match(
        error.message,
        new RegExp(
          `tape diverged at call 2 \\(recorded as req-2\\): messages\\[${last}\\]\\.content was .+, now "a different tool output"`,
        ),
      );
      return true;
    },
  );
  assert.throws(
    () => new TapePlayer(tape).next('glm-5', tape[0]!.request),
    /call 1 \(recorded as req-1\): model was "deepseek-v4.1-flash", now "glm-5"/,
  );
});

test('past the end of the recording is a divergence too', () => {
  const tape = loadTape(recorded);
  const player = new TapePlayer(tape);
  for (const entry of tape) player.next(entry.model, entry.request);
  assert.throws(() => player.next(tape[0]!.model, tape[0]!.request), /only 2 call\(s\), all played/);
});

test('fingerprints ignore key order; firstDifference names array ends', () => {
  assert.equal(
    requestFingerprint('m', { a: 1, b: { c: 2, d: 3 } }),
    requestFingerprint('m', { b: { d: 3, c: 2 }, a: 1 }),
  );
  assert.deepEqual(firstDifference({ messages: [1, 2] }, { messages: [1, 2, 3] }), {
    path: 'messages[2]',
    recorded: undefined,
    asked: 3,
  });
});

/** A log of three calls: answered, abandoned by the policy, and one still open when the run stopped (no end row). */
function logWithCuts(): string {
  const request = (text: string) => ({ model: 'glm-5.3-flash', messages: [{ role: 'user', content: text }] });
  const start = (callId: string, text: string) =>
    JSON.stringify({
      phase: 'start',
      callId,
      requestId: `req-${callId}`,
      model: 'glm-5.3-flash',
      request: request(text),
    });
  const answer = { choices: [{ message: { role: 'assistant', content: 'done' } }] };
  return [
    start('1', 'first'),
    start('2', 'raced'),
    JSON.stringify({ phase: 'end', callId: '1', status: 'ok', response: answer }),
    JSON.stringify({ phase: 'end', callId: '2', status: 'error', errorType: 'abandoned' }),
    start('3', 'failed upstream'),
    JSON.stringify({ phase: 'end', callId: '3', status: 'error', errorType: 'upstream_error' }),
    start('4', 'open at the deadline'),
  ].join('\n');
}

test('calls the recording never got an answer for are on the tape as cuts; failed calls are not', () => {
  const text = logWithCuts();
  assert.deepEqual(
    loadTape(text).map((e) => e.callId),
    ['1'],
  );
  assert.deepEqual(
    loadTapeCuts(text).map((e) => [e.callId, e.response]),
    [
      ['2', undefined],
      ['4', undefined],
    ],
  );
});

test('a cut asked again is left unanswered again; the one after every answer is where the recording stopped', () => {
  const text = logWithCuts();
  const player = new TapePlayer(loadTape(text), loadTapeCuts(text));
  const [answered] = loadTape(text);
  const [raced, open] = loadTapeCuts(text);
  const racedPlay = player.play(raced!.model, raced!.request);
  assert.equal(racedPlay.kind, 'cut');
  assert.equal(racedPlay.kind === 'cut' && racedPlay.recordingEnded, false, 'an answer is still to come');
  assert.equal(player.play(answered!.model, answered!.request).kind, 'answer');
  const openPlay = player.play(open!.model, open!.request);
  assert.deepEqual(openPlay.kind === 'cut' && [openPlay.entry.callId, openPlay.recordingEnded], ['4', true]);
  assert.throws(() => player.play(open!.model, open!.request), TapeDivergence, 'each cut is played once');
});
