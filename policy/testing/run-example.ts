// Runs one example policy in the real runner against a scripted host, with the protocol checks every
// example test wants: it starts (`ready`), prints only protocol lines, and exits when stdin closes.
import assert from 'node:assert/strict';
import { bundleExample } from './bundle-to-file.ts';
import { startHost, type CallScript, type FakeHost } from './fake-host.ts';
import type { BudgetView } from '../runtime/protocol.ts';

const bundles = new Map<string, Promise<string>>();

export async function withExample(
  name: string,
  script: CallScript,
  run: (host: FakeHost) => Promise<void>,
  budget?: BudgetView,
): Promise<void> {
  if (!bundles.has(name)) bundles.set(name, bundleExample(name));
  const bundlePath = await bundles.get(name)!;
  const host = startHost(script, budget);
  try {
    assert.deepEqual(await host.init(bundlePath), { t: 'ready' }, host.stderr);
    await run(host);
    assert.deepEqual(host.invalidLines, [], 'the runner printed only protocol messages');
  } finally {
    assert.equal(await host.close(), 0, 'the runner exits when stdin closes');
  }
}

/** The body of a `response` outcome; fails the test on `error`. */
export function responseBody(outcome: { t: string }): {
  model: string;
  choices: { message: { content?: string | null; tool_calls?: { function: { name: string; arguments: string } }[] } }[];
} {
  assert.equal(outcome.t, 'response', JSON.stringify(outcome));
  return (outcome as unknown as { body: ReturnType<typeof responseBody> }).body;
}
