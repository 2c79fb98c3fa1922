import { InvalidConfigError } from '@spillway/core';
import { type Logger, silentLogger } from '../log/logger';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_PAGE_STORE_MAX_CHARS,
  DEFAULT_REQUEST_TIMEOUT,
  type ProxyOptions,
  type UpstreamOptions,
} from './proxy-options';
import {
  DEFAULT_HEAD_RATIO,
  DEFAULT_MAX_MEDIA_BYTES,
  DEFAULT_MAX_RESULT_TOKENS,
  DEFAULT_READ_TOOL_NAME,
  type MediaPolicy,
  type ToolBudget,
  type ToolTruncationOptions,
} from './truncation-options';

/** {@link ProxyOptions} with every default applied and every value checked. */
export interface ResolvedProxyOptions {
  readonly upstream: UpstreamOptions;
  readonly budget: ToolBudget;
  readonly tools: ReadonlyMap<string, ToolBudget>;
  readonly paging: boolean;
  readonly requestTimeout: number;
  readonly maxTotalTimeout: number;
  readonly maxMessageBytes: number;
  readonly pageStoreMaxChars: number;
  readonly readToolName: string;
  readonly logger: Logger;
}

/**
 * Applies defaults and checks every option.
 * @throws {InvalidConfigError} naming the first bad option.
 */
export function resolveProxyOptions({
  upstream,
  maxResultTokens = DEFAULT_MAX_RESULT_TOKENS,
  headRatio = DEFAULT_HEAD_RATIO,
  maxMediaBytes = DEFAULT_MAX_MEDIA_BYTES,
  mediaPolicy = 'placeholder',
  tools = {},
  paging = true,
  requestTimeout = DEFAULT_REQUEST_TIMEOUT,
  maxTotalTimeout = Number.POSITIVE_INFINITY,
  maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
  pageStoreMaxChars = DEFAULT_PAGE_STORE_MAX_CHARS,
  readToolName = DEFAULT_READ_TOOL_NAME,
  logger = silentLogger,
}: ProxyOptions): ResolvedProxyOptions {
  checkUpstream(upstream);
  const budget: ToolBudget = {
    maxResultTokens: positive('maxResultTokens', maxResultTokens, { allowInfinity: true }),
    maxMediaBytes: nonNegative('maxMediaBytes', maxMediaBytes),
    headRatio: ratio('headRatio', headRatio),
    mediaPolicy: policy('mediaPolicy', mediaPolicy),
  };
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) {
    throw new InvalidConfigError({
      option: 'tools',
      value: tools,
      message: 'expected an object keyed by tool name',
    });
  }
  const toolBudgets = new Map<string, ToolBudget>();
  for (const [name, override] of Object.entries(tools as Record<string, ToolTruncationOptions>)) {
    if (override === null || typeof override !== 'object') {
      throw new InvalidConfigError({
        option: `tools.${name}`,
        value: override,
        message: 'expected an object',
      });
    }
    toolBudgets.set(name, {
      maxResultTokens:
        override.maxResultTokens === undefined
          ? budget.maxResultTokens
          : positive(`tools.${name}.maxResultTokens`, override.maxResultTokens, { allowInfinity: true }),
      maxMediaBytes:
        override.maxMediaBytes === undefined
          ? budget.maxMediaBytes
          : nonNegative(`tools.${name}.maxMediaBytes`, override.maxMediaBytes),
      headRatio:
        override.headRatio === undefined
          ? budget.headRatio
          : ratio(`tools.${name}.headRatio`, override.headRatio),
      mediaPolicy: budget.mediaPolicy,
    });
  }
  if (typeof paging !== 'boolean') {
    throw new InvalidConfigError({ option: 'paging', value: paging, message: 'expected true or false' });
  }
  if (typeof readToolName !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(readToolName)) {
    throw new InvalidConfigError({
      option: 'readToolName',
      value: readToolName,
      message: 'expected 1 to 64 letters, digits, "_", "-" or "."',
    });
  }
  return {
    upstream,
    budget,
    tools: toolBudgets,
    paging,
    requestTimeout: positive('requestTimeout', requestTimeout, { allowInfinity: false }),
    maxTotalTimeout: positive('maxTotalTimeout', maxTotalTimeout, { allowInfinity: true }),
    maxMessageBytes: positive('maxMessageBytes', maxMessageBytes, { allowInfinity: false }),
    pageStoreMaxChars: nonNegative('pageStoreMaxChars', pageStoreMaxChars),
    readToolName,
    logger,
  };
}

function checkUpstream(upstream: unknown): asserts upstream is UpstreamOptions {
  if (upstream === null || typeof upstream !== 'object') {
    throw new InvalidConfigError({
      option: 'upstream',
      value: upstream,
      message: 'expected { command, args? } or { url }',
    });
  }
  const candidate = upstream as Record<string, unknown>;
  if ('url' in candidate) {
    if (typeof candidate.url !== 'string' || !URL.canParse(candidate.url)) {
      throw new InvalidConfigError({
        option: 'upstream.url',
        value: candidate.url,
        message: 'expected an http(s) URL',
      });
    }
    const protocol = new URL(candidate.url).protocol;
    if (protocol !== 'http:' && protocol !== 'https:') {
      throw new InvalidConfigError({
        option: 'upstream.url',
        value: candidate.url,
        message: 'expected an http(s) URL',
      });
    }
    const transport = candidate.transport ?? 'auto';
    if (transport !== 'auto' && transport !== 'streamable-http' && transport !== 'sse') {
      throw new InvalidConfigError({
        option: 'upstream.transport',
        value: transport,
        message: "expected 'auto', 'streamable-http' or 'sse'",
      });
    }
    return;
  }
  if (typeof candidate.command !== 'string' || candidate.command.length === 0) {
    throw new InvalidConfigError({
      option: 'upstream.command',
      value: candidate.command,
      message: 'expected the command that starts the upstream server',
    });
  }
  if (
    candidate.args !== undefined &&
    !(Array.isArray(candidate.args) && candidate.args.every((a) => typeof a === 'string'))
  ) {
    throw new InvalidConfigError({
      option: 'upstream.args',
      value: candidate.args,
      message: 'expected an array of strings',
    });
  }
}

function positive(option: string, value: unknown, { allowInfinity }: { allowInfinity: boolean }): number {
  if (
    typeof value !== 'number' ||
    Number.isNaN(value) ||
    value <= 0 ||
    (!allowInfinity && !Number.isFinite(value))
  ) {
    throw new InvalidConfigError({
      option,
      value,
      message: allowInfinity ? 'expected a positive number (or Infinity)' : 'expected a positive number',
    });
  }
  return Number.isFinite(value) ? Math.floor(value) : value;
}

function nonNegative(option: string, value: unknown): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new InvalidConfigError({ option, value, message: 'expected a number of 0 or more' });
  }
  return Number.isFinite(value) ? Math.floor(value) : value;
}

function ratio(option: string, value: unknown): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new InvalidConfigError({ option, value, message: 'expected a number from 0 to 1' });
  }
  return value;
}

function policy(option: string, value: unknown): MediaPolicy {
  if (value !== 'placeholder' && value !== 'keep') {
    throw new InvalidConfigError({ option, value, message: "expected 'placeholder' or 'keep'" });
  }
  return value;
}
