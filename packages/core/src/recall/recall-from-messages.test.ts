import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../../test/conversation-fixtures';
import { compactMessages } from '../compact/compact-messages';
import type { Message } from '../message/message';
import type { CompactionState } from '../store/compaction-state';
import { RECALL_ANNOUNCEMENT } from './recall-announcement';
import { MemoryRecallArchive } from './recall-archive';
import { recallFromMessages } from './recall-from-messages';
import { RECALL_REF_PATTERN } from './recall-ref';

/** A text of `chars` characters with numbered lines (so every page is distinct), some of them CJK and emoji. */
function bigText(chars: number, seed = 1): string {
  let text = '';
  for (let line = 0; text.length < chars; line++) {
    text += `line ${line} seed ${seed}: ${line % 7 === 0 ? '数据库连接超时 😀 ' : 'plain words here '}${'x'.repeat(line % 50)}\n`;
  }
  return text.slice(0, chars);
}

function conversation(result: string, { toolCallId = 'call_1', opener = 'Please read the log.' } = {}) {
  const messages: Message[] = [
    { role: 'system', content: 'You are a helpful agent.' },
    { role: 'user', content: opener },
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId, toolName: 'read_log', input: { path: '/var/log/app.log' } }],
    },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName: 'read_log', content: result }] },
    { role: 'assistant', content: 'The log is long; I read it.' },
    { role: 'user', content: 'What went wrong?' },
  ];
  return messages;
}

function refsIn(messages: readonly Message[]): string[] {
  return [...JSON.stringify(messages).matchAll(RECALL_REF_PATTERN)].map((match) => match[0]);
}

/** Reads every page of `ref` through the tool, following the footers. */
async function readAll(messages: readonly Message[], ref: string, maxChars?: number) {
  let offset = 0;
  let text = '';
  let calls = 0;
  for (;;) {
    const answer = await recallFromMessages({
      input: { ref, offset },
      messages,
      ...(maxChars ? { maxChars } : {}),
    });
    expect(answer.isError).toBe(false);
    calls++;
    const [header, ...rest] = answer.text.split('\n');
    const footer = rest.pop()!;
    const page = rest.join('\n');
    expect(header).toMatch(
      new RegExp(`^\\[${ref.replace(/\./g, '\\.')}: characters ${offset}–\\d+ of \\d+\\]$`),
    );
    text += page;
    const next = /"offset":(\d+)\}\]$/.exec(footer);
    if (next === null) {
      expect(footer).toBe(`[End of ${ref}.]`);
      return { text, calls };
    }
    offset = Number(next[1]);
  }
}

describe('references in cuts, read back through recallFromMessages', () => {
  it('a 1 MB tool result cut to its preview reads back byte-exact, page by page', async () => {
    const original = bigText(1_000_000);
    const messages = conversation(original);
    const result = await compactMessages(messages, { contextWindow: 128_000, recallTool: true });
    const refs = refsIn(result.messages);
    expect(refs).toHaveLength(1);
    const ref = refs[0]!;
    const tool = result.messages.find((message) => message.role === 'tool')!;
    const cut = (tool.content as unknown as { content: string }[])[0]!.content;
    // The seed's marker stays as it was; the reference and where the cut begins follow it.
    expect(cut).toMatch(
      new RegExp(
        `\\n\\n\\[\\.\\.\\. content truncated, showing first (\\d+) characters of 1000000 total \\.\\.\\.\\]\\n\\[ref=${ref.replace('.', '\\.')} offset=\\1\\]`,
      ),
    );
    // The one line about the tool follows the first cut.
    expect(cut.endsWith(RECALL_ANNOUNCEMENT)).toBe(true);
    const { text, calls } = await readAll(messages, ref, 100_000);
    expect(text === original).toBe(true);
    expect(calls).toBe(10);
  });

  it('reads from the offset the marker names (the rest of the cut in one call)', async () => {
    const original = `${'head '.repeat(10_000)}NEEDLE-4242 in the middle${' tail'.repeat(10_000)}`;
    const messages = conversation(original);
    const result = await compactMessages(messages, { contextWindow: 128_000 });
    const tool = JSON.stringify(result.messages);
    const [, ref, offset] = /\[ref=(t\.[A-Za-z0-9]{12}) offset=(\d+)\]/.exec(tool)!;
    const answer = await recallFromMessages({
      input: { ref, offset: Number(offset), length: 50_000 },
      messages,
      maxChars: 60_000,
    });
    expect(answer.text).toContain('NEEDLE-4242');
    expect(answer.text.split('\n')[1]).toBe(original.slice(Number(offset), Number(offset) + 50_000));
  });

  it('a search finds a needle in a summarized span, and reading its reference returns the original', async () => {
    const messages: Message[] = [{ role: 'system', content: 'You are an agent.' }];
    for (let turn = 0; turn < 30; turn++) {
      messages.push({
        role: 'user',
        content: `Turn ${turn}: ${'please continue with the refactoring of the billing module. '.repeat(20)}`,
      });
      // The needle is in the assistant's words (the user's own are kept verbatim beside a summary).
      messages.push({
        role: 'assistant',
        content:
          turn === 3
            ? 'The staging database password rotates every Tuesday; the vault path is kv/staging/db-7f3a9c2e.'
            : `Done with step ${turn}. ${'Details follow. '.repeat(30)}`,
      });
    }
    messages.push({ role: 'user', content: 'Where is the staging password kept?' });
    // A summarizer that forgets the needle.
    const summarizer = () => 'The user and the assistant refactored the billing module step by step.';
    const first = await compactMessages(messages, { contextWindow: 8_000, summarizer, recallTool: true });
    expect(first.stateChanged).toBe(true);
    const summary = String(first.messages[0]!.content);
    expect(summary).not.toContain('db-7f3a9c2e');
    const span =
      /\[Summarized: messages 1–(\d+) of this conversation\] \[ref=(s\.0-\d+\.[A-Za-z0-9]{12})\]/.exec(
        summary,
      );
    expect(span).not.toBeNull();
    expect(summary).toContain(RECALL_ANNOUNCEMENT);

    const search = await recallFromMessages({ input: { search: 'db-7f3a9c2e' }, messages });
    expect(search.isError).toBe(false);
    const hit = /\{"ref":"([^"]+)","offset":(\d+)\}/.exec(search.text)!;
    // From the match on, and the whole message the match is in.
    const atMatch = await recallFromMessages({ input: { ref: hit[1], offset: Number(hit[2]) }, messages });
    expect(atMatch.text.split('\n')[1]).toBe('db-7f3a9c2e.');
    const read = await recallFromMessages({ input: { ref: hit[1] }, messages });
    expect(read.text).toContain(
      'The staging database password rotates every Tuesday; the vault path is kv/staging/db-7f3a9c2e.',
    );
    // The summary's own span reference reads the covered messages in full, the needle among them.
    const whole = await readAll(messages, span![2]!, 1_000_000);
    expect(whole.text).toContain(
      '--- message 8 (assistant) ---\nThe staging database password rotates every Tuesday; the vault path is kv/staging/db-7f3a9c2e.',
    );
    // And searching inside the span finds it too.
    const within = await recallFromMessages({ input: { ref: span![2], search: 'vault path' }, messages });
    expect(within.text).toMatch(/"offset":\d+\}: The staging database password/);
  });

  it('a reference from another conversation is refused, even with the same call id and layout', async () => {
    const a = conversation(bigText(60_000, 1), { opener: 'Please read the log of service A.' });
    const b = conversation(bigText(60_000, 2), { opener: 'Please read the log of service B.' });
    const refA = refsIn((await compactMessages(a, { contextWindow: 128_000 })).messages)[0]!;
    const refB = refsIn((await compactMessages(b, { contextWindow: 128_000 })).messages)[0]!;
    expect(refA).not.toBe(refB);
    expect((await recallFromMessages({ input: { ref: refA }, messages: a })).isError).toBe(false);
    const refused = await recallFromMessages({ input: { ref: refA }, messages: b });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('Nothing in this conversation is known by the reference');
    // Same opener, same call id, different content: still refused.
    const c = conversation(bigText(60_000, 3), { opener: 'Please read the log of service A.' });
    expect((await recallFromMessages({ input: { ref: refA }, messages: c })).isError).toBe(true);
    // Another secret: refused too.
    expect((await recallFromMessages({ input: { ref: refA }, messages: a, secret: 'other' })).isError).toBe(
      true,
    );
    // Made-up references and garbage.
    for (const ref of ['t.AAAAAAAAAAAA', 's.0-3.AAAAAAAAAAAA', 'i.AAAAAAAAAAAA', 'nonsense']) {
      expect((await recallFromMessages({ input: { ref }, messages: a })).isError).toBe(true);
    }
  });

  it('an image placeholder names the image, and its reference gives the image back', async () => {
    const shot = screenshot(1280, 800);
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'Here is the bug.' }, shot] },
      { role: 'assistant', content: 'I see it.' },
      ...Array.from({ length: 12 }, (_, turn): Message[] => [
        { role: 'user', content: `Turn ${turn}: ${'more context about the checkout page. '.repeat(6)}` },
        { role: 'assistant', content: `Noted ${turn}. ${'Fine. '.repeat(60)}` },
      ]).flat(),
      { role: 'user', content: 'Is it fixed?' },
    ];
    const result = await compactMessages(messages, {
      contextWindow: 3_000,
      summarizer: () => 'Earlier: a bug on the checkout page.',
      recall: { secret: 's3cret' },
    });
    // Wherever the first message is now (in place, or among the user's words kept beside the
    // summary), the image is its placeholder with its reference.
    const sent = JSON.stringify(result.messages);
    const imageRef = /\[image: image\/png, 1280x800, 2 KB\] \[ref=(i\.[A-Za-z0-9]{12})\]/.exec(sent)![1]!;
    const image = await recallFromMessages({ input: { ref: imageRef }, messages, secret: 's3cret' });
    expect(image.isError).toBe(false);
    expect(image.media).toBe(shot);
    expect(image.text).toContain('[image: image/png, 1280x800, 2 KB]');
    // The same image as a data URL or as bytes is the same image (the reference names its content).
    const asBytes = Uint8Array.from(atob(shot.data as string), (char) => char.charCodeAt(0));
    const converted: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Here is the bug.' },
          { ...shot, data: asBytes },
        ],
      },
      ...messages.slice(1),
    ];
    expect(
      (await recallFromMessages({ input: { ref: imageRef }, messages: converted, secret: 's3cret' })).isError,
    ).toBe(false);
  });

  it('the same cut gives the same text on every call, whatever the objects (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 31_000, max: 200_000 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.constantFrom(8_000, 32_000, 128_000),
        async (chars, seed, contextWindow) => {
          const messages = conversation(bigText(chars, seed));
          const once = await compactMessages(messages, { contextWindow, recallTool: true });
          const again = await compactMessages(structuredClone(messages), { contextWindow, recallTool: true });
          expect(JSON.stringify(again.messages)).toBe(JSON.stringify(once.messages));
          for (const ref of refsIn(once.messages)) {
            expect((await recallFromMessages({ input: { ref }, messages })).isError).toBe(false);
          }
        },
      ),
      { numRuns: 12 },
    );
  });

  it('a stored state applied on later calls carries the same span reference (cache-stable)', async () => {
    const messages: Message[] = [];
    for (let turn = 0; turn < 24; turn++) {
      messages.push({ role: 'user', content: `Ask ${turn}: ${'lorem ipsum dolor sit amet. '.repeat(30)}` });
      messages.push({
        role: 'assistant',
        content: `Answer ${turn}. ${'consectetur adipiscing. '.repeat(30)}`,
      });
    }
    messages.push({ role: 'user', content: 'Next?' });
    const summarizer = () => 'Summary of the asks.';
    const first = await compactMessages(messages, { contextWindow: 8_000, summarizer });
    const state = first.state as CompactionState;
    const later = [
      ...messages,
      { role: 'assistant', content: 'Sure.' } as Message,
      { role: 'user', content: 'More?' } as Message,
    ];
    const second = await compactMessages(structuredClone(later), { contextWindow: 8_000, summarizer, state });
    expect(second.actions).toContain('apply-summary');
    expect(second.messages[0]).toEqual(first.messages[0]);
  });

  it('archived originals (capped at storage time) are read and searched in place of their capped copies', async () => {
    const evictions: unknown[] = [];
    const archive = new MemoryRecallArchive({ onEvict: (eviction) => evictions.push(eviction) });
    const original = `${'a'.repeat(40_000)}NEEDLE-ARCHIVED${'b'.repeat(40_000)}`;
    const messages = conversation(original);
    const capped = await compactMessages(messages, { contextWindow: 128_000 });
    const ref = refsIn(capped.messages)[0]!;
    archive.put('conversation-1', { ref, text: original });
    // The history keeps only the capped copy.
    const stored = capped.messages.filter((message) => message.role !== 'system');
    const read = await recallFromMessages({
      input: { ref, offset: 40_000, length: 100 },
      messages: stored,
      archive,
      conversationId: 'conversation-1',
    });
    expect(read.text).toContain('NEEDLE-ARCHIVED');
    const search = await recallFromMessages({
      input: { search: 'NEEDLE-ARCHIVED' },
      messages: stored,
      archive,
      conversationId: 'conversation-1',
    });
    expect(search.text).toContain(`{"ref":"${ref}","offset":40000}`);
    // Another conversation's id finds nothing.
    const other = await recallFromMessages({
      input: { ref },
      messages: stored,
      archive,
      conversationId: 'other',
    });
    expect(other.isError).toBe(true);
  });
});
