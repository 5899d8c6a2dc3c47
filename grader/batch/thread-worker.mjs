// A worker thread of a batch (started by thread.mjs's runThreads): one Lanes with `jobs` lanes, each
// asking the main thread for a submission when free, and sending back the record it wrote.
import { parentPort, workerData } from 'node:worker_threads';
import { loadExercise } from '../hosts/node/exercise.mjs';
import { Lanes } from './run.mjs';

const { slug, root, out, options, jobs, remaining } = workerData;
const lanes = await Lanes.create({ exercise: await loadExercise(slug, root), out, options, jobs, remaining });
let inFlight = 0,
  ending = false;
const finish = async () => {
  if (!ending || inFlight) return;
  await lanes.close();
  parentPort.close();
};
parentPort.on('message', async (m) => {
  if (m.type === 'abort') {
    lanes.abort();
    ending = true;
    return finish();
  }
  if (m.type === 'end') {
    ending = true;
    return finish();
  }
  if (m.type !== 'item' || ending) return;
  inFlight++;
  const record = await lanes.grade(
    { ...m.item, s: { ...m.item.s, bytes: m.item.s.bytes && Buffer.from(m.item.s.bytes) } },
    m.remaining,
  );
  inFlight--;
  if (record) parentPort.postMessage({ type: 'done', i: m.item.i, record });
  if (ending) return finish();
  parentPort.postMessage({ type: 'want' });
});
for (let j = 0; j < jobs; j++) parentPort.postMessage({ type: 'want' });
