// A miner's commitment text, `"{sha256hex64}|{https url}"`: parsed strictly, because it is
// hostile input read straight from the chain.
export type ParsedCommitment = { ok: true; packHash: string; url: string } | { ok: false; reason: string };

const maxUrlLength = 256;

export function formatPackCommitment(packHash: string, url: string): string {
  return `${packHash}|${url}`;
}

export function parsePackCommitment(text: string): ParsedCommitment {
  const parts = text.split('|');
  if (parts.length !== 2)
    return { ok: false, reason: `expected "<sha256>|<https url>" with exactly one "|", found ${parts.length - 1}` };
  const [hash, url] = parts as [string, string];
  if (!/^[0-9a-fA-F]{64}$/.test(hash)) return { ok: false, reason: 'the pack hash is not 64 hexadecimal characters' };
  if (url.length === 0) return { ok: false, reason: 'the URL is empty' };
  if (url.length > maxUrlLength) return { ok: false, reason: `the URL is longer than ${maxUrlLength} characters` };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'the URL does not parse' };
  }
  if (parsed.protocol !== 'https:')
    return { ok: false, reason: `the URL must use https, not ${parsed.protocol.replace(':', '')}` };
  if (parsed.username || parsed.password) return { ok: false, reason: 'the URL must not carry credentials' };
  return { ok: true, packHash: hash.toLowerCase(), url };
}

/** Raw commitment text is shown to operators: trimmed and stripped of control characters. */
export function displayRaw(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?').slice(0, 200);
}
