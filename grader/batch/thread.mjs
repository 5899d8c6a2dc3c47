// The parent's side of a batch over several worker threads, for --jobs past JOBS_PER_THREAD (run.mjs):
// each thread has its own Lanes (WASM core, pool of single-use children, grade() loop) serving its share
// of the jobs, and asks the main thread for the next submission whenever a lane is free. The main
// thread keeps the queue, the records and the progress; an abort reaches every thread's Lanes.
// (Student code never runs in these threads: it runs in the children, as with one thread.)
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Main thread: `threads` workers over `todo`; resolves when every one has finished and closed its pool. */
export function runThreads({ exercise, out, options, threads, jobs, take, remaining, finished, onStop, more }) {
  const workers = [];
  const ended = [];
  for (let t = 0; t < threads; t++) {
    const lanes = Math.floor(jobs / threads) + (t < jobs % threads ? 1 : 0);
    const w = new Worker(fileURLToPath(import.meta.url), {
      workerData: { slug: exercise.spec.slug, root: dirname(exercise.dir), out, options, jobs: lanes, remaining: { ...remaining } },
    });
    workers.push(w);
    ended.push(new Promise((resolve, reject) => {
      w.on('message', (m) => {
        if (m.type === 'want') {
          if (!more()) return w.postMessage({ type: 'end' });
          const item = take();
          w.postMessage({ type: 'item', item, remaining: { ...remaining } });
        } else if (m.type === 'done') finished(m.i, m.record);
      });
      w.on('error', reject);
      w.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`a grading thread exited with code ${code}`))));
    }));
  }
  onStop(() => { for (const w of workers) w.postMessage({ type: 'abort' }); });
  // A thread that fails ends the others too (their children end with their pipes), then the error is the batch's.
  return Promise.all(ended).catch(async (e) => {
    await Promise.all(workers.map((w) => w.terminate()));
    throw e;
  });
}

// Worker thread: one Lanes, `jobs` lanes, each asking for a submission when free.
if (!isMainThread && workerData?.slug) {
  const { loadExercise } = await import('../hosts/node/exercise.mjs');
  const { Lanes } = await import('./run.mjs');
  const { slug, root, out, options, jobs, remaining } = workerData;
  const lanes = await Lanes.create({ exercise: await loadExercise(slug, root), out, options, jobs, remaining });
  let inFlight = 0, ending = false;
  const finish = async () => {
    if (!ending || inFlight) return;
    await lanes.close();
    parentPort.close();
  };
  parentPort.on('message', async (m) => {
    if (m.type === 'abort') { lanes.abort(); ending = true; return finish(); }
    if (m.type === 'end') { ending = true; return finish(); }
    if (m.type !== 'item' || ending) return;
    inFlight++;
    const record = await lanes.grade({ ...m.item, s: { ...m.item.s, bytes: m.item.s.bytes && Buffer.from(m.item.s.bytes) } }, m.remaining);
    inFlight--;
    if (record) parentPort.postMessage({ type: 'done', i: m.item.i, record });
    if (ending) return finish();
    parentPort.postMessage({ type: 'want' });
  });
  for (let j = 0; j < jobs; j++) parentPort.postMessage({ type: 'want' });
}
