// Tests only: timelock decryption written from the Rust that Subtensor runs (ideal-lab5/timelock
// rev 5416406: tlock.rs `tld`, ibe/fullident.rs `IBESecret::decrypt`, ibe/utils.rs h2/h3/h4,
// stream_ciphers.rs AES-GCM), on @noble/curves and node:crypto instead of the WASM under test.
// If the WASM's ciphertext opens here, its layout and hashing are the ones the chain parses.
import { createDecipheriv, createHash } from 'node:crypto';
import { bls12_381 } from '@noble/curves/bls12-381';

/** The hash-to-G1 domain separation tag of quicknet (bls-unchained-g1-rfc9380). */
export const quicknetDst = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';

const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

/** ark-serialize layout: fixed-size points as is, `Vec<u8>` as a u64 little-endian length then bytes. */
class ArkReader {
  #offset = 0;
  constructor(readonly bytes: Buffer) {}
  take(length: number): Buffer {
    if (this.#offset + length > this.bytes.length) throw new Error('ciphertext truncated');
    const slice = this.bytes.subarray(this.#offset, this.#offset + length);
    this.#offset += length;
    return slice;
  }
  vector(): Buffer {
    return this.take(Number(this.take(8).readBigUInt64LE()));
  }
  get remaining(): number {
    return this.bytes.length - this.#offset;
  }
}

export interface ParsedTimelockCiphertext {
  /** U = rP in G2, 96 bytes compressed. */
  u: Buffer;
  v: Buffer;
  w: Buffer;
  aesCiphertext: Buffer;
  nonce: Buffer;
  cipherSuite: string;
}

/** `TLECiphertext { header: { u, v, w }, body: AESOutput { ciphertext, nonce } serialized, cipher_suite }`. */
export function parseTimelockCiphertext(bytes: Uint8Array): ParsedTimelockCiphertext {
  const reader = new ArkReader(Buffer.from(bytes));
  const u = reader.take(96);
  const v = reader.vector();
  const w = reader.vector();
  const body = new ArkReader(reader.vector());
  const cipherSuite = reader.vector().toString('latin1');
  if (reader.remaining !== 0) throw new Error(`${reader.remaining} trailing bytes after the ciphertext`);
  const aesCiphertext = body.vector();
  const nonce = body.vector();
  if (body.remaining !== 0) throw new Error('trailing bytes in the AES body');
  return { u, v, w, aesCiphertext, nonce, cipherSuite };
}

/** arkworks serializes Fp12 as c0 then c1 (Fp6: c0, c1, c2; Fp2: c0, c1), each Fp 48 bytes little-endian. */
function serializeFp12(value: unknown): Buffer {
  const fp = (element: bigint) => Buffer.from(element.toString(16).padStart(96, '0'), 'hex').reverse();
  const fp2 = (element: { c0: bigint; c1: bigint }) => [fp(element.c0), fp(element.c1)];
  const fp6 = (element: { c0: never; c1: never; c2: never }) => [
    ...fp2(element.c0),
    ...fp2(element.c1),
    ...fp2(element.c2),
  ];
  const fp12 = value as { c0: never; c1: never };
  return Buffer.concat([...fp6(fp12.c0), ...fp6(fp12.c1)]);
}

const xor32 = (a: Uint8Array, b: Uint8Array): Buffer =>
  Buffer.from(Array.from({ length: 32 }, (_, index) => a[index]! ^ b[index]!));

/** The AES key sealed in the header, opened with the round's signature (G1, 48 bytes). */
export function openTimelockKey(ciphertext: ParsedTimelockCiphertext, signature: Uint8Array): Buffer {
  const u = bls12_381.G2.ProjectivePoint.fromHex(ciphertext.u);
  const sigma = xor32(
    ciphertext.v,
    sha256(serializeFp12(bls12_381.pairing(bls12_381.G1.ProjectivePoint.fromHex(signature), u))),
  );
  const key = xor32(ciphertext.w, sha256(sigma));
  // The scheme's own check: U must equal H3(sigma, key)·P, else the signature was wrong.
  const r = BigInt(`0x${sha256(Buffer.concat([sigma, key])).toString('hex')}`) % bls12_381.fields.Fr.ORDER;
  if (!bls12_381.G2.ProjectivePoint.BASE.multiply(r).equals(u)) throw new Error('wrong signature for this ciphertext');
  return key;
}

export function decryptTimelockBody(ciphertext: ParsedTimelockCiphertext, key: Uint8Array): Buffer {
  if (ciphertext.cipherSuite !== 'AES_GCM_' || ciphertext.nonce.length !== 12)
    throw new Error(`unexpected cipher suite ${ciphertext.cipherSuite}`);
  const tagStart = ciphertext.aesCiphertext.length - 16;
  const decipher = createDecipheriv('aes-256-gcm', key, ciphertext.nonce);
  decipher.setAuthTag(ciphertext.aesCiphertext.subarray(tagStart));
  return Buffer.concat([decipher.update(ciphertext.aesCiphertext.subarray(0, tagStart)), decipher.final()]);
}

export function decryptTimelockIndependently(bytes: Uint8Array, signature: Uint8Array): Buffer {
  const parsed = parseTimelockCiphertext(bytes);
  return decryptTimelockBody(parsed, openTimelockKey(parsed, signature));
}

/** A beacon of our own: public key in G2, and its signature on a round's identity in G1, as drand would sign. */
export function localBeacon(secretKey: bigint): { publicKey: Uint8Array; sign(identity: Uint8Array): Uint8Array } {
  return {
    publicKey: bls12_381.G2.ProjectivePoint.BASE.multiply(secretKey).toRawBytes(true),
    sign: (identity) =>
      bls12_381.G1.ProjectivePoint.fromAffine(bls12_381.G1.hashToCurve(identity, { DST: quicknetDst }).toAffine())
        .multiply(secretKey)
        .toRawBytes(true),
  };
}

/** e(signature, G2) == e(H(identity), publicKey): the signature is the beacon's on that identity. */
export function verifyBeaconSignature(publicKey: Uint8Array, identity: Uint8Array, signature: Uint8Array): boolean {
  const hashed = bls12_381.G1.ProjectivePoint.fromAffine(
    bls12_381.G1.hashToCurve(identity, { DST: quicknetDst }).toAffine(),
  );
  const left = bls12_381.pairing(bls12_381.G1.ProjectivePoint.fromHex(signature), bls12_381.G2.ProjectivePoint.BASE);
  const right = bls12_381.pairing(hashed, bls12_381.G2.ProjectivePoint.fromHex(publicKey));
  return bls12_381.fields.Fp12.eql(left, right);
}
