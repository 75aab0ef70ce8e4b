// An upstream that answers every chat completion at once with the same short answer (usage
// included), for measuring hops under concurrency: the sim fleet spends about 5 ms of CPU on a
// 2 k-character prompt (its tokenizer), so at 8 or 32 lanes every arm queues behind it and the
// differences between arms drown. This one costs well under a millisecond a call.
//   node --import tsx bench/fixed-answer-upstream.ts     (prints `listening on <url>`)
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startUpstreamProcess, type UpstreamProcess } from './upstream-process.ts';

const thisFile = fileURLToPath(import.meta.url);

export function startFixedAnswerUpstream(): Promise<UpstreamProcess> {
  return startUpstreamProcess(['--import', 'tsx', thisFile]);
}

function serve(): void {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'application/json' });
        return void response.end(JSON.stringify({ object: 'list', data: [] }));
      }
      let model = 'unknown';
      try {
        model = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model?: unknown }).model ?? model);
      } catch {
        /* the answer does not depend on it */
      }
      const promptTokens = Math.ceil(chunks.reduce((sum, chunk) => sum + chunk.length, 0) / 4);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-fixed',
          object: 'chat.completion',
          created: 0,
          model,
          choices: [
            { index: 0, message: { role: 'assistant', content: 'done: report.json written' }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: promptTokens, completion_tokens: 6, total_tokens: promptTokens + 6 },
        }),
      );
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(`listening on http://127.0.0.1:${port}/v1\n`);
  });
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === thisFile) serve();
