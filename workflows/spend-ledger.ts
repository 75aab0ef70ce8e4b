// spendLedger: the money ledger shared by sandbox workers on several hosts (TRL_SPEND_LEDGER=
// workflow). One long-lived workflow per evaluation queue; each reservation, settlement and
// release is an update, handled one at a time in the workflow's history, so the check against the
// ceilings and the record of a reservation can never interleave with another host's. Updates are
// validated before they are admitted (a malformed one leaves no event). The state stays bounded
// (contracts/spend-ledger-state.ts) and is carried forward by continue-as-new.
import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  closeSpendRequestSchema,
  closeSpend,
  compactSpendLedger,
  ledgerTotals,
  reserveSpend,
  reserveSpendRequestSchema,
  spendTotalsFilterSchema,
  utcDayOf,
  type SpendLedgerState,
} from '../contracts/spend-ledger-state.ts';
import {
  closeSpendUpdate,
  openSpendQuery,
  reserveSpendUpdate,
  spendTotalsQuery,
} from '../contracts/spend-ledger-signals.ts';

/** Continue-as-new well before Temporal's suggestion: about 4 events per update. */
const maxHistoryEvents = 2_000;

export async function spendLedger(state: SpendLedgerState, options: { maxHistoryEvents?: number } = {}): Promise<void> {
  const historyLimit = options.maxHistoryEvents ?? maxHistoryEvents;
  const today = () => utcDayOf(Date.now());
  compactSpendLedger(state, today());

  setHandler(
    reserveSpendUpdate,
    (request) => {
      const step = reserveSpend(state, request, today());
      if ('closedAlready' in step) {
        // A programming error of the caller (attempt ids are unique per activity attempt): the update fails, the ledger
        // goes on.
        throw ApplicationFailure.create({
          message: `spend ledger: attempt ${request.attemptId} is already closed and cannot be reserved again`,
          nonRetryable: true,
        });
      }
      return step;
    },
    { validator: (request) => void reserveSpendRequestSchema.parse(request) },
  );

  setHandler(
    closeSpendUpdate,
    (request) => {
      const outcome = closeSpend(state, request);
      compactSpendLedger(state, today());
      return outcome;
    },
    { validator: (request) => void closeSpendRequestSchema.parse(request) },
  );

  setHandler(spendTotalsQuery, (filter) => ledgerTotals(state, spendTotalsFilterSchema.parse(filter)));
  setHandler(openSpendQuery, () => state.open.map((attempt) => ({ ...attempt })));

  await condition(() => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > historyLimit);
  // Admitted updates finish first, so none is lost; later ones reach the next run.
  await condition(allHandlersFinished);
  await continueAsNew<typeof spendLedger>(state, options);
}
