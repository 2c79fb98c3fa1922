import { describe, expect, it } from 'vitest';
import {
  COMPACTING_MESSAGE,
  compactionDataPart,
  FAILED_MESSAGE,
  TRIMMED_MESSAGE,
} from './compaction-data-part';

describe('compactionDataPart', () => {
  it('maps start and end to one indicator that updates in place', () => {
    const start = compactionDataPart({
      type: 'compaction-start',
      conversationId: 'c',
      reason: 'background',
      tokensBefore: 9,
      messageCount: 3,
    });
    const end = compactionDataPart({
      type: 'compaction-end',
      conversationId: 'c',
      reason: 'background',
      tokensBefore: 9,
      tokensAfter: 4,
      coveredCount: 2,
      summarizerCalls: 1,
      durationMs: 1,
    });
    expect(start?.data.message).toBe(COMPACTING_MESSAGE);
    expect(end?.data.status).toBe('compacted');
    expect(start?.id).toBe(end?.id);
  });

  it('maps a fallback drop and an emergency drop to the "trimmed" notice, and a failure without a fallback to "failed" on the indicator', () => {
    const failed = compactionDataPart({
      type: 'compaction-failed',
      conversationId: 'c',
      reason: 'threshold',
      error: new Error('x'),
      fallback: 'drop-oldest',
    });
    const dropped = compactionDataPart({
      type: 'emergency-truncation',
      conversationId: 'c',
      droppedCount: 4,
      tokensBefore: 10,
      tokensAfter: 5,
    });
    expect(failed?.data.message).toBe(TRIMMED_MESSAGE);
    expect(dropped?.data).toMatchObject({ message: TRIMMED_MESSAGE, droppedCount: 4 });
    const start = compactionDataPart({
      type: 'compaction-start',
      conversationId: 'c',
      reason: 'background',
      tokensBefore: 9,
      messageCount: 3,
    });
    const backgroundFailure = compactionDataPart({
      type: 'compaction-failed',
      conversationId: 'c',
      reason: 'background',
      error: 1,
      fallback: 'none',
    });
    // It replaces the indicator, which would otherwise stay up.
    expect(backgroundFailure).toMatchObject({
      id: start?.id,
      data: { status: 'failed', message: FAILED_MESSAGE },
    });
  });
});
