// Writes agents/hermes-opening.json from a real Hermes run: the system prompt Hermes sent on its
// first request and the tool schemas it offered. The pre-evaluation probe opens every scenario's
// conversation with them, so a policy sees what Hermes would send. Run it after a Hermes upgrade:
// node --import tsx agents/capture-hermes-opening.ts <a scenario attempt folder with turns.jsonl and model-calls.jsonl>
// The folder must come from a pass-through policy (pin-glm-flash), which forwards the tools unchanged.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readHermesLock } from '../infra/hermes-wheelhouse.ts';
import { hermesOpeningFile, type HermesOpening } from './hermes-opening.ts';

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: capture-hermes-opening <attempt folder>\n');
  process.exit(2);
}
const firstLine = (text: string) => JSON.parse(text.split('\n', 1)[0]!) as Record<string, unknown>;
const turn = firstLine(await readFile(path.join(dir, 'turns.jsonl'), 'utf8')) as {
  newMessages: { role: string; content: string }[];
};
const start = (await readFile(path.join(dir, 'model-calls.jsonl'), 'utf8'))
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line))
  .find((row) => row.phase === 'start');
const system = turn.newMessages.find((m) => m.role === 'system')?.content;
if (!system || !start?.request?.tools)
  throw new Error(`${dir}: no system message in the first turn, or no tools in the first call`);
const opening: HermesOpening = {
  hermesVersion: (await readHermesLock()).hermesVersion,
  system,
  tools: start.request.tools,
};
await writeFile(hermesOpeningFile, JSON.stringify(opening, null, 2) + '\n');
process.stdout.write(
  `wrote ${hermesOpeningFile}: ${system.length} characters of system prompt, ${opening.tools.length} tools\n`,
);
