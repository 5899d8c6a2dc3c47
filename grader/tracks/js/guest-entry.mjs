// Entry of the JavaScript track's guest bundle, evaluated inside the Node host's `vm` context
// (grader/hosts/node/child.cjs). The host starts it once with __attnlab_start() and then reaches it only
// through the string-in, string-out `__attnlab_handle`.
import { installGuest } from './guest.mjs';

let started = false;
Object.defineProperty(globalThis, '__attnlab_start', {
  value: () => {
    if (started) return;
    started = true;
    const handle = installGuest(globalThis);
    Object.defineProperty(globalThis, '__attnlab_handle', { value: handle, writable: false, configurable: false });
  },
});
