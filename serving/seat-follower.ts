// `trl serve --seated` follows the seat: it asks who holds it every interval and, when the pack
// changes, hands over (the generation router drains the old policy). A failed poll keeps serving
// the current pack; an empty seat keeps the last incumbent (a seat is never served empty).
export interface SeatFollower {
  stop(): void;
  /** Polls once now (tests, and the first check); resolves when any hand-over finished. */
  pollNow(): Promise<void>;
}

export function followSeat(options: {
  initialHash: string;
  intervalMs: number;
  readSeatHash(): Promise<string | undefined>;
  onChange(hash: string): Promise<void>;
  onError(error: Error): void;
}): SeatFollower {
  let served = options.initialHash;
  let running: Promise<void> | undefined;
  const poll = (): Promise<void> => {
    // One poll at a time: a slow hand-over (starting the new policy) is not started twice.
    running ??= (async () => {
      try {
        const hash = await options.readSeatHash();
        if (hash !== undefined && hash !== served) {
          await options.onChange(hash);
          served = hash;
        }
      } catch (error) {
        options.onError(error instanceof Error ? error : new Error(String(error)));
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  const timer = setInterval(() => void poll(), options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), pollNow: poll };
}
