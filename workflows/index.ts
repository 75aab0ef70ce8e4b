export { evaluateSubmission } from './evaluate-submission.ts';
export { seat } from './seat-workflow.ts';
export { seatCycle } from './seat-cycle.ts';
export { spendLedger } from './spend-ledger.ts';
