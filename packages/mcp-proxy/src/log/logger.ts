/** Where the proxy reports what it does. Everything goes to stderr: stdout carries only protocol. */
export interface Logger {
  /** Always shown: startup failures, the upstream going away. */
  error(message: string): void;
  /** Shown with `--verbose`: connections, truncations, forwarded errors. */
  debug(message: string): void;
}

/** A logger writing `spillway-mcp: …` lines to stderr; `debug` lines only when `verbose`. */
export function createStderrLogger({ verbose = false }: { verbose?: boolean } = {}): Logger {
  return {
    error: (message) => process.stderr.write(`spillway-mcp: ${message}\n`),
    debug: (message) => {
      if (verbose) process.stderr.write(`spillway-mcp: ${message}\n`);
    },
  };
}

/** A logger that discards everything (the library default). */
export const silentLogger: Logger = { error: () => {}, debug: () => {} };
