// The Node host's child process: one sandbox realm for one submission, started by ./sandbox.mjs with
// an empty environment, a capped V8 heap and the permission model (it may read this file and the
// guests' folder, grader/dist/guest, and nothing else; no writes, no child processes, no worker
// threads). The realm is a `vm` context whose global has a null prototype (with `{}`,
// `globalThis.constructor.constructor('return process')()` would reach this process), with the code
// generation the track asks for (JavaScript: strings, no WebAssembly; Python: WebAssembly, no
// strings); the track's guest bundle (grader/tracks/<name>/) is evaluated in it first and started with
// its WebAssembly's bytes, if any. This process reads both from the files the parent names
// (./guest-bundle.mjs), as soon as it is told which: the parent need not read them, nor pass ~1 MB
// through a pipe, and a child started early (the CLI's) does not wait for the parent's own start to be
// sent them.
//
// Frames both ways: [u32 little-endian byte length][body]; every body is UTF-8 JSON.
//   in (stdin):  the guest once: { realm: { strings, wasm }, guest: F, wasm: F | null, cache?: F, makeCache?: true,
//                warm?: { source, release } }, F = { file, size } as the parent saw the file (one of another size
//                now is a later build's: not used); cache: V8's code cache of the bundle to read, makeCache: make
//                one (./code-cache.mjs); warm: the track's warm-up program (see warmUp below);
//                then { request } per request (request: JSON text)
//   out (fd 3):  { ready: true, phases, cacheRejected?, cache? } (or { ready: false, error }) once, then
//                { response } per request (response: JSON text); cacheRejected: V8 did not take the cache it
//                was given; cache: the one asked for (base64), made before any request
//   phases: [name, ms since this process started, CPU ms of this process so far] of the start's steps,
//   for tools/sandbox-cost --breakdown
// One request at a time. The guest bounds it by its work count; the parent watches this process's CPU
// time and wall clock as the backstop and kills it past either (sandbox.mjs). A request runs with no
// watchdog of vm's own: `timeout` and `breakOnSigint` each start and join a thread per call (~0.1 ms
// of CPU each, ~70 calls a grade: `perf stat` of grade-batch on 40 submissions of the first pack, 4
// alternated rounds, 395 → 382 CPU-ms per submission without them).
// CommonJS, not an ES module: Node starts a CommonJS entry without its ES module loader, ~10 ms less CPU
// per child (perf stat -r 25 of this file alone under the child's flags: 109–115 against 122–125 ms).
// Nor does a spawned child load Node's streams (process.stdin, net.Socket: 13–27 ms of CPU at its start,
// perf stat -r 30 of the requires alone): its frames are read from fd 0 by fs.read and written to fd 3
// by fs.writeSync (both blocking pipes, as the parent's spawn leaves them). A fork server (argument
// `server`, ./zygote.mjs) and its copies use streams, as before: fs.read waits in a thread of libuv's
// pool, which a fork would not copy, and a copy's channel is non-blocking (./zygote.cc).
'use strict';
const vm = require('node:vm');
const fs = require('node:fs');
const SERVER = process.argv[2] === 'server';

// The start's steps, on this process's clock (0 = its start) and its CPU time (all its threads, which
// a loaded machine does not stretch as it does the wall clock); a guest may add its own (mark).
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const sinceStart = () => process.uptime() * 1000;
const phases = [['node started', sinceStart(), cpuMs()]];
const mark = (name) => {
  if (phases.length < 16) phases.push([String(name), sinceStart(), cpuMs()]);
};

// Nothing of the student's runs outside a request (the guest removes FinalizationRegistry and the
// realm has no timers), so an exception here is the host's own fault: end, and let the parent say so.
process.on('uncaughtException', () => end(70));
// A terminal's Ctrl+C reaches the whole process group: the parent decides what ends (a batch keeps
// what it graded), so this process ignores it.
process.on('SIGINT', () => {});
// A promise the student left rejected (Promise.reject(), import('fs')) must not end the process.
process.on('unhandledRejection', () => {});

// Frames out on fd 3: a fork server's through a stream (queued), a spawned child's whole before send returns.
const out = SERVER ? new (require('node:net').Socket)({ fd: 3, readable: false }) : null;
const send = (msg) => {
  const body = Buffer.from(JSON.stringify(msg), 'utf8');
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32LE(body.length, 0);
  body.copy(frame, 4);
  if (out) return void out.write(frame);
  for (let at = 0; at < frame.length;) {
    try {
      at += fs.writeSync(3, frame, at);
    } catch (e) {
      if (e.code !== 'EINTR') throw e; // the parent is gone (EPIPE): uncaughtException ends this process
    }
  }
};

let context = null;
const handle = (request) => {
  try {
    const response = vm.runInContext(`__attnlab_handle(${JSON.stringify(request)})`, context);
    if (typeof response === 'string') return response;
    return JSON.stringify({ ok: false, kind: 'error', message: 'the sandbox returned a non-string', output: '' });
  } catch {
    return JSON.stringify({ ok: false, kind: 'error', message: 'the sandbox failed', output: '' });
  }
};

/** The bytes of the file `f` names, if it can be read and has the size the parent saw; else null. */
const read = (f) => {
  let fd;
  try {
    fd = fs.openSync(f.file, 'r');
    return fs.fstatSync(fd).size === f.size ? fs.readFileSync(fd) : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
};

// The fork server (./zygote.mjs): a child whose first frame names the addon is, once ready, not given
// requests but asked to fork ({ fork: k }): the copy, on slot k's fds, is one submission's child, ready
// at once; this process answers { forked: k, pid } (or { forked: k, error }) and, as its copies end,
// { exited: [pid, status, …] }.
let zygote = null; // { addon, first, open: Set of slots not forked yet }
let forked = false; // this process is a fork server's copy
const end = (code) => (zygote ? zygote.addon.exit(code) : process.exit(code)); // a server's threads are parked

/**
 * Slot k's fork. The server answers; the copy drops what it had read of the server's frames (fd 0 is
 * its own channel now) and says it is ready. A fork waits until this process has no reply of its own
 * still queued to write, which the copy would otherwise send on its channel as its own.
 */
const forks = [];
const fork = (k) => {
  forks.push(k);
  if (forks.length === 1) forkQueued();
};
const forkQueued = () => {
  while (forks.length && !forked) {
    if (out.writableLength > 0) return out.once('drain', forkQueued);
    const k = forks.shift();
    if (!zygote.open.has(k)) {
      send({ forked: k, error: 'no such slot' });
      continue;
    }
    const fds = (j) => [zygote.first + 2 * j, zygote.first + 2 * j + 1];
    const pid = zygote.addon.fork(...fds(k), [...zygote.open].flatMap(fds));
    zygote.open.delete(k);
    if (pid < 0) send({ forked: k, error: `fork failed (errno ${-pid})` });
    else if (pid > 0) send({ forked: k, pid });
    else {
      forked = true;
      forks.length = 0;
      chunks.length = 0;
      have = 0;
      phases.length = 0;
      mark('forked');
      send({ ready: true, phases });
    }
  }
};

const START_MS = 10000;
const READ_BYTES = 1 << 16;

// The track's warm-up program (its description's warmUp: the lesson's example through np, no globals
// left), loaded into the realm as a request of its own whose answer nobody reads, so that the first
// real load and calls do not run np, the guest and (Python) the interpreter's functions cold.
// A fork server loads it before it says it is ready (every copy starts warm); a spawned child once it
// has waited WARM_AFTER_MS after its ready frame with no request come, so that a parent already waiting
// for it (the Python CLI's, whose child's start is the longer path) is answered first; after that a
// request waits for the warm-up to end (tens of ms at most, billed to it: the work count, which
// decides, does not see it). Never once a request has come: the realm is the submission's from then on.
const WARM_AFTER_MS = 3;
let warm = null; // { source, release } until it has run or a request has come
const warmUp = () => {
  const w = warm;
  warm = null;
  if (!w || typeof w.source !== 'string') return;
  handle(JSON.stringify({ op: 'load', source: w.source, functions: [] }));
  if (w.release === true) handle(JSON.stringify({ op: 'release' }));
  if (zygote) collect();
};
// A fork server collects what the warm-up left before it forks: its copies would otherwise share a young
// generation full of that garbage, which each one then scavenges and copies page by page on its own.
// V8's gc() is asked of a context of its own, made after the flag is set and thrown away: the realm,
// made before, has none.
const collect = () => {
  const v8 = require('node:v8');
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  v8.setFlagsFromString('--no-expose-gc');
  gc();
};
const onFrame = (body) => {
  if (context === null) {
    const head = JSON.parse(body.toString('utf8'));
    if (head.zygote) {
      // before the guest: no realm exists yet when the addon is loaded
      zygote = { addon: require(head.zygote.addon.file), first: head.zygote.first, open: new Set() };
      // no platform thread may wait on its task queue when this process forks (./zygote.cc, park)
      if (zygote.addon.park() < 0)
        return send({ ready: false, error: "the fork server's threads could not be parked" });
      for (let k = 0; k < head.zygote.slots; k++) zygote.open.add(k);
      process.on('SIGCHLD', () => {
        const ended = zygote.addon.reap();
        if (ended.length && !forked) send({ exited: ended });
      });
    }
    const realm = head.realm ?? {};
    const script = read(head.guest),
      wasm = head.wasm ? read(head.wasm) : Buffer.alloc(0);
    mark('guest files read');
    if (!script || !wasm)
      return send({ ready: false, error: 'the guest could not be read, or was rebuilt while this child started' });
    const guest = script.toString('utf8');
    context = vm.createContext(Object.create(null), {
      codeGeneration: { strings: realm.strings === true, wasm: realm.wasm === true },
      microtaskMode: 'afterEvaluate',
    });
    // V8's code cache of this bundle, if the parent has one (./code-cache.mjs; a fork server does not read one)
    const cachedData = (!zygote && head.cache && read(head.cache)) || undefined;
    const compiled = new vm.Script(guest, { filename: 'attnlab-guest.js', cachedData });
    compiled.runInContext(context);
    mark('guest bundle evaluated');
    if (wasm.length) {
      // bytes made in the realm, so no object of this one is handed in
      context.__attnlab_wasm = vm.runInContext(`new Uint8Array(${wasm.length})`, context);
      context.__attnlab_wasm.set(wasm);
    }
    // Its microtasks (an interpreter's start) run before this returns (microtaskMode 'afterEvaluate').
    // `mark` goes in only where no student JavaScript runs (a realm for an interpreter): the guest
    // keeps it in a closure that Python cannot reach.
    if (realm.wasm === true) context.__attnlab_mark = mark;
    vm.runInContext(
      wasm.length ? '__attnlab_start(globalThis.__attnlab_wasm, globalThis.__attnlab_mark)' : '__attnlab_start()',
      context,
      { timeout: START_MS },
    );
    if (wasm.length) delete context.__attnlab_wasm;
    delete context.__attnlab_mark;
    mark('ready');
    if (vm.runInContext('typeof __attnlab_handle', context) === 'function') {
      // Asked for the code cache: made now, with what the start compiled, before any request.
      const made = head.makeCache === true && !zygote ? { cache: compiled.createCachedData().toString('base64') } : {};
      const cache = cachedData ? { cacheRejected: compiled.cachedDataRejected === true } : {};
      warm = head.warm ?? null;
      if (zygote) warmUp();
      send({ ready: true, phases, ...cache, ...made });
      if (warm) setTimeout(warmUp, WARM_AFTER_MS);
      return;
    }
    return send({
      ready: false,
      error: String(
        vm.runInContext("typeof __attnlab_failed === 'string' ? __attnlab_failed : 'the guest did not start'", context),
      ),
    });
  }
  const msg = JSON.parse(body.toString('utf8'));
  if (zygote && !forked) return fork(msg.fork);
  warm = null;
  send({ response: handle(msg.request) });
};

// Chunks are joined once a frame is complete (a request's may come in several).
const chunks = [];
let have = 0;
const onChunk = (chunk) => {
  chunks.push(chunk);
  have += chunk.length;
  while (have >= 4) {
    if (chunks[0].length < 4) chunks.splice(0, chunks.length, Buffer.concat(chunks));
    const n = chunks[0].readUInt32LE(0);
    if (have < 4 + n) break;
    const all = chunks.length > 1 ? Buffer.concat(chunks) : chunks[0];
    chunks.length = 0;
    if (all.length > 4 + n) chunks.push(all.subarray(4 + n));
    have = all.length - 4 - n;
    onFrame(all.subarray(4, 4 + n));
  }
};
if (SERVER) {
  process.stdin.on('data', onChunk);
  process.stdin.on('end', () => end(0));
} else {
  // One read at a time, each into a buffer of its own (a frame may keep a view of it until it is whole).
  const next = () =>
    fs.read(0, Buffer.allocUnsafe(READ_BYTES), 0, READ_BYTES, null, (e, n, buf) => {
      if (e && (e.code === 'EAGAIN' || e.code === 'EINTR')) return setTimeout(next, 1);
      if (e || n === 0) return end(0); // the parent closed its end (or is gone)
      onChunk(buf.subarray(0, n));
      next();
    });
  next();
}
