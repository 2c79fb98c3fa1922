/**
 * Deterministic generators for the content classes of the estimator benchmark and tests: JSON
 * (pretty and minified), server logs, base64 and hex/random identifiers, plus the shipped prose
 * fixtures cut into samples of varied size. Pure (no Node APIs), so the unit tests of
 * `src/estimate` can use it too; source code is read from disk by `load-corpus.ts` (bench only).
 */
import { CHINESE_PROSE, JAPANESE_PROSE, KOREAN_PROSE } from './cjk-prose';
import { ENGLISH_PROSE } from './english-prose';
import { OTHER_SCRIPTS_PROSE } from './other-scripts-prose';

/** A seeded pseudo-random source: `next()` returns a float in [0, 1). */
export interface Random {
  next(): number;
  /** An integer in [minimum, maximum]. */
  integer(minimum: number, maximum: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
}

/** A mulberry32 generator: small, fast and good enough for test data. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    integer: (minimum, maximum) => minimum + Math.floor(next() * (maximum - minimum + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

const firstNames = [
  'Alice',
  'Bogdan',
  'Chen',
  'Dolores',
  'Emeka',
  'Fatima',
  'Giulia',
  'Hiroshi',
  'Ingrid',
  'Jamal',
  'Katarzyna',
  'Liam',
  'Maya',
  'Nikolai',
  'Olivia',
  'Pedro',
  'Quentin',
  'Rania',
  'Sven',
  'Tatiana',
];
const lastNames = [
  'Anderson',
  'Baptiste',
  'Castillo',
  'Dubois',
  'Eriksson',
  'Fischer',
  'García',
  'Hughes',
  'Ivanova',
  'Johansson',
  'Kowalski',
  'Lindqvist',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Petrov',
  'Rossi',
  'Singh',
];
const cities = ['Berlin', 'Lagos', 'Osaka', 'Toronto', 'São Paulo', 'Melbourne', 'Lyon', 'Austin', 'Pune'];
const streets = ['Main Street', 'Oak Avenue', 'Harbour Road', 'Mill Lane', 'Station Road', 'Elm Drive'];
const products = [
  'Wireless Keyboard',
  'USB-C Hub',
  'Noise Cancelling Headphones',
  'Standing Desk',
  'Ergonomic Chair',
  '27-inch Monitor',
  'Laptop Sleeve',
  'Mechanical Pencil Set',
  'Espresso Machine',
  'Trail Running Shoes',
];
const statuses = ['pending', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded'];
const tags = ['priority', 'gift', 'wholesale', 'returning-customer', 'fragile', 'international', 'promo'];
const domains = ['example.com', 'mail.test', 'acme.io', 'contoso.org', 'initech.net'];

function hex(random: Random, length: number): string {
  let text = '';
  for (let index = 0; index < length; index++) text += '0123456789abcdef'[random.integer(0, 15)];
  return text;
}

function alphanumeric(random: Random, length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let text = '';
  for (let index = 0; index < length; index++) text += alphabet[random.integer(0, alphabet.length - 1)];
  return text;
}

function uuid(random: Random): string {
  return `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-a${hex(random, 3)}-${hex(random, 12)}`;
}

function timestamp(random: Random): string {
  const milliseconds =
    Date.UTC(2025, 0, 1) + random.integer(0, 400 * 24 * 3600) * 1000 + random.integer(0, 999);
  return new Date(milliseconds).toISOString();
}

function price(random: Random): number {
  return Math.round(random.next() * 50_000) / 100;
}

function user(random: Random): Record<string, unknown> {
  const first = random.pick(firstNames);
  const last = random.pick(lastNames);
  return {
    id: `usr_${alphanumeric(random, 14)}`,
    name: `${first} ${last}`,
    email: `${first.toLowerCase()}.${last.toLowerCase()}@${random.pick(domains)}`,
    createdAt: timestamp(random),
    verified: random.next() < 0.7,
    age: random.integer(18, 80),
    address: {
      street: `${random.integer(1, 400)} ${random.pick(streets)}`,
      city: random.pick(cities),
      postalCode: String(random.integer(10000, 99999)),
    },
    roles: random.next() < 0.2 ? ['admin', 'editor'] : ['member'],
  };
}

function order(random: Random): Record<string, unknown> {
  const items = Array.from({ length: random.integer(1, 5) }, () => ({
    sku: `SKU-${random.integer(1000, 9999)}-${alphanumeric(random, 3).toUpperCase()}`,
    name: random.pick(products),
    quantity: random.integer(1, 4),
    unitPrice: price(random),
  }));
  return {
    orderId: uuid(random),
    customerId: `usr_${alphanumeric(random, 14)}`,
    status: random.pick(statuses),
    placedAt: timestamp(random),
    currency: random.pick(['USD', 'EUR', 'JPY', 'GBP']),
    items,
    total: Math.round(items.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0) * 100) / 100,
    tags: tags.filter(() => random.next() < 0.25),
    shipping: {
      method: random.pick(['standard', 'express', 'pickup']),
      trackingNumber: alphanumeric(random, 18),
    },
  };
}

function apiResponse(random: Random): Record<string, unknown> {
  const kind = random.integer(0, 2);
  const data = Array.from({ length: random.integer(2, 8) }, () =>
    kind === 0 ? user(random) : order(random),
  );
  return {
    requestId: `req_${hex(random, 24)}`,
    status: 200,
    data,
    pagination: { page: random.integer(1, 40), perPage: data.length, total: random.integer(100, 9000) },
    meta: {
      durationMs: Math.round(random.next() * 90_000) / 100,
      region: random.pick(['eu-west-1', 'us-east-2']),
    },
  };
}

/** Realistic JSON documents: users, orders and paginated API responses with nested arrays. */
export function generateJsonDocuments(random: Random, count: number): unknown[] {
  return Array.from({ length: count }, () => {
    const kind = random.integer(0, 2);
    return kind === 0 ? user(random) : kind === 1 ? order(random) : apiResponse(random);
  });
}

const paths = [
  '/api/v1/users',
  '/api/v1/users/{id}',
  '/api/v1/orders',
  '/api/v1/orders/{id}/items',
  '/healthz',
  '/api/v2/search?q=keyboard&page=2',
  '/static/js/app.3f9c1a.js',
  '/login',
  '/api/v1/payments/webhook',
];
const messages = [
  'request completed',
  'cache miss, fetching from origin',
  'slow query detected',
  'retrying upstream call',
  'user session refreshed',
  'rate limit exceeded for client',
  'connection reset by peer',
  'payment authorised',
  'failed to parse request body: unexpected token at position 184',
];

/** Server log lines: ISO timestamps, levels, IPs, methods, paths, statuses, durations, request ids. */
export function generateLogLines(random: Random, count: number): string {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    const level = random.pick(['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR']);
    const ip = `${random.integer(10, 223)}.${random.integer(0, 255)}.${random.integer(0, 255)}.${random.integer(1, 254)}`;
    const path = random.pick(paths).replace('{id}', String(random.integer(1, 99_999)));
    const method = random.pick(['GET', 'GET', 'POST', 'PUT', 'DELETE']);
    const status = random.pick([200, 200, 200, 201, 204, 304, 400, 401, 404, 429, 500, 503]);
    const duration = (random.next() * 900).toFixed(1);
    const format = random.integer(0, 2);
    if (format === 0) {
      lines.push(
        `${timestamp(random)} ${level.padEnd(5)} [http] ${ip} "${method} ${path} HTTP/1.1" ${status} ${random.integer(120, 90_000)} ${duration}ms req_id=${hex(random, 16)}`,
      );
    } else if (format === 1) {
      lines.push(
        `[${timestamp(random)}] ${level} worker-${random.integer(1, 16)} ${random.pick(messages)} (trace=${uuid(random)}, attempt=${random.integer(1, 5)}, elapsed=${duration}ms)`,
      );
    } else {
      lines.push(
        JSON.stringify({
          ts: timestamp(random),
          level: level.toLowerCase(),
          msg: random.pick(messages),
          method,
          path,
          status,
          duration_ms: Number(duration),
          ip,
          request_id: hex(random, 16),
        }),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Random bytes encoded as base64 (standard alphabet, `=` padding), without line breaks. */
export function generateBase64(random: Random, byteLength: number): string {
  let text = '';
  for (let index = 0; index + 2 < byteLength; index += 3) {
    const value = random.integer(0, 0xffffff);
    text +=
      base64Alphabet[(value >> 18) & 63]! +
      base64Alphabet[(value >> 12) & 63]! +
      base64Alphabet[(value >> 6) & 63]! +
      base64Alphabet[value & 63]!;
  }
  const remainder = byteLength % 3;
  if (remainder === 1)
    text += `${base64Alphabet[random.integer(0, 63)]}${base64Alphabet[random.integer(0, 3) * 16]}==`;
  if (remainder === 2)
    text += `${base64Alphabet[random.integer(0, 63)]}${base64Alphabet[random.integer(0, 63)]}${base64Alphabet[random.integer(0, 15) * 4]}=`;
  return text;
}

/** Lists of random identifiers: hex digests, UUIDs, nanoid-style ids, API keys, one per line or comma-separated. */
export function generateIdentifiers(random: Random, count: number): string {
  const parts: string[] = [];
  for (let index = 0; index < count; index++) {
    const kind = random.integer(0, 4);
    if (kind === 0) parts.push(hex(random, 64));
    else if (kind === 1) parts.push(uuid(random));
    else if (kind === 2) parts.push(hex(random, 40));
    else if (kind === 3) parts.push(alphanumeric(random, 21));
    else parts.push(`sk_live_${alphanumeric(random, 32)}`);
  }
  return parts.join(random.next() < 0.5 ? '\n' : ', ');
}

/** Options of `splitIntoSamples`. */
export interface SplitIntoSamplesOptions {
  /** How many samples to cut. */
  count: number;
  /** Smallest sample, in UTF-16 code units. @default 200 */
  minimumChars?: number;
  /** Largest sample, in UTF-16 code units. @default 8000 */
  maximumChars?: number;
}

/**
 * Cuts `count` windows of log-uniform length out of `text` (they may overlap), starting and
 * ending at whitespace where there is some nearby and never inside a surrogate pair.
 */
export function splitIntoSamples(
  text: string,
  random: Random,
  { count, minimumChars = 200, maximumChars = 8000 }: SplitIntoSamplesOptions,
): string[] {
  const samples: string[] = [];
  const largest = Math.min(maximumChars, text.length);
  const smallest = Math.min(minimumChars, largest);
  for (let index = 0; index < count; index++) {
    const length = Math.round(smallest * (largest / smallest) ** random.next());
    let start = random.integer(0, text.length - length);
    const space = text.indexOf(' ', start);
    if (space !== -1 && space - start < 40 && space + length <= text.length) start = space + 1;
    if (isLowSurrogate(text.charCodeAt(start))) start++;
    let end = Math.min(text.length, start + length);
    if (isLowSurrogate(text.charCodeAt(end))) end--;
    samples.push(text.slice(start, end));
  }
  return samples;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The content classes of the benchmark, in table order. */
export const CONTENT_CLASSES = [
  'English prose',
  'Source code',
  'JSON (pretty)',
  'JSON (minified)',
  'Chinese',
  'Japanese',
  'Korean',
  'Other scripts',
  'Logs',
  'Base64',
  'Hex / random ids',
] as const;

/** One content class of the benchmark. */
export type ContentClass = (typeof CONTENT_CLASSES)[number];

/** Options of `generateSamples`. */
export interface GenerateSamplesOptions {
  /** Seed of the pseudo-random source. @default 20_250_101 */
  seed?: number;
  /** Samples per class. @default 60 */
  samplesPerClass?: number;
  /**
   * Source code to cut the `Source code` samples from (the bench reads the repository's own
   * TypeScript); the class is left empty when not given.
   */
  sourceCode?: string;
}

/** Samples of 200–8,000 characters for every content class, deterministic for a given seed. */
export function generateSamples({
  seed = 20_250_101,
  samplesPerClass = 60,
  sourceCode,
}: GenerateSamplesOptions = {}): Record<ContentClass, string[]> {
  const random = createRandom(seed);
  const split = (text: string) => splitIntoSamples(text, random, { count: samplesPerClass });
  const documents = generateJsonDocuments(random, 400);
  const pretty = documents.map((document) => JSON.stringify(document, null, 2)).join('\n');
  const minified = documents.map((document) => JSON.stringify(document)).join('\n');
  return {
    'English prose': split(ENGLISH_PROSE),
    'Source code': sourceCode === undefined ? [] : split(sourceCode),
    'JSON (pretty)': split(pretty),
    'JSON (minified)': split(minified),
    Chinese: split(CHINESE_PROSE),
    Japanese: split(JAPANESE_PROSE),
    Korean: split(KOREAN_PROSE),
    'Other scripts': split(OTHER_SCRIPTS_PROSE),
    Logs: split(generateLogLines(random, 800)),
    Base64: split(generateBase64(random, 60_000)),
    'Hex / random ids': split(generateIdentifiers(random, 2000)),
  };
}
