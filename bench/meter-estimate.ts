// How long the meter's prompt estimate takes on large and hostile bodies, beside a real tokenizer
// (js-tiktoken, o200k) counting the same text. One run each; a table on stdout.
//   node --import tsx bench/meter-estimate.ts
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { billedBodyJson, promptEstimateTokens } from '../gateway/meter/prompt-estimate.ts';

// A tokenizer can be super-linear on long runs of one character; it gets this long, in its own thread.
const tokenizerTimeoutMs = 60_000;

const sizesBytes = [1_000, 10_000, 100_000, 1_000_000];
const shapes: Record<string, (sizeBytes: number) => string> = {
  'letters (a…)': (sizeBytes) => 'a'.repeat(sizeBytes),
  'braces ({…)': (sizeBytes) => '{'.repeat(sizeBytes),
  'prose + code': (sizeBytes) =>
    'The quick brown fox jumps over the lazy dog. const total = items.reduce((sum, item) => sum + item.costUsd, 0);\n'
      .repeat(Math.ceil(sizeBytes / 100))
      .slice(0, sizeBytes),
};

const tokenizerWorkerSource = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  try {
    const { Tiktoken } = await import('js-tiktoken/lite');
    const { default: o200k } = await import('js-tiktoken/ranks/o200k_base');
    const encoder = new Tiktoken(o200k);
    encoder.encode('warm up');
    const started = performance.now();
    const tokens = encoder.encode(workerData.text).length;
    parentPort.postMessage({ tokens, elapsedMs: performance.now() - started });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
})();
`;

interface TokenizerResult {
  tokens?: number;
  elapsedMs?: number;
  note?: string;
}

function countWithTokenizer(text: string): Promise<TokenizerResult> {
  return new Promise((resolve) => {
    const worker = new Worker(tokenizerWorkerSource, { eval: true, workerData: { text } });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ note: `> ${tokenizerTimeoutMs} ms (stopped)` });
    }, tokenizerTimeoutMs);
    worker.once('message', (message: { tokens?: number; elapsedMs?: number; error?: string }) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(
        message.error
          ? { note: `unavailable: ${message.error}` }
          : { tokens: message.tokens, elapsedMs: message.elapsedMs },
      );
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      resolve({ note: `unavailable: ${error.message}` });
    });
  });
}

function cell(text: string, width: number): string {
  return text.padStart(width);
}

const header = ['body', 'size', 'estimate ms', 'estimate tokens', 'o200k ms', 'o200k tokens'];
const widths = [14, 10, 12, 16, 22, 13];
console.log(header.map((title, index) => cell(title, widths[index]!)).join(' '));

promptEstimateTokens({ messages: [{ role: 'user', content: 'warm up' }] });
for (const [shapeName, makeContent] of Object.entries(shapes)) {
  for (const sizeBytes of sizesBytes) {
    const body = { model: 'glm-5.3', messages: [{ role: 'user', content: makeContent(sizeBytes) }] };
    const started = performance.now();
    const estimate = promptEstimateTokens(body);
    const estimateMs = performance.now() - started;
    const tokenizer = await countWithTokenizer(billedBodyJson(body));
    const row = [
      shapeName,
      `${(sizeBytes / 1000).toLocaleString('en')} KB`,
      estimateMs.toFixed(2),
      estimate.toLocaleString('en'),
      tokenizer.elapsedMs === undefined ? (tokenizer.note ?? '') : tokenizer.elapsedMs.toFixed(2),
      tokenizer.tokens === undefined ? '' : tokenizer.tokens.toLocaleString('en'),
    ];
    console.log(row.map((text, index) => cell(text, widths[index]!)).join(' '));
  }
}
