import { InvalidConfigError } from '@spillway/core';
import { type Logger, silentLogger } from '../log/logger';
import { DEFAULT_RECALL_STORE_MAX_BYTES } from '../recall/recall-store';
import {
  DEFAULT_CONNECT_TIMEOUT,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_REQUEST_TIMEOUT,
  DEFAULT_SESSION_IDLE_TIMEOUT,
  type ProxyOptions,
  type UpstreamOptions,
} from './proxy-options';
import {
  DEFAULT_HEAD_RATIO,
  DEFAULT_MAX_MEDIA_BYTES,
  DEFAULT_MAX_RESULT_TOKENS,
  type MediaPolicy,
  type ToolBudget,
  type ToolTruncationOptions,
} from './truncation-options';

/** {@link ProxyOptions} with every default applied and every value checked. */
export interface ResolvedProxyOptions {
  readonly upstream: UpstreamOptions;
  readonly budget: ToolBudget;
  readonly tools: ReadonlyMap<string, ToolBudget>;
  /** Budgets of `resources/read` results. */
  readonly resourceBudget: ToolBudget;
  /** Budgets of `prompts/get` results. */
  readonly promptBudget: ToolBudget;
  readonly paging: boolean;
  readonly requestTimeout: number;
  readonly maxTotalTimeout: number;
  readonly maxMessageBytes: number;
  readonly recallStoreMaxBytes: number;
  readonly connectTimeout: number;
  readonly reconnectAttempts: number;
  readonly reconnectInitialDelay: number;
  readonly reconnectMaxDelay: number;
  readonly sessionIdleTimeout: number;
  readonly maxSessions: number;
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
  resources = {},
  prompts = {},
  paging = true,
  requestTimeout = DEFAULT_REQUEST_TIMEOUT,
  maxTotalTimeout = Number.POSITIVE_INFINITY,
  maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
  recallStoreMaxBytes = DEFAULT_RECALL_STORE_MAX_BYTES,
  connectTimeout = DEFAULT_CONNECT_TIMEOUT,
  reconnectAttempts = 10,
  reconnectInitialDelay = 500,
  reconnectMaxDelay = 30_000,
  sessionIdleTimeout = DEFAULT_SESSION_IDLE_TIMEOUT,
  maxSessions = DEFAULT_MAX_SESSIONS,
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
    toolBudgets.set(name, overrideBudget(`tools.${name}`, budget, override));
  }
  if (typeof paging !== 'boolean') {
    throw new InvalidConfigError({ option: 'paging', value: paging, message: 'expected true or false' });
  }
  return {
    upstream,
    budget,
    tools: toolBudgets,
    resourceBudget: overrideBudget('resources', budget, resources),
    promptBudget: overrideBudget('prompts', budget, prompts),
    paging,
    requestTimeout: positive('requestTimeout', requestTimeout, { allowInfinity: false }),
    maxTotalTimeout: positive('maxTotalTimeout', maxTotalTimeout, { allowInfinity: true }),
    maxMessageBytes: positive('maxMessageBytes', maxMessageBytes, { allowInfinity: false }),
    recallStoreMaxBytes: nonNegative('recallStoreMaxBytes', recallStoreMaxBytes),
    connectTimeout: positive('connectTimeout', connectTimeout, { allowInfinity: false }),
    reconnectAttempts: nonNegative('reconnectAttempts', reconnectAttempts),
    reconnectInitialDelay: positive('reconnectInitialDelay', reconnectInitialDelay, { allowInfinity: false }),
    reconnectMaxDelay: positive('reconnectMaxDelay', reconnectMaxDelay, { allowInfinity: false }),
    sessionIdleTimeout: positive('sessionIdleTimeout', sessionIdleTimeout, { allowInfinity: true }),
    maxSessions: positive('maxSessions', maxSessions, { allowInfinity: true }),
    logger,
  };
}

/** The budgets of one tool (or of resources, or prompts): `override`'s fields over `budget`. */
function overrideBudget(option: string, budget: ToolBudget, override: unknown): ToolBudget {
  if (override === null || typeof override !== 'object' || Array.isArray(override)) {
    throw new InvalidConfigError({ option, value: override, message: 'expected an object' });
  }
  const { maxResultTokens, maxMediaBytes, headRatio } = override as ToolTruncationOptions;
  return {
    maxResultTokens:
      maxResultTokens === undefined
        ? budget.maxResultTokens
        : positive(`${option}.maxResultTokens`, maxResultTokens, { allowInfinity: true }),
    maxMediaBytes:
      maxMediaBytes === undefined
        ? budget.maxMediaBytes
        : nonNegative(`${option}.maxMediaBytes`, maxMediaBytes),
    headRatio: headRatio === undefined ? budget.headRatio : ratio(`${option}.headRatio`, headRatio),
    mediaPolicy: budget.mediaPolicy,
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
