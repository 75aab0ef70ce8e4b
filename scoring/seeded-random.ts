// Reproducible randomness for the seat decision and its calibration bench. Pure: no Math.random,
// no clock, no Node built-ins, so Temporal workflow code may use it and replay gets the same numbers.
//
// FNV-1a (64-bit) turns text into a seed; splitmix64 spreads that seed over the 128-bit state of
// xoshiro128**, a small, fast generator whose 32-bit arithmetic maps directly onto Math.imul.

const fnvOffsetBasis = 0xcbf29ce484222325n;
const fnvPrime = 0x100000001b3n;
const mask64 = (1n << 64n) - 1n;

/** The UTF-8 bytes of a string, without TextEncoder (not every sandbox has it). */
function utf8Bytes(text: string): number[] {
  const bytes: number[] = [];
  for (const character of text) {
    const code = character.codePointAt(0)!;
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    else
      bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
  }
  return bytes;
}

/** FNV-1a, 64-bit, over the UTF-8 bytes of `text`. */
export function fnv1a64(text: string): bigint {
  let hash = fnvOffsetBasis;
  for (const byte of utf8Bytes(text)) hash = ((hash ^ BigInt(byte)) * fnvPrime) & mask64;
  return hash;
}

/** A 64-bit seed written as 16 lower-case hex digits: how seeds travel in JSON. */
export function seedToString(seed: bigint): string {
  return (seed & mask64).toString(16).padStart(16, '0');
}

export function seedFromString(text: string): bigint {
  if (!/^[0-9a-f]{16}$/.test(text)) throw new RangeError(`a seed is 16 hex digits, got "${text}"`);
  return BigInt(`0x${text}`);
}

/** The seed of the decision between two packs. Order matters: (a, b) and (b, a) differ. */
export function pairSeed(incumbentPackHash: string, challengerPackHash: string): bigint {
  return fnv1a64(`${incumbentPackHash}:${challengerPackHash}`);
}

/** One splitmix64 step: returns the next state and its output. */
function splitmix64(state: bigint): { state: bigint; output: bigint } {
  const next = (state + 0x9e3779b97f4a7c15n) & mask64;
  let z = next;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask64;
  return { state: next, output: z ^ (z >> 31n) };
}

const twoTo32 = 4294967296;
const maximumIntBound = 2 ** 21;

function rotateLeft(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}

/** xoshiro128** seeded through splitmix64. Not for secrets: for reproducible sampling only. */
export class SeededRandom {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  /** nextInt's per-bound threshold, kept so repeated draws below the same bound skip the modulo. */
  private cachedBound = 0;
  private cachedRejectBelow = 0;

  constructor(seed: bigint) {
    const first = splitmix64(seed & mask64);
    const second = splitmix64(first.state);
    this.s0 = Number(first.output & 0xffffffffn) | 0;
    this.s1 = Number(first.output >> 32n) | 0;
    this.s2 = Number(second.output & 0xffffffffn) | 0;
    this.s3 = Number(second.output >> 32n) | 0;
    // An all-zero state would emit zeros forever; splitmix64 makes it practically impossible, still.
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  static fromText(text: string): SeededRandom {
    return new SeededRandom(fnv1a64(text));
  }

  /** A uniform integer in [0, 2^32). */
  nextUint32(): number {
    const result = Math.imul(rotateLeft(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const shifted = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= shifted;
    this.s3 = rotateLeft(this.s3, 11);
    return result;
  }

  /** A uniform number in [0, 1) with 53 random bits. */
  nextFloat(): number {
    const high = this.nextUint32() >>> 5; // 27 bits
    const low = this.nextUint32() >>> 6; // 26 bits
    return (high * 67108864 + low) / 9007199254740992;
  }

  /**
   * A uniform integer in [0, bound), unbiased: Lemire's multiply-and-reject, which needs no division
   * per draw (a modulo of numbers past 2^31 is a slow floating-point fmod in V8). bound ≤ 2^21 keeps
   * value × bound below 2^53, exact in a double.
   */
  nextInt(bound: number): number {
    if (bound !== this.cachedBound) {
      if (!Number.isInteger(bound) || bound < 1 || bound > maximumIntBound)
        throw new RangeError(`bound must be an integer in [1, 2^21], got ${bound}`);
      this.cachedBound = bound;
      this.cachedRejectBelow = twoTo32 % bound;
    }
    for (;;) {
      const product = this.nextUint32() * bound;
      const index = Math.floor(product / twoTo32);
      if (product - index * twoTo32 >= this.cachedRejectBelow) return index;
    }
  }

  /** A standard normal draw (Box–Muller; one of the pair is discarded to keep the state simple). */
  nextGaussian(): number {
    const u1 = 1 - this.nextFloat(); // (0, 1]: log stays finite
    const u2 = this.nextFloat();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
}
