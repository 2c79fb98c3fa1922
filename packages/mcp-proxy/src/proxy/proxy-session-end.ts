import type { UpstreamError } from '../errors/upstream-error';

/** Why a session ended. */
export interface ProxySessionEnd {
  /**
   * `'downstream-closed'`: the client went away; `'upstream-closed'`: the upstream server exited or
   * dropped the connection (for a `url` upstream: and could not be reached again);
   * `'upstream-failed'`: it could not be started; `'idle'`: an HTTP session idle past
   * `sessionIdleTimeout`; `'closed'`: `close()`.
   */
  readonly reason: 'downstream-closed' | 'upstream-closed' | 'upstream-failed' | 'idle' | 'closed';
  /** Set for the two upstream reasons. */
  readonly error?: UpstreamError;
}
