// Who a sidecar's death is blamed on: its own exit (or an OOM kill) is a policy crash; a kill
// through the Docker API while the run was not stopping it is the infrastructure's loss.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SidecarBackend } from './sidecar-backend.ts';

const serving = () => {
  const backend = new SidecarBackend({ requestTimeoutMs: 1000 });
  backend.ready('http://127.0.0.1:1');
  return backend;
};

test('a sidecar that exits on its own while serving is a policy crash', () => {
  const backend = serving();
  backend.exited('the policy exited with code 137 while serving', { killed: false, oomKilled: false });
  assert.deepEqual(
    backend.faults.map((f) => f.kind),
    ['crash'],
  );
  assert.equal(backend.sandboxLost, undefined);
});

test("an OOM kill is the policy's, even with a kill event", () => {
  const backend = serving();
  backend.exited('the policy ran out of memory while serving', { killed: true, oomKilled: true });
  assert.deepEqual(
    backend.faults.map((f) => f.kind),
    ['crash'],
  );
  assert.equal(backend.sandboxLost, undefined);
});

test('a docker kill from outside is no policy fault: the sandbox was lost', () => {
  const backend = serving();
  backend.exited('killed from outside', { killed: true, oomKilled: false });
  assert.deepEqual(backend.faults, []);
  assert.equal(backend.sandboxLost, 'killed from outside');
});

test('found at the end of the run: killed from outside is still the sandbox lost; its own exit is not', () => {
  const killed = serving();
  killed.exitedBeforeStop('killed from outside', { killed: true, oomKilled: false });
  assert.equal(killed.sandboxLost, 'killed from outside');
  const exited = serving();
  exited.exitedBeforeStop('exited', { killed: false, oomKilled: false });
  assert.equal(exited.sandboxLost, undefined);
});
