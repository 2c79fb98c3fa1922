import { describe, expect, it } from 'vitest';
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

  it('without a search, reads the references whose context shares most words with the cue, best first, at most two', async () => {
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
      question: { cue: 'billing export output' },
      maxCalls: 2,
    });
    // "billing export output" shares three words with vfs/2's context, one with vfs/3's, none with the archive's.
    expect(read).toEqual(['ref://vfs/2', 'ref://vfs/3']);
    expect(calls[0]).toEqual({
      toolName: 'read',
      input: { reference: 'ref://vfs/2' },
      output: 'content of ref://vfs/2',
    });
    const none = await readBack({ request, history: [], question: { cue: 'kubernetes' }, maxCalls: 2 });
    expect(none).toEqual([]);
  });

  it('with a search, searches the cue and reads the first reference it names, within the call budget', async () => {
    const readBack = toolReadBack({
      toolName: 'recall',
      referencePattern: pattern,
      search: async (query) => ({
        output: `2 hits for ${query}`,
        references: ['ref://vfs/9', 'ref://vfs/8'],
      }),
      read: async (reference) => `content of ${reference}`,
    });
    const calls = await readBack({
      request,
      history: [],
      question: { cue: 'ledger shard key' },
      maxCalls: 2,
    });
    expect(calls.map((call) => call.input)).toEqual([
      { query: 'ledger shard key' },
      { reference: 'ref://vfs/9' },
    ]);
    const one = await readBack({ request, history: [], question: { cue: 'ledger shard key' }, maxCalls: 1 });
    expect(one).toHaveLength(1);
  });
});
