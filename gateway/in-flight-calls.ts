// The calls of one episode that are still in flight, so the validator can end them: when the
// episode ends (the policy answered the agent's last turn, or the agent stopped) every call still
// running is the policy's abandoned call — cancelled, charged its usage or its reservation, and
// booked with an end row saying `abandoned`, never as an upstream failure (contracts/blame.ts);
// when the upstream bills beyond the bound, the calls still running are cancelled too.

/** Why the validator cut a call: the policy left it (`abandoned`), or the upstream overbilled (`cancelled`). */
export type CallCutType = 'abandoned' | 'cancelled';

/** The abort reason of a call the validator (or the policy's going away) cut. */
export class CallCut extends Error {
  constructor(
    readonly type: CallCutType,
    message: string,
  ) {
    super(message);
    this.name = 'CallCut';
  }
}

/** The cut a signal's reason says; any other abort (the policy's client closed the connection) is `abandoned`. */
export function cutOf(signal: AbortSignal): CallCut {
  const reason: unknown = signal.reason;
  if (reason instanceof CallCut) return reason;
  const said = reason instanceof Error ? reason.message : 'the caller went away';
  return new CallCut('abandoned', `abandoned by the policy: ${said}`);
}

interface InFlight {
  abort: AbortController;
  /** Ends the call's books at once (an end row, its charge) if it has not ended by itself. */
  forceEnd: (cut: CallCut) => void;
  ended: Promise<void>;
  markEnded: () => void;
}

// How long a cut call may take to end by itself (its upstream request aborting, its stream closing)
// before its books are ended for it: a stream nobody reads any more never reaches its own end.
export const cutGraceMs = 2000;

export class InFlightCalls {
  private readonly calls = new Map<string, InFlight>();

  get size(): number {
    return this.calls.size;
  }

  add(callId: string, abort: AbortController, forceEnd: (cut: CallCut) => void): void {
    let markEnded = () => {};
    const ended = new Promise<void>((resolve) => {
      markEnded = resolve;
    });
    this.calls.set(callId, { abort, forceEnd, ended, markEnded });
  }

  /** The call's books are closed; true the first time only (so a call is booked once). */
  end(callId: string): boolean {
    const call = this.calls.get(callId);
    if (!call) return false;
    this.calls.delete(callId);
    call.markEnded();
    return true;
  }

  has(callId: string): boolean {
    return this.calls.has(callId);
  }

  /** Aborts every call in flight and waits until each is booked (by itself, or forced after the grace). */
  async cutAll(cut: CallCut, graceMs = cutGraceMs): Promise<number> {
    const cutCalls = [...this.calls.entries()];
    for (const [, call] of cutCalls) if (!call.abort.signal.aborted) call.abort.abort(cut);
    if (cutCalls.length === 0) return 0;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([Promise.all(cutCalls.map(([, call]) => call.ended)), grace]);
    clearTimeout(timer);
    for (const [callId, call] of cutCalls) if (this.calls.has(callId)) call.forceEnd(cut);
    return cutCalls.length;
  }
}
