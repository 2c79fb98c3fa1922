/**
 * A Redis for the example: `REDIS_URL` when set, else a local redis-server on a free port (the
 * system binary; installed with apt-get when missing and running as root, as on CI).
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { RedisMemoryServer } from 'redis-memory-server';

function findBinary(): string | undefined {
  for (const candidate of [
    process.env.REDIS_SERVER_BINARY,
    '/usr/bin/redis-server',
    '/usr/local/bin/redis-server',
  ]) {
    if (!candidate) continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

export async function redisForExample(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => {} };
  let binary = findBinary();
  if (!binary && process.getuid?.() === 0) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', '-q', 'update'], { stdio: 'inherit', env });
    execFileSync(
      'apt-get',
      ['-o', 'DPkg::Lock::Timeout=300', '-y', '-q', 'install', '--no-install-recommends', 'redis-server'],
      {
        stdio: 'inherit',
        env,
      },
    );
    binary = findBinary();
  }
  if (!binary) throw new Error('Set REDIS_URL, or install redis-server (apt-get install -y redis-server).');
  const server = await RedisMemoryServer.create({ binary: { systemBinary: binary } });
  return {
    url: `redis://${await server.getHost()}:${await server.getPort()}`,
    stop: () => server.stop().then(() => {}),
  };
}
