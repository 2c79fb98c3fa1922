/**
 * Replays a bundled 40-turn agent session (309 messages, 1.4 MB: file reads over the 30,000-character
 * cap, test logs, a 200 KB web page, PNG screenshots) through @spillway/core, as an agent loop would:
 * before every model call `prepare` builds the request, after every answer `afterResponse` may start
 * a background compaction. Summaries come from `extractiveSummarizer`, so it runs offline.
 *
 * Prints what was sent each turn and what each stage did; exits non-zero if any request would not
 * have fit the context window.
 */
import { readFileSync } from 'node:fs';
import {
  type CompactionEvent,
  createCompactor,
  extractiveSummarizer,
  MemoryCompactionStore,
  type Message,
} from '@spillway/core';

const CONTEXT_WINDOW = 64_000;
const conversationId = 'demo';
const transcript = JSON.parse(
  readFileSync(new URL('../data/transcript.json', import.meta.url), 'utf8'),
) as Message[];

const events: CompactionEvent[] = [];
const store = new MemoryCompactionStore();
const compactor = createCompactor({
  contextWindow: CONTEXT_WINDOW,
  summarizer: extractiveSummarizer,
  store,
  onEvent: (event) => events.push(event),
});

const history: Message[] = [];
const rows: string[][] = [];
let sentWith = 0;
let sentWithout = 0;
let largestShare = 0;
let overflowed = 0;
let requests = 0;
let turn = -1;
const newStages: CompactionEvent[] = [];

for (const message of transcript) {
  if (message.role === 'user') turn++;
  if (message.role === 'assistant') {
    // The model is called here, with everything so far.
    const eventsBefore = events.length;
    const prepared = await compactor.prepare(history, { conversationId });
    requests++;
    sentWith += prepared.tokensAfter;
    sentWithout += prepared.tokensBefore;
    largestShare = Math.max(largestShare, prepared.tokensAfter / CONTEXT_WINDOW);
    if (prepared.tokensAfter > CONTEXT_WINDOW) overflowed++;
    history.push(message);
    compactor.afterResponse(history, { conversationId });
    await compactor.idle();
    newStages.push(...events.slice(eventsBefore));
    // One row per user turn: its last model call, and what happened during the turn.
    if (typeof message.content === 'string') {
      const stages = describe(newStages);
      newStages.length = 0;
      rows.push([
        String(turn),
        String(history.length),
        fmt(prepared.tokensBefore),
        fmt(prepared.tokensAfter),
        `${((prepared.tokensAfter / CONTEXT_WINDOW) * 100).toFixed(0)}%`,
        stages || '-',
      ]);
    }
    continue;
  }
  history.push(message);
}

printTable(['turn', 'messages', 'history tokens', 'sent tokens', 'window', 'what happened'], rows);

const state = await store.get(conversationId);
// The same result is shortened again on every request that carries it: count each result once.
const truncations = events.flatMap((event) => (event.type === 'truncation' ? event.records : []));
const byKind = (kind: string) =>
  new Set(
    truncations
      .filter((record) => record.kind === kind)
      .map((record) => record.toolCallId ?? `message ${record.messageIndex}`),
  ).size;
console.log(`
Context window: ${fmt(CONTEXT_WINDOW)} tokens. ${requests} model calls over ${turn + 1} user turns, ${transcript.length} messages.
Stages:
  tool results shortened ......................... ${byKind('tool-result')} (30,000-character storage cap, oldest-first head+tail)
  old screenshots turned into placeholders ....... ${byKind('image')} (the others were summarized first)
  superseded / duplicate tool results ........... ${byKind('superseded')} / ${byKind('duplicate')}
  compactions (summaries made) ................... ${events.filter((event) => event.type === 'compaction-end').length} (${events.filter((event) => event.type === 'compaction-start' && event.reason === 'background').length} in the background)
  emergency drops ................................ ${events.filter((event) => event.type === 'emergency-truncation').length}
  summary now covers ............................. ${state?.coveredCount ?? 0} of ${history.length} messages
Input tokens sent: ${fmt(sentWith)} with Spillway vs ${fmt(sentWithout)} without (${((1 - sentWith / sentWithout) * 100).toFixed(0)}% fewer).
Largest request: ${(largestShare * 100).toFixed(1)}% of the window.
`);
if (state) {
  console.log('The summary the next request starts with (first 600 characters):\n');
  console.log(`${state.summaries.join('\n\n').slice(0, 600)}…\n`);
}

if (overflowed > 0) {
  console.error(`FAIL: ${overflowed} request(s) exceeded the ${CONTEXT_WINDOW}-token window.`);
  process.exit(1);
}
console.log('OK: every request fit the context window, and the application still holds all its messages.');

/** What a turn's events did, leaving out the storage cap (it applies to every request). */
function describe(list: readonly CompactionEvent[]): string {
  const parts: string[] = [];
  for (const event of list) {
    if (event.type === 'truncation') {
      for (const record of event.records) {
        if (record.kind === 'image') parts.push('old screenshot → placeholder');
        if (record.kind === 'superseded') parts.push('re-read file results superseded');
        if (record.kind === 'duplicate') parts.push('duplicate results noted');
      }
    } else if (event.type === 'compaction-end') {
      parts.push(`${event.reason} summary: ${fmt(event.tokensBefore)} → ${fmt(event.tokensAfter)} tokens`);
    } else if (event.type === 'emergency-truncation') {
      parts.push(`emergency: dropped ${event.droppedCount} messages`);
    } else if (event.type === 'compaction-failed') {
      parts.push(`compaction failed (${event.fallback})`);
    }
  }
  return [...new Set(parts)].join('; ');
}

function fmt(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function printTable(header: string[], body: string[][]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column >= 1 && column <= 4 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of body) console.log(line(row));
}
