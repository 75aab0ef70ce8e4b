// The shared spend ledger workflow's messages, for the workflow and its clients (no Node built-ins).
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type {
  AttemptRecord,
  CloseSpendRequest,
  ReserveOutcome,
  ReserveSpendRequest,
  SpendTotals,
  SpendTotalsFilter,
} from './spend-ledger-state.ts';

/** Holds the scenario cap for one attempt, or refuses it when a ceiling would be passed. */
export const reserveSpendUpdate = defineUpdate<ReserveOutcome, [ReserveSpendRequest]>('reserveSpend');

/** Settles an open attempt with its real cost, or releases it (nothing spent). A repeat is ignored. */
export const closeSpendUpdate = defineUpdate<'closed' | 'repeat' | 'unknown', [CloseSpendRequest]>('closeSpend');

export const spendTotalsQuery = defineQuery<SpendTotals, [SpendTotalsFilter]>('spendTotals');

export const openSpendQuery = defineQuery<AttemptRecord[]>('openSpend');
