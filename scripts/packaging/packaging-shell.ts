import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository this script belongs to. */
export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The scratch folder of this run (in the OS temp folder). */
export const work = mkdtempSync(join(tmpdir(), 'spillway-packaging-'));

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  [field: string]: unknown;
}

/** Runs a command to completion; never throws. */
export function run(
  command: string,
  args: readonly string[],
  { cwd, env }: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => done({ code: 1, output: `${output}${error.message}` }));
    child.on('close', (code) => done({ code: code ?? 1, output }));
  });
}

export function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}
