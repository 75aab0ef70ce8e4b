import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import test from 'node:test';
import { LocalModelError } from './local-model-error.ts';
import { existsSync, readFileSync } from 'node:fs';
import { localModelSpec } from './local-model-catalog.ts';
import {
  assertPortFree,
  chatTemplatePath,
  defaultSlots,
  freeLoopbackPort,
  serverArgs,
  serverEnv,
} from './llama-server-process.ts';

test('two slots on two cores, one on one, never more than four', () => {
  assert.equal(defaultSlots(2), 2);
  assert.equal(defaultSlots(1), 1);
  assert.equal(defaultSlots(64), 4);
});

test('the server listens on loopback only, with tool-call templates and the context shared by its slots', () => {
  const args = serverArgs({
    modelFile: '/m.gguf',
    slots: 2,
    threads: 2,
    port: 8123,
    contextPerSlot: 8192,
    aliases: ['glm-5.3', 'kimi-k3'],
  });
  const value = (flag: string) => args[args.indexOf(flag) + 1];
  assert.equal(value('--host'), '127.0.0.1');
  assert.ok(!args.includes('0.0.0.0'));
  assert.equal(value('--port'), '8123');
  assert.equal(value('--parallel'), '2');
  assert.equal(value('--ctx-size'), '16384');
  assert.ok(args.includes('--jinja'));
  assert.ok(args.includes('--no-repack'), 'the AMX path crashes here');
  assert.equal(value('--alias'), 'glm-5.3,kimi-k3');
  assert.ok(!args.includes('--chat-template-file'), "the GGUF's own template unless the catalog names one");
});

test("the default model is served with its template's tool calls as the ```json blocks it writes", () => {
  const spec = localModelSpec();
  assert.ok(spec.chatTemplate);
  const file = chatTemplatePath(spec.chatTemplate);
  assert.ok(existsSync(file), file);
  const template = readFileSync(file, 'utf8');
  assert.doesNotMatch(template.replace(/^\{#-[\s\S]*?-#\}\n/, ''), /<tool_call>/);
  assert.match(template, /in a json code block:\\n```json\\n/);
  assert.match(template, /\{\{- '\\n```json\\n\{"name": "' \}\}/, 'past calls rendered the same way');
  const args = serverArgs({
    modelFile: '/m.gguf',
    slots: 1,
    threads: 2,
    port: 1,
    contextPerSlot: 8,
    chatTemplateFile: file,
  });
  assert.equal(args[args.indexOf('--chat-template-file') + 1], file);
  assert.ok(args.includes('--jinja'));
});

test('OpenMP threads sleep at barriers (spinning on a loaded 2-core machine decodes 20x slower), PATH only', () => {
  assert.deepEqual(serverEnv('/usr/bin'), { PATH: '/usr/bin', OMP_WAIT_POLICY: 'passive' });
});

test('a port someone listens on is refused before llama-server starts; a free one passes', async () => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as { port: number }).port;
  try {
    await assert.rejects(assertPortFree(port), (error: unknown) => {
      assert.ok(error instanceof LocalModelError);
      assert.equal(error.failure, 'port-in-use');
      assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port}: the port is in use`));
      return true;
    });
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
  await assertPortFree(await freeLoopbackPort());
});
