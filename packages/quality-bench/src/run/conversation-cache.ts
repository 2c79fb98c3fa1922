import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Conversation } from '../conversation/conversation';
import { GENERATOR_VERSION, generateConversation } from '../conversation/generate-conversation';
import type { PhrasingSplit } from '../conversation/phrasings/phrasing-split';
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter';
import { conversationTokens } from './conversation-tokens';

/** The package's own directory (the cache lives in its `.cache/`). */
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where cached conversations are written by default. */
export const DEFAULT_CACHE_DIR = join(packageDir, '.cache', 'conversations');

/** The folders whose source decides what a seed generates (hashed into every cache key). */
const GENERATOR_SOURCES = ['conversation', 'questions', 'random'].map((folder) =>
  join(packageDir, 'src', folder),
);

let sourceHash: string | undefined;

/**
 * A hash of the generator's source (every non-test `.ts` file of `src/conversation`,
 * `src/questions`, `src/random`, phrasings included): a cache entry written by other code is never
 * read, even if `GENERATOR_VERSION` was not bumped.
 */
export function generatorSourceHash(): string {
  if (sourceHash !== undefined) return sourceHash;
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        hash.update(path.slice(packageDir.length)).update(readFileSync(path));
      }
    }
  };
  for (const dir of GENERATOR_SOURCES) walk(dir);
  sourceHash = hash.digest('hex').slice(0, 12);
  return sourceHash;
}

/** Options of {@link loadConversation}. */
export interface LoadConversationOptions {
  seed: number;
  turns: number;
  split: PhrasingSplit;
  /** The counter the caller will count with: the cached exact counts are preloaded into it. */
  counter: TokenCounter;
  /**
   * The cache folder; `false` generates and counts afresh without reading or writing it.
   * @default DEFAULT_CACHE_DIR
   */
  dir?: string | false;
}

/** A conversation and its size (o200k tokens of it as one request). */
export interface LoadedConversation {
  conversation: Conversation;
  tokens: number;
  /** Whether it came from the cache. */
  cached: boolean;
}

/**
 * The conversation for a seed, turn count and split, and its size in tokens: from the on-disk
 * cache when an entry for this generator (version and source hash) exists, else generated, counted
 * (exactly, o200k) and written there. The exact counts of its texts are cached too and preloaded
 * into `counter`, so a worker does not encode the conversation's texts again (counting a 1,000-turn
 * conversation takes most of a minute; reading it back, about a second).
 */
export function loadConversation({
  seed,
  turns,
  split,
  counter,
  dir = DEFAULT_CACHE_DIR,
}: LoadConversationOptions): LoadedConversation {
  const file =
    dir === false
      ? undefined
      : join(dir, `v${GENERATOR_VERSION}-${generatorSourceHash()}-${split}-s${seed}-t${turns}.json`);
  if (file !== undefined && existsSync(file)) {
    const entry = JSON.parse(readFileSync(file, 'utf8')) as {
      conversation: Conversation;
      tokens: number;
      counts: Record<string, number>;
    };
    counter.preload(entry.counts);
    return { conversation: entry.conversation, tokens: entry.tokens, cached: true };
  }
  const conversation = generateConversation({ seed, turns, split });
  const fresh = createTokenCounter();
  const tokens = conversationTokens(conversation, fresh);
  const counts = fresh.exportCounts();
  counter.preload(counts);
  if (file !== undefined) {
    mkdirSync(dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ conversation, tokens, counts }));
    renameSync(temporary, file);
  }
  return { conversation, tokens, cached: false };
}
