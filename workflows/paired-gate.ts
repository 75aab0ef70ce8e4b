// The evaluation's side of fair pairing (contracts/pairing.ts): tell the seat when pre-evaluation is
// past and which scenarios will run, start a scenario's run only when the seat has released it, and
// report each scenario as done. Without a pairing every call is a no-op, so a plain evaluation's
// history is what it always was.
import { condition, getExternalWorkflowHandle, log, setHandler } from '@temporalio/workflow';
import type { Pairing } from '../contracts/pairing.ts';
import { pairedDoneSignal, pairedReadySignal, scenarioGateSignal } from '../contracts/pairing-signals.ts';

export interface PairedGate {
  /** Past pre-evaluation: these scenarios will run, each when released. */
  ready(scenarios: readonly string[]): Promise<void>;
  /** Waits until the seat releases the scenario's run. */
  enter(scenario: string): Promise<void>;
  /** The scenario's result is known. */
  leave(scenario: string): Promise<void>;
}

const open: PairedGate = { ready: async () => undefined, enter: async () => undefined, leave: async () => undefined };

export function pairedGate(pairing: Pairing | undefined): PairedGate {
  if (!pairing) return open;
  const released = new Set<string>();
  // A seat that cannot be told (gone, or its signal refused) cannot release anything either: the
  // evaluation then runs on its own, unpaired, rather than waiting for ever.
  let unpaired = false;
  setHandler(scenarioGateSignal, ({ scenarios }) => {
    for (const name of scenarios) released.add(name);
  });
  const seat = getExternalWorkflowHandle(pairing.coordinatorWorkflowId);
  const { challenge, pair, side } = pairing;
  const tell = async (send: () => Promise<void>) => {
    if (unpaired) return;
    try {
      await send();
    } catch (error) {
      unpaired = true;
      log.warn('the seat cannot be signalled; this evaluation runs unpaired', {
        coordinator: pairing.coordinatorWorkflowId,
        error: String(error),
      });
    }
  };
  return {
    ready: (scenarios) =>
      tell(() => seat.signal(pairedReadySignal, { challenge, pair, side, scenarios: [...scenarios] })),
    enter: (scenario) => condition(() => unpaired || released.has(scenario)),
    leave: (scenario) => tell(() => seat.signal(pairedDoneSignal, { challenge, pair, side, scenario })),
  };
}
