// The Node host's child process: one sandbox realm for one submission, started by ./sandbox.mjs with
// an empty environment, a capped V8 heap and the permission model (it may read this file and nothing
// else; no writes, no child processes, no worker threads). The realm is a `vm` context whose global
// has a null prototype (with `{}`, `globalThis.constructor.constructor('return process')()` would
// reach this process), with the code generation the track asks for (JavaScript: strings, no
// WebAssembly; Python: WebAssembly, no strings); the track's guest bundle (grader/tracks/<name>/) is
// evaluated in it first and started with the WebAssembly bytes the parent read for it, if any.
//
// Frames both ways: [u32 little-endian byte length][body]; every body is UTF-8 JSON but the first in.
//   in (stdin):  the guest once, as bytes: [u32 length of H][H: JSON { realm: { strings, wasm }, guest, wasm }]
//                [the guest bundle, `guest` bytes of UTF-8][its WebAssembly, `wasm` bytes (0: none)],
//                then { request, wallMs } per request (request: JSON text)
//   out (fd 3):  { ready: true, phases } (or { ready: false, error }) once, then { response } per request (response: JSON text)
//   phases: [name, ms since this process started, CPU ms of this process so far] of the start's steps,
//   for tools/sandbox-cost --breakdown
// One request at a time. Its limit is CPU time of this process's main thread, which the parent
// watches (/proc/<pid>/task/<pid>/stat): past it the parent sends SIGINT and V8 interrupts the script
// (`breakOnSigint`); `wallMs` (vm's `timeout`) is only a backstop against a stalled process. Whatever
// V8 cannot interrupt (a long native loop, a fatal error) is the parent's to end by killing this process.
// CommonJS, not an ES module: Node starts a CommonJS entry without its ES module loader, ~10 ms less CPU
// per child (perf stat -r 25 of this file alone under the child's flags: 109–115 against 122–125 ms).
'use strict';
const vm = require('node:vm');
const v8 = require('node:v8');
const { Socket } = require('node:net');

// The start's steps, on this process's clock (0 = its start) and its CPU time (all its threads, which
// a loaded machine does not stretch as it does the wall clock); a guest may add its own (mark).
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const phases = [['node started', performance.now(), cpuMs()]];
const mark = (name) => {
  if (phases.length < 16) phases.push([String(name), performance.now(), cpuMs()]);
};

// Nothing of the student's runs outside a request (the guest removes FinalizationRegistry and the
// realm has no timers), so an exception here is the host's own fault: end, and let the parent say so.
process.on('uncaughtException', () => process.exit(70));
// SIGINT is the parent's "CPU time is up": during a script V8 turns it into an interruption
// (breakOnSigint disables this handler meanwhile); one that arrives just after the script ended is ignored.
process.on('SIGINT', () => {});
// A promise the student left rejected (Promise.reject(), import('fs')) must not end the process.
process.on('unhandledRejection', () => {});

const out = new Socket({ fd: 3, readable: false });
const send = (msg) => {
  const body = Buffer.from(JSON.stringify(msg), 'utf8');
  const head = Buffer.alloc(4);
  head.writeUInt32LE(body.length);
  out.write(Buffer.concat([head, body]));
};

let context = null;
const INTERRUPTED = new Set(['ERR_SCRIPT_EXECUTION_TIMEOUT', 'ERR_SCRIPT_EXECUTION_INTERRUPTED']);
const handle = (request, wallMs) => {
  try {
    const response = vm.runInContext(`__attnlab_handle(${JSON.stringify(request)})`, context, {
      timeout: wallMs,
      breakOnSigint: true,
    });
    if (typeof response === 'string') return response;
    return JSON.stringify({ ok: false, kind: 'error', message: 'the sandbox returned a non-string', output: '' });
  } catch (e) {
    const timedOut = Boolean(e && INTERRUPTED.has(e.code));
    return JSON.stringify({
      ok: false,
      kind: timedOut ? 'timeout' : 'error',
      message: timedOut ? 'timeout' : 'the sandbox failed',
      output: '',
    });
  }
};

const START_MS = 10000;
const onFrame = (body) => {
  if (context === null) {
    mark('guest frame read');
    const h = body.readUInt32LE(0),
      head = JSON.parse(body.toString('utf8', 4, 4 + h));
    const realm = head.realm ?? {};
    const guest = body.toString('utf8', 4 + h, 4 + h + head.guest),
      wasm = body.subarray(4 + h + head.guest, 4 + h + head.guest + head.wasm);
    // A realm that runs an interpreter compiled to WebAssembly (the Python track): baseline code only.
    // A grading run is too short for V8's optimizing tier to pay off, and its background compiles
    // compete with the interpreter's start (cold CLI grade of the first pack's solution.py, 8 interleaved runs
    // on two loaded cores: median 393 ms with tiering, 340 ms without).
    if (realm.wasm === true) v8.setFlagsFromString('--liftoff-only');
    context = vm.createContext(Object.create(null), {
      codeGeneration: { strings: realm.strings === true, wasm: realm.wasm === true },
      microtaskMode: 'afterEvaluate',
    });
    vm.runInContext(guest, context, { filename: 'attnlab-guest.js' });
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
    if (vm.runInContext('typeof __attnlab_handle', context) === 'function') return send({ ready: true, phases });
    return send({
      ready: false,
      error: String(
        vm.runInContext("typeof __attnlab_failed === 'string' ? __attnlab_failed : 'the guest did not start'", context),
      ),
    });
  }
  const msg = JSON.parse(body.toString('utf8'));
  send({ response: handle(msg.request, msg.wallMs) });
};

// Chunks are joined once a frame is complete (the first, ~0.8 MB, comes in many).
const chunks = [];
let have = 0;
process.stdin.on('data', (chunk) => {
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
});
process.stdin.on('end', () => process.exit(0));
