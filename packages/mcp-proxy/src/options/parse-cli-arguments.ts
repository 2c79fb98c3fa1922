import { InvalidConfigError } from '@spillway/core';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { VERSION } from '../version';
import { loadConfigFile } from './load-config-file';
import type { HttpUpstream, ProxyOptions, UpstreamOptions } from './proxy-options';
import { DEFAULT_MAX_RESULT_TOKENS } from './truncation-options';

/** What the command line asks for. */
export interface CliSettings {
  /** Options for `createProxy` (without `logger`). */
  readonly proxy: Omit<ProxyOptions, 'logger'>;
  /** Port to serve Streamable HTTP on, if any. */
  readonly listen: number | undefined;
  /** Whether to serve the client on stdin/stdout. */
  readonly stdio: boolean;
  readonly verbose: boolean;
}

/** Options of {@link parseCliArguments}. */
export interface ParseCliArgumentsOptions {
  /**
   * Where help and version are written (stdout by default).
   * @default process.stdout
   */
  output?: { writeOut?: (text: string) => void };
}

/**
 * The command line asked for help or the version, which was printed: exit 0. Thrown by
 * {@link parseCliArguments} instead of exiting.
 */
export class CliExit extends Error {
  readonly exitCode = 0;

  constructor() {
    super('help or version printed');
    this.name = 'CliExit';
  }
}

const HELP_AFTER = `
Examples:
  spillway-mcp -- npx -y @modelcontextprotocol/server-filesystem ~/projects
  spillway-mcp --max-tokens 20000 --tool read_text_file=30000 -- node server.js
  spillway-mcp --url http://127.0.0.1:3001/mcp --listen 8931

stdout carries only MCP messages; everything else goes to stderr.`;

/**
 * Parses `spillway-mcp [options] -- <command> [args...]` or `spillway-mcp [options] --url <endpoint>`
 * with commander. Command-line flags override the `--config` file, which overrides the defaults.
 * Never exits the process: `--help` and `--version` print and throw {@link CliExit}; every usage
 * error throws `InvalidConfigError` with a one-line message (the CLI exits 2 on it).
 * `--transport` and `--header` apply to the upstream URL wherever it came from (`--url` or the file).
 * @throws {InvalidConfigError} for an unknown flag, a bad flag value, a bad config file, a missing
 * upstream, or `--transport` / `--header` with an upstream command.
 * @throws {CliExit} after printing help or the version.
 */
export function parseCliArguments(
  argv: readonly string[],
  { output }: ParseCliArgumentsOptions = {},
): CliSettings {
  const program = new Command('spillway-mcp')
    .description(
      'An MCP proxy: starts (or connects to) the real MCP server, forwards everything, and keeps oversized tool results from flooding the client’s context.',
    )
    .usage('[options] -- <command> [args...]  |  [options] --url <endpoint>')
    .version(VERSION, '-V, --version')
    .argument('[command...]', 'the upstream MCP server to start over stdio (after --)')
    .option('--url <endpoint>', 'upstream MCP endpoint over HTTP (Streamable HTTP, falling back to SSE)')
    .addOption(
      new Option(
        '--transport <kind>',
        'HTTP transport of the upstream URL (--url or the config file; default: auto)',
      ).choices(['auto', 'streamable-http', 'sse']),
    )
    .option(
      '--header <name:value>',
      "HTTP header for the upstream URL, over the config file's (repeatable)",
      collect,
      [],
    )
    .option(
      '--listen <port>',
      'also serve MCP over Streamable HTTP on 127.0.0.1:<port>/mcp (0: any free port)',
      integer,
    )
    .option('--no-stdio', 'do not serve the client on stdin/stdout (use with --listen)')
    .option(
      '--max-tokens <tokens>',
      `token budget of one tool result, or "off" (default: ${DEFAULT_MAX_RESULT_TOKENS})`,
      tokens,
    )
    .option('--head-ratio <ratio>', 'share of a cut text kept from its head, 0..1 (default: 0.6)', number)
    .option(
      '--max-media-bytes <bytes>',
      'inline image/audio/blob bytes kept per result (default: 1048576)',
      integer,
    )
    .addOption(
      new Option('--media <policy>', 'media beyond the budget (default: placeholder)').choices([
        'placeholder',
        'keep',
      ]),
    )
    .option(
      '--tool <name=tokens>',
      'token budget for one tool, e.g. read_text_file=20000 (repeatable)',
      collect,
      [],
    )
    .option(
      '--resource-max-tokens <tokens>',
      'token budget of one resources/read result, or "off" (default: --max-tokens)',
      tokens,
    )
    .option(
      '--prompt-max-tokens <tokens>',
      'token budget of one prompts/get result, or "off" (default: --max-tokens)',
      tokens,
    )
    .option('--no-paging', 'do not keep full texts nor add the spillway_recall tool')
    .option(
      '--recall-max-bytes <bytes>',
      'bytes of full texts kept for spillway_recall, all sessions (default: 268435456)',
      integer,
    )
    .option('--timeout <ms>', 'timeout of one request, reset by progress (default: 600000)', integer)
    .option('--max-total-timeout <ms>', 'hard limit of one request, progress or not (default: none)', integer)
    .option(
      '--connect-timeout <ms>',
      'time to start the upstream and initialize it (default: 60000)',
      positiveInteger,
    )
    .option(
      '--reconnect-attempts <n>',
      'reconnections after a --url upstream is lost, 0: none (default: 10)',
      integer,
    )
    .option(
      '--session-idle-timeout <ms>',
      'with --listen: close a session idle this long, or "off" (default: 300000)',
      milliseconds,
    )
    .option('--max-sessions <n>', 'with --listen: sessions open at once (default: 64)', positiveInteger)
    .option('--max-message-bytes <bytes>', 'largest stdio message accepted (default: 268435456)', integer)
    .option('--config <file>', 'JSON config file (command-line flags win)')
    .option('--verbose', 'log connections, truncations and forwarded errors to stderr')
    .passThroughOptions()
    .addHelpText('after', HELP_AFTER);
  // Commander's own error text is replaced by the one-line message of the error it throws.
  program.configureOutput({ ...(output?.writeOut ? { writeOut: output.writeOut } : {}), writeErr: () => {} });
  program.exitOverride();
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) throw new CliExit();
      throw new InvalidConfigError({
        option: optionOf(error),
        value: argv.join(' '),
        message: error.message
          .replace(/^error: /, '')
          .replace(/\s+/g, ' ')
          .trim(),
      });
    }
    throw error;
  }

  const flags = program.opts<Record<string, unknown>>();
  const fromCli = (key: string) => program.getOptionValueSource(key) === 'cli';
  const config = typeof flags.config === 'string' ? loadConfigFile(flags.config) : {};
  const pick = <T>(key: string, configValue: T | undefined): T | undefined =>
    fromCli(key) ? (flags[key] as T) : configValue;

  const command = program.args;
  let upstream: UpstreamOptions | undefined;
  if (command.length > 0 && typeof flags.url === 'string') {
    throw new InvalidConfigError({
      option: 'upstream',
      value: command,
      message: 'give either a command or --url, not both',
    });
  }
  if (command.length > 0) {
    upstream = {
      command: command[0] as string,
      args: command.slice(1),
      ...(config.env ? { env: config.env } : {}),
    };
  } else if (typeof flags.url === 'string') {
    upstream = { url: flags.url };
  } else if (config.upstream !== undefined) {
    upstream = config.upstream;
  } else if (typeof config.command === 'string') {
    upstream = {
      command: config.command,
      args: config.args ?? [],
      ...(config.env ? { env: config.env } : {}),
    };
  } else if (typeof config.url === 'string') {
    upstream = { url: config.url };
  }
  if (upstream === undefined) {
    throw new InvalidConfigError({
      option: 'upstream',
      value: undefined,
      message:
        'no upstream server: use `spillway-mcp [options] -- <command> [args...]` or `--url <endpoint>`',
    });
  }
  upstream = withHttpFlags(
    upstream,
    fromCli('transport') ? (flags.transport as HttpUpstream['transport']) : undefined,
    flags.header as string[],
  );

  const toolBudgets = { ...config.tools };
  for (const entry of flags.tool as string[]) {
    const match = /^(.+)=(\d+|off|Infinity)$/.exec(entry);
    if (match === null) {
      throw new InvalidConfigError({ option: '--tool', value: entry, message: 'expected <name>=<tokens>' });
    }
    const [, name, value] = match as unknown as [string, string, string];
    toolBudgets[name] = {
      ...toolBudgets[name],
      maxResultTokens: /^\d+$/.test(value) ? Number(value) : Number.POSITIVE_INFINITY,
    };
  }

  const proxy: Omit<ProxyOptions, 'logger'> = stripUndefined({
    upstream,
    maxResultTokens: pick<number>('maxTokens', config.maxResultTokens),
    headRatio: pick<number>('headRatio', config.headRatio),
    maxMediaBytes: pick<number>('maxMediaBytes', config.maxMediaBytes),
    mediaPolicy: pick<'placeholder' | 'keep'>('media', config.mediaPolicy),
    tools: toolBudgets,
    resources: withMaxTokens(config.resources, pick<number>('resourceMaxTokens', undefined)),
    prompts: withMaxTokens(config.prompts, pick<number>('promptMaxTokens', undefined)),
    paging: pick<boolean>('paging', config.paging),
    recallStoreMaxBytes: pick<number>('recallMaxBytes', config.recallStoreMaxBytes),
    requestTimeout: pick<number>('timeout', config.requestTimeout),
    maxTotalTimeout: pick<number>('maxTotalTimeout', config.maxTotalTimeout),
    connectTimeout: pick<number>('connectTimeout', config.connectTimeout),
    reconnectAttempts: pick<number>('reconnectAttempts', config.reconnectAttempts),
    reconnectInitialDelay: config.reconnectInitialDelay,
    reconnectMaxDelay: config.reconnectMaxDelay,
    sessionIdleTimeout: pick<number>('sessionIdleTimeout', config.sessionIdleTimeout),
    maxSessions: pick<number>('maxSessions', config.maxSessions),
    maxMessageBytes: pick<number>('maxMessageBytes', config.maxMessageBytes),
  });
  return {
    proxy,
    listen: pick<number>('listen', config.listen),
    stdio: pick<boolean>('stdio', config.stdio) ?? true,
    verbose: pick<boolean>('verbose', config.verbose) ?? false,
  };
}

/**
 * The upstream with `--transport` and `--header` from the command line over it, wherever its URL came
 * from (`--url`, or `url` / `upstream` in the config file): the flag's transport replaces the file's,
 * and a flag's header replaces the file's header of the same name (names compared case-insensitively).
 * @throws {InvalidConfigError} (option `--header` or `--transport`) when the upstream is a command.
 */
function withHttpFlags(
  upstream: UpstreamOptions,
  transport: HttpUpstream['transport'] | undefined,
  headerEntries: readonly string[],
): UpstreamOptions {
  if (transport === undefined && headerEntries.length === 0) return upstream;
  // Not an object: left to resolveProxyOptions, which names what is wrong with it.
  if (upstream === null || typeof upstream !== 'object') return upstream;
  if (!('url' in upstream)) {
    const option = headerEntries.length > 0 ? '--header' : '--transport';
    throw new InvalidConfigError({
      option,
      value: option === '--header' ? headerEntries : transport,
      message: `applies only to an upstream over HTTP (--url, or url in the config file), not to the command ${JSON.stringify(upstream.command)}`,
    });
  }
  const withTransport = transport === undefined ? upstream : { ...upstream, transport };
  if (headerEntries.length === 0) return withTransport;
  const fileHeaders: unknown = upstream.headers ?? {};
  if (fileHeaders === null || typeof fileHeaders !== 'object' || Array.isArray(fileHeaders)) {
    throw new InvalidConfigError({
      option: 'upstream.headers',
      value: fileHeaders,
      message: 'expected an object of header names and values',
    });
  }
  const flagHeaders = headers(headerEntries);
  const replaced = new Set(Object.keys(flagHeaders).map((name) => name.toLowerCase()));
  const kept = Object.entries(fileHeaders as Record<string, string>).filter(
    ([name]) => !replaced.has(name.toLowerCase()),
  );
  return { ...withTransport, headers: { ...Object.fromEntries(kept), ...flagHeaders } };
}

/** A kind's budgets from the config file, with the command line's token budget over them. */
function withMaxTokens<T extends object>(
  budgets: T | undefined,
  maxResultTokens: number | undefined,
): T | undefined {
  if (maxResultTokens === undefined) return budgets;
  return { ...budgets, maxResultTokens } as T;
}

/** The flag a commander error is about, as far as its message says (`'arguments'` otherwise). */
function optionOf(error: CommanderError): string {
  return /'(--?[\w-]+)/.exec(error.message)?.[1] ?? /(--[\w-]+)/.exec(error.message)?.[1] ?? 'arguments';
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function integer(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError('expected a whole number');
  return parsed;
}

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new InvalidArgumentError('expected a positive whole number');
  return parsed;
}

function milliseconds(value: string): number {
  if (value === 'off' || value === 'Infinity') return Number.POSITIVE_INFINITY;
  return positiveInteger(value);
}

function number(value: string): number {
  const parsed = Number(value);
  if (Number.isNaN(parsed)) throw new InvalidArgumentError('expected a number');
  return parsed;
}

function tokens(value: string): number {
  if (value === 'off' || value === 'Infinity') return Number.POSITIVE_INFINITY;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new InvalidArgumentError('expected a positive whole number or "off"');
  return parsed;
}

function headers(entries: readonly string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    if (colon < 1)
      throw new InvalidConfigError({ option: '--header', value: entry, message: 'expected <name>:<value>' });
    result[entry.slice(0, colon).trim()] = entry.slice(colon + 1).trim();
  }
  return result;
}
