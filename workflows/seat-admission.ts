// Per-hotkey limits on what the seat takes: one pending challenge per hotkey (queued or being
// decided), and a least interval between two accepted submissions of a hotkey. Pure and
// deterministic (the caller passes workflow time), so the seat workflow replays it.
import type { Challenge, ChallengeOffer } from '../contracts/seat.ts';

export interface AdmissionState {
  queue: Challenge[];
  current: Challenge | null;
  hotkeyAcceptedAtMs?: Record<string, number>;
  /** Packs whose evaluation the validator could not finish: offered again, never held back by the interval. */
  incompleteAttempts?: Record<string, number>;
}

/** A refusal for the challenge's hotkey, or undefined when the limits let it through. */
export function hotkeyRefusal(
  state: AdmissionState,
  challenge: Challenge,
  minIntervalSec: number,
  nowMs: number,
): ChallengeOffer | undefined {
  const { packHash, hotkey } = challenge;
  const pending = state.current?.hotkey === hotkey ? state.current : state.queue.find((c) => c.hotkey === hotkey);
  if (pending) {
    return {
      packHash,
      hotkey,
      accepted: false,
      code: 'hotkey_pending',
      reason: `hotkey ${hotkey} already has a pending challenge (pack ${pending.packHash.slice(0, 12)}); one at a time — offer it again once that one is decided`,
    };
  }
  const last = state.hotkeyAcceptedAtMs?.[hotkey];
  if (last !== undefined && minIntervalSec > 0 && state.incompleteAttempts?.[packHash] === undefined) {
    const waitSec = Math.ceil((last + minIntervalSec * 1000 - nowMs) / 1000);
    if (waitSec > 0) {
      return {
        packHash,
        hotkey,
        accepted: false,
        code: 'hotkey_interval',
        reason: `hotkey ${hotkey} had a submission accepted ${Math.floor((nowMs - last) / 1000)} s ago; at least ${minIntervalSec} s between submissions — it is taken from ${new Date(last + minIntervalSec * 1000).toISOString()} (in ${waitSec} s)`,
      };
    }
  }
  return undefined;
}

/** Notes an accepted submission and forgets hotkeys whose interval has passed (the map stays small). */
export function recordAcceptance(state: AdmissionState, hotkey: string, minIntervalSec: number, nowMs: number): void {
  const kept: Record<string, number> = {};
  for (const [key, at] of Object.entries(state.hotkeyAcceptedAtMs ?? {}))
    if (at + minIntervalSec * 1000 > nowMs) kept[key] = at;
  if (minIntervalSec > 0) kept[hotkey] = nowMs;
  state.hotkeyAcceptedAtMs = kept;
}
