// BrowserSandbox: the page's implementation of the grader's Sandbox interface (see grader/README.md).
//
//   load(source, { functions, timeoutMs }) → the guest's answer { ok, functions, output, error? }
//   call(name, args, { timeoutMs })        → { ok: true, value, output } | { ok: false, kind, message, line?, output }
//   close()
// with the same answers as grader/node/sandbox.mjs (kind 'timeout' | 'memory' | 'error' | 'missing').
//
// Every load() gets a fresh worker (a fresh realm: top-level `const`s of the previous run are gone);
// one spare worker is kept warm so that this costs no startup time. A request that overruns its time
// limit gets the worker terminated; the next worker re-loads the same source silently, so the
// remaining calls (the remaining tests) still run.
import { decode, encode } from '../../../grader/sandbox/wire.mjs';

const WORKER_URL = new URL('./sandbox-worker.js', import.meta.url);

// Run once in every spare realm before it is used: a fresh worker compiles np and the guest lazily,
// which would otherwise cost the first Check ~20 ms. It declares no globals, so the realm the
// student's code gets is still clean.
const WARM_UP = `(() => {
  const a = np.array([[2, 0], [0, 2], [1, 1]]), m = np.tril(np.ones([3, 3], { dtype: 'bool' }));
  let s = np.divide(np.matmul(a, np.swapaxes(a, -1, -2)), Math.sqrt(2));
  s = np.where(m, s, -Infinity);
  const e = np.exp(np.subtract(s, np.max(s, { axis: -1, keepdims: true })));
  print(np.round(np.divide(e, np.sum(e, { axis: -1, keepdims: true })), 3), m, a.T.tolist());
})();`;

class Realm {
  constructor() {
    this.worker = new Worker(WORKER_URL);
    this.pending = new Map();
    this.nextId = 1;
    this.dead = null;
    this.ready = new Promise((resolve) => {
      this.readyNow = resolve; // kill() also settles it: a worker that died while starting is not waited for
      this.worker.onmessage = (e) => {
        if (e.data.ready) return resolve();
        if (e.data.memory) return this.kill('memory'); // the worker's allocation budget ran out
        if (e.data.memoryHalf) { this.filling = e.data.id; return; } // over half of it: see request()
        const p = this.pending.get(e.data.id);
        if (p) { this.pending.delete(e.data.id); p.resolve(e.data.response); }
      };
    });
    this.warm = this.ready.then(() => this.request({ op: 'load', source: WARM_UP, functions: [] }, 5000, true));
    // A worker that dies (out of memory, a crash) answers nothing again: fail what is waiting.
    this.worker.onerror = (e) => { e.preventDefault(); this.kill(/memory/i.test(e.message || '') ? 'memory' : 'crash', e.message); };
  }

  /** Sends one JSON request; resolves with { response } (JSON) or { dead: { kind, detail } }. */
  async request(req, timeoutMs, warmUp = false) {
    await (warmUp ? this.ready : this.warm); // the time limit starts when the worker is free
    if (this.dead) return { dead: this.dead };
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.kill(this.filling === id ? 'memory' : 'timeout'); }, timeoutMs);
      this.pending.set(id, {
        resolve: (response) => { clearTimeout(timer); resolve(typeof response === 'string' ? { response } : { dead: response }); },
      });
      this.worker.postMessage({ id, request: encode(req) });
    });
  }

  kill(kind = 'closed', detail = '') {
    if (this.dead) return;
    this.dead = { kind, detail };
    this.worker.terminate();
    this.readyNow();
    for (const p of this.pending.values()) p.resolve(this.dead);
    this.pending.clear();
  }
}

export class BrowserSandbox {
  /** @param {{ loadTimeoutMs?: number }} [o] default limit for running the script's top level */
  constructor({ loadTimeoutMs = 2000 } = {}) {
    this.loadTimeoutMs = loadTimeoutMs;
    this.spare = new Realm();
    this.realm = null;
    this.loaded = null; // { source, functions } to replay into a replacement worker
    this.restarts = 0; // workers replaced after a timeout or crash (shown to tests via the page)
  }

  #take() {
    const r = this.spare.dead ? new Realm() : this.spare; // a spare can die too (warm-up overran)
    this.spare = new Realm();
    return r;
  }

  async #request(request, timeoutMs) {
    const realm = this.realm;
    const r = await realm.request(request, timeoutMs);
    if (!r.dead) return decode(r.response);
    this.restarts++;
    if (this.realm === realm) this.realm = null; // replaced (and the source re-loaded) on the next call
    const { kind, detail } = r.dead;
    return { ok: false, kind: kind === 'timeout' || kind === 'memory' ? kind : 'error', message: kind === 'crash' ? `the sandbox stopped${detail ? `: ${detail}` : ''}` : kind, output: '' };
  }

  /**
   * Runs the script's top level in a fresh realm. Same answers as the guest's `load`. Syntax errors
   * are found before this, by the grader's prepareSource (acorn), which gives their line.
   */
  async load(source, { functions = [], timeoutMs = this.loadTimeoutMs } = {}) {
    this.realm?.kill();
    this.realm = this.#take();
    this.loaded = { source, functions };
    return this.#request({ op: 'load', source, functions }, timeoutMs);
  }

  async call(name, args, { timeoutMs = 1000 } = {}) {
    if (!this.loaded) throw new Error('BrowserSandbox.call() before load()');
    if (!this.realm) {
      this.realm = this.#take();
      const res = await this.#request({ op: 'load', ...this.loaded }, timeoutMs);
      if (!res.ok) return { ...res, message: `the submission could not be loaded again: ${res.message}` };
    }
    return this.#request({ op: 'call', name, args }, timeoutMs);
  }

  close() {
    this.realm?.kill();
    this.spare?.kill();
    this.realm = this.spare = null;
  }
}
