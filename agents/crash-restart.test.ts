import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CrashRestartingAgent, crashSignalOf } from './crash-restart.ts';
import type { AgentRunRecord, AgentRunRequest, ScenarioAgent } from './scenario-agent.ts';

/** An agent that plays back exit codes, making `requestsPerRun[i]` policy requests on run i. */
function scriptedAgent(
  exitCodes: (number | null)[],
  requestsPerRun: number[],
  counter: { requests: number },
): ScenarioAgent & { runs: number } {
  return {
    name: 'scripted',
    runs: 0,
    async run(): Promise<AgentRunRecord> {
      const i = this.runs++;
      counter.requests += requestsPerRun[i] ?? 0;
      return { exitCode: exitCodes[i] ?? 0, timedOut: false, transcript: `run ${i}` };
    },
  };
}

const request = (deadlineInMs = 600_000) =>
  ({ deadlineMs: performance.now() + deadlineInMs, onTick: () => undefined }) as unknown as AgentRunRequest;

test('exit codes of crash signals are named; kills, timeouts and ordinary failures are not crashes', () => {
  assert.equal(crashSignalOf(139), 'SIGSEGV');
  assert.equal(crashSignalOf(134), 'SIGABRT');
  assert.equal(crashSignalOf(135), 'SIGBUS');
  assert.equal(crashSignalOf(137), undefined, "SIGKILL is ours or the OOM killer's");
  assert.equal(crashSignalOf(143), undefined);
  assert.equal(crashSignalOf(1), undefined);
  assert.equal(crashSignalOf(null), undefined);
});

test('an agent that crashes before its first request is restarted; if it keeps crashing, the run says so', async () => {
  const counter = { requests: 0 };
  const flaky = scriptedAgent([139, 0], [0, 3], counter);
  const recovered = await new CrashRestartingAgent(flaky, () => counter.requests).run(request());
  assert.equal(flaky.runs, 2);
  assert.equal(recovered.exitCode, 0);
  assert.equal(recovered.crashedBeforeFirstRequest, undefined);
  assert.match(recovered.transcript, /crashed \(SIGSEGV\) before its first request.*restarted\]\nrun 1/s);

  const broken = scriptedAgent([139, 139, 134], [0, 0, 0], counter);
  const gaveUp = await new CrashRestartingAgent(broken, () => counter.requests, 2).run(request());
  assert.equal(broken.runs, 3, 'the first start and two restarts');
  assert.equal(gaveUp.crashedBeforeFirstRequest, 'SIGABRT');
});

test("a crash after the policy saw a request is the agent's and is not restarted", async () => {
  const counter = { requests: 0 };
  const agent = scriptedAgent([139], [1], counter);
  const record = await new CrashRestartingAgent(agent, () => counter.requests).run(request());
  assert.equal(agent.runs, 1);
  assert.equal(record.exitCode, 139);
  assert.equal(record.crashedBeforeFirstRequest, undefined);
});

test('no restart without the time to do the task', async () => {
  const counter = { requests: 0 };
  const agent = scriptedAgent([139, 0], [0, 0], counter);
  const record = await new CrashRestartingAgent(agent, () => counter.requests).run(request(5_000));
  assert.equal(agent.runs, 1);
  assert.equal(record.crashedBeforeFirstRequest, 'SIGSEGV');
});
