import { describe, expect, it } from 'vitest';
import { ContextOverflowError } from './context-overflow-error';
import { InvalidConfigError } from './invalid-config-error';
import { isContextOverflowError } from './is-context-overflow-error';
import { SpillwayError } from './spillway-error';
import { SummarizationError } from './summarization-error';

/** The shape of the AI SDK's APICallError (status, body, cause). */
function apiCallError({
  statusCode,
  responseBody,
  message,
}: {
  statusCode: number;
  responseBody: string;
  message?: string;
}) {
  return Object.assign(new Error(message ?? 'Bad Request'), {
    name: 'AI_APICallError',
    statusCode,
    responseBody,
    isRetryable: false,
    data: safeParse(responseBody),
  });
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

describe('SpillwayError markers', () => {
  it('recognises every subclass as a SpillwayError and each only as itself', () => {
    const errors = [
      new InvalidConfigError({ option: 'x', value: 1, message: 'bad' }),
      new SummarizationError({ attempts: 2, errors: [new Error('a'), new Error('b')] }),
      new ContextOverflowError({ tokenCount: 10, contextWindow: 5 }),
    ];
    for (const error of errors) expect(SpillwayError.isInstance(error)).toBe(true);
    expect(InvalidConfigError.isInstance(errors[0])).toBe(true);
    expect(InvalidConfigError.isInstance(errors[1])).toBe(false);
    expect(SummarizationError.isInstance(errors[1])).toBe(true);
    expect(ContextOverflowError.isInstance(errors[2])).toBe(true);
    expect(ContextOverflowError.isInstance(errors[0])).toBe(false);
    expect(SpillwayError.isInstance(new Error('plain'))).toBe(false);
    expect(SpillwayError.isInstance(undefined)).toBe(false);
  });

  it('recognises an error from another copy of the package by its marker', () => {
    const foreign = {
      [Symbol.for('spillway.error')]: true,
      [Symbol.for('spillway.error.summarization')]: true,
    };
    expect(SpillwayError.isInstance(foreign)).toBe(true);
    expect(SummarizationError.isInstance(foreign)).toBe(true);
  });

  it('carries structured fields', () => {
    const config = new InvalidConfigError({ option: 'thresholds.compact', value: 2, message: 'too big' });
    expect(config.option).toBe('thresholds.compact');
    expect(config.value).toBe(2);
    expect(config.message).toContain('thresholds.compact');
    const last = new Error('second');
    const summary = new SummarizationError({ attempts: 2, errors: [new Error('first'), last] });
    expect(summary.attempts).toBe(2);
    expect(summary.cause).toBe(last);
    expect(summary.message).toContain('second');
    const overflow = new ContextOverflowError({ tokenCount: 130_000, contextWindow: 128_000 });
    expect(overflow.message).toContain('130000');
  });
});

describe('isContextOverflowError', () => {
  const overflowing: Array<[string, unknown]> = [
    [
      'OpenAI chat completions',
      apiCallError({
        statusCode: 400,
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens.",
        responseBody: JSON.stringify({
          error: {
            message:
              "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
            type: 'invalid_request_error',
            param: 'messages',
            code: 'context_length_exceeded',
          },
        }),
      }),
    ],
    [
      'OpenAI Responses API',
      apiCallError({
        statusCode: 400,
        message:
          'Your input exceeds the context window of this model. Please adjust your input and try again.',
        responseBody: JSON.stringify({
          error: {
            message: 'Your input exceeds the context window of this model.',
            code: 'context_length_exceeded',
          },
        }),
      }),
    ],
    [
      'Anthropic',
      apiCallError({
        statusCode: 400,
        message: 'prompt is too long: 208310 tokens > 200000 maximum',
        responseBody: JSON.stringify({
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: 'prompt is too long: 208310 tokens > 200000 maximum',
          },
        }),
      }),
    ],
    [
      'Google Gemini',
      apiCallError({
        statusCode: 400,
        message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
        responseBody: JSON.stringify({
          error: {
            code: 400,
            message:
              'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
            status: 'INVALID_ARGUMENT',
          },
        }),
      }),
    ],
    [
      'vLLM (OpenAI-compatible)',
      apiCallError({
        statusCode: 400,
        responseBody: JSON.stringify({
          object: 'error',
          message:
            "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (8000 in the messages, 1000 in the completion).",
          type: 'BadRequestError',
          code: 400,
        }),
      }),
    ],
    ['Ollama', new Error('prompt too long; exceeded max context length by 1200 tokens')],
    [
      'llama.cpp',
      apiCallError({
        statusCode: 400,
        responseBody:
          '{"error":{"code":400,"message":"the request exceeds the available context size","type":"exceed_context_size_error"}}',
      }),
    ],
    ['Bedrock', new Error('ValidationException: Input is too long for requested model.')],
    ['HTTP 413 without words', apiCallError({ statusCode: 413, responseBody: '' })],
    [
      'no parseable body (seed claw-code)',
      apiCallError({ statusCode: 400, responseBody: '', message: '400 Bad Request: no parseable body' }),
    ],
    [
      'a bare 400 with no body',
      apiCallError({ statusCode: 400, responseBody: '', message: '400 status code (no body)' }),
    ],
    ["Spillway's own", new ContextOverflowError()],
    ['a plain string', 'prompt is too long'],
  ];
  for (const [name, error] of overflowing) {
    it(`recognises ${name}`, () => expect(isContextOverflowError(error)).toBe(true));
  }

  it('reads through cause chains, retry wrappers and gateway wrappers', () => {
    const inner = apiCallError({
      statusCode: 400,
      responseBody: '{"error":{"code":"context_length_exceeded"}}',
    });
    expect(isContextOverflowError(new Error('Gateway request failed', { cause: inner }))).toBe(true);
    const retry = Object.assign(new Error('Failed after 3 attempts. Last error: Bad Request'), {
      name: 'AI_RetryError',
      errors: [new Error('timeout'), inner],
      lastError: inner,
    });
    expect(isContextOverflowError(retry)).toBe(true);
    expect(isContextOverflowError(new Error('outer', { cause: new Error('middle', { cause: inner }) }))).toBe(
      true,
    );
  });

  it('recognises LangChain-style ContextOverflowError by name', () => {
    class ContextOverflowErrorLike extends Error {
      override name = 'ContextOverflowError';
    }
    expect(isContextOverflowError(new ContextOverflowErrorLike('too long'))).toBe(true);
  });

  const notOverflowing: Array<[string, unknown]> = [
    [
      'an OpenAI rate limit on tokens per minute',
      apiCallError({
        statusCode: 429,
        message:
          'Request too large for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Requested 50000.',
        responseBody: '{"error":{"code":"rate_limit_exceeded"}}',
      }),
    ],
    [
      'a TPM message without a status',
      new Error('Rate limit reached: tokens per min (TPM) exceeded the maximum context length budget'),
    ],
    [
      'an auth error',
      apiCallError({ statusCode: 401, responseBody: '{"error":{"message":"Incorrect API key provided"}}' }),
    ],
    [
      'a bad parameter',
      apiCallError({
        statusCode: 400,
        responseBody: '{"error":{"message":"Invalid value for temperature"}}',
      }),
    ],
    [
      'a bare 400 with a body',
      apiCallError({ statusCode: 400, responseBody: '{"error":"bad"}', message: 'Bad Request' }),
    ],
    ['a network error', new TypeError('fetch failed')],
    ['undefined', undefined],
    ['a number', 42],
  ];
  for (const [name, error] of notOverflowing) {
    it(`does not take ${name} for an overflow`, () => expect(isContextOverflowError(error)).toBe(false));
  }

  it('survives cyclic causes', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(isContextOverflowError(a)).toBe(false);
  });
});
