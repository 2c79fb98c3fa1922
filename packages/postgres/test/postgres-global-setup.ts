import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres-server';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** One real Postgres for the project's tests; its URL is `inject('postgresUrl')`. */
export default async function setup(project: TestProject) {
  const postgres = await startPostgres();
  project.provide('postgresUrl', postgres.url);
  return async () => {
    await postgres.dispose();
  };
}
