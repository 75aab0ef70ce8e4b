// The seat's side of fair pairing (contracts/pairing.ts): both evaluations of a repeat (the
// challenger's and the incumbent's, same seed) run as ordinary child workflows, and each scenario's
// run starts in both only when the seat releases it — to both sides in one workflow task. At most
// `window` scenario pairs are in flight: pair k + window is released only when pair k is done on
// both sides, so with a window of 1 scenario k of both sides ends before scenario k + 1 of either
// starts. The seat's history holds the whole schedule (gates sent, scenarios reported done).
import { condition, setHandler, type ChildWorkflowHandle } from '@temporalio/workflow';
import type { PairedSide } from '../contracts/pairing.ts';
import { pairedDoneSignal, pairedReadySignal, scenarioGateSignal } from '../contracts/pairing-signals.ts';
import type { ScoredEvaluation } from '../contracts/seat.ts';
import type { evaluateSubmission } from './evaluate-submission.ts';

/** One side's child evaluation, started by the seat. */
export interface PairedChild {
  side: PairedSide;
  /** Absent when the child could not be started (its result says so). */
  handle?: ChildWorkflowHandle<typeof evaluateSubmission>;
  result: Promise<ScoredEvaluation>;
  settled(): boolean;
}

/** What the evaluations of the current challenge reported: ready lists and finished scenarios. */
export class PairingBoard {
  private challenge = -1;
  private readonly lists = new Map<string, Set<string>>();
  private readonly orders = new Map<string, string[]>();
  private readonly finished = new Map<string, Set<string>>();

  /** Sets the signal handlers; call once, early in the seat workflow. */
  constructor() {
    setHandler(pairedReadySignal, ({ challenge, pair, side, scenarios }) => {
      if (challenge !== this.challenge) return; // a late signal of an earlier challenge
      this.orders.set(key(pair, side), scenarios.slice(0, 10_000));
      this.lists.set(key(pair, side), new Set(scenarios));
    });
    setHandler(pairedDoneSignal, ({ challenge, pair, side, scenario }) => {
      if (challenge !== this.challenge) return;
      const done = this.finished.get(key(pair, side)) ?? new Set<string>();
      done.add(scenario);
      this.finished.set(key(pair, side), done);
    });
  }

  begin(challenge: number): void {
    this.challenge = challenge;
    this.lists.clear();
    this.orders.clear();
    this.finished.clear();
  }

  ready(pair: number, side: PairedSide): boolean {
    return this.lists.has(key(pair, side));
  }

  order(pair: number, side: PairedSide): readonly string[] {
    return this.orders.get(key(pair, side)) ?? [];
  }

  /** Done on that side: reported done, or not among its scenarios at all. */
  done(pair: number, side: PairedSide, scenario: string): boolean {
    const listed = this.lists.get(key(pair, side));
    return (
      listed !== undefined && (!listed.has(scenario) || (this.finished.get(key(pair, side))?.has(scenario) ?? false))
    );
  }
}

function key(pair: number, side: PairedSide): string {
  return `${pair}/${side}`;
}

/** Waits until the side is past pre-evaluation (true) or has ended without getting there (false). */
export async function reachedGate(board: PairingBoard, pair: number, child: PairedChild): Promise<boolean> {
  await condition(() => child.settled() || board.ready(pair, child.side));
  return board.ready(pair, child.side);
}

/**
 * Releases the scenarios of one repeat to both sides, `window` pairs at a time, in the challenger's
 * order (then any the incumbent alone has), and returns both results. A side that has ended
 * (rejected, failed) counts as done on every scenario, so the other side is never held up by it.
 */
export async function runInLockstep(
  board: PairingBoard,
  pair: number,
  challenger: PairedChild,
  incumbent: PairedChild,
  window: number,
): Promise<[ScoredEvaluation, ScoredEvaluation]> {
  const sides = [challenger, incumbent];
  await condition(() => sides.every((child) => child.settled() || board.ready(pair, child.side)));
  const order = [...new Set([...board.order(pair, 'challenger'), ...board.order(pair, 'incumbent')])];
  const finished = (scenario: string) =>
    sides.every((child) => child.settled() || board.done(pair, child.side, scenario));
  let released = 0;
  const inFlight = () => order.slice(0, released).filter((scenario) => !finished(scenario)).length;
  while (released < order.length) {
    await condition(() => inFlight() < window || sides.every((child) => child.settled()));
    if (sides.every((child) => child.settled())) break;
    const scenario = order[released++]!;
    // Both gates go out in the same workflow task: neither side is given a head start.
    await Promise.all(
      sides
        .filter((child) => !child.settled() && child.handle)
        .map((child) => child.handle!.signal(scenarioGateSignal, { scenarios: [scenario] }).catch(() => undefined)),
    ); // a child that just ended needs no gate
  }
  return Promise.all([challenger.result, incumbent.result]);
}
