import type { TestProject } from 'vitest/node';
import { startRedis } from './redis-server';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

/** One real redis-server for the project's tests; its URL is `inject('redisUrl')`. */
export default async function setup(project: TestProject) {
  const redis = await startRedis();
  project.provide('redisUrl', redis.url);
  return async () => {
    await redis.stop();
  };
}
