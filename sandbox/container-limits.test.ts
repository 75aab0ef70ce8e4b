import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limitsHostConfig } from './container-limits.ts';

const defaults = { memoryMb: 512, cpus: 1, pidsLimit: 64 };

test('limits become Docker fields: memory in bytes with no swap beyond it, CPUs in billionths', () => {
  assert.deepEqual(limitsHostConfig(defaults), {
    Memory: 512 * 1024 * 1024,
    MemorySwap: 512 * 1024 * 1024,
    PidsLimit: 64,
    NanoCpus: 1e9,
  });
});

test('each limit that is set overrides its default; unset ones (even present as undefined) keep it', () => {
  assert.deepEqual(limitsHostConfig(defaults, { memoryMb: 256, cpus: 0.5, pidsLimit: undefined }), {
    Memory: 256 * 1024 * 1024,
    MemorySwap: 256 * 1024 * 1024,
    PidsLimit: 64,
    NanoCpus: 5e8,
  });
});
