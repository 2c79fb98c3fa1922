import { describe, expect, it } from 'vitest';
import type { SearchQuery } from '../questions/query-policy';
import type { BenchRequest } from '../request/bench-request';
import { toolReadBack, visibleReferences } from './tool-read-back';

const request: BenchRequest = [
  {
    role: 'user',
    parts: [
      { type: 'text', text: 'Summary: the ledger shard key was discussed. Archived at ref://archive/1.' },
      { type: 'text', text: 'The billing export output was cut, the rest is at ref://vfs/2.' },
      { type: 'text', text: 'Unrelated output is at ref://vfs/3.' },
    ],
  },
];
const pattern = /ref:\/\/(?:archive|vfs)\/\d+/;

describe('toolReadBack', () => {
  it('finds the references a request shows, with the text before each', () => {
    expect(visibleReferences(request, pattern).map((item) => item.reference)).toEqual([
      'ref://archive/1',
      'ref://vfs/2',
      'ref://vfs/3',
    ]);
    expect(visibleReferences(request, pattern)[0]!.context).toContain('ledger shard key');
  });

  it('without a search, reads the shown references whose context shares most terms with the question, at most two', async () => {
    const read: string[] = [];
    const readBack = toolReadBack({
      toolName: 'read',
      referencePattern: pattern,
      read: async (reference) => {
        read.push(reference);
        return `content of ${reference}`;
      },
    });
    const calls = await readBack({
      request,
      history: [],
      question: { text: 'What did the billing export print?' },
      maxCalls: 2,
    });
    // "billing" and "export" are in vfs/2's context only; nothing of the question is in the others'.
    expect(read).toEqual(['ref://vfs/2']);
    expect(calls).toEqual([
      { toolName: 'read', input: { reference: 'ref://vfs/2' }, output: 'content of ref://vfs/2' },
    ]);
    const none = await readBack({
      request,
      history: [],
      question: { text: 'Which kubernetes version?' },
      maxCalls: 2,
    });
    expect(none).toEqual([]);
  });

  it('with a search, searches the question’s terms (never its cue), then reads the hit sharing most terms', async () => {
    const queries: SearchQuery[] = [];
    const readBack = toolReadBack({
      toolName: 'recall',
      referencePattern: pattern,
      search: async (query) => {
        queries.push(query);
        return {
          output: '2 hits',
          hits: [
            { reference: 'ref://vfs/9', line: 'the ledger worker restarted' },
            { reference: 'ref://vfs/8', line: 'ledger shard key is sk-1234' },
          ],
        };
      },
      read: async (reference) => `content of ${reference}`,
    });
    const calls = await readBack({
      request,
      history: [],
      question: { text: 'Which shard key did I give for the ledger?' },
      maxCalls: 2,
    });
    // The two longest terms (a literal tool: the longest); the read ranks hits by all three.
    expect(queries).toEqual([{ terms: ['ledger', 'shard'], literal: 'ledger' }]);
    expect(calls.map((call) => call.input)).toEqual([
      { query: 'ledger shard' },
      { reference: 'ref://vfs/8' },
    ]);
    const one = await readBack({ request, history: [], question: { text: 'Which shard key?' }, maxCalls: 1 });
    expect(one).toHaveLength(1);
  });

  it('when the search lists nothing, reads a shown reference that matches, else searches again with fewer terms', async () => {
    const queries: SearchQuery[] = [];
    const readBack = toolReadBack({
      toolName: 'recall',
      referencePattern: pattern,
      search: async (query) => {
        queries.push(query);
        return { output: 'no match', hits: [] };
      },
      read: async (reference) => `content of ${reference}`,
    });
    const shown = await readBack({
      request,
      history: [],
      question: { text: 'What did the billing export print?' },
      maxCalls: 2,
    });
    expect(shown.map((call) => call.input)).toEqual([
      { query: 'export print' },
      { reference: 'ref://vfs/2' },
    ]);
    queries.length = 0;
    const again = await readBack({
      request,
      history: [],
      question: { text: 'Which kubernetes version runs the payments cluster?' },
      maxCalls: 2,
    });
    expect(again).toHaveLength(2);
    // Crude stems; the two longest terms (ties: question order), then the longest alone.
    expect(queries.map((query) => query.terms)).toEqual([['kubernet', 'version'], ['kubernet']]);
    expect(queries.map((query) => query.literal)).toEqual(['kubernet', 'version']);
  });
});
