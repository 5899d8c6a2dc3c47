// The sandbox Web Worker: one realm per loaded submission. It installs the shared guest
// (grader/sandbox/guest.mjs: np, print, console, lockdown) and relays JSON strings to and from the
// page. The page's host (host.js) owns time limits: it terminates this worker when a request overruns.
import { installGuest } from '../../../grader/sandbox/guest.mjs';

export const MEMORY_MB = 512; // as the Node host's default (grader/node/sandbox.mjs)

// Capture the channel before hiding it: student code must not post fake answers or reach the network.
const post = self.postMessage.bind(self);
let current = null; // id of the request being handled

// Memory: typed arrays live outside the JS heap, and a loop that keeps allocating can take gigabytes
// before the time limit strikes. Count the bytes each request allocates; past the budget, tell the
// host (which terminates this worker at once) and unwind.
let allocated = 0;
let warned = false;
const charge = (bytes) => {
  allocated += bytes;
  // Half the budget: tell the host, so that a request whose time runs out while it is still filling
  // memory (slow on a loaded machine) is reported as the memory problem it is, as the Node host does.
  if (!warned && allocated > (MEMORY_MB * 2 ** 20) / 2) { warned = true; post({ id: current, memoryHalf: true }); }
  if (allocated > MEMORY_MB * 2 ** 20) {
    post({ id: current, memory: true });
    throw new RangeError(`memory limit of ${MEMORY_MB} MiB reached`);
  }
};
for (const name of ['Float64Array', 'Float32Array', 'Int32Array', 'Uint32Array', 'Int16Array',
  'Uint16Array', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'BigInt64Array', 'BigUint64Array']) {
  const Base = self[name];
  // Same name and instanceof behaviour; np and student code find the counted class on the global.
  self[name] = { [name]: class extends Base { constructor(...a) { super(...a); charge(this.byteLength); } } }[name];
}

self.onmessage = (e) => {
  const { id, request } = e.data;
  current = id;
  allocated = 0;
  warned = false;
  post({ id, response: handle(request) });
};
const handle = installGuest(self, {
  hide: [
    'postMessage', 'onmessage', 'addEventListener', 'removeEventListener', 'dispatchEvent', 'close',
    'importScripts', 'fetch', 'XMLHttpRequest', 'WebSocket', 'WebTransport', 'EventSource', 'indexedDB',
    'caches', 'Worker', 'SharedWorker', 'BroadcastChannel', 'MessageChannel', 'navigator', 'location',
    'DedicatedWorkerGlobalScope', 'WorkerGlobalScope', 'EventTarget', 'WebAssembly', 'Request', 'Response',
  ],
});
post({ ready: true });
