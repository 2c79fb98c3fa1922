/**
 * The parent side of the multi-process tests: starts `instance-worker.ts` processes (real Node
 * processes through tsx), sends them commands and reads their replies and the summarizer run log.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const workerPath = fileURLToPath(new URL('./instance-worker.ts', import.meta.url));
// tsx as a loader inside the one Node process (its CLI would run the script in a child process, and
// the tests signal the process that runs the compactor: SIGKILL, SIGSTOP).
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface PrepareReply {
  ok: number;
  failures: string[];
  stateChanged: number;
  applied: number;
  /** The distinct states the requests ended with (JSON). */
  states: string[];
  overWindow: number;
  storeErrors: string[];
}

export interface Instance {
  pid: number;
  process: ChildProcess;
  prepare(command: { turns: number; extra?: number; count: number }): Promise<PrepareReply>;
  exit(): Promise<void>;
}

export interface RunLogLine {
  pid: number;
  phase: 'start' | 'end';
  covered: number;
}

/** A run log file for one test and a reader for it. */
export function createRunLog(): { path: string; read(): RunLogLine[] } {
  const path = join(mkdtempSync(join(tmpdir(), 'spillway-runs-')), 'runs.jsonl');
  writeFileSync(path, '');
  return {
    path,
    read: () =>
      readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as RunLogLine),
  };
}

/** Starts one instance; resolves when it is connected to its store and ready. */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(
    process.execPath,
    ['--import', tsxLoader, '--conditions=@spillway/source', workerPath],
    {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines: Interface = createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  const buffered: string[] = [];
  lines.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else buffered.push(line);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const early = buffered.shift();
      if (early !== undefined) return resolve(early);
      waiting.push(resolve);
      void exited.then(() => reject(new Error(`instance ${child.pid} exited`)));
    });
  const ready = JSON.parse(await nextLine()) as { pid: number };
  return {
    pid: ready.pid,
    process: child,
    async prepare(command) {
      child.stdin!.write(`${JSON.stringify({ cmd: 'prepare', ...command })}\n`);
      return JSON.parse(await nextLine()) as PrepareReply;
    },
    async exit() {
      if (child.exitCode === null && child.signalCode === null) child.stdin!.write('{"cmd":"exit"}\n');
      await exited;
    },
  };
}
