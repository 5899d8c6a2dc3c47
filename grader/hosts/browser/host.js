// BrowserSandbox: the page's implementation of the grader's sandbox contract (grader/README.md).
//
//   load(source, { functions, aliases, timeoutMs, deadlineMs }) → { ok: true, functions, output, error }
//   call(name, args, { timeoutMs, deadlineMs, measure })       → { ok: true, value, output, measured? }
//                                                               | { ok: false, kind, message, line?, output }
//   close()
// with the answers of grader/hosts/node/sandbox.mjs (kind 'timeout' | 'memory' | 'crash' | 'error' |
// 'missing' | 'invalid'), every reply checked by the same decoder (grader/wire/codec.mjs).
//
// One BrowserSandbox runs one track's guest (its worker script, and the WebAssembly module it needs).
// Every load() gets a fresh worker (a fresh realm: top-level `const`s of the previous run are gone);
// one spare worker is kept warm so that this costs no startup time; it is started once the requests
// pause (SPARE_IDLE_MS), not while a Check still runs on the student's cores. A request that overruns its time
// limit (or the grader's overall deadline) gets the worker terminated; the next call loads the same
// source into a new worker with the same budget as the first load, so the remaining tests still run.
// A worker that dies on its own (an uncaught error of the engine) is reported as `crash`. A Web
// Worker's time can only be measured by the wall clock, so here `timeoutMs` is wall time and each
// answer's `cpuMs` is the wall time the request took; `call(…, { fresh: true })` runs in a new worker
// (the source loaded again first), as the grader's retry of a timeout does. After each load and call
// the guest of a track whose realm says `release` is asked to (the runtime's own clean-up) as a request
// of its own, sent at once and not waited for (the grader reads the answer meanwhile): the next request
// waits for it and is billed its time, as a reload's is billed to the call that needed it (the Node
// host does the same). Where the browser takes the whole tab down instead (a V8 fatal error), the page
// notices on its next start (main.js keeps a marker while a request runs).
import { decodeResponse, encodeRequest } from '../../wire/codec.mjs';
import { LIMITS } from '../../limits.mjs';
import { workerFile } from './workers.mjs';

// What the host knows of a track: which worker script runs its guest (./workers.mjs), the WebAssembly
// module that guest needs (fetched and compiled once per page, then handed to every worker), and a
// program to warm a spare realm with (the track's warmUp: a fresh worker compiles its guest lazily,
// which would otherwise cost the first Check; it leaves the realm's globals as they were).
const modules = new Map();
function wasmModule(track) {
  const file = track.guest.wasm?.file;
  if (!file) return null;
  if (!modules.has(file)) {
    const url = new URL(`./${file}`, import.meta.url);
    modules.set(
      file,
      WebAssembly.compileStreaming(fetch(url)).catch(async () =>
        WebAssembly.compile(await (await fetch(url)).arrayBuffer()),
      ),
    );
  }
  return modules.get(file);
}

class Realm {
  constructor(memory, track) {
    this.worker = new Worker(new URL(`./${workerFile(track.name)}`, import.meta.url));
    const wasm = wasmModule(track);
    if (wasm)
      wasm.then(
        (module) => this.worker.postMessage({ config: { memory, wasm: module } }),
        (e) => this.kill('crash', `the WebAssembly module could not load: ${e.message}`),
      );
    else this.worker.postMessage({ config: { memory } });
    this.pending = new Map();
    this.nextId = 1;
    this.dead = null;
    this.ready = /** @type {Promise<void>} */ (
      new Promise((resolve) => {
        this.readyNow = resolve; // kill() also settles it: a worker that died while starting is not waited for
        this.worker.onmessage = (e) => {
          if (e.data.ready) return resolve();
          if (e.data.failed) return this.kill('crash', e.data.failed);
          if (e.data.memory) return this.kill('memory'); // the worker's allocation budget ran out
          if (e.data.grew) {
            this.grew = e.data.id;
            return;
          } // it took an eighth of the budget: see request()
          const p = this.pending.get(e.data.id);
          if (!p) return;
          this.pending.delete(e.data.id);
          const r = e.data.response;
          // Checked before anything reads it: a reply over the cap is not parsed.
          if (typeof r !== 'string' || r.length > LIMITS.replyBytes) return this.kill('invalid', 'reply too large');
          p.resolve({ response: r, grew: this.grew === e.data.id });
        };
      })
    );
    this.warm = this.ready.then(() => this.request({ op: 'load', source: track.warmUp, functions: [] }, 5000, true));
    // A worker that dies (out of memory, a crash) answers nothing again: fail what is waiting.
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.kill(/memory/i.test(e.message || '') ? 'memory' : 'crash', e.message);
    };
  }

  /** Sends one request; resolves with { response, grew } (JSON text; grew: it took an eighth of the memory budget) or { dead: { kind, detail } }. */
  async request(req, timeoutMs, warmUp = false) {
    await (warmUp ? this.ready : this.warm); // the time limit starts when the worker is free
    if (this.dead) return { dead: this.dead };
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          this.kill('timeout', '', this.grew === id);
        },
        Math.max(0, timeoutMs),
      );
      this.pending.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      });
      this.worker.postMessage({ id, request: encodeRequest(req) });
    });
  }

  kill(kind = 'closed', detail = '', grew = false) {
    if (this.dead) return;
    this.dead = { kind, detail, grew };
    this.worker.terminate();
    this.readyNow();
    for (const p of this.pending.values()) p.resolve({ dead: this.dead });
    this.pending.clear();
  }
}

const DEAD = {
  timeout: (detail, grew) => ({ kind: 'timeout', message: 'timeout', grew }),
  memory: () => ({ kind: 'memory', message: 'memory limit' }),
  invalid: () => ({ kind: 'invalid', reason: 'too_big', detail: null, message: 'reply too large' }),
  crash: (detail) => ({ kind: 'crash', message: `the sandbox worker stopped${detail ? `: ${detail}` : ''}` }),
  closed: () => ({ kind: 'crash', message: 'the sandbox was closed' }),
};

// How long the host waits after a request before it starts the next spare realm (see #spareWhenIdle).
const SPARE_IDLE_MS = 150;

const CLOSED = () => ({ ok: false, output: '', line: null, column: null, cpuMs: 0, ...DEAD.closed() });

export class BrowserSandbox {
  /**
   * @param {{ memory?: 'run' | 'request', track?: any, counted?: boolean }} [o] how the worker counts memory: over the
   * whole run (grading, as the Node host) or per request (the Scale panel, which times growing sizes);
   * the track whose guest the workers run (grader/tracks/index.mjs), given by the page: this host
   * imports no track (a track's worker.js is built on ./worker-core.js); `counted: false`: bounded by the
   * wall clock even where the track's guest counts work (the Scale panel times sizes)
   */
  constructor({ memory = 'run', track, counted = true } = {}) {
    if (!track?.name)
      throw new TypeError('BrowserSandbox: `track` must be one of the tracks (grader/browser.mjs TRACKS)');
    this.memory = memory;
    this.track = track;
    // Requests bounded by the work count where the track's guest counts it (grading), or by the wall
    // clock alone (`counted: false`: the Scale panel, which times sizes and cuts one off at its limit).
    this.counted = counted && track.workPerMs > 0;
    this.spare = new Realm(memory, track);
    this.realm = null;
    this.loaded = null; // { source, functions, aliases, timeoutMs } to replay into a replacement worker
    this.restarts = 0; // workers replaced after a timeout or crash (shown to tests via the page)
    this.cleanup = null; // the runtime's clean-up in flight after the last request: a promise of its ms
    this.clock = 'wall'; // what `timeoutMs` and `cpuMs` count
  }

  #take() {
    const r = this.spare && !this.spare.dead ? this.spare : new Realm(this.memory, this.track); // a spare can die too (warm-up overran)
    this.spare = null; // the next one waits for the requests to pause (#request, #spareWhenIdle)
    return r;
  }

  /**
   * The next spare is started once no request has come for SPARE_IDLE_MS: starting a worker and warming
   * it costs a core for tens of ms, which during a Check would be taken from the Check itself (the page
   * and its workers share the student's cores); a request that needs a realm before then starts one.
   */
  #spareWhenIdle() {
    clearTimeout(this.spareTimer);
    if (this.closed || this.spare) return;
    this.spareTimer = setTimeout(() => {
      if (!this.closed && !this.spare) this.spare = new Realm(this.memory, this.track);
    }, SPARE_IDLE_MS);
  }

  /**
   * @param {any} request
   * @param {{ timeoutMs: number, deadlineMs?: number, functions?: string[] }} limits
   * @returns {Promise<import('../../types').Reply>}
   */
  async #request(request, { timeoutMs, deadlineMs = Infinity, functions }) {
    const carried = await this.#settled();
    const realm = this.realm;
    const t0 = performance.now();
    // A guest that counts work stops the request at its budget (`limitMs`, grader/tracks/work.mjs), the
    // same on a busy laptop as on an idle one; the wall clock is then only the backstop.
    const clockMs = this.counted ? timeoutMs * LIMITS.workBackstop : timeoutMs;
    if (!this.spare) this.#spareWhenIdle(); // still busy: the spare waits
    const r = await realm.request(
      this.counted ? { ...request, limitMs: timeoutMs } : request,
      Math.min(clockMs, deadlineMs),
    );
    const ownMs = performance.now() - t0;
    const cpuMs = ownMs + carried;
    if (!r.dead) {
      const res = { ...decodeResponse(r.response, { functions }), cpuMs };
      // Stopped by the work count: whether it was still filling memory, as the clock's stop says (`grew`).
      if (!res.ok && res.kind === 'timeout') res.grew = r.grew;
      if (this.track.realm.release) {
        const t1 = performance.now();
        this.cleanup = realm.request({ op: 'release' }, LIMITS.releaseMs).then((done) => {
          if (done.dead && this.realm === realm) this.realm = null; // the next call loads into a new worker
          return performance.now() - t1;
        });
      }
      return res;
    }
    this.restarts++;
    if (this.realm === realm) this.realm = null; // replaced (and the source re-loaded) on the next call
    const dead = DEAD[r.dead.kind](r.dead.detail, r.dead.grew);
    // A worker stopped for its time is billed its limit (how late the page noticed is not the student's).
    const billed = dead.kind === 'timeout' ? Math.min(ownMs, timeoutMs, deadlineMs) + carried : cpuMs;
    return { ok: false, output: '', line: null, column: null, cpuMs: billed, ...dead };
  }

  /** Waits for the clean-up in flight, if any (a worker it found dead is let go by then) → its ms. */
  async #settled() {
    const cleanup = this.cleanup;
    this.cleanup = null;
    return cleanup ? await cleanup : 0;
  }

  /**
   * Runs the script's top level in a fresh realm. Same answers as the guest's `load`. Syntax errors
   * are found before this by the track's prepareSource (JavaScript: acorn), or by the guest's compiler
   * here (Python: `error.syntax`), with their line.
   * @param {string} source
   * @param {import('../../types').LoadRequestOptions} [options]
   * @returns {Promise<import('../../types').Reply>}
   */
  async load(source, { functions = [], aliases = {}, timeoutMs = 2000, deadlineMs } = {}) {
    if (this.closed) return CLOSED();
    await this.#settled();
    this.realm?.kill();
    this.realm = this.#take();
    this.loaded = { source, functions, aliases, timeoutMs };
    return this.#request({ op: 'load', source, functions, aliases }, { timeoutMs, deadlineMs, functions });
  }

  /**
   * @param {string} name
   * @param {unknown[]} args
   * @param {import('../../types').CallRequestOptions} [options]
   * @returns {Promise<import('../../types').Reply>}
   */
  async call(name, args, { timeoutMs = 1000, deadlineMs, fresh = false, measure } = {}) {
    if (this.closed) return CLOSED();
    if (!this.loaded) throw new Error('BrowserSandbox.call() before load()');
    // Billed with this call: the last clean-up (settled before the realm is looked at: a failed one ends
    // it) and a reload into a new worker that this call needed.
    let billedMs = await this.#settled();
    if (fresh && this.realm) {
      this.realm.kill();
      this.realm = null;
    }
    if (!this.realm) {
      this.realm = this.#take();
      const { timeoutMs: loadMs, ...load } = this.loaded;
      const res = await this.#request(
        { op: 'load', ...load },
        { timeoutMs: loadMs, deadlineMs, functions: load.functions },
      );
      if (!res.ok) return { ...res, message: `the submission could not be loaded again: ${res.message}` };
      billedMs += res.cpuMs;
    }
    const res = await this.#request({ op: 'call', name, args, ...(measure && { measure }) }, { timeoutMs, deadlineMs });
    res.cpuMs += billedMs;
    return res;
  }

  /** Resolves once a realm is up and warmed for the next load (the page is ready to grade). */
  whenReady() {
    if (!this.spare || this.spare.dead) this.spare = new Realm(this.memory, this.track);
    return this.spare.warm;
  }

  /** Ends its workers; a request still running, and every later one, answers as a closed sandbox (Stop). */
  close() {
    this.closed = true;
    clearTimeout(this.spareTimer);
    this.realm?.kill();
    this.spare?.kill();
    this.realm = this.spare = null;
  }
}
