// Caps a list of messages that a pack can grow (notes, faults, errors) in count and in bytes,
// ending with "+N more" so nothing is silently lost and no payload grows with hostile input.

export interface ListBounds {
  maxItems: number;
  /** Each item is cut to this many UTF-8 bytes (at a character boundary). */
  maxItemBytes: number;
  /** All kept items together, in UTF-8 bytes. */
  maxTotalBytes: number;
}

export const noteBounds: ListBounds = { maxItems: 50, maxItemBytes: 500, maxTotalBytes: 16 * 1024 };

/** Cuts a string to at most maxBytes of UTF-8, marking the cut. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const marker = '…';
  const budget = Math.max(0, maxBytes - Buffer.byteLength(marker, 'utf8'));
  // Decoding a cut buffer may end in a replacement character; drop it.
  const cut = Buffer.from(text.slice(0, maxBytes), 'utf8')
    .subarray(0, budget)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return cut + marker;
}

/** Keeps the first items within the bounds; the last kept line says how many were left off. */
export function capList(items: readonly string[], bounds: ListBounds = noteBounds): string[] {
  const kept: string[] = [];
  let totalBytes = 0;
  for (const item of items) {
    if (kept.length >= bounds.maxItems) break;
    const text = truncateUtf8(item, bounds.maxItemBytes);
    const bytes = Buffer.byteLength(text, 'utf8');
    if (totalBytes + bytes > bounds.maxTotalBytes) break;
    kept.push(text);
    totalBytes += bytes;
  }
  const more = items.length - kept.length;
  if (more > 0) kept.push(`+${more} more`);
  return kept;
}

/** The same for records with message fields: keeps the first, cuts each string field. */
export function capRecords<T extends object>(
  items: readonly T[],
  bounds: ListBounds,
  moreRecord: (more: number) => T,
): T[] {
  const kept: T[] = [];
  let totalBytes = 0;
  for (const item of items) {
    if (kept.length >= bounds.maxItems) break;
    const cut = Object.fromEntries(
      Object.entries(item as Record<string, unknown>).map(([key, value]) => [
        key,
        typeof value === 'string' ? truncateUtf8(value, bounds.maxItemBytes) : value,
      ]),
    ) as unknown as T;
    const bytes = Buffer.byteLength(JSON.stringify(cut), 'utf8');
    if (totalBytes + bytes > bounds.maxTotalBytes) break;
    kept.push(cut);
    totalBytes += bytes;
  }
  const more = items.length - kept.length;
  if (more > 0) kept.push(moreRecord(more));
  return kept;
}
