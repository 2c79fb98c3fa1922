#!/usr/bin/env node
import { SpillwayError } from '@spillway/core';
import { createStderrLogger } from './log/logger';
import { CliExit, parseCliArguments } from './options/parse-cli-arguments';
import { createProxy, type McpProxy } from './proxy/create-proxy';
import { StdioDownstreamTransport } from './transport/stdio-downstream-transport';

/**
 * `spillway-mcp`: runs the proxy with the client on stdin/stdout (and/or HTTP with --listen).
 * Exit codes: 0 when the client closed stdin (or SIGINT/SIGTERM), 1 when the upstream server could
 * not be started or went away, 2 for usage errors (bad flags, options or config file: one line on
 * stderr).
 */
async function main(): Promise<void> {
  let settings: ReturnType<typeof parseCliArguments>;
  let proxy: McpProxy;
  try {
    settings = parseCliArguments(process.argv.slice(2));
    proxy = createProxy({ ...settings.proxy, logger: createStderrLogger({ verbose: settings.verbose }) });
  } catch (error) {
    if (error instanceof CliExit) process.exit(0);
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
    process.stderr.write(`spillway-mcp: ${message} (see spillway-mcp --help)\n`);
    process.exit(2);
  }

  let exiting = false;
  const shutdown = async (code: number) => {
    if (exiting) return;
    exiting = true;
    const forceExit = setTimeout(() => process.exit(code), 6000);
    forceExit.unref();
    await proxy.close().catch(() => {});
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  process.stdout.on('error', () => void shutdown(0));

  if (settings.listen !== undefined) {
    const listener = await proxy.listen({ port: settings.listen });
    process.stderr.write(`spillway-mcp: listening on ${listener.url}\n`);
  }
  if (!settings.stdio) return;
  const session = await proxy.connect(
    new StdioDownstreamTransport({ maxMessageBytes: proxy.options.maxMessageBytes }),
  );
  process.stdin.once('end', () => void shutdown(0));
  process.stdin.once('close', () => void shutdown(0));
  const end = await session.ended;
  await shutdown(end.reason === 'upstream-closed' || end.reason === 'upstream-failed' ? 1 : 0);
}

main().catch((error: unknown) => {
  const message = SpillwayError.isInstance(error) || error instanceof Error ? error.message : String(error);
  process.stderr.write(`spillway-mcp: ${message}\n`);
  process.exit(1);
});
