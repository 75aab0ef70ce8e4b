import test from 'node:test';
import assert from 'node:assert/strict';
import { hotkeyRefusal, recordAcceptance, type AdmissionState } from './seat-admission.ts';
import type { Challenge } from '../contracts/seat.ts';

const challenge = (hotkey: string, n: number): Challenge => ({
  packHash: n.toString(16).padStart(64, '0'),
  url: 'https://example.com/p.json',
  hotkey,
  commitBlock: n,
});

test('one pending challenge per hotkey: queued or being decided', () => {
  const state: AdmissionState = { queue: [challenge('alice', 1)], current: challenge('bob', 2) };
  assert.equal(hotkeyRefusal(state, challenge('alice', 3), 0, 0)?.code, 'hotkey_pending');
  assert.match(
    hotkeyRefusal(state, challenge('bob', 4), 0, 0)!.reason,
    /already has a pending challenge \(pack 000000000000\)/,
  );
  assert.equal(hotkeyRefusal(state, challenge('carol', 5), 0, 0), undefined);
});

test('a least interval between accepted submissions of a hotkey, with the time it opens again', () => {
  const state: AdmissionState = { queue: [], current: null };
  const hour = 3600;
  recordAcceptance(state, 'alice', hour, 1_000_000);
  const early = hotkeyRefusal(state, challenge('alice', 2), hour, 1_000_000 + 60_000);
  assert.equal(early?.code, 'hotkey_interval');
  assert.equal(early?.hotkey, 'alice');
  assert.match(early!.reason, /accepted 60 s ago; at least 3600 s .* \(in 3540 s\)/);
  assert.equal(hotkeyRefusal(state, challenge('alice', 2), hour, 1_000_000 + hour * 1000), undefined);
  assert.equal(hotkeyRefusal(state, challenge('bob', 2), hour, 1_000_000 + 60_000), undefined);
  // No interval configured: only the pending rule holds.
  assert.equal(hotkeyRefusal(state, challenge('alice', 2), 0, 1_000_000 + 60_000), undefined);
});

test('a pack the validator could not finish is offered again without waiting out the interval', () => {
  const state: AdmissionState = {
    queue: [],
    current: null,
    incompleteAttempts: { [challenge('alice', 7).packHash]: 1 },
  };
  recordAcceptance(state, 'alice', 3600, 0);
  assert.equal(hotkeyRefusal(state, challenge('alice', 7), 3600, 1000), undefined);
  assert.equal(hotkeyRefusal(state, challenge('alice', 8), 3600, 1000)?.code, 'hotkey_interval');
});

test('acceptances older than the interval are forgotten, so the record stays small', () => {
  const state: AdmissionState = { queue: [], current: null };
  for (let i = 0; i < 100; i++) recordAcceptance(state, `hotkey-${i}`, 10, i * 1000);
  assert.deepEqual(Object.keys(state.hotkeyAcceptedAtMs!).length, 10);
  recordAcceptance(state, 'x', 0, 10_000_000);
  assert.deepEqual(state.hotkeyAcceptedAtMs, {});
});
