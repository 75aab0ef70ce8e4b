// The signals of fair pairing (contracts/pairing.ts), shared by the seat and its evaluations.
import { defineSignal } from '@temporalio/workflow';
import type { PairedDone, PairedReady, ScenarioGate } from './pairing.ts';
import { pairingSignalNames } from './temporal-names.ts';

export const scenarioGateSignal = defineSignal<[ScenarioGate]>(pairingSignalNames.gate);
export const pairedReadySignal = defineSignal<[PairedReady]>(pairingSignalNames.ready);
export const pairedDoneSignal = defineSignal<[PairedDone]>(pairingSignalNames.done);
