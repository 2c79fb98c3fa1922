import { describe, expect, it } from 'vitest';
import { readContextLimit } from './read-context-limit';

describe('readContextLimit', () => {
  const cases: [string, unknown, { limit?: number; tokens?: number }][] = [
    [
      'OpenAI chat',
      new Error(
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9012 tokens. Please reduce the length of the messages.",
      ),
      { limit: 8192, tokens: 9012 },
    ],
    [
      'OpenAI with completion',
      new Error(
        "This model's maximum context length is 128000 tokens. However, you requested 130500 tokens (126000 in the messages, 4500 in the completion).",
      ),
      { limit: 128_000, tokens: 130_500 },
    ],
    [
      'Anthropic',
      new Error('prompt is too long: 210000 tokens > 200000 maximum'),
      { limit: 200_000, tokens: 210_000 },
    ],
    [
      'Google',
      new Error('The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).'),
      { limit: 1_048_576, tokens: 1_200_000 },
    ],
    [
      'Mistral',
      new Error(
        'Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length',
      ),
      { limit: 32_768, tokens: 40_000 },
    ],
    [
      'xAI',
      new Error("This model's maximum prompt length is 131072 but the request contains 200000 tokens."),
      { limit: 131_072, tokens: 200_000 },
    ],
    [
      'llama.cpp',
      new Error(
        'the request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it',
      ),
      { limit: 4096, tokens: 5000 },
    ],
    [
      'TGI',
      new Error('`inputs` must have less than 4096 tokens. Given: 5000'),
      { limit: 4096, tokens: 5000 },
    ],
    ['Kimi', new Error('Invalid request: Your request exceeded model token limit: 8192'), { limit: 8192 }],
    ['DashScope', new Error('Range of input length should be [1, 30720]'), { limit: 30_720 }],
    [
      'thousands separators',
      new Error('prompt is too long: 210,000 tokens > 200,000 maximum'),
      { limit: 200_000, tokens: 210_000 },
    ],
  ];
  it.each(cases)('%s', (_name, error, expected) => {
    expect(readContextLimit(error)).toEqual(expected);
  });

  it('reads the response body and wrapped causes (AI SDK APICallError, retry errors)', () => {
    const apiCallError = Object.assign(new Error('Bad Request'), {
      statusCode: 400,
      responseBody: JSON.stringify({
        error: {
          message:
            "This model's maximum context length is 16385 tokens. However, your messages resulted in 20000 tokens.",
          code: 'context_length_exceeded',
        },
      }),
    });
    const retryError = Object.assign(new Error('Failed after 3 attempts'), { lastError: apiCallError });
    expect(readContextLimit(retryError)).toEqual({ limit: 16_385, tokens: 20_000 });
    expect(readContextLimit(new Error('wrapper', { cause: apiCallError }))).toEqual({
      limit: 16_385,
      tokens: 20_000,
    });
  });

  it('returns {} when no number is stated, or for anything else', () => {
    for (const value of [
      new Error('Your input exceeds the context window of this model.'),
      new Error('Input is too long for requested model.'),
      'nothing',
      undefined,
      null,
      42,
      { message: 7 },
    ]) {
      expect(readContextLimit(value)).toEqual({});
    }
  });
});
