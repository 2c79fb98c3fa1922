import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GENERATOR_VERSION, generateConversation } from '../conversation/generate-conversation';
import { createTokenCounter } from '../tokens/token-counter';
import { generatorSourceHash, loadConversation } from './conversation-cache';
import { conversationTokens } from './conversation-tokens';

const dir = mkdtempSync(join(tmpdir(), 'quality-bench-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadConversation', () => {
  it('generates and counts once, then reads the same conversation and count back, keyed by generator, split, seed and turns', () => {
    const first = loadConversation({
      seed: 3,
      turns: 30,
      split: 'heldout',
      counter: createTokenCounter(),
      dir,
    });
    expect(first.cached).toBe(false);
    const files = readdirSync(dir);
    expect(files).toEqual([`v${GENERATOR_VERSION}-${generatorSourceHash()}-heldout-s3-t30.json`]);
    const counter = createTokenCounter();
    const again = loadConversation({ seed: 3, turns: 30, split: 'heldout', counter, dir });
    expect(again.cached).toBe(true);
    expect(again.conversation).toEqual(generateConversation({ seed: 3, turns: 30, split: 'heldout' }));
    expect(again.tokens).toBe(first.tokens);
    // The cached counts are preloaded: counting the conversation gives the same total.
    expect(conversationTokens(again.conversation, counter)).toBe(first.tokens);
    expect(conversationTokens(again.conversation, createTokenCounter())).toBe(first.tokens);
    const other = loadConversation({ seed: 3, turns: 30, split: 'tune', counter, dir });
    expect(other.cached).toBe(false);
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('can skip the cache altogether', () => {
    const loaded = loadConversation({
      seed: 4,
      turns: 12,
      split: 'heldout',
      counter: createTokenCounter(),
      dir: false,
    });
    expect(loaded.cached).toBe(false);
    expect(readdirSync(dir).some((file) => file.includes('-s4-'))).toBe(false);
  });
});
