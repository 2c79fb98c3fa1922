import { describe, expect, it } from 'vitest';
import { createEstimator } from '../estimate/create-estimator';
import type { Message } from '../message/message';
import { type FormSettings, formMessage } from './history-forms';

const prose = 'The export stopped again overnight. Here is what I get when I run it:';
const log = Array.from(
  { length: 30 },
  (_, line) =>
    `2026-03-02T10:00:${String(line).padStart(2, '0')}.000Z ${line === 15 ? 'ERROR' : 'INFO'} export-${line % 9} ` +
    `${line === 15 ? 'request_id=req-7f3a9c2e ' : ''}batch flushed duration_ms=${100 + line}`,
).join('\n');
const message: Message = { role: 'user', content: `${prose}\n${log}\nWhat is going on?` };

function settings(overrides: Partial<FormSettings> = {}): FormSettings {
  return {
    estimator: createEstimator(),
    previewMinChars: 4_000,
    previewKeepChars: 2_000,
    blobMinChars: 4_000,
    blobKeepChars: 2_000,
    blobStubKeepChars: 400,
    stubResults: true,
    imagePlaceholders: true,
    marks: undefined,
    messageRef: () => 'm.example',
    callOf: () => undefined,
    ...overrides,
  };
}

const textOf = (formed: Message) => (typeof formed.content === 'string' ? formed.content : '');

describe('formMessage: pasted blobs by form', () => {
  it('leaves a blob under twice the preview size whole in the preview form', () => {
    expect(log.length).toBeGreaterThan(1_000);
    expect(log.length).toBeLessThan(4_000);
    const formed = formMessage(message, 1, 'preview', settings());
    expect(formed.message).toBe(message);
  });

  it('shortens it to the smallest preview where results are stubs, the prose and the cut ids kept', () => {
    const formed = formMessage(message, 1, 'stub', settings());
    const text = textOf(formed.message);
    expect(text.startsWith(prose)).toBe(true);
    expect(text.endsWith('What is going on?')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(prose.length + 400 + '\nWhat is going on?'.length + 2);
    expect(text).toContain('ref=m.example');
    expect(text).toContain('req-7f3a9c2e');
    expect(formed.savings['shorten-pasted-blobs']).toBeGreaterThan(0);
  });

  it('keeps the preview size in the stub form when tool-result reduction is off', () => {
    const formed = formMessage(
      message,
      1,
      'stub',
      settings({ blobStubKeepChars: 2_000, stubResults: false }),
    );
    expect(formed.message).toBe(message);
  });
});
