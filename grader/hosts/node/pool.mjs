// Warm sandboxes, still one per submission: a pool of NodeSandboxes of one track started ahead of need
// (each child spawned, its guest loaded: the engine, for Python the interpreter with numpy imported),
// each handed out once and taken back only if its child never ran the submission's code (`untouched`:
// a JavaScript syntax error is refused on the trusted side). `grade-batch` keeps one per track; a grading
// service would keep one too.
//   const pool = createPool({ track, size: 2 });
//   const sandbox = await pool.take();   // ready or starting; the pool starts another behind it
//   … grade with it, then pool.giveBack(sandbox): closed, or waiting again if it is still untouched
//   await pool.close();                  // the waiting ones are closed; take() after it throws
// `take({ left })`: how many more takes will follow this one (the batch knows), so that the pool never
// starts a child that no submission will use. Once closed (Ctrl+C of a batch), it starts nothing more.
import { NodeSandbox } from './sandbox.mjs';

export class PoolClosed extends Error {}

/**
 * track: grader/tracks/index.mjs's entry; size: sandboxes kept waiting (0: none, each take starts one); memoryMb: their cap.
 * @param {{ track?: any, size?: number, memoryMb?: number }} [options]
 */
export function createPool({ track, size = 1, memoryMb } = {}) {
  const waiting = []; // promises of NodeSandbox, oldest first
  let closed = false;
  const start = () => {
    const s = NodeSandbox.create({ track, forked: true, ...(memoryMb && { memoryMb }) });
    s.catch(() => {}); // a start that fails is the taker's to report
    return s;
  };
  const fill = (left) => {
    while (!closed && waiting.length < Math.min(size, left)) waiting.push(start());
  };
  return {
    track,
    /** Sandboxes started and not taken yet. */
    get waiting() {
      return waiting.length;
    },
    /** Fills the pool up to `size` (or `left`), without taking one. */
    warm({ left = Infinity } = {}) {
      fill(left);
    },
    /** A sandbox of its own for one submission (the oldest waiting, else a new one); `left`: takes still to come after this one. */
    take({ left = Infinity } = {}) {
      if (closed) return Promise.reject(new PoolClosed('the pool is closed'));
      const s = waiting.shift() ?? start();
      fill(left);
      return s;
    },
    /**
     * A taken sandbox, done with: waiting again (first in line) if it never loaded a submission, closed
     * otherwise. Either way the caller reads its `cpuMs` and `peakRss` after this resolves.
     */
    async giveBack(sandbox) {
      if (!closed && sandbox.untouched) waiting.unshift(Promise.resolve(sandbox));
      else await sandbox.close();
    },
    /** Closes every sandbox still waiting; nothing is started after it. */
    async close() {
      closed = true;
      await Promise.all(
        waiting.splice(0).map((s) =>
          s.then(
            (x) => x.close(),
            () => {},
          ),
        ),
      );
    },
  };
}
