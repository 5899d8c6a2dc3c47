// Node host of the sandbox contract (grader/README.md): student code runs in a child process of its
// own (./child.cjs), one per submission, never reused for another (./pool.mjs starts them ahead of need).
// - process: an empty environment, the permission model (reads only child.cjs and the guests' folder;
//   no writes, no child processes, no workers), a V8 heap cap; around it, where the kernel allows, the OS boundary of
//   ./spawn.mjs (bubblewrap's namespaces, kernel limits): signals and /proc reads go to the Node
//   process inside (nodePid), not to bwrap. A fatal V8 error, an OOM abort or a signal ends only the
//   child: the request it was in is answered `memory` or `crash`, and the next request starts a new
//   child that loads the submission again with the same budget as the first load.
// - time: a request's `timeoutMs` is CPU time of the whole child, every thread (/proc/<pid>/stat,
//   utime + stime: the student's code on the main thread and what it makes V8's helper threads do,
//   parallel GC and background compiles), so a busy machine, where the child waits for a core, changes
//   no verdict. A guest that counts work stops a request itself at its budget (its realm is kept); the
//   CPU limit is then the backstop for what the count does not see, and past it the child is killed.
//   The wall clock is only a backstop against a stalled process: WALL_FACTOR × timeoutMs, or
//   `deadlineMs` from now (the grader's overall limit) if that is sooner; past it the child is killed too.
//   Where /proc is missing (not Linux), CPU time is read as the wall clock. Every answer carries
//   `cpuMs`: the CPU time the request took (read when its answer arrived, or when the child was
//   killed; a request stopped for its time: its limit, whatever the watch's delay), plus what it
//   caused: the reload into a new child that a call needed first (after a crash or a timeout) and the
//   release after it.
// - realm: what the track allows (grader/tracks/<name>/index.mjs `realm`). `call(…, { fresh: true })`
//   runs the call in a new child (the submission loaded again first): the grader's retry of a timeout.
// - the runtime's clean-up: after each load and call the guest is asked to `release` what the
//   request left (the Python track's handles), as a request of its own; its CPU time is billed to the
//   request it followed, as everything a submission causes is (the runtime's walk never runs student
//   code, grader/tracks/python/runtime.py, but what it walks is the student's).
// - closed: after close() every request is answered at once (`crash`, the sandbox was closed) and no
//   child is started for it, so that a batch's Ctrl+C ends a submission in flight at once.
// - memory: the child's resident memory is polled from /proc, counted from the moment its realm was
//   ready (so memory kept across calls counts), every POLL_MS from its first request on (not while it
//   waits in a pool, where it runs nothing of the student's); past `memoryMb` the child is killed.
// - replies: at most LIMITS.replyBytes each (the header is checked before the body is read), then
//   decodeResponse() validates every field. The child is watched at all times, not only during a
//   request: an exit between requests is noticed and the next request gets a new child.
import { existsSync, readFileSync } from 'node:fs';
import { guestBundle } from './guest-bundle.mjs';
import { catalog } from '../../tracks/catalog.mjs';
import { decodeResponse, encodeRequest } from '../../wire/codec.mjs';
import { LIMITS } from '../../limits.mjs';
import { exitOf, nodePid, startFailed, takeChild } from './spawn.mjs';
import { readFrames, writeFrame } from './frames.mjs';
import { forkChild } from './zygote.mjs';
import { codeCache, keepCodeCache } from './code-cache.mjs';

// How long close() waits for a child still starting before it kills it: bubblewrap arms its die-with-parent
// only after its fork, so an outer bwrap killed in that moment leaves the inner one running, holding the
// child's pipes open (close() would wait for them forever); once the child is ready, a kill ends them all.
const START_WAIT_MS = 10000;
const POLL_MS = 10;
const WALL_FACTOR = LIMITS.wallFactor; // the wall-clock backstop of a request, as a multiple of its CPU limit
const TICK_MS = 10; // /proc/<pid>/stat counts CPU in clock ticks of 1/100 s (USER_HZ)
const PROC = existsSync('/proc/self/stat');
const STDERR_CAP = 8192;
const PAGE = 4096;

/** The child's own timing of its start ([name, ms, cpuMs] triples, child.cjs), checked; null if malformed. */
function phasesOf(v) {
  if (!Array.isArray(v) || v.length > 16) return null;
  const ok = v.every(
    (p) =>
      Array.isArray(p) &&
      p.length === 3 &&
      typeof p[0] === 'string' &&
      p[0].length <= 60 &&
      p.slice(1).every((x) => Number.isFinite(x) && x >= 0),
  );
  return ok ? v.map(([name, ms, cpu]) => [name, ms, cpu]) : null;
}

/** How a child that was not killed by us ended, from its exit and what V8 printed. */
function deathOf(code, signal, stderr) {
  if (
    /heap out of memory|Reached heap limit|invalid size error|Invalid (?:array|typed array|string) length|Allocation failed|out of memory/i.test(
      stderr,
    )
  ) {
    return { kind: 'memory', message: 'the JavaScript engine ran out of memory' };
  }
  return {
    kind: 'crash',
    message: signal ? `the sandbox process was ended by ${signal}` : `the sandbox process exited with code ${code}`,
  };
}

// The answer to a request made after close(): no child is started for it.
const CLOSED = Object.freeze({
  ok: false,
  kind: 'crash',
  message: 'the sandbox was closed',
  output: '',
  line: null,
  column: null,
});

class Child {
  constructor({ guest, memoryMb, forked }) {
    this.counted = guest.workPerMs > 0; // its guest bounds a request by the work count: CPU time is the backstop
    this.memoryBytes = memoryMb * 2 ** 20;
    this.pid = null; // its Node process's, once it is ready (./spawn.mjs nodePid: not bwrap's under the OS boundary)
    this.stderr = '';
    this.pending = null; // { resolve } of the request in flight
    this.verdict = null; // why we killed it: { kind, message }
    this.baseline = null; // resident bytes once the realm was ready
    this.peak = 0;
    this.spent = 0; // CPU ms of the whole child, read when we killed it (0 for one that died on its own)
    let gone;
    /** @type {Promise<void>} */
    this.gone = new Promise((resolve) => (gone = resolve)); // its process closed (#attach), or none was made (#copied)
    this.onGone = () => gone();
    this.phases = null; // the start's steps as the child timed them (phasesOf)
    this.cacheFor = null; // the code cache this child was asked to make: { name, script, memoryMb } (./code-cache.mjs)
    this.cacheRejected = false; // V8 did not take the code cache it was given
    this.poll = null; // the memory watch, from the first request on (a child waiting in a pool runs nothing of the student's)
    // ./zygote.mjs: a copy of the track's fork server, ready at once; else ./spawn.mjs: the process and
    // its flags, maybe started early by the CLI
    const copy = forked && forkChild(guest.name, guest.frame, memoryMb);
    this.ready = (copy ? this.#copied(copy, guest, memoryMb) : this.#spawned(takeChild(memoryMb), guest, memoryMb))
      .then((m) => this.#started(m))
      .then((ok) => (this.isReady = ok));
  }
  isReady = null; // what `ready` resolved to (a boolean), once it has: a request to a ready child is sent in the same tick

  /** A copy's first frame; if its server could not make it (`started` false), a spawned child's instead. */
  async #copied(copy, guest, memoryMb) {
    this.#attach(copy);
    const first = this.#next();
    if (await copy.started) return first;
    if (this.verdict) {
      // killed meanwhile (closed): nothing was started
      this.#die(this.verdict);
      this.onGone();
      return null;
    }
    return this.#spawned(takeChild(memoryMb), guest, memoryMb);
  }

  /**
   * A spawned child's first frame: it is sent its guest, which may still be read (or built) while its
   * process starts, with V8's code cache of the guest bundle (or asked to make it: ./code-cache.mjs).
   */
  #spawned(proc, guest, memoryMb) {
    this.#attach(proc);
    const first = this.#next();
    guest.frame.then(
      (frame) => {
        if (this.proc !== proc || this.dead || this.verdict) return;
        const cache = codeCache(guest.name, frame.guest, memoryMb);
        if (cache.makeCache) this.cacheFor = { name: guest.name, script: frame.guest, memoryMb };
        this.#send({ ...frame, ...cache });
      },
      () => this.kill({ kind: 'crash', message: 'the sandbox could not start: no guest bundle' }),
    );
    return first;
  }

  /** `proc` is this child's process from now on; what an earlier one (a copy that was never made) does is ignored. */
  #attach(proc) {
    this.proc = proc;
    const mine =
      (f) =>
      (...a) => {
        if (this.proc === proc && !(proc.forked && proc.made === false)) f(...a);
      };
    proc.on(
      'error',
      mine((e) => this.#die({ kind: 'crash', message: `the sandbox process could not start: ${e.message}` })),
    );
    // 'close', not 'exit': stderr is read to its end by then, so what V8 printed as it died (an OOM
    // abort) is there to read on a busy machine too, where it can arrive after the exit.
    proc.on(
      'close',
      mine((code, signal) => {
        const end = exitOf(proc, code, signal);
        this.#die(this.verdict ?? deathOf(end.code, end.signal, this.stderr));
        this.onGone();
      }),
    );
    proc.stderr.on(
      'data',
      mine((d) => {
        if (this.stderr.length < STDERR_CAP) this.stderr += d.toString('utf8', 0, STDERR_CAP);
      }),
    );
    proc.stdin.on('error', () => {}); // EPIPE once it is gone: the exit handler reports it
    readFrames(
      proc.stdio[3],
      mine((body) => this.#deliver(body)),
      {
        cap: LIMITS.replyBytes + 64,
        onTooBig: mine((need) =>
          this.kill({ kind: 'invalid', reason: 'too_big', detail: need, message: 'reply too large' }),
        ),
      },
    );
  }

  /** The first frame → whether the realm is ready. */
  async #started(m) {
    if (m && m.ready) this.pid = await nodePid(this.proc);
    if (m && m.ready && this.pid === null) {
      this.kill({ kind: 'crash', message: 'the sandbox process could not be found' });
      return false;
    }
    if (m && m.ready) {
      this.baseline = this.rss();
      this.phases = phasesOf(m.phases);
      this.cacheRejected = m.cacheRejected === true;
      if (this.cacheFor && m.cache !== undefined) {
        const { name, script, memoryMb } = this.cacheFor;
        keepCodeCache(name, script, memoryMb, m.cache);
      }
      return true;
    }
    if (m && typeof m.error === 'string')
      this.kill({ kind: 'crash', message: `the sandbox could not start: ${m.error.slice(0, 200)}` });
    if (!m && !this.verdict) startFailed(); // it ended on its own before it was ready
    return false;
  }

  get dead() {
    return this.died !== undefined;
  }

  /** Resident bytes of the child now (0 where /proc is not available). */
  rss() {
    try {
      return Number(readFileSync(`/proc/${this.pid}/statm`, 'utf8').split(' ')[1]) * PAGE;
    } catch {
      return 0;
    }
  }

  /** CPU time of the whole child (every thread) so far, in ms; null once it is gone or without /proc. */
  processCpu() {
    return PROC ? this.cpu() : null;
  }

  /** CPU time of the whole child so far (every thread), in ms (utime + stime); the wall clock without /proc; null once it is gone. */
  cpu() {
    if (!PROC) return performance.now();
    try {
      const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // after "pid (comm) ": state is f[0]
      return (Number(f[11]) + Number(f[12])) * TICK_MS;
    } catch {
      return null;
    }
  }

  #watchMemory() {
    if (this.baseline === null || this.dead) return;
    const rss = this.rss();
    if (rss > this.peak) this.peak = rss;
    if (rss - this.baseline > this.memoryBytes) this.kill({ kind: 'memory', message: 'memory limit' });
  }

  #send(msg) {
    writeFrame(this.proc.stdin, msg);
  }

  #deliver(body) {
    let msg;
    try {
      msg = JSON.parse(body);
    } catch {
      msg = null;
    }
    const p = this.pending;
    this.pending = null;
    p?.resolve(msg);
  }

  #next() {
    return new Promise((resolve) => {
      if (this.dead) return resolve(null);
      this.pending = { resolve };
    });
  }

  #die(verdict) {
    if (this.dead) return;
    this.died = verdict;
    clearInterval(this.poll);
    const p = this.pending;
    this.pending = null;
    p?.resolve(null);
  }

  kill(verdict) {
    if (this.dead || this.verdict) return;
    this.verdict = verdict;
    this.spent = this.processCpu() ?? 0; // read while it is still there
    this.proc.kill('SIGKILL');
  }

  /**
   * One request → its checked response with `cpuMs` (never throws). timeoutMs: the CPU time it may
   * use (the child is killed past it); deadlineMs: wall ms from now after which the child is killed
   * whatever it did (at most WALL_FACTOR × timeoutMs).
   * @param {any} request
   * `answered`: called as the child's answer arrives and its CPU time is read, before the answer is
   * checked (the sandbox's clean-up request goes out then, NodeSandbox #ask).
   * @param {{ timeoutMs: number, deadlineMs?: number, functions?: string[], answered?: () => void }} limits
   * @returns {Promise<import('../../types').Reply>}
   */
  async request(request, { timeoutMs, deadlineMs = Infinity, functions, answered }) {
    if (this.isReady === null) await this.ready;
    if (!this.isReady || this.dead) return { ...this.#verdict(), cpuMs: 0 };
    if (!this.poll) {
      this.poll = setInterval(() => this.#watchMemory(), POLL_MS);
      this.poll.unref();
    }
    // A guest that counts work stops the request at its budget (`limitMs`, grader/tracks/work.mjs), the
    // same on any machine; the CPU limit is then only the backstop for what the count does not see.
    const limitMs = timeoutMs;
    if (this.counted) timeoutMs *= LIMITS.workBackstop;
    const wallMs = Math.min(timeoutMs * WALL_FACTOR, deadlineMs);
    const start = this.rss();
    const cpu0 = this.cpu() ?? 0;
    const wall0 = performance.now();
    let used = 0; // CPU ms of this request, as last read
    // A request that was still filling memory when its time ran out says so (`grew`: by an eighth of
    // the budget, 64 MiB, or more), and the grader calls a confirmed overrun that grew a memory
    // problem. Counted against CPU time, that is the same amount of work on any machine (a
    // dictionary-mode `new Array(5e7).fill(0)` grows ~100 MiB per CPU second here; an endless loop
    // that allocates nothing grows by nothing).
    const grewFast = () => this.rss() - start > this.memoryBytes / 8;
    const overrun = () => this.kill({ kind: 'timeout', message: 'timeout', grew: grewFast() });
    const watch = setInterval(() => {
      const now = this.cpu();
      if (now === null) return;
      used = now - cpu0;
      if (used >= timeoutMs || performance.now() - wall0 >= wallMs) overrun();
    }, POLL_MS);
    const answer = this.#next();
    this.#send({ request: encodeRequest(request.op === 'release' ? request : { ...request, limitMs }) });
    const msg = await answer;
    clearInterval(watch);
    const end = this.cpu();
    const spent = end === null ? used : end - cpu0;
    answered?.();
    // A request stopped for its time is billed its limit: what the child ran past it before the watch
    // above noticed (later on a busy machine) is the host's delay, so the budget left stays the same
    // on any load. Stopped by the work count or by the clock's backstop, it is billed its limit all the same.
    const cpuMs = (r) => (!r.ok && r.kind === 'timeout' ? Math.min(spent, limitMs) : spent);
    if (!msg || typeof msg.response !== 'string') {
      const res = this.#verdict();
      return { ...res, cpuMs: cpuMs(res) };
    }
    const res = decodeResponse(msg.response, { functions });
    res.cpuMs = cpuMs(res);
    // Stopped by the work count, the student's code was unwound by the guest itself: its realm is
    // kept, as the page keeps its worker then.
    if (!res.ok && res.kind === 'timeout') res.grew = grewFast();
    return res;
  }

  #verdict() {
    const v = this.died ?? this.verdict ?? { kind: 'crash', message: 'the sandbox process stopped' };
    return {
      ok: false,
      kind: v.kind,
      message: v.message,
      reason: v.reason,
      detail: v.detail,
      grew: v.grew,
      output: '',
      line: null,
      column: null,
    };
  }
}

// The first frame of a track's children (its realm, which files hold its guest bundle and WebAssembly,
// which the child reads itself, and the track's warm-up program: child.cjs), made once per track (by name: the whole track and its
// description, grader/tracks/catalog.mjs, give the same).
const frames = new Map();
function guestOf(track) {
  if (!frames.has(track.name)) {
    frames.set(
      track.name,
      guestBundle(track).then(({ script, wasm }) => ({
        realm: { strings: track.realm.strings, wasm: track.realm.wasm },
        guest: script,
        wasm,
        // loaded by the child while it waits for its first request (child.cjs)
        ...(typeof track.warmUp === 'string' && {
          warm: { source: track.warmUp, release: track.realm.release === true },
        }),
      })),
    );
  }
  return { name: track.name, realm: track.realm, workPerMs: track.workPerMs ?? 0, frame: frames.get(track.name) };
}

export class NodeSandbox {
  /**
   * Use `await NodeSandbox.create({ track })`: the child starts at once, while the caller loads the
   * rest. track: a track of grader/tracks/index.mjs, or its description (grader/tracks/catalog.mjs; default:
   * the first track); the host knows of it only the guest bundle and what the realm must allow.
   * forked: its children are copies of the track's fork server (./zygote.mjs) where one can run (a pool's,
   * a service's: many children of one track); memoryMb: their cap (LIMITS.memoryMb).
   * @param {{ track?: any, forked?: boolean, memoryMb?: number }} [options]
   */
  static async create({ track = catalog.DEFAULT_TRACK, ...options } = {}) {
    const guest = guestOf(track);
    const sandbox = new NodeSandbox(options, guest);
    sandbox.#spawn(); // Node starts in the child while the guest bundle is read (or built) here
    try {
      await guest.frame;
    } catch (e) {
      await sandbox.close();
      throw e;
    }
    return sandbox;
  }

  /** Once the current child's realm is ready: its start's steps ([name, ms since it started, its CPU ms so far]), or null. */
  async started() {
    const child = this.child;
    return child && (await child.ready) ? child.phases : null;
  }

  /** @param {{ memoryMb?: number, forked?: boolean }} options */
  constructor({ memoryMb = LIMITS.memoryMb, forked = false } = {}, guest) {
    this.memoryMb = memoryMb;
    this.forked = forked; // children are copies of the track's fork server (./zygote.mjs), where it can run
    this.guest = guest;
    this.child = null;
    this.loaded = null; // { source, functions, aliases, timeoutMs } to replay into a new child
    this.processes = 0; // children started (1 unless one was killed or died)
    this.peakRss = 0; // the largest resident memory a child reached (bytes, from /proc)
    this.cpuMs = 0; // CPU time of its children, all threads, as read when each was ended (tools/bench-batch); known after close()
    this.clock = PROC ? 'cpu' : 'wall'; // what `timeoutMs` and `cpuMs` count
    this.closed = false; // once closed, no request starts a child again (a batch's Ctrl+C)
    this.untouched = true; // nothing was loaded or called yet: its child is as the pool started it
  }

  #spawn() {
    this.child = new Child({ guest: this.guest, memoryMb: this.memoryMb, forked: this.forked });
    this.processes++;
  }

  /**
   * The live child, a new one (loaded again) if the last one is gone → { failed, cpuMs }: the failed
   * reload's answer (or null), and the CPU time the reload took (billed to the call that needed it).
   */
  async #live(deadlineMs) {
    if (this.closed) return { failed: { ...CLOSED, cpuMs: 0 }, cpuMs: 0 };
    if (this.child && !this.child.dead && !this.child.verdict) return { failed: null, cpuMs: 0 };
    if (this.child) {
      this.peakRss = Math.max(this.peakRss, this.child.peak);
      await this.child.gone;
      this.#account(this.child);
    }
    this.#spawn();
    if (!this.loaded) return { failed: null, cpuMs: 0 };
    const { timeoutMs, ...load } = this.loaded;
    const res = await this.#ask({ op: 'load', ...load }, { timeoutMs, deadlineMs, functions: load.functions });
    if (res.ok) return { failed: null, cpuMs: res.cpuMs };
    return {
      failed: { ...res, message: `the submission could not be loaded again: ${res.message}` },
      cpuMs: res.cpuMs,
    };
  }

  /**
   * @param {string} source
   * @param {import('../../types').LoadRequestOptions} [options]
   * @returns {Promise<import('../../types').Reply>}
   */
  async load(source, { functions = [], aliases = {}, timeoutMs = 2000, deadlineMs } = {}) {
    this.untouched = false;
    await this.#settled();
    if (this.loaded) {
      this.child?.kill({ kind: 'crash', message: 'replaced' });
    } // a new load gets a fresh realm
    this.loaded = null;
    const { failed } = await this.#live();
    if (failed) return failed; // closed
    this.loaded = { source, functions, aliases, timeoutMs };
    return this.#ask({ op: 'load', source, functions, aliases }, { timeoutMs, deadlineMs, functions });
  }

  /**
   * `fresh`: in a new child (the submission loaded again first), as the grader's retry of a timeout is.
   * @param {string} name
   * @param {unknown[]} args
   * @param {import('../../types').CallRequestOptions} [options]
   * @returns {Promise<import('../../types').Reply>}
   */
  async call(name, args, { timeoutMs = 1000, deadlineMs, fresh = false, measure } = {}) {
    this.untouched = false;
    const carried = await this.#settled(); // before the child is looked at: a failed clean-up ends it
    if (fresh) this.child?.kill({ kind: 'crash', message: 'replaced' });
    const { failed, cpuMs } = await this.#live(deadlineMs);
    if (failed) return { ...failed, cpuMs: failed.cpuMs + carried };
    const res = await this.#ask({ op: 'call', name, args, ...(measure && { measure }) }, { timeoutMs, deadlineMs });
    res.cpuMs += cpuMs + carried;
    return res;
  }

  /**
   * A request to the current child, once the clean-up after the last one has ended (that clean-up's CPU
   * time is added to this one's); its own clean-up is sent as its answer arrives (#release).
   */
  async #ask(request, limits) {
    const carried = await this.#settled();
    const child = this.child;
    const res = await child.request(request, { ...limits, answered: () => this.#release(child) });
    res.cpuMs += carried;
    return res;
  }

  /** Waits for the clean-up in flight, if any (a failed one has ended the child by then) → its CPU ms. */
  async #settled() {
    const cleanup = this.#cleanup;
    this.#cleanup = null;
    return cleanup ? await cleanup : 0;
  }

  /**
   * The runtime's clean-up after a request (a track whose realm says `release`), as a request of its own,
   * sent as the answer arrives and not waited for: the grader checks and reads the answer meanwhile, and
   * the next request waits for it (#ask). A clean-up that fails ends the child, so the next request finds
   * it gone (and loads the submission again into a new one).
   */
  #release(child) {
    if (this.guest.realm.release && child === this.child && !child.dead && !child.verdict)
      this.#cleanup = child.request({ op: 'release' }, { timeoutMs: LIMITS.releaseMs }).then((done) => {
        if (!done.ok) child.kill({ kind: 'crash', message: 'the runtime could not release memory' });
        return done.cpuMs;
      });
  }
  #cleanup = null; // the clean-up in flight: a promise of its CPU ms

  async close() {
    this.closed = true;
    if (!this.child) return;
    this.peakRss = Math.max(this.peakRss, this.child.peak);
    const child = this.child;
    if (!child.dead) {
      let timer;
      const waited = new Promise((resolve) => (timer = setTimeout(resolve, START_WAIT_MS)));
      await Promise.race([child.ready, child.gone, waited]);
      clearTimeout(timer);
    }
    child.kill({ kind: 'crash', message: 'closed' });
    child.proc.stdin.end();
    await child.gone;
    this.#account(child);
  }

  /** A child that has ended: its CPU time added once. */
  #account(child) {
    if (child.accounted) return;
    child.accounted = true;
    this.cpuMs += child.spent;
  }
}
