// The tape upstream (`trl eval --tape`): an OpenAI client whose fetch answers from a recorded
// model-call log instead of the network, with zero-token usage (so every call costs $0). A request with no recorded
// twin gets a 400 and is kept as
// the divergence, which ends the scenario with a message naming the call and the field. A call the recording never got
// an answer for is left unanswered again until its caller gives it up (a policy that raced two models abandons the
// slower again); when it is the call the recording stopped on, `ended` tells the scenario to stop its agent there.
import OpenAI from 'openai';
import { loadTape, loadTapeCuts, TapeDivergence, TapePlayer } from '../gateway/tape/call-tape.ts';

export interface TapeUpstream {
  client: OpenAI;
  /** The first request that did not match, if any. */
  divergence(): TapeDivergence | undefined;
  calls(): number;
  /** Aborted when the replay reaches the call the recording stopped on. */
  ended: AbortSignal;
}

/** Recorded usage replaced by zero tokens: the gateway meters a tape call by its usage, so it costs $0. */
const freeUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
function free(body: unknown): unknown {
  return body && typeof body === 'object' && 'usage' in body && (body as { usage?: unknown }).usage
    ? { ...body, usage: freeUsage }
    : body;
}

function sse(chunks: unknown[]): string {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
}

/** A call left unanswered, as it was in the recording, until its caller gives it up. */
function unanswered(signal: AbortSignal | null | undefined): Promise<Response> {
  if (!signal)
    return Promise.resolve(
      Response.json({ error: { type: 'tape_cut', message: 'cut in the recording' } }, { status: 400 }),
    );
  return new Promise((_resolve, reject) => {
    const giveUp = () => reject(signal.reason ?? new Error('the call was given up'));
    if (signal.aborted) giveUp();
    else signal.addEventListener('abort', giveUp, { once: true });
  });
}

export function createTapeUpstream(callLogText: string): TapeUpstream {
  const player = new TapePlayer(loadTape(callLogText), loadTapeCuts(callLogText));
  const end = new AbortController();
  let diverged: TapeDivergence | undefined;
  let played = 0;
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    if (diverged)
      return Response.json({ error: { type: 'tape_diverged', message: diverged.message } }, { status: 400 });
    try {
      const play = player.play(String(body.model ?? ''), body);
      if (play.kind === 'cut') {
        if (play.recordingEnded)
          end.abort(
            new Error(
              `the replay reached the call the recording stopped on (${play.entry.requestId ?? `call ${play.entry.callId}`}, unanswered when the recording's agent was stopped): it ends here as the recording did`,
            ),
          );
        return await unanswered(init?.signal);
      }
      const entry = play.entry;
      played += 1;
      if (body.stream === true) {
        const chunks = (Array.isArray(entry.response) ? entry.response : [entry.response]).map(free);
        return new Response(sse(chunks), {
          status: 200,
          headers: { 'content-type': 'text/event-stream', 'x-request-id': `tape-${entry.callId}` },
        });
      }
      return Response.json(free(entry.response), { status: 200, headers: { 'x-request-id': `tape-${entry.callId}` } });
    } catch (error) {
      if (!(error instanceof TapeDivergence)) throw error;
      diverged = error;
      return Response.json({ error: { type: 'tape_diverged', message: error.message } }, { status: 400 });
    }
  };
  const client = new OpenAI({
    baseURL: 'http://tape.invalid/v1',
    apiKey: 'tape-needs-no-key',
    maxRetries: 0,
    fetch: fetch as never,
  });
  return { client, divergence: () => diverged, calls: () => played, ended: end.signal };
}
