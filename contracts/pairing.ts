// Fair pairing: the seat runs the challenger's and the incumbent's evaluation of the same repeat in
// lockstep, scenario by scenario, so drift in the upstream over the hour hits both sides alike.
// Each side stays an ordinary evaluateSubmission child (its result a normal EvaluationResult); it
// tells the seat when it is past pre-evaluation and when each scenario is done, and starts a
// scenario's run only once the seat has released it to both sides (workflows/paired-gate.ts,
// workflows/paired-scenarios.ts, signals in pairing-signals.ts). Payloads are a few scenario names: far below the 256
// KB bound.
import { z } from 'zod';

export const pairedSideSchema = z.enum(['challenger', 'incumbent']);
export type PairedSide = z.infer<typeof pairedSideSchema>;

export const pairingSchema = z.object({
  /** The seat workflow that releases scenarios and hears when they are done. */
  coordinatorWorkflowId: z.string().min(1),
  /** The seat's decision number: signals of another challenge are ignored. */
  challenge: z.number().int().nonnegative(),
  /** The repeat both sides share (same seed). */
  pair: z.number().int().nonnegative(),
  side: pairedSideSchema,
});
export type Pairing = z.infer<typeof pairingSchema>;

/** The most scenario names one signal carries (the active set is 26). */
export const maxScenariosPerSignal = 500;

export interface PairedReady {
  challenge: number;
  pair: number;
  side: PairedSide;
  scenarios: string[];
}

export interface PairedDone {
  challenge: number;
  pair: number;
  side: PairedSide;
  scenario: string;
}

export interface ScenarioGate {
  scenarios: string[];
}
