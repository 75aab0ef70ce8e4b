// Hash-based randomness for the sim fleet: every outcome is a pure function of its inputs, so the
// same request always gets the same answer. No Math.random, no clock.
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth, so equal values always hash alike. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
    return sorted;
  }
  return value;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A number in [0, 1) fixed by its parts: the same parts always give the same number. */
export function unitFromParts(...parts: readonly (string | number)[]): number {
  // 48 bits: exact in a double, plenty for probabilities.
  return parseInt(sha256Hex(JSON.stringify(parts)).slice(0, 12), 16) / 2 ** 48;
}

/** A stream of deterministic numbers: sha256 of (key, counter). */
export class DeterministicRandom {
  private counter = 0;

  constructor(readonly key: string) {}

  /** A child stream whose numbers do not depend on how many this one has drawn. */
  derive(label: string): DeterministicRandom {
    return new DeterministicRandom(sha256Hex(`${this.key}/${label}`));
  }

  /** The next number in [0, 1). */
  next(): number {
    return unitFromParts(this.key, this.counter++);
  }

  /** An integer in [min, max], both included. */
  integer(min: number, max: number): number {
    if (max <= min) return min;
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('cannot pick from an empty list');
    return items[this.integer(0, items.length - 1)]!;
  }

  /** Hex text derived from the stream, for ids. */
  hex(length: number): string {
    return sha256Hex(`${this.key}#hex#${this.counter++}`).slice(0, length);
  }
}
