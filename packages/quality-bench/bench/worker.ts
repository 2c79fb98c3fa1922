/**
 * A worker process of `pnpm bench:quality`: runs the jobs its parent sends, one at a time, and
 * sends each result back.
 */
import { createJobRunner, type Job } from '../src/run/run-job';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
const run = createJobRunner();
process.on('message', async (job: Job | 'exit') => {
  if (job === 'exit') process.exit(0);
  try {
    process.send?.({ ok: true, result: await run(job) });
  } catch (error) {
    process.send?.({
      ok: false,
      job,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
});
// A worker whose parent is gone has no one to report to.
process.on('disconnect', () => process.exit(0));
process.send?.('ready');
