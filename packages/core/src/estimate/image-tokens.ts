import type { ImagePart } from '../message/message';
import { imageDimensions } from './image-dimensions';

/** Whose image-token formula to apply. */
export type ImageProvider = 'anthropic' | 'openai' | 'google';

/** Options of `imageTokens`. */
export interface ImageTokensOptions {
  /**
   * Whose formula to apply: `anthropic` (w×h/750 after scaling), `openai` (512 px tiles) or
   * `google` (768 px tiles).
   * @default 'anthropic'
   */
  provider?: ImageProvider;
}

/** Anthropic scales an image down until its long edge is at most this many pixels. */
const ANTHROPIC_MAX_EDGE = 1568;
/**
 * …and its area at most this many pixels: 784×1568, the largest size Anthropic's table lists as
 * sent unscaled (≈1.2 megapixels; its prose rounds this to "~1.15 megapixels, ≈1,600 tokens").
 */
const ANTHROPIC_MAX_PIXELS = 784 * 1568;
/** Anthropic: pixels per token. */
const ANTHROPIC_PIXELS_PER_TOKEN = 750;
/** Anthropic: the most an image can cost (1,640), used when the size is unknown. */
const ANTHROPIC_UNKNOWN = Math.ceil(ANTHROPIC_MAX_PIXELS / ANTHROPIC_PIXELS_PER_TOKEN);

/** OpenAI: the flat cost of a `detail: 'low'` image, and the base cost of any other. */
const OPENAI_BASE = 85;
/** OpenAI: tokens per 512×512 tile. */
const OPENAI_PER_TILE = 170;
/** OpenAI fits an image inside a square of this many pixels… */
const OPENAI_MAX_EDGE = 2048;
/** …then scales it so its shortest side is at most this many pixels. */
const OPENAI_SHORT_EDGE = 768;
const OPENAI_TILE = 512;
/** OpenAI: the most an image can cost (2048×768 → 8 tiles), used when the size is unknown. */
const OPENAI_UNKNOWN = OPENAI_BASE + OPENAI_PER_TILE * 8;

/** Google: tokens per image at most 384×384, and per 768×768 tile of a larger one. */
const GOOGLE_PER_TILE = 258;
const GOOGLE_SMALL_EDGE = 384;
const GOOGLE_TILE = 768;
/**
 * Google: the figure for an image of unknown size. Gemini's tile formula has no fixed maximum;
 * four tiles cover a typical photo or screenshot up to 1536×1536.
 */
const GOOGLE_UNKNOWN = GOOGLE_PER_TILE * 4;

function anthropicTokens(width: number, height: number): number {
  let scale = Math.min(1, ANTHROPIC_MAX_EDGE / Math.max(width, height));
  const pixels = width * height * scale * scale;
  if (pixels > ANTHROPIC_MAX_PIXELS) scale *= Math.sqrt(ANTHROPIC_MAX_PIXELS / pixels);
  const scaledWidth = Math.max(1, Math.floor(width * scale));
  const scaledHeight = Math.max(1, Math.floor(height * scale));
  return Math.ceil((scaledWidth * scaledHeight) / ANTHROPIC_PIXELS_PER_TOKEN);
}

function openAiTokens(width: number, height: number): number {
  let scale = Math.min(1, OPENAI_MAX_EDGE / Math.max(width, height));
  const shortEdge = Math.min(width, height) * scale;
  if (shortEdge > OPENAI_SHORT_EDGE) scale *= OPENAI_SHORT_EDGE / shortEdge;
  const scaledWidth = Math.max(1, Math.round(width * scale));
  const scaledHeight = Math.max(1, Math.round(height * scale));
  const tiles = Math.ceil(scaledWidth / OPENAI_TILE) * Math.ceil(scaledHeight / OPENAI_TILE);
  return OPENAI_BASE + OPENAI_PER_TILE * tiles;
}

function googleTokens(width: number, height: number): number {
  if (width <= GOOGLE_SMALL_EDGE && height <= GOOGLE_SMALL_EDGE) return GOOGLE_PER_TILE;
  return GOOGLE_PER_TILE * Math.ceil(width / GOOGLE_TILE) * Math.ceil(height / GOOGLE_TILE);
}

/**
 * Tokens an image costs the model, by the provider's published formula and the image's real size
 * (from `width`/`height`, else its header; see `imageDimensions`):
 *
 * - `anthropic`: scaled down until the long edge is ≤ 1,568 px and the area ≤ 784 × 1,568 px
 *   (≈1.2 megapixels); then ⌈w × h / 750⌉ (at most 1,640).
 * - `openai`: `detail: 'low'` → 85. Otherwise fitted inside 2048×2048, then scaled down so the
 *   shortest side is ≤ 768 px; 85 + 170 per 512×512 tile.
 * - `google`: 258 when both sides are ≤ 384 px, else 258 per 768×768 tile.
 *
 * When the size cannot be known (a remote URL, unreadable data) the result is a conservative
 * figure: 1,640 for `anthropic` (its maximum), 1,445 for `openai` (its maximum) and 1,032 for `google` (four
 * tiles). Never throws.
 */
export function imageTokens(image: ImagePart, { provider = 'anthropic' }: ImageTokensOptions = {}): number {
  if (provider === 'openai' && image.detail === 'low') return OPENAI_BASE;
  const dimensions = imageDimensions(image);
  if (dimensions === undefined) {
    return provider === 'openai'
      ? OPENAI_UNKNOWN
      : provider === 'google'
        ? GOOGLE_UNKNOWN
        : ANTHROPIC_UNKNOWN;
  }
  const { width, height } = dimensions;
  if (provider === 'openai') return openAiTokens(width, height);
  if (provider === 'google') return googleTokens(width, height);
  return anthropicTokens(width, height);
}
