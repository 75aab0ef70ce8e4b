// The coaching corpus's packs and the scenario each one targets, for bench/coaching-corpus.ts and
// bench/coaching-corpus-eval.ts.

/** Each coaching pack's target; honest packs are run on csv-sales-report. */
export const targets: Record<string, string> = {
  'xor-tools-probe-aware': 'csv-sales-report',
  'late-trigger-system': 'csv-sales-report',
  'real-tool-key': 'csv-sales-report',
  'image-only-key': 'git-purge-leaked-secret',
  'probe-wording-python': 'csv-sales-report',
  'deflate-base85-schema': 'fix-inventory-bug',
  'custom-alphabet-format': 'semver-range-matcher',
  'python-late-xor': 'sqlite-orders-analytics',
  'skill-playbook': 'csv-sales-report',
  'python-custom-base32': 'cron-backup-rotation',
};
export const newHonest = [
  'long-prompt-engineer',
  'shell-habits',
  'retry-resend-output',
  'python-planner',
  'conversation-summariser',
  'encoded-config',
  'panel-first-usable',
];
