// Worker thread hosting one sandbox realm: a fresh `vm` context with the guest bundle in it.
// Messages in:  { id, request (JSON string), timeoutMs }. Messages out: { id, response (JSON string) }.
// A request that runs past timeoutMs is interrupted by V8 (vm's `timeout`); the parent also keeps a
// watchdog that terminates this thread if it stops answering (for example in a native call).
import vm from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';

// A promise the student left rejected (import('fs'), Promise.reject()) must not kill this thread.
process.on('unhandledRejection', () => {});

// A null-prototype sandbox: with `{}`, globalThis.constructor would be this thread's Object, and its
// Function constructor would hand student code the real `process`.
const context = vm.createContext(Object.create(null), { codeGeneration: { strings: true, wasm: false }, microtaskMode: 'afterEvaluate' });
vm.runInContext(workerData.guest, context, { filename: 'attnlab-guest.js' });

parentPort.on('message', ({ id, request, timeoutMs }) => {
  let response;
  try {
    response = vm.runInContext(`__attnlab_handle(${JSON.stringify(request)})`, context, { timeout: timeoutMs });
    if (typeof response !== 'string') throw new Error('the sandbox returned a non-string');
  } catch (e) {
    const timedOut = e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
    response = JSON.stringify({ ok: false, kind: timedOut ? 'timeout' : 'error', message: timedOut ? 'timeout' : String(e && e.message), output: '' });
  }
  parentPort.postMessage({ id, response });
});
