// Entry of the guest bundle evaluated inside a Node `vm` context (see grader/node/worker.mjs).
// The host reaches the guest only through the string-in, string-out `__attnlab_handle`.
import { installGuest } from './guest.mjs';

const handle = installGuest(globalThis);
Object.defineProperty(globalThis, '__attnlab_handle', { value: handle, writable: false, configurable: false });
