/** Where an AI SDK file's bytes are: inline data or a URL. */
export interface FileSource {
  data?: string | Uint8Array;
  url?: string;
}

/**
 * Reads a file part's `data` in both shapes: V3 (`Uint8Array | string | URL`) and V4 (tagged:
 * `{ type: 'data' | 'url' | 'reference' | 'text', … }`). Undefined for provider references and
 * anything else this package does not read (those pass through untouched).
 */
export function fileSource(data: unknown): FileSource | undefined {
  if (typeof data === 'string') return isUrlText(data) ? { url: data } : { data };
  if (data instanceof Uint8Array) return { data };
  if (data instanceof URL) return { url: data.href };
  if (typeof data !== 'object' || data === null) return undefined;
  const tagged = data as { type?: unknown; data?: unknown; url?: unknown };
  if (tagged.type === 'data' && (typeof tagged.data === 'string' || tagged.data instanceof Uint8Array)) {
    return { data: tagged.data };
  }
  if (tagged.type === 'url') {
    if (tagged.url instanceof URL) return { url: tagged.url.href };
    if (typeof tagged.url === 'string') return { url: tagged.url };
  }
  return undefined;
}

function isUrlText(text: string): boolean {
  return text.startsWith('https://') || text.startsWith('http://');
}
