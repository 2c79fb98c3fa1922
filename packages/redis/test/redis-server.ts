import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { RedisMemoryServer } from 'redis-memory-server';

/** Where `redis-server` is: `REDIS_SERVER_BINARY`, else the PATH and the usual system folders. */
export function findRedisServer(): string | undefined {
  const candidates = [
    process.env.REDIS_SERVER_BINARY,
    ...(process.env.PATH ?? '').split(delimiter).map((folder) => join(folder, 'redis-server')),
    '/usr/bin/redis-server',
    '/usr/local/bin/redis-server',
    '/usr/sbin/redis-server',
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

/**
 * The `redis-server` binary, installed from the OS packages (Debian/Ubuntu `redis-server`) when it
 * is missing and we are root. Nothing is downloaded from anywhere else.
 */
export function ensureRedisServer(): string {
  const found = findRedisServer();
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error(
      'redis-server is not installed. Install it (Debian/Ubuntu: sudo apt-get install -y redis-server) or set REDIS_SERVER_BINARY.',
    );
  }
  const apt = ['-o', 'DPkg::Lock::Timeout=300', '-y', '-q'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  console.log('[spillway] redis-server not found: installing it with apt-get (root, OS packages)');
  execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', '-q', 'update'], { stdio: 'inherit', env });
  execFileSync('apt-get', [...apt, 'install', '--no-install-recommends', 'redis-server'], {
    stdio: 'inherit',
    env,
  });
  const installed = findRedisServer();
  if (!installed) throw new Error('apt-get installed redis-server but the binary was not found');
  return installed;
}

/** A real redis-server on a free loopback port, started from the system binary. */
export interface TestRedis {
  url: string;
  port: number;
  /** Stops the server (as if it went down). */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: it keeps nothing on disk). */
  restart(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  const server = await RedisMemoryServer.create({ binary: { systemBinary: ensureRedisServer() } });
  const port = await server.getPort();
  const host = await server.getHost();
  return {
    url: `redis://${host}:${port}`,
    port,
    async stop() {
      await server.stop();
    },
    async restart() {
      await server.start();
    },
  };
}
