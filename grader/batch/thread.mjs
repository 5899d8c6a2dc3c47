// The parent's side of a batch over several worker threads, for --jobs past JOBS_PER_THREAD (run.mjs):
// each thread has its own Lanes (WASM core, pool of single-use children, grade() loop) serving its share
// of the jobs, and asks the main thread for the next submission whenever a lane is free. The main
// thread keeps the queue, the records and the progress; an abort reaches every thread's Lanes. Each
// thread runs thread-worker.mjs.
// (Student code never runs in these threads: it runs in the children, as with one thread.)
import { Worker } from 'node:worker_threads';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Main thread: `threads` workers over `todo`; resolves when every one has finished and closed its pool. */
export function runThreads({ exercise, out, options, threads, jobs, take, remaining, finished, onStop, more }) {
  const workers = [];
  const ended = [];
  for (let t = 0; t < threads; t++) {
    const lanes = Math.floor(jobs / threads) + (t < jobs % threads ? 1 : 0);
    const w = new Worker(fileURLToPath(new URL('./thread-worker.mjs', import.meta.url)), {
      workerData: {
        slug: exercise.spec.slug,
        root: dirname(exercise.dir),
        out,
        options,
        jobs: lanes,
        remaining: { ...remaining },
      },
    });
    workers.push(w);
    ended.push(
      /** @type {Promise<void>} */ (
        new Promise((resolve, reject) => {
          w.on('message', (m) => {
            if (m.type === 'want') {
              if (!more()) return w.postMessage({ type: 'end' });
              const item = take();
              w.postMessage({ type: 'item', item, remaining: { ...remaining } });
            } else if (m.type === 'done') finished(m.i, m.record);
          });
          w.on('error', reject);
          w.on('exit', (code) =>
            code === 0 ? resolve() : reject(new Error(`a grading thread exited with code ${code}`)),
          );
        })
      ),
    );
  }
  onStop(() => {
    for (const w of workers) w.postMessage({ type: 'abort' });
  });
  // A thread that fails ends the others too (their children end with their pipes), then the error is the batch's.
  return Promise.all(ended).catch(async (e) => {
    await Promise.all(workers.map((w) => w.terminate()));
    throw e;
  });
}
