import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findShellTool } from './shell-tool.ts';
import type { ToolDefinition } from './request-schema.ts';

function tool(name: string, properties: Record<string, unknown>): ToolDefinition {
  return { type: 'function', function: { name, parameters: { type: 'object', properties } } };
}

const hermesLike = [
  tool('read_file', { path: { type: 'string' } }),
  tool('execute_code', { code: { type: 'string' } }),
  tool('process_manage', { command: { type: 'string' }, action: { type: 'string' } }),
  tool('terminal', { command: { type: 'string' }, background: { type: 'boolean' }, timeout: { type: 'integer' } }),
];

test('the Hermes terminal tool is preferred over other tools taking a command', () => {
  assert.equal(findShellTool({ tools: hermesLike }), 'terminal');
  assert.equal(findShellTool({ tools: [tool('do_it', { command: { type: ['string', 'null'] } })] }), 'do_it');
});

test('no shell tool: none offered, no string command, or tools forbidden', () => {
  assert.equal(findShellTool({}), undefined);
  assert.equal(
    findShellTool({
      tools: [tool('read_file', { path: { type: 'string' } }), tool('x', { command: { type: 'integer' } })],
    }),
    undefined,
  );
  assert.equal(findShellTool({ tools: hermesLike, tool_choice: 'none' }), undefined);
});

test('a named tool_choice picks that tool when it runs commands', () => {
  assert.equal(
    findShellTool({ tools: hermesLike, tool_choice: { type: 'function', function: { name: 'process_manage' } } }),
    'process_manage',
  );
  assert.equal(
    findShellTool({ tools: hermesLike, tool_choice: { type: 'function', function: { name: 'read_file' } } }),
    undefined,
  );
});
