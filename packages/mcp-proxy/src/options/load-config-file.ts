import { readFileSync } from 'node:fs';
import { InvalidConfigError } from '@spillway/core';
import type { ProxyOptions, UpstreamOptions } from './proxy-options';

/**
 * The JSON config file (`--config <file>`): every `ProxyOptions` field except `logger`, plus the CLI's
 * own settings. The upstream may be given as `upstream`, or as `command` + `args`, or as `url`.
 *
 * ```json
 * { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me"],
 *   "maxResultTokens": 9000, "tools": { "read_text_file": { "maxResultTokens": 20000 } } }
 * ```
 */
export interface ConfigFile extends Partial<Omit<ProxyOptions, 'logger' | 'upstream'>> {
  upstream?: UpstreamOptions;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  /** Also serve Streamable HTTP on this loopback port. */
  listen?: number;
  /** Serve the client on stdin/stdout. @default true */
  stdio?: boolean;
  /** Diagnostics on stderr. @default false */
  verbose?: boolean;
}

const KNOWN_KEYS = new Set([
  'upstream',
  'command',
  'args',
  'env',
  'url',
  'listen',
  'stdio',
  'verbose',
  'maxResultTokens',
  'headRatio',
  'maxMediaBytes',
  'mediaPolicy',
  'tools',
  'paging',
  'requestTimeout',
  'maxTotalTimeout',
  'maxMessageBytes',
  'recallStoreMaxBytes',
  'resources',
  'prompts',
  'connectTimeout',
  'reconnectAttempts',
  'reconnectInitialDelay',
  'reconnectMaxDelay',
  'sessionIdleTimeout',
  'maxSessions',
]);

/**
 * Reads and checks a JSON config file.
 * @throws {InvalidConfigError} (option `config`) when it cannot be read or parsed, or has unknown keys.
 */
export function loadConfigFile(path: string): ConfigFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new InvalidConfigError({ option: 'config', value: path, message: (error as Error).message });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new InvalidConfigError({ option: 'config', value: path, message: 'expected a JSON object' });
  }
  for (const key of Object.keys(parsed)) {
    if (!KNOWN_KEYS.has(key)) {
      throw new InvalidConfigError({
        option: `config.${key}`,
        value: (parsed as Record<string, unknown>)[key],
        message: 'unknown key',
      });
    }
  }
  return withOffBudgets(parsed as ConfigFile);
}

/**
 * JSON has no `Infinity`: `"off"` stands for it in `maxResultTokens`, `tools.*.maxResultTokens`,
 * `resources.maxResultTokens`, `prompts.maxResultTokens`, `sessionIdleTimeout` and `maxSessions`, as
 * it does on the command line.
 */
function withOffBudgets(config: ConfigFile): ConfigFile {
  const off = (value: unknown) => (value === 'off' ? Number.POSITIVE_INFINITY : value) as number | undefined;
  const tools =
    config.tools !== null && typeof config.tools === 'object' && !Array.isArray(config.tools)
      ? Object.fromEntries(
          Object.entries(config.tools).map(([name, budget]) => [
            name,
            budget !== null && typeof budget === 'object' && 'maxResultTokens' in budget
              ? { ...budget, maxResultTokens: off(budget.maxResultTokens) }
              : budget,
          ]),
        )
      : config.tools;
  const budget = (value: unknown) =>
    value !== null && typeof value === 'object' && 'maxResultTokens' in value
      ? { ...value, maxResultTokens: off((value as { maxResultTokens: unknown }).maxResultTokens) }
      : value;
  return {
    ...config,
    ...('maxResultTokens' in config ? { maxResultTokens: off(config.maxResultTokens) } : {}),
    ...('sessionIdleTimeout' in config ? { sessionIdleTimeout: off(config.sessionIdleTimeout) } : {}),
    ...('maxSessions' in config ? { maxSessions: off(config.maxSessions) } : {}),
    ...(tools === undefined ? {} : { tools }),
    ...('resources' in config ? { resources: budget(config.resources) as ConfigFile['resources'] } : {}),
    ...('prompts' in config ? { prompts: budget(config.prompts) as ConfigFile['prompts'] } : {}),
  };
}
