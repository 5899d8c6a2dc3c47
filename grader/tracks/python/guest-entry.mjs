// Entry of the Python track's guest bundle, evaluated inside the Node host's `vm` context
// (grader/hosts/node/child.cjs). The host starts it once with __attnlab_start(wasmBytes) (a Uint8Array made
// in this realm); the interpreter starts within the microtasks of that call, after which
// `__attnlab_handle` exists (or `__attnlab_failed` says why not).
import { installPythonGuest } from './guest.mjs';

let started = false;
Object.defineProperty(globalThis, '__attnlab_start', {
  value: (wasm, mark) => {
    if (started) return;
    started = true;
    installPythonGuest(globalThis, { wasm, mark }).then(
      (handle) => Object.defineProperty(globalThis, '__attnlab_handle', { value: handle }),
      (e) => Object.defineProperty(globalThis, '__attnlab_failed', { value: String(e && e.message) }),
    );
  },
});
