// Looks fingerprints up in a word sequence. Every fingerprint is a sequence of words, so a lookup is:
// at each position, extend the phrase word by word while it is still a prefix of some fingerprint.
// Cost grows with the text and the depth of partial matches, not with the number of fingerprints.
import type { Fingerprint, ScenarioFingerprints } from './fingerprint-schema.ts';

/** A text may stand for a few scenarios at once (a path two of them share): one entry each. */
export type FingerprintIndex = { byText: Map<string, Fingerprint[]>; prefixes: Set<string> };
export type FingerprintHit = { fingerprint: Fingerprint; start: number; length: number };

const cache = new WeakMap<ScenarioFingerprints, FingerprintIndex>();

export function indexFingerprints(fingerprints: ScenarioFingerprints): FingerprintIndex {
  const cached = cache.get(fingerprints);
  if (cached) return cached;
  const byText = new Map<string, Fingerprint[]>();
  const prefixes = new Set<string>();
  for (const fingerprint of fingerprints.fingerprints) {
    const same = byText.get(fingerprint.text);
    if (same) {
      same.push(fingerprint);
      continue;
    }
    byText.set(fingerprint.text, [fingerprint]);
    const words = fingerprint.text.split(' ');
    let prefix = '';
    for (const word of words) {
      prefix = prefix === '' ? word : `${prefix} ${word}`;
      prefixes.add(prefix);
    }
  }
  const index = { byText, prefixes };
  cache.set(fingerprints, index);
  return index;
}

/** Every fingerprint occurring in `words` as a whole-word sequence, in order of position. */
export function findFingerprints(index: FingerprintIndex, words: readonly string[]): FingerprintHit[] {
  const hits: FingerprintHit[] = [];
  for (let start = 0; start < words.length; start++) {
    let phrase = '';
    for (let end = start; end < words.length; end++) {
      phrase = end === start ? words[start]! : `${phrase} ${words[end]}`;
      if (!index.prefixes.has(phrase)) break;
      for (const fingerprint of index.byText.get(phrase) ?? [])
        hits.push({ fingerprint, start, length: end - start + 1 });
    }
  }
  return hits;
}
