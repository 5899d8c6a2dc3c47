// Node host of the sandbox contract (grader/README.md): one worker thread with a `vm` realm inside.
// - time: each request gets `timeoutMs` inside the worker (V8 interrupts it); a watchdog here
//   terminates the worker if it does not answer `WATCHDOG_MS` later;
// - memory: the worker's V8 heap is capped (resourceLimits) and the process's resident memory is
//   polled while a request runs, since typed arrays live outside that heap;
// - a worker that died or was terminated is replaced and the submission loaded again, so the
//   remaining tests still run.
import { Worker } from 'node:worker_threads';
import { guestBundle } from './guest-bundle.mjs';
import { decode, encode } from '../sandbox/wire.mjs';

const WORKER_URL = new URL('./worker.mjs', import.meta.url);
const WATCHDOG_MS = 1500;
const POLL_MS = 10;

export class NodeSandbox {
  /** Use `await NodeSandbox.create()`: the worker starts at once, while the caller loads the rest. */
  static async create(options) {
    const sandbox = new NodeSandbox(options, await guestBundle());
    sandbox.#spawn();
    return sandbox;
  }

  constructor({ memoryMb = 512 } = {}, guest) {
    this.memoryMb = memoryMb;
    this.guest = guest;
    this.worker = null;
    this.loaded = null; // { source, functions } to replay into a replacement worker
    this.seq = 0;
  }

  #spawn() {
    this.worker = new Worker(WORKER_URL, {
      workerData: { guest: this.guest },
      resourceLimits: { maxOldGenerationSizeMb: this.memoryMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 },
      stdout: true, stderr: true, // the student's output is captured by the guest; stray writes are dropped
    });
    this.worker.unref();
  }

  /** One request → its parsed response; never throws. */
  async #request(request, timeoutMs) {
    if (this.dying) { await this.dying; this.dying = null; }
    if (!this.worker) this.#spawn();
    const worker = this.worker;
    const id = ++this.seq;
    const rssStart = process.memoryUsage.rss();
    const rssLimit = rssStart + this.memoryMb * 2 ** 20;
    // A call that was still filling memory when its time ran out is reported as the memory problem it is.
    const grewFast = () => process.memoryUsage.rss() - rssStart > (this.memoryMb * 2 ** 20) / 2;
    return await new Promise((resolve) => {
      let done = false;
      const finish = (res, kill) => {
        if (done) return;
        done = true;
        clearTimeout(watchdog);
        clearInterval(poll);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (kill) {
          // The next worker starts once this one is gone and its memory freed, so that its memory
          // limit is measured from a clean start.
          this.dying = worker.terminate();
          if (this.worker === worker) this.worker = null;
        }
        resolve(res);
      };
      const onMessage = (m) => {
        if (m.id !== id) return;
        const res = decode(m.response);
        if (res.kind === 'timeout' && grewFast()) finish({ ...res, kind: 'memory', message: 'memory limit' }, true);
        else finish(res, false);
      };
      const onError = (e) => {
        const memory = e && (e.code === 'ERR_WORKER_OUT_OF_MEMORY' || /memory/i.test(e.message));
        finish({ ok: false, kind: memory ? 'memory' : 'error', message: String(e && e.message), output: '' }, true);
      };
      const onExit = () => finish({ ok: false, kind: 'error', message: 'the sandbox stopped', output: '' }, true);
      const watchdog = setTimeout(() => finish({ ok: false, kind: grewFast() ? 'memory' : 'timeout', message: 'timeout', output: '' }, true), timeoutMs + WATCHDOG_MS);
      const poll = setInterval(() => {
        if (process.memoryUsage.rss() > rssLimit) finish({ ok: false, kind: 'memory', message: 'memory limit', output: '' }, true);
      }, POLL_MS);
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.postMessage({ id, request: encode(request), timeoutMs });
    });
  }

  async load(source, { functions = [], timeoutMs = 2000 } = {}) {
    this.loaded = { source, functions };
    return this.#request({ op: 'load', source, functions }, timeoutMs);
  }

  async call(name, args, { timeoutMs = 1000 } = {}) {
    if (!this.worker && this.loaded) {
      const res = await this.#request({ op: 'load', ...this.loaded }, timeoutMs);
      if (!res.ok && res.kind !== 'timeout') return { ...res, message: `the submission could not be loaded again: ${res.message}` };
    }
    return this.#request({ op: 'call', name, args }, timeoutMs);
  }

  async close() {
    if (this.worker) await this.worker.terminate();
    this.worker = null;
  }
}
