/** Bytes encoded by base64 text (its length × 3/4, less the padding), without decoding it. */
export function base64ByteLength(data: string): number {
  let padding = 0;
  if (data.endsWith('==')) padding = 2;
  else if (data.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/**
 * A byte count for people: `512 B`, `48 KB`, `3.2 MB`, `48 MB` (binary units); `unlimited` for
 * an infinite count (a budget that is off).
 */
export function formatByteSize(bytes: number): string {
  if (!Number.isFinite(bytes)) return 'unlimited';
  if (bytes < 1024) return `${bytes} B`;
  const kilobytes = Math.round(bytes / 1024);
  if (kilobytes < 1024) return `${kilobytes} KB`;
  const megabytes = bytes / (1024 * 1024);
  return megabytes < 10 ? `${megabytes.toFixed(1)} MB` : `${Math.round(megabytes)} MB`;
}
