// Behaviour that has no business in a policy: it sees the conversation and reaches models through
// ctx.call, nothing else. Network APIs, URLs, Node built-ins, the environment, run-time code and
// text aimed at the LLM judge are reported here, each with the line that shows it. The sandbox is
// the boundary (it stops these at run time); this is the early, explainable "no".
import { builtinModules } from 'node:module';
import type { DecodedString, Encoding } from './decoded-strings.ts';
import type { Token } from './js-tokens.ts';

export type BehaviourHit = { kind: string; line: number; matched: string; encoding: Encoding };

const builtins = new Set(builtinModules.flatMap((name) => [name, name.split('/')[0] ?? name]));
const isBuiltin = (specifier: string) =>
  specifier.startsWith('node:') || builtins.has(specifier) || builtins.has(specifier.split('/')[0] ?? '');
const networkApis = new Set(['XMLHttpRequest', 'WebSocket', 'EventSource', 'sendBeacon', 'RTCPeerConnection']);
// Built-ins that reach outside the sandbox: what a module name assembled at run time would be for.
const reachingBuiltins = new Set([
  'fs',
  'fs/promises',
  'net',
  'http',
  'https',
  'http2',
  'child_process',
  'dgram',
  'tls',
  'dns',
  'os',
  'vm',
  'worker_threads',
  'cluster',
  'process',
  'inspector',
  'module',
]);
const isReachingBuiltin = (value: string) => value.startsWith('node:') || reachingBuiltins.has(value);
const sensitiveNames = new Set([
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'EventSource',
  'child_process',
  'require',
  'eval',
  'Function',
  'globalThis',
  'process.env',
]);
const urlPattern = /\b(?:https?|wss?|ftp):\/\/[^\s'"`<>)\]}\\]+/gi;
const judgePatterns: RegExp[] = [
  /\b(?:ignore|disregard|forget)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|all)\b[^.\n]{0,20}\binstructions?\b/i,
  /\b(?:llm|ai|model)[ -]?(?:judge|reviewer|grader|evaluator)\b/i,
  /\bverdict\b[^.\n]{0,20}\b(?:pass|approve|accept)/i,
  /\byou (?:are|must act as) (?:an? |the )?(?:judge|reviewer|grader|evaluator)\b/i,
  /\b(?:mark|rate|score|classify) this (?:policy|pack|submission) as (?:honest|safe|pass|clean)/i,
];

/** Hits in the tokens of a code file: calls and references the bundle and the sandbox would refuse. */
export function codeBehaviour(tokens: readonly Token[]): BehaviourHit[] {
  const code = tokens.filter((token) => token.type !== 'comment');
  const hits: BehaviourHit[] = [];
  const hit = (kind: string, token: Token, matched: string) =>
    hits.push({ kind, line: token.line, matched, encoding: 'plain' });
  code.forEach((token, index) => {
    const previous = code[index - 1];
    const next = code[index + 1];
    const afterDot = previous?.type === 'punct' && (previous.raw === '.' || previous.raw === '?.');
    const isKey = next?.raw === ':' && (previous?.raw === '{' || previous?.raw === ',');
    if (token.type === 'identifier' && token.raw === 'fetch' && !isKey)
      hit('network-fetch', token, next?.raw === '(' ? 'fetch(' : 'fetch');
    else if (token.type === 'identifier' && networkApis.has(token.raw) && !isKey) hit('network-api', token, token.raw);
    else if (token.type === 'keyword' && token.raw === 'import' && next?.raw === '(') {
      const argument = code[index + 2];
      const literal = argument?.type === 'string' && code[index + 3]?.raw === ')';
      if (literal && isBuiltin(argument.value ?? '')) hit('builtin-import', token, `import(${argument.raw})`);
      else if (!literal) hit('dynamic-import', token, 'import(…computed…)');
    } else if (
      token.type === 'string' &&
      (previous?.raw === 'from' || (previous?.raw === 'import' && previous.type === 'keyword')) &&
      isBuiltin(token.value ?? '')
    ) {
      hit('builtin-import', token, `from ${token.raw}`);
    } else if (token.type === 'identifier' && token.raw === 'require' && next?.raw === '(' && !afterDot) {
      const argument = code[index + 2];
      if (argument?.type === 'string' && isBuiltin(argument.value ?? ''))
        hit('require-builtin', token, `require(${argument.raw})`);
      else hit('require-call', token, 'require(');
    } else if (token.type === 'identifier' && token.raw === 'process' && !afterDot && !isKey) {
      const member =
        next?.raw === '.' || next?.raw === '?.'
          ? code[index + 2]?.raw
          : next?.raw === '['
            ? code[index + 2]?.value
            : undefined;
      if (member === 'env') hit('process-env', token, 'process.env');
      else hit('process-access', token, member ? `process.${member}` : 'process');
    } else if (
      token.type === 'identifier' &&
      (token.raw === 'eval' || token.raw === 'Function') &&
      next?.raw === '(' &&
      !afterDot
    ) {
      hit('dynamic-code', token, `${token.raw}(`);
    } else if (token.type === 'identifier' && token.raw === 'Function' && previous?.raw === 'new') {
      hit('dynamic-code', token, 'new Function');
    }
  });
  return hits;
}

/** Hits in the raw text, comments included: URLs, child_process, and words aimed at the judge. */
export function textBehaviour(text: string): BehaviourHit[] {
  const hits: BehaviourHit[] = [];
  text.split('\n').forEach((lineText, index) => {
    const line = index + 1;
    for (const match of lineText.matchAll(urlPattern))
      hits.push({ kind: 'url', line, matched: match[0].slice(0, 200), encoding: 'plain' });
    if (/child_process/.test(lineText))
      hits.push({ kind: 'child-process', line, matched: 'child_process', encoding: 'plain' });
    for (const pattern of judgePatterns) {
      const match = pattern.exec(lineText);
      if (match) hits.push({ kind: 'judge-injection', line, matched: match[0].slice(0, 200), encoding: 'plain' });
    }
  });
  return hits;
}

/** Hits in decoded strings: API names and URLs assembled or decoded at run time. */
export function stringBehaviour(strings: readonly DecodedString[]): BehaviourHit[] {
  const hits: BehaviourHit[] = [];
  for (const { text, line, encoding } of strings) {
    const value = text.trim();
    // A reversed short word ('ten', 'sf') is too often an accident to mean a built-in.
    const builtin = isReachingBuiltin(value) && (encoding !== 'reversed' || value.length >= 5);
    if (sensitiveNames.has(value) || (encoding !== 'plain' && (builtin || value.includes('child_process')))) {
      hits.push({ kind: 'hidden-api-name', line, matched: value.slice(0, 200), encoding });
    }
    if (encoding !== 'plain')
      for (const match of value.matchAll(urlPattern))
        hits.push({ kind: 'url', line, matched: match[0].slice(0, 200), encoding });
  }
  return hits;
}
