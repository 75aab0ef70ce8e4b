export { evaluateSubmission } from './evaluate-submission.ts';
