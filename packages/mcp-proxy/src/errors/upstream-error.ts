import { SpillwayError } from '@spillway/core';

const marker = 'spillway.error.mcp-upstream';
const symbol = Symbol.for(marker);

/**
 * The upstream MCP server could not be started or reached, or went away. `exitCode` and `signal`
 * are set when a stdio upstream process exited.
 */
export class UpstreamError extends SpillwayError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for by isInstance
  private readonly [symbol] = true;

  /** The upstream, as the user gave it: a command line or a URL. */
  readonly upstream: string;
  /** The exit code of a stdio upstream that exited, when known. */
  readonly exitCode: number | undefined;
  /** The signal that ended a stdio upstream, when known. */
  readonly signal: string | undefined;

  constructor({
    upstream,
    message,
    exitCode,
    signal,
    cause,
  }: {
    upstream: string;
    message: string;
    exitCode?: number | undefined;
    signal?: string | undefined;
    cause?: unknown;
  }) {
    super({ name: 'UpstreamError', message, cause });
    this.upstream = upstream;
    this.exitCode = exitCode;
    this.signal = signal;
  }

  static override isInstance(error: unknown): error is UpstreamError {
    return SpillwayError.hasMarker(error, marker);
  }
}
