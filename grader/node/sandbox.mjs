// Node host of the sandbox contract (grader/README.md): student code runs in a child process of its
// own (./child.mjs), one per submission, never reused for another.
// - process: an empty environment, the permission model (reads only child.mjs; no writes, no child
//   processes, no workers), a V8 heap cap. A fatal V8 error, an OOM abort or a signal ends only the
//   child: the request it was in is answered `memory` or `crash`, and the next request starts a new
//   child that loads the submission again with the same budget as the first load.
// - time: V8 interrupts a request after `timeoutMs` inside the child; what it cannot interrupt (a
//   long native loop) ends when the watchdog here kills the child `GRACE_MS` later, or `deadlineMs`
//   from now (the grader's overall deadline) if that comes first.
// - realm: what the track allows (grader/tracks/<name>/index.mjs `realm`); a track whose realm is not
//   reusable after an interrupted request (Python) gets a new child after a timeout.
// - memory: the child's resident memory is polled from /proc, counted from the moment its realm was
//   ready (so memory kept across calls counts); past `memoryMb` the child is killed.
// - replies: at most LIMITS.replyBytes each (the header is checked before the body is read), then
//   decodeResponse() validates every field. The child is watched at all times, not only during a
//   request: an exit between requests is noticed and the next request gets a new child.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { guestBundle } from './guest-bundle.mjs';
import { DEFAULT_TRACK } from '../tracks/index.mjs';
import { LIMITS, decodeResponse, encodeRequest } from '../sandbox/wire.mjs';

const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));
const GRACE_MS = 250;
const POLL_MS = 10;
const STDERR_CAP = 8192;
// V8's stack for the child, in KiB: about what a Chromium Web Worker gets (measured: 6,352 frames of
// a one-line recursion there, 6,3xx here with 455, 13,663 with Node's default), so that recursion or a
// spread of many arguments fails at about the same size in both hosts.
const STACK_KB = 455;
const PAGE = 4096;
// Node 20-21 spell it --experimental-permission; later versions --permission.
const PERMISSION = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';

/** How a child that was not killed by us ended, from its exit and what V8 printed. */
function deathOf(code, signal, stderr) {
  if (/heap out of memory|Reached heap limit|invalid size error|Invalid (?:array|typed array|string) length|Allocation failed|out of memory/i.test(stderr)) {
    return { kind: 'memory', message: 'the JavaScript engine ran out of memory' };
  }
  return { kind: 'crash', message: signal ? `the sandbox process was ended by ${signal}` : `the sandbox process exited with code ${code}` };
}

class Child {
  constructor({ guest, memoryMb }) {
    this.reusable = guest.realm.reusable;
    this.memoryBytes = memoryMb * 2 ** 20;
    this.proc = spawn(process.execPath, [
      PERMISSION, `--allow-fs-read=${CHILD}`, '--no-warnings', `--max-old-space-size=${memoryMb}`,
      '--max-semi-space-size=16', `--stack-size=${STACK_KB}`, '--disallow-code-generation-from-strings', CHILD,
    ], { env: {}, stdio: ['pipe', 'ignore', 'pipe', 'pipe'], windowsHide: true });
    this.pid = this.proc.pid;
    this.stderr = '';
    this.pending = null; // { resolve } of the request in flight
    this.verdict = null; // why we killed it: { kind, message }
    this.baseline = null; // resident bytes once the realm was ready
    this.peak = 0;
    this.gone = new Promise((resolve) => this.proc.once('close', resolve));
    this.proc.on('error', (e) => this.#die({ kind: 'crash', message: `the sandbox process could not start: ${e.message}` }));
    this.proc.on('exit', (code, signal) => this.#die(this.verdict ?? deathOf(code, signal, this.stderr)));
    this.proc.stderr.on('data', (d) => { if (this.stderr.length < STDERR_CAP) this.stderr += d.toString('utf8', 0, STDERR_CAP); });
    this.proc.stdin.on('error', () => {}); // EPIPE once it is gone: the exit handler reports it
    this.#readFrames();
    this.ready = this.#next().then((m) => {
      if (m && m.ready) { this.baseline = this.rss(); return true; }
      if (m && typeof m.error === 'string') this.kill({ kind: 'crash', message: `the sandbox could not start: ${m.error.slice(0, 200)}` });
      return false;
    });
    this.#send(guest.frame);
    this.poll = setInterval(() => this.#watchMemory(), POLL_MS);
    this.poll.unref();
  }

  get dead() { return this.died !== undefined; }

  /** Resident bytes of the child now (0 where /proc is not available). */
  rss() {
    try { return Number(readFileSync(`/proc/${this.pid}/statm`, 'utf8').split(' ')[1]) * PAGE; } catch { return 0; }
  }

  #watchMemory() {
    if (this.baseline === null || this.dead) return;
    const rss = this.rss();
    if (rss > this.peak) this.peak = rss;
    if (rss - this.baseline > this.memoryBytes) this.kill({ kind: 'memory', message: 'memory limit' });
  }

  #send(msg) {
    const body = Buffer.isBuffer(msg) ? msg : Buffer.from(JSON.stringify(msg), 'utf8');
    const head = Buffer.alloc(4);
    head.writeUInt32LE(body.length);
    this.proc.stdin.write(Buffer.concat([head, body]));
  }

  #readFrames() {
    const chunks = [];
    let have = 0, need = -1;
    this.proc.stdio[3].on('data', (chunk) => {
      chunks.push(chunk);
      have += chunk.length;
      for (;;) {
        if (need < 0) {
          if (have < 4) return;
          const all = Buffer.concat(chunks.splice(0));
          chunks.push(all);
          need = all.readUInt32LE(0);
          // The size is known before the body is read: a reply over the cap is never buffered.
          if (need > LIMITS.replyBytes + 64) {
            return this.kill({ kind: 'invalid', reason: 'too_big', detail: need, message: 'reply too large' });
          }
        }
        if (have < 4 + need) return;
        const all = Buffer.concat(chunks.splice(0));
        const body = all.subarray(4, 4 + need).toString('utf8');
        const rest = all.subarray(4 + need);
        have = rest.length;
        need = -1;
        if (rest.length) chunks.push(rest);
        this.#deliver(body);
      }
    });
    this.proc.stdio[3].on('error', () => {});
  }

  #deliver(body) {
    let msg;
    try { msg = JSON.parse(body); } catch { msg = null; }
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
    this.proc.kill('SIGKILL');
  }

  /**
   * One request → its checked response (never throws). The watchdog kills the child
   * timeoutMs + GRACE_MS from now, or deadlineMs from now if that is sooner.
   */
  async request(request, { timeoutMs, deadlineMs = Infinity, functions }) {
    const killAfterMs = Math.min(timeoutMs + GRACE_MS, deadlineMs);
    if (!(await this.ready)) return this.#verdict();
    if (this.dead) return this.#verdict();
    const start = this.rss();
    // A request that was still filling memory when its time ran out is the memory problem it is.
    const grewFast = () => this.rss() - start > this.memoryBytes / 2;
    const answer = this.#next();
    const watchdog = setTimeout(() => this.kill(grewFast() ? { kind: 'memory', message: 'memory limit' } : { kind: 'timeout', message: 'timeout' }), Math.max(0, killAfterMs));
    this.#send({ request: encodeRequest(request), timeoutMs: Math.max(1, Math.min(timeoutMs, killAfterMs)) });
    const msg = await answer;
    clearTimeout(watchdog);
    if (!msg || typeof msg.response !== 'string') return this.#verdict();
    const res = decodeResponse(msg.response, { functions });
    // A realm interrupted inside an interpreter (the Python track) is not used again: the next
    // request gets a new child, which loads the submission again.
    if (!res.ok && res.kind === 'timeout' && !this.reusable) this.kill({ kind: 'timeout', message: 'timeout' });
    if (!res.ok && res.kind === 'timeout' && grewFast()) return { ...res, kind: 'memory', message: 'memory limit' };
    return res;
  }

  #verdict() {
    const v = this.died ?? this.verdict ?? { kind: 'crash', message: 'the sandbox process stopped' };
    return { ok: false, kind: v.kind, message: v.message, reason: v.reason, detail: v.detail, output: '', line: null, column: null };
  }
}

// The first frame of a track's children (its guest bundle, WebAssembly and realm), encoded once.
const frames = new Map();
async function guestOf(track) {
  if (!frames.has(track)) {
    frames.set(track, guestBundle(track).then(({ script, wasm }) => ({
      realm: track.realm,
      frame: Buffer.from(JSON.stringify({ guest: script, wasm: wasm ? wasm.toString('base64') : null, realm: { strings: track.realm.strings, wasm: track.realm.wasm } }), 'utf8'),
    })));
  }
  return frames.get(track);
}

export class NodeSandbox {
  /**
   * Use `await NodeSandbox.create({ track })`: the child starts at once, while the caller loads the
   * rest. track: grader/tracks/index.mjs's entry (default JavaScript); the host knows of it only the
   * guest bundle and what the realm must allow.
   */
  static async create({ track = DEFAULT_TRACK, ...options } = {}) {
    const sandbox = new NodeSandbox(options, await guestOf(track));
    sandbox.#spawn();
    return sandbox;
  }

  constructor({ memoryMb = LIMITS.memoryMb } = {}, guest) {
    this.memoryMb = memoryMb;
    this.guest = guest;
    this.child = null;
    this.loaded = null; // { source, functions, aliases, timeoutMs } to replay into a new child
    this.processes = 0; // children started (1 unless one was killed or died)
    this.peakRss = 0; // the largest resident memory a child reached (bytes, from /proc)
  }

  #spawn() {
    this.child = new Child({ guest: this.guest, memoryMb: this.memoryMb });
    this.processes++;
  }

  /** The live child, a new one (loaded again) if the last one is gone; or the failed reload's answer. */
  async #live(deadlineMs) {
    if (this.child && !this.child.dead && !this.child.verdict) return null;
    if (this.child) { this.peakRss = Math.max(this.peakRss, this.child.peak); await this.child.gone; }
    this.#spawn();
    if (!this.loaded) return null;
    const { timeoutMs, ...load } = this.loaded;
    const res = await this.child.request({ op: 'load', ...load }, { timeoutMs, deadlineMs, functions: load.functions });
    if (res.ok) return null;
    return { ...res, message: `the submission could not be loaded again: ${res.message}` };
  }

  async load(source, { functions = [], aliases = {}, timeoutMs = 2000, deadlineMs } = {}) {
    if (this.loaded) { this.child?.kill({ kind: 'crash', message: 'replaced' }); } // a new load gets a fresh realm
    this.loaded = null;
    await this.#live();
    this.loaded = { source, functions, aliases, timeoutMs };
    return this.child.request({ op: 'load', source, functions, aliases }, { timeoutMs, deadlineMs, functions });
  }

  async call(name, args, { timeoutMs = 1000, deadlineMs, measure } = {}) {
    const failed = await this.#live(deadlineMs);
    if (failed) return failed;
    return this.child.request({ op: 'call', name, args, ...(measure && { measure }) }, { timeoutMs, deadlineMs });
  }

  async close() {
    if (!this.child) return;
    this.peakRss = Math.max(this.peakRss, this.child.peak);
    this.child.kill({ kind: 'crash', message: 'closed' });
    this.child.proc.stdin.end();
    await this.child.gone;
  }
}
