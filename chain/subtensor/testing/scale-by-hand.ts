// SCALE written out byte by byte, for tests: expected encodings computed without the codec
// library under test, so a wrong type or index in the client's path makes a test fail.
export function hex(bytes: number[] | Uint8Array): string {
  return `0x${Buffer.from(Uint8Array.from(bytes)).toString('hex')}`;
}

export function littleEndian(value: bigint | number, byteCount: number): number[] {
  let remaining = BigInt(value);
  const bytes: number[] = [];
  for (let index = 0; index < byteCount; index++) {
    bytes.push(Number(remaining & 0xffn));
    remaining >>= 8n;
  }
  return bytes;
}

export const u8 = (value: number): number[] => [value & 0xff];
export const u16 = (value: number): number[] => littleEndian(value, 2);
export const u32 = (value: number): number[] => littleEndian(value, 4);
export const u64 = (value: bigint | number): number[] => littleEndian(value, 8);
export const u128 = (value: bigint | number): number[] => littleEndian(value, 16);
export const bool = (value: boolean): number[] => [value ? 1 : 0];

/** Compact: 6-bit single byte, 14-bit two bytes, 30-bit four bytes, else length-prefixed big integer. */
export function compact(value: bigint | number): number[] {
  const n = BigInt(value);
  if (n < 1n << 6n) return [Number(n << 2n)];
  if (n < 1n << 14n) return littleEndian((n << 2n) | 1n, 2);
  if (n < 1n << 30n) return littleEndian((n << 2n) | 2n, 4);
  let byteCount = 0;
  for (let rest = n; rest > 0n; rest >>= 8n) byteCount++;
  return [((byteCount - 4) << 2) | 3, ...littleEndian(n, byteCount)];
}

export function vector(items: number[][]): number[] {
  return [...compact(items.length), ...items.flat()];
}

export function bytesOf(text: string): number[] {
  return [...new TextEncoder().encode(text)];
}
