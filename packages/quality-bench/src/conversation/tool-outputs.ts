import type { SeededRandom } from '../random/seeded-random';
import { CJK_PROSE, FILLER_WORDS, NOUNS, SERVICES } from './vocabulary';

/** The kinds of tool output the generator writes. */
export type ToolOutputKind = 'source' | 'log' | 'json' | 'grep' | 'page' | 'base64';

/** `count` filler words. */
export function words(random: SeededRandom, count: number): string {
  const out: string[] = [];
  for (let index = 0; index < count; index++) out.push(random.pick(FILLER_WORDS));
  return out.join(' ');
}

/** A sentence of filler prose (capitalised, with a full stop). */
export function sentence(random: SeededRandom, minWords = 6, maxWords = 16): string {
  const text = words(random, random.integer(minWords, maxWords));
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/**
 * Lines of the given kind until `chars` characters, with `inserts` placed at random lines
 * (each at a distinct position, in the order given). Returns the text.
 */
export function toolOutput(
  random: SeededRandom,
  kind: ToolOutputKind,
  chars: number,
  inserts: readonly string[] = [],
): string {
  const lines: string[] = [];
  let length = 0;
  const line = lineMaker(random, kind);
  while (length < chars) {
    const text = line(lines.length);
    lines.push(text);
    length += text.length + 1;
  }
  if (kind === 'json') {
    lines.unshift('{', `  "service": "${random.pick(SERVICES)}",`, '  "items": [');
    lines.push('  ]', '}');
  }
  // Inserts go strictly inside the body (never the first or last line), spread out and in order.
  const slots = Math.max(1, lines.length - 2);
  const positions = inserts.map(() => 1 + Math.floor(random.next() * slots)).sort((a, b) => a - b);
  for (let index = inserts.length - 1; index >= 0; index--) {
    lines.splice(positions[index]!, 0, inserts[index]!);
  }
  return lines.join('\n');
}

function lineMaker(random: SeededRandom, kind: ToolOutputKind): (index: number) => string {
  const service = random.pick(SERVICES);
  switch (kind) {
    case 'source':
      return (index) => {
        const roll = random.next();
        if (roll < 0.15) return `// ${sentence(random, 5, 12)}`;
        if (roll < 0.3) return '';
        if (roll < 0.55)
          return `export function ${random.pick(FILLER_WORDS)}${index}(input: ${capitalise(random.pick(FILLER_WORDS))}) {`;
        if (roll < 0.8)
          return `  const ${random.pick(FILLER_WORDS)}${index} = await ${service}.${random.pick(FILLER_WORDS)}(input, ${random.integer(1, 9999)});`;
        return '  return { ok: true };\n}';
      };
    case 'log':
      return (index) => {
        const minute = String(Math.floor(index / 60) % 60).padStart(2, '0');
        const second = String(index % 60).padStart(2, '0');
        const level = random.chance(0.1) ? 'WARN' : random.chance(0.05) ? 'ERROR' : 'INFO';
        return `2026-03-02T10:${minute}:${second}.${String(random.integer(0, 999)).padStart(3, '0')}Z ${level} ${service}-${random.integer(1, 9)} ${words(random, random.integer(4, 10))} duration_ms=${random.integer(1, 900)}`;
      };
    case 'json':
      return () =>
        `    { "id": "${random.token(10)}", "status": "${random.pick(['ok', 'pending', 'failed', 'retrying'])}", "amount": ${random.integer(1, 99999) / 100}, "note": "${words(random, random.integer(2, 6))}" },`;
    case 'grep':
      return () =>
        `src/${service}/${random.pick(FILLER_WORDS)}-${random.pick(FILLER_WORDS)}.ts:${random.integer(1, 900)}:  ${words(random, random.integer(3, 9))}`;
    case 'page':
      return () => {
        const roll = random.next();
        if (roll < 0.12) return `## ${capitalise(random.pick(NOUNS))}`;
        if (roll < 0.22) return random.pick(CJK_PROSE);
        if (roll < 0.3) return '';
        return `${sentence(random)} ${sentence(random)}`;
      };
    case 'base64':
      return () => random.token(76, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
  }
}

/**
 * A YAML config block of about `lines` lines, with `inserts` (whole lines) placed at random lines
 * inside it: what a user pastes when asking about their config.
 */
export function configYaml(random: SeededRandom, lines: number, inserts: readonly string[] = []): string {
  const out = [`${random.pick(SERVICES)}:`];
  for (let index = 0; index < lines; index++) {
    const key = `${random.pick(FILLER_WORDS)}_${random.pick(FILLER_WORDS)}`;
    const roll = random.next();
    const value =
      roll < 0.4
        ? String(random.integer(1, 5000))
        : roll < 0.6
          ? random.pick(['true', 'false'])
          : roll < 0.8
            ? `"${words(random, random.integer(1, 3))}"`
            : `${random.pick(SERVICES)}-${random.pick(FILLER_WORDS)}`;
    out.push(`  ${key}: ${value}`);
  }
  const positions = inserts.map(() => 1 + Math.floor(random.next() * lines)).sort((a, b) => a - b);
  for (let index = inserts.length - 1; index >= 0; index--) out.splice(positions[index]!, 0, inserts[index]!);
  return out.join('\n');
}

function capitalise(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/**
 * A PNG as base64: a real signature and IHDR chunk (so image-size reads `width`×`height`), then
 * `bytes` of noise standing in for the pixel data.
 */
export function pngBase64(random: SeededRandom, width: number, height: number, bytes: number): string {
  const data = new Uint8Array(Math.max(40, bytes));
  data.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(data.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  data.set([8, 2, 0, 0, 0], 24);
  for (let index = 40; index < data.length; index++) data[index] = Math.floor(random.next() * 256);
  return Buffer.from(data).toString('base64');
}
