// The Node host's child process: one sandbox realm for one submission, started by ./sandbox.mjs with
// an empty environment, a capped V8 heap and the permission model (it may read this file and nothing
// else; no writes, no child processes, no worker threads). The realm is a `vm` context whose global
// has a null prototype (with `{}`, `globalThis.constructor.constructor('return process')()` would
// reach this process), with the code generation the track asks for (JavaScript: strings, no
// WebAssembly; Python: WebAssembly, no strings); the track's guest bundle (grader/tracks/<name>/) is
// evaluated in it first and started with the WebAssembly bytes the parent read for it, if any.
//
// Frames both ways: [u32 little-endian byte length][UTF-8 JSON].
//   in (stdin):  { guest, wasm (base64 or null), realm: { strings, wasm } } once,
//                then { request, wallMs } per request (request: JSON text)
//   out (fd 3):  { ready: true } (or { ready: false, error }) once, then { response } per request (response: JSON text)
// One request at a time. Its limit is CPU time of this process's main thread, which the parent
// watches (/proc/<pid>/task/<pid>/stat): past it the parent sends SIGINT and V8 interrupts the script
// (`breakOnSigint`); `wallMs` (vm's `timeout`) is only a backstop against a stalled process. Whatever
// V8 cannot interrupt (a long native loop, a fatal error) is the parent's to end by killing this process.
import vm from 'node:vm';
import v8 from 'node:v8';
import { Socket } from 'node:net';

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
    const response = vm.runInContext(`__attnlab_handle(${JSON.stringify(request)})`, context, { timeout: wallMs, breakOnSigint: true });
    if (typeof response === 'string') return response;
    return JSON.stringify({ ok: false, kind: 'error', message: 'the sandbox returned a non-string', output: '' });
  } catch (e) {
    const timedOut = Boolean(e && INTERRUPTED.has(e.code));
    return JSON.stringify({ ok: false, kind: timedOut ? 'timeout' : 'error', message: timedOut ? 'timeout' : 'the sandbox failed', output: '' });
  }
};

const START_MS = 10000;
const onFrame = (msg) => {
  if (context === null) {
    const realm = msg.realm ?? {};
    // A realm that runs an interpreter compiled to WebAssembly (the Python track): baseline code only.
    // A grading run is too short for V8's optimizing tier to pay off, and its background compiles
    // compete with the interpreter's start (cold CLI grade of the first pack's solution.py, 8 interleaved runs
    // on two loaded cores: median 393 ms with tiering, 340 ms without).
    if (realm.wasm === true) v8.setFlagsFromString('--liftoff-only');
    context = vm.createContext(Object.create(null), { codeGeneration: { strings: realm.strings === true, wasm: realm.wasm === true }, microtaskMode: 'afterEvaluate' });
    vm.runInContext(msg.guest, context, { filename: 'attnlab-guest.js' });
    if (msg.wasm) { // bytes made in the realm, so no object of this one is handed in
      const bytes = Buffer.from(msg.wasm, 'base64');
      context.__attnlab_wasm = vm.runInContext(`new Uint8Array(${bytes.length})`, context);
      context.__attnlab_wasm.set(bytes);
    }
    // Its microtasks (an interpreter's start) run before this returns (microtaskMode 'afterEvaluate').
    vm.runInContext(msg.wasm ? '__attnlab_start(globalThis.__attnlab_wasm)' : '__attnlab_start()', context, { timeout: START_MS });
    if (msg.wasm) delete context.__attnlab_wasm;
    if (vm.runInContext('typeof __attnlab_handle', context) === 'function') return send({ ready: true });
    return send({ ready: false, error: String(vm.runInContext("typeof __attnlab_failed === 'string' ? __attnlab_failed : 'the guest did not start'", context)) });
  }
  send({ response: handle(msg.request, msg.wallMs) });
};

let buffered = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
  while (buffered.length >= 4) {
    const n = buffered.readUInt32LE(0);
    if (buffered.length < 4 + n) break;
    const body = buffered.subarray(4, 4 + n).toString('utf8');
    buffered = buffered.subarray(4 + n);
    onFrame(JSON.parse(body));
  }
});
process.stdin.on('end', () => process.exit(0));
