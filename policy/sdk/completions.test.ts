import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completionText, isEmptyCompletion, looksLikeGivingUp, textCompletion } from './completions.ts';
import type { ChatCompletion } from './types.ts';

test('textCompletion builds a well-formed completion that reads back', () => {
  const completion = textCompletion('budget spent', { model: 'policy' });
  assert.equal(completion.object, 'chat.completion');
  assert.equal(completion.choices[0]?.finish_reason, 'stop');
  assert.equal(completionText(completion), 'budget spent');
  assert.notEqual(textCompletion('a').id, textCompletion('a').id);
});

test('looksLikeGivingUp: refusals and empty answers, not final reports or tool calls', () => {
  assert.ok(looksLikeGivingUp(textCompletion("I'm sorry, but I can't complete this task.")));
  assert.ok(looksLikeGivingUp(textCompletion('I am unable to access the database.')));
  assert.ok(looksLikeGivingUp(textCompletion('   ')));
  assert.ok(
    looksLikeGivingUp(
      textCompletion(
        'I could not verify that the task is complete. My attempt may have missed some of the requirements.',
      ),
    ),
  );
  assert.ok(
    !looksLikeGivingUp(textCompletion('The task is complete. I verified the output against the specification.')),
  );
  assert.ok(isEmptyCompletion(textCompletion('')));
  assert.ok(!looksLikeGivingUp(textCompletion('Done: the report is in /out/report.csv and all tests pass.')));
  const withTool: ChatCompletion = {
    ...textCompletion("I can't see the file yet"),
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        message: {
          role: 'assistant',
          content: "I can't see the file yet",
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
        },
      },
    ],
  };
  assert.ok(!looksLikeGivingUp(withTool));
  assert.ok(!isEmptyCompletion(withTool));
});
