import type { FilePart, ImagePart } from '@spillway/core';

/**
 * What the read-back tool returns for an image or file reference: the answer's text and the media
 * itself, which `toModelOutput` turns into the content parts of the SDK that ran the tool.
 */
export interface RecallMediaOutput {
  readonly type: 'spillway-recall-media';
  /** The answer's text: the placeholder line with its reference. */
  readonly text: string;
  /** The image or file: base64 `data`, or a `url`. */
  readonly media: {
    readonly mediaType: string;
    readonly data?: string;
    readonly url?: string;
    readonly filename?: string;
  };
  /** The content-part shapes of the SDK that ran the tool (ai 6: `image-data`; ai 7: tagged `file`). */
  readonly sdk: 'ai6' | 'ai7';
}

/** What the read-back tool returns: the answer's text, or, for an image or file, {@link RecallMediaOutput}. */
export type RecallToolOutput = string | RecallMediaOutput;

/** The media of a recall answer as it travels in the tool's output (base64 or a URL). */
export function recallMediaOf(part: ImagePart | FilePart): RecallMediaOutput['media'] | undefined {
  const filename = typeof part.filename === 'string' ? { filename: part.filename } : {};
  // A `ModelMessage`'s image may also be a `URL` or an `ArrayBuffer`.
  const raw: unknown = part.data ?? part.url;
  const source =
    raw instanceof URL
      ? raw.href
      : raw instanceof ArrayBuffer
        ? new Uint8Array(raw)
        : (raw as string | Uint8Array | undefined);
  let mediaType = typeof part.mediaType === 'string' && part.mediaType !== '' ? part.mediaType : undefined;
  if (typeof source === 'string') {
    if (/^https?:\/\//i.test(source)) return { mediaType: mediaType ?? 'image/*', url: source, ...filename };
    const dataUrl = /^data:([^;,]*)(;base64)?,/i.exec(source);
    if (dataUrl !== null) {
      mediaType ??= dataUrl[1] || undefined;
      const payload = source.slice(dataUrl[0].length);
      const data =
        dataUrl[2] === undefined ? toBase64(new TextEncoder().encode(decodeURIComponent(payload))) : payload;
      return { mediaType: mediaType ?? 'application/octet-stream', data, ...filename };
    }
    return { mediaType: mediaType ?? 'application/octet-stream', data: source, ...filename };
  }
  if (source instanceof Uint8Array) {
    return { mediaType: mediaType ?? 'application/octet-stream', data: toBase64(source), ...filename };
  }
  return undefined;
}

/**
 * The model's view of a tool output: a text answer as text; an image or file as content parts
 * (the text line, then the media) in the shapes of the SDK that ran the tool.
 */
export function recallModelOutput(output: unknown) {
  if (!isMediaOutput(output)) {
    return { type: 'text' as const, value: typeof output === 'string' ? output : JSON.stringify(output) };
  }
  const { text, media, sdk } = output;
  const isImage = media.mediaType.startsWith('image/') || media.mediaType === 'image';
  const filename = media.filename === undefined ? {} : { filename: media.filename };
  let part: Record<string, unknown>;
  if (sdk === 'ai7') {
    part = {
      type: 'file',
      mediaType: media.mediaType,
      data:
        media.url === undefined
          ? { type: 'data', data: media.data }
          : { type: 'url', url: new URL(media.url) },
      ...filename,
    };
  } else if (media.url !== undefined) {
    part = isImage
      ? { type: 'image-url', url: media.url }
      : { type: 'file-url', url: media.url, mediaType: media.mediaType };
  } else {
    part = isImage
      ? { type: 'image-data', data: media.data, mediaType: media.mediaType }
      : { type: 'file-data', data: media.data, mediaType: media.mediaType, ...filename };
  }
  return { type: 'content' as const, value: [{ type: 'text' as const, text }, part] };
}

function isMediaOutput(output: unknown): output is RecallMediaOutput {
  return (
    typeof output === 'object' &&
    output !== null &&
    (output as { type?: unknown }).type === 'spillway-recall-media' &&
    typeof (output as { media?: unknown }).media === 'object'
  );
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}
