import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateConversation } from '../conversation/generate-conversation';
import { linePattern, queryTerms } from './query-policy';
import { subjectReferences } from './subject-reference';

describe('questions', () => {
  it('asks every needle a question that holds neither its value nor its cue', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 20, max: 200 }),
        fc.constantFrom('tune' as const, 'heldout' as const),
        (seed, turns, split) => {
          const conversation = generateConversation({ seed, turns, split });
          for (const needle of conversation.needles) {
            const question = needle.question.toLowerCase();
            expect(question.length).toBeGreaterThan(10);
            expect(question.endsWith('?') || question.endsWith('.')).toBe(true);
            expect(question).not.toContain(needle.cue.toLowerCase());
            for (const placement of needle.placements) {
              for (const value of placement.values) expect(question).not.toContain(value.toLowerCase());
              for (const answer of placement.answers) {
                if (needle.kind !== 'constraint') expect(question).not.toContain(answer.toLowerCase());
              }
            }
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  it('words the same kind of question in several ways, and names the subject in several ways', () => {
    const conversation = generateConversation({ seed: 7, turns: 600 });
    const asked = conversation.needles.map((needle) => needle.question);
    expect(new Set(asked).size).toBe(asked.length);
    const openings = new Set(asked.map((question) => question.split(' ').slice(0, 3).join(' ')));
    expect(openings.size).toBeGreaterThan(20);
    const references = subjectReferences('nightly ledger reconciliation job');
    expect(references).toContain('the nightly ledger reconciliation job');
    expect(references).toContain('the ledger reconciliation job');
    expect(references.some((reference) => reference.includes('recon job'))).toBe(true);
  });

  it('takes search terms from the question: content words, stop and asking words out, the three longest', () => {
    expect(queryTerms('Which port did the user give for the metrics exporter?')).toEqual([
      'port',
      'metric',
      'exporter',
    ]);
    expect(queryTerms('Who has to approve changes to the nightly ledger reconciliation job?')).toEqual([
      'nightly',
      'ledger',
      'reconciliation',
    ]);
    // RE2 syntax (no lookaround): a line holding both terms, in either order.
    const pattern = new RegExp(linePattern(['ledger', 'reconcil']), 'gim');
    expect(
      'a\nThe Ledger reconciliation ran\nledger only\nreconciled the ledger'.match(pattern),
    ).toHaveLength(2);
    expect(linePattern(['ledger'])).toBe('\\bledger');
  });
});
