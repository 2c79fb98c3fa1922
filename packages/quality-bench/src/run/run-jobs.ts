import { fork } from 'node:child_process';
import type { Job, JobResult } from './run-job';

/** Options of {@link runJobs}. */
export interface RunJobsOptions {
  jobs: readonly Job[];
  /** Worker processes, at most (never more than there are jobs). */
  workers: number;
  /** The worker's module (it runs the jobs it is sent, see `bench/worker.ts`). */
  workerFile: string;
  /** Node options for the workers. @default process.execArgv */
  execArgv?: string[];
  /** Called with each result as it arrives. */
  onResult?: (result: JobResult, done: number) => void;
}

type WorkerMessage = 'ready' | { ok: true; result: JobResult } | { ok: false; job: Job; error: string };

/**
 * Runs jobs in forked worker processes, each worker taking the next job when it finishes one (jobs
 * in the order given: put the longest first so the workers finish together). Rejects on the first
 * failed job, naming it, and stops the workers.
 */
export function runJobs({
  jobs,
  workers,
  workerFile,
  execArgv = process.execArgv,
  onResult,
}: RunJobsOptions): Promise<JobResult[]> {
  const results: JobResult[] = [];
  return new Promise<JobResult[]>((done, fail) => {
    if (jobs.length === 0) {
      done(results);
      return;
    }
    let next = 0;
    let running = 0;
    let failed = false;
    const children: ReturnType<typeof fork>[] = [];
    const stop = (error: Error) => {
      if (failed) return;
      failed = true;
      for (const child of children) child.kill();
      fail(error);
    };
    const start = () => {
      const worker = fork(workerFile, [], { execArgv });
      children.push(worker);
      const give = () => {
        if (next >= jobs.length || failed) worker.send('exit');
        else worker.send(jobs[next++]!);
      };
      worker.on('message', (message: WorkerMessage) => {
        if (message === 'ready') return give();
        if (!message.ok) {
          const { job } = message;
          stop(
            new Error(
              `${job.strategy}, seed ${job.seed}, ${job.turns} turns, budget ${job.budget}:\n${message.error}`,
            ),
          );
          return;
        }
        results.push(message.result);
        onResult?.(message.result, results.length);
        give();
      });
      worker.on('exit', (code) => {
        running--;
        if (code !== 0 && code !== null) stop(new Error(`a worker exited with code ${code}`));
        else if (running === 0 && !failed) done(results);
      });
      running++;
    };
    for (let index = 0; index < Math.min(Math.max(1, workers), jobs.length); index++) start();
  });
}
