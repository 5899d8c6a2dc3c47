// What every sandbox Web Worker shares, whatever its track: one realm per loaded submission; the page's
// host (host.js) owns time limits and terminates the worker when a request overruns. The worker's entry,
// the shell ./worker.js, calls startWorker(install) with its track's guest (the track folder's
// worker.js); install({ config, hide, letGo }) → handle (or a promise of it), run once the page's first message
// (the config: the memory mode, and for a track with WebAssembly its compiled module) has arrived.
//
// Each worker is served with its own Content-Security-Policy (web/csp.mjs: no network, no script URLs;
// JavaScript: eval only, Python: WebAssembly only), and, in case a host serves it without one,
// everything that reaches the network, schedules code for later or talks to other contexts is removed
// from the whole prototype chain of the global before student code runs.
import { LIMITS } from '../../limits.mjs';
import { countingConstructor, TYPED_ARRAYS } from '../../counting.mjs';

const MEMORY_MB = LIMITS.memoryMb;

// Captured before they are hidden: the channel to the page, and a way to wait for one task so that
// the microtasks a call left behind run before its answer is sent (as Node's vm runs them inside the call).
const post = self.postMessage.bind(self);
const channel = new MessageChannel();
const nextTask = () =>
  new Promise((resolve) => {
    channel.port1.onmessage = resolve;
    channel.port2.postMessage(0);
  });

// Memory: typed arrays live outside the JS heap, and a loop that keeps allocating can take gigabytes
// before the time limit strikes. Every ArrayBuffer and typed array made through the realm's
// constructors (np's and the student's) is counted while it is alive (until it is collected); past the
// budget the host is told (it terminates this worker at once) and the request unwinds.
// `memory: 'run'` counts over the worker's whole life, as the Node host counts a child's resident
// memory; 'request' starts each request from zero (the Scale panel, which times growing sizes).
let mode = 'run';
let live = 0;
let current = null; // id of the request being handled
let warned = false;
let atStart = 0; // bytes alive when the current request started
const collected = new FinalizationRegistry((bytes) => {
  live -= bytes;
});
const counted = new WeakMap(); // a counted object → its bytes, until it is collected or let go
const charge = (obj, bytes) => {
  live += bytes;
  collected.register(obj, bytes, obj);
  counted.set(obj, (counted.get(obj) ?? 0) + bytes); // a plain array is charged again as it grows
  // Grown by an eighth of the budget during this request: tell the host, so that a request whose time
  // runs out while it is still taking memory says so (`grew`), as the Node host's answers do, and a
  // confirmed overrun that grew is graded as the memory problem it is.
  if (!warned && live - atStart > (MEMORY_MB * 2 ** 20) / 8) {
    warned = true;
    post({ id: current, grew: true });
  }
  if (live > MEMORY_MB * 2 ** 20) {
    post({ id: current, memory: true });
    throw new RangeError(`memory limit of ${MEMORY_MB} MiB reached`);
  }
};

/**
 * A guest lets go of a counted array it alone held (the Python bridge freeing a handle during a call):
 * it stops counting now. Its collection would say so too, but a FinalizationRegistry callback runs only
 * between tasks, never inside the one synchronous call that makes and drops thousands of arrays (the
 * Node host reads the child's resident memory, which the collector lowers during the call).
 */
const letGo = (obj) => {
  const bytes = counted.get(obj);
  if (bytes === undefined) return;
  counted.delete(obj);
  collected.unregister(obj);
  live -= bytes;
};

// Counting constructors in place of the built-in ones (countingConstructor: instanceof, methods and
// species work as before, no path back to the uncounted originals).
const BaseArrayBuffer = self.ArrayBuffer;
self.ArrayBuffer = /** @type {any} */ (countingConstructor(BaseArrayBuffer, (obj) => charge(obj, obj.byteLength)));
for (const name of TYPED_ARRAYS) {
  // A view over an existing buffer allocates nothing (the buffer was counted when it was made).
  self[name] = countingConstructor(self[name], (obj, args) => {
    if (!(args[0] instanceof BaseArrayBuffer)) charge(obj, obj.byteLength);
  });
}

// Plain arrays. V8 keeps their elements in the JS heap, which a worker cannot measure, and a worker
// whose heap reaches V8's limit takes the whole tab down (Debian's Chromium 156: the renderer crashes,
// the page with it), so the ways a loop piles up plain arrays fastest are counted like typed arrays, 8
// bytes an element (a double, or a pointer with room to spare): an array of PLAIN_MIN elements or more
// that fill is asked to fill (charged before it writes) or that Array.from, Array.of, concat, slice,
// map, filter or flat make, and one that push or unshift grows, at every PLAIN_MIN elements it passes.
// An array grown by index assignment alone is not seen (web/README.md: what that leaves). Below
// PLAIN_MIN nothing is counted: the engine's and the guests' own small arrays cost one comparison each.
const PLAIN_MIN = 1024;
const { isArray } = self.Array;
const { apply } = Reflect;
/** Charges what `a` holds beyond what it was charged for already. */
const chargeArray = (a) => {
  const more = a.length * 8 - (counted.get(a) ?? 0);
  if (more > 0) charge(a, more);
};
const AP = self.Array.prototype;
const growing = (name) => {
  const f = AP[name];
  return function () {
    const n = apply(f, this, arguments); // `arguments`, not a rest parameter: no array made per call
    if (n >= PLAIN_MIN && n % PLAIN_MIN < arguments.length && isArray(this)) chargeArray(this);
    return n;
  };
};
const making = (f) =>
  function () {
    const r = apply(f, this, arguments);
    if (isArray(r) && r.length >= PLAIN_MIN) chargeArray(r);
    return r;
  };
const { fill } = AP;
const plain = {
  push: growing('push'),
  unshift: growing('unshift'),
  fill() {
    if (isArray(this) && this.length >= PLAIN_MIN) chargeArray(this);
    return apply(fill, this, arguments);
  },
  ...Object.fromEntries(['concat', 'slice', 'map', 'filter', 'flat'].map((name) => [name, making(AP[name])])),
};
for (const [name, f] of Object.entries(plain))
  Object.defineProperty(AP, name, { value: f, writable: true, enumerable: false, configurable: true });
for (const name of ['from', 'of'])
  Object.defineProperty(self.Array, name, {
    value: making(self.Array[name]),
    writable: true,
    enumerable: false,
    configurable: true,
  });

// The globals hidden from student code (after the guest has captured what it needs).
const HIDE = [
  // the channel and the event plumbing
  'postMessage',
  'onmessage',
  'onmessageerror',
  'onerror',
  'addEventListener',
  'removeEventListener',
  'dispatchEvent',
  'close',
  // the network, and what fetches a URL
  'importScripts',
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebSocketStream',
  'WebTransport',
  'EventSource',
  'Request',
  'Response',
  'Headers',
  'caches',
  'CacheStorage',
  'Cache',
  'fonts',
  'FontFace',
  'FontFaceSet',
  'Worker',
  'SharedWorker',
  'createImageBitmap',
  'OffscreenCanvas',
  // storage and other contexts
  'indexedDB',
  'IDBFactory',
  'BroadcastChannel',
  'MessageChannel',
  'MessagePort',
  'navigator',
  'WorkerNavigator',
  'location',
  'WorkerLocation',
  'Notification',
  'LockManager',
  'StorageManager',
  'FileReaderSync',
  // code that would run after the request
  'setTimeout',
  'setInterval',
  'clearTimeout',
  'clearInterval',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'scheduler',
  'structuredClone',
  'reportError',
  // the global scope's own interfaces
  'DedicatedWorkerGlobalScope',
  'WorkerGlobalScope',
  'EventTarget',
  'self',
];

/**
 * Starts the worker with a track's guest: install({ config, hide, letGo }) → handle(requestJson) →
 * responseJson. `letGo(array)`: the guest no longer holds a counted array (see letGo above).
 */
export function startWorker(install) {
  let handle = null;
  const queue = []; // requests that arrived before the guest was up
  const serve = async ({ id, request }) => {
    current = id;
    if (mode === 'request') live = 0;
    warned = false;
    atStart = live;
    const response = handle(request);
    await nextTask();
    post({ id, response });
  };
  self.onmessage = async (e) => {
    if (e.data.config) {
      mode = e.data.config.memory === 'request' ? 'request' : 'run';
      if (handle) return;
      try {
        handle = await install({ config: e.data.config, hide: HIDE, letGo });
      } catch (err) {
        return post({ failed: String(err && err.message) }); // the host reports a crash
      }
      post({ ready: true });
      for (const m of queue.splice(0)) await serve(m);
      return;
    }
    if (!handle) return void queue.push(e.data);
    await serve(e.data);
  };
}
