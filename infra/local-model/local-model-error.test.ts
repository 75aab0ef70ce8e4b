import assert from 'node:assert/strict';
import test from 'node:test';
import { checksumMismatchError, missingBuildToolsError, serverStartError } from './local-model-error.ts';

test("llama-server's own words on a taken port become the port-in-use error, naming the port and the variable", () => {
  const error = serverStartError({
    log: "main: loading model\nstart: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 8123\n",
    port: 8123,
    modelFile: '/m.gguf',
    exitCode: 1,
  });
  assert.equal(error.failure, 'port-in-use');
  assert.match(error.message, /127\.0\.0\.1:8123: the port is in use.*TRL_LOCAL_MODEL_PORT/);
});

test('a model that cannot load names the file and quotes the loader', () => {
  const error = serverStartError({
    log: 'gguf_init_from_file_impl: invalid magic characters: "abcd", expected "GGUF"\nllama_model_load: error loading model: failed to load model\n',
    port: 1,
    modelFile: '/cache/models/x.gguf',
    exitCode: 1,
  });
  assert.equal(error.failure, 'model-cannot-load');
  assert.match(error.message, /could not load \/cache\/models\/x\.gguf: .*error loading model/);
});

test('an exit for another reason quotes the last lines of the log', () => {
  const error = serverStartError({ log: 'a\nb\nsomething else broke\n', port: 1, modelFile: 'm', exitCode: 134 });
  assert.equal(error.failure, 'server-did-not-start');
  assert.match(error.message, /exited with 134 .*something else broke/);
});

test('checksum and build-tool errors say what to do', () => {
  const mismatch = checksumMismatchError('/c/m.gguf', 'aa', 'bb');
  assert.equal(mismatch.failure, 'checksum-mismatch');
  assert.match(mismatch.message, /\/c\/m\.gguf has SHA256 bb, expected aa.*delete it and run again/);
  const tools = missingBuildToolsError(['cmake', 'ninja'], 'E: Unable to locate package\nE: apt failed\n');
  assert.equal(tools.failure, 'missing-build-tools');
  assert.match(tools.message, /needs cmake, ninja on PATH.*\(E: apt failed\).*apt-get install/);
});
