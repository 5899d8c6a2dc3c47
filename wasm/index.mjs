// JS loader of the WASM core (wasm/dist/attnlab*.{mjs,wasm}, built by tools/build-wasm).
// Works in Node 20 (reads the .wasm itself and passes wasmBinary) and in browsers / Web Workers
// (Emscripten fetches the .wasm via locateFile, streaming when the server sends application/wasm).
// Every function is synchronous after loadCore() and returns fresh JS-owned copies.
// Contract and types: wasm/README.md, wasm/attnlab.d.ts.
import { fusedApi } from './fused.mjs';

/**
 * The backends of the float32 fast path (the compute path that checks large hidden cases and times the
 * page's Scale panel), 'auto' first: the one table the CLI's --backend, the page's ?backend=,
 * tools/bench and wasm/webgpu/backend.mjs read. `label`: its name on the page's badge.
 */
export const BACKENDS = Object.freeze({
  auto: { label: 'auto' },
  webgpu: { label: 'WebGPU' },
  simd: { label: 'WASM SIMD' },
  wasm: { label: 'WASM' },
});
export const BACKEND_NAMES = Object.freeze(Object.keys(BACKENDS));

/**
 * The builds of the core, fastest first: the one table the loader, the backends, the page, the
 * tests and the benchmark read (name = loadCore's `flavour`). `kernel` is what fusedKernelKind()
 * reports; `threaded` builds (-pthread) run the fused kernel on a pool of Web Workers / worker
 * threads and need SharedArrayBuffer (a cross-origin isolated page, or Node). `label` is the
 * build's name on the page.
 */
export const FLAVOURS = {
  'relaxed-mt': { file: 'attnlab-relaxed-mt', kernel: 'relaxed-simd', threaded: true, label: 'WASM SIMD (relaxed)' },
  relaxed: { file: 'attnlab-relaxed', kernel: 'relaxed-simd', threaded: false, label: 'WASM SIMD (relaxed)' },
  'simd-mt': { file: 'attnlab-simd-mt', kernel: 'simd128', threaded: true, label: 'WASM SIMD' },
  simd: { file: 'attnlab-simd', kernel: 'simd128', threaded: false, label: 'WASM SIMD' },
  baseline: { file: 'attnlab', kernel: 'scalar', threaded: false, label: 'WASM' },
};
// Literal dynamic imports: a bundler (esbuild) includes only what is referenced, Node loads lazily.
// The threaded builds' glue is imported from its URL instead (not bundled): their pthread workers
// import the same file, so the page fetches it once, and only where it can run.
const GLUE = {
  relaxed: () => import('./dist/attnlab-relaxed.mjs'),
  simd: () => import('./dist/attnlab-simd.mjs'),
  baseline: () => import('./dist/attnlab.mjs'),
};

/** At most this many threads by default (more cores than this rarely pay for their Web Workers). */
export const MAX_THREADS = 8;

// Smallest module using a v128 instruction (i8x16.splat + popcnt), as in wasm-feature-detect.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

// f32x4.relaxed_madd of three splats (opcode 0xfd 0x85 0x02): relaxed SIMD as standardised.
const RELAXED_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 28, 1, 26, 0, 67, 0, 0, 0, 0, 253, 19, 67, 0, 0,
  0, 0, 253, 19, 67, 0, 0, 0, 0, 253, 19, 253, 133, 2, 11,
]);

/** True when this runtime's WebAssembly accepts SIMD128 instructions. */
export function simdSupported() {
  return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
}

/** True when it also accepts relaxed SIMD (Chrome/Edge 114+, Node 22+; Node 20 with --experimental-wasm-relaxed-simd). */
export function relaxedSimdSupported() {
  return simdSupported() && WebAssembly.validate(RELAXED_PROBE);
}

/**
 * Node 20 (V8 11.3) has relaxed SIMD behind --experimental-wasm-relaxed-simd; this turns the flag on
 * for the whole process (V8 reads wasm feature flags at each compile, so later loads see it). For
 * tools and tests that want the relaxed build on Node 20; browsers and Node 22+ need nothing.
 * Resolves to relaxedSimdSupported() afterwards (false outside Node when the engine lacks it).
 */
export async function enableRelaxedSimd() {
  if (relaxedSimdSupported() || !isNode || !simdSupported()) return relaxedSimdSupported();
  const v8 = await nodeImport('node:v8');
  v8.setFlagsFromString('--experimental-wasm-relaxed-simd');
  return relaxedSimdSupported();
}

/**
 * True when the threaded builds can run here: shared WebAssembly memory (SharedArrayBuffer) and
 * threads to run on: in a page or worker only when it is cross-origin isolated (COOP same-origin +
 * COEP require-corp; tools/serve sends both), in Node when worker_threads exists (Node 20.16+:
 * the glue reaches it through process.getBuiltinModule).
 */
export function threadsSupported() {
  if (typeof SharedArrayBuffer !== 'function' || typeof WebAssembly !== 'object') return false;
  if (isNode) {
    if (typeof process.getBuiltinModule !== 'function' || !process.getBuiltinModule('worker_threads')?.Worker)
      return false;
  } else if (globalThis.crossOriginIsolated !== true || typeof Worker !== 'function') {
    return false;
  }
  try {
    return new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }).buffer instanceof SharedArrayBuffer;
  } catch {
    return false;
  }
}

/** Cores this runtime reports (navigator.hardwareConcurrency, os.availableParallelism()). */
export function coreCount() {
  const n = isNode
    ? process.getBuiltinModule?.('os')?.availableParallelism?.()
    : globalThis.navigator?.hardwareConcurrency;
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** The threads a threaded build gets by default: the core count, at most MAX_THREADS; 1 without threads. */
export function defaultThreads() {
  return threadsSupported() ? Math.min(coreCount(), MAX_THREADS) : 1;
}

/**
 * The fastest SIMD build this runtime can run with `threads` (default defaultThreads()): the
 * threaded one where threads are supported and more than one is wanted; 'relaxed' before 'simd'.
 */
export function simdFlavour({ threads = defaultThreads() } = {}) {
  const base = relaxedSimdSupported() ? 'relaxed' : 'simd';
  return threads > 1 && threadsSupported() ? `${base}-mt` : base;
}

/** The fastest build this runtime can run: 'relaxed-mt', 'relaxed', 'simd-mt', 'simd' or 'baseline'. */
export function bestFlavour({ threads } = {}) {
  return simdSupported() ? simdFlavour({ threads }) : 'baseline';
}

const isNode =
  typeof process === 'object' &&
  typeof process.versions?.node === 'string' &&
  typeof window === 'undefined' &&
  typeof importScripts === 'undefined';

// What globalThis.Worker was before any threaded glue ran (none in Node).
const ORIGINAL_WORKER = Object.getOwnPropertyDescriptor(globalThis, 'Worker');

// A non-literal specifier keeps bundlers from trying to resolve Node built-ins for the browser.
const nodeImport = (specifier) => import(specifier);

const cache = new Map(); // flavour (+ threads) -> Promise<core>, only for loads with default options
const NAMES = Object.keys(FLAVOURS)
  .map((f) => `'${f}'`)
  .join(', ');

/** The `code` of loadCore's error for a flavour whose build is missing (Node). */
export const NOT_BUILT = 'ATTNLAB_NOT_BUILT';

/**
 * Loads the core. flavour: 'auto' (bestFlavour({ threads })) or a key of FLAVOURS.
 * 'relaxed' is the SIMD build whose fused kernel multiplies and adds with f32x4.relaxed_madd (one
 * fused instruction where the CPU has FMA); everything else in it is the SIMD build. The '-mt'
 * builds are the same with the fused kernel on `threads` threads (default defaultThreads(); their
 * pool is created once, as soon as its Web Workers have loaded: await core.threadsReady;
 * core.setThreads(n) later uses n of them at most).
 * threads: under 'auto', 1 picks a single-threaded build.
 * wasmBinary (ArrayBuffer | Uint8Array of that flavour's .wasm) needs an explicit flavour.
 * locateFile(path, prefix) -> URL of the .wasm (and of a threaded build's .mjs and .worker.js),
 * for browsers when the default (next to this file's dist/ folder) is wrong, e.g. after bundling.
 */
export function loadCore({ flavour = 'auto', threads, wasmBinary, locateFile } = {}) {
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1)) {
    return Promise.reject(new Error(`loadCore: threads must be an integer >= 1, got ${threads}`));
  }
  if (flavour === 'auto') {
    if (wasmBinary) return Promise.reject(new Error(`loadCore: pass a flavour (${NAMES}) together with wasmBinary`));
    flavour = bestFlavour({ threads });
  }
  const build = FLAVOURS[flavour];
  if (!build)
    return Promise.reject(new Error(`loadCore: unknown flavour ${JSON.stringify(flavour)} (use 'auto', ${NAMES})`));
  if (build.kernel !== 'scalar' && !simdSupported()) {
    return Promise.reject(
      new Error(`loadCore: this runtime has no WebAssembly SIMD; use flavour 'baseline' or 'auto'`),
    );
  }
  if (build.kernel === 'relaxed-simd' && !relaxedSimdSupported()) {
    return Promise.reject(
      new Error(
        `loadCore: this runtime has no WebAssembly relaxed SIMD; use flavour '${build.threaded ? 'simd-mt' : 'simd'}' or 'auto'`,
      ),
    );
  }
  if (build.threaded && !threadsSupported()) {
    return Promise.reject(
      new Error(
        `loadCore: the threaded build '${flavour}' needs SharedArrayBuffer and threads (${isNode ? 'Node 20.16+ with worker_threads' : 'a cross-origin isolated page: COOP same-origin + COEP require-corp'}); use '${flavour.slice(0, -3)}' or 'auto'`,
      ),
    );
  }
  threads = build.threaded ? (threads ?? defaultThreads()) : 1;
  const key = `${flavour}:${threads}`;
  const custom = wasmBinary !== undefined || locateFile !== undefined;
  if (!custom && cache.has(key)) return cache.get(key);
  const p = instantiate(flavour, threads, wasmBinary, locateFile);
  if (!custom) {
    cache.set(key, p);
    p.catch(() => cache.delete(key)); // a failed load may be retried
  }
  return p;
}

// A threaded module resolves before its Web Workers have loaded (PTHREAD_POOL_DELAY_LOAD): its pool
// is created once they all have, or never if one cannot load (then the core stays on one thread).
// In Node the polling does not keep the process alive (a CLI that never needed the threads exits
// at once) unless someone waits for it: keepAlive() is called when core.threadsReady is read.
const THREADS_START_MS = 15000;
function startThreads(module, threads) {
  const workers = module.PThread.unusedWorkers.slice(0, threads - 1);
  const t0 = Date.now();
  let timer = null,
    wanted = false;
  const promise = new Promise((resolve) => {
    const poll = () => {
      timer = null;
      if (workers.every((w) => w.loaded)) {
        resolve({ threads: module.fused_start_threads(threads), error: null });
      } else if (Date.now() - t0 > THREADS_START_MS) {
        resolve({ threads: 1, error: `its ${threads - 1} worker(s) did not load within ${THREADS_START_MS / 1000} s` });
      } else {
        timer = setTimeout(poll, 2);
        if (!wanted) timer.unref?.();
      }
    };
    poll();
  });
  return {
    promise,
    keepAlive() {
      wanted = true;
      timer?.ref?.();
    },
  };
}

async function instantiate(flavour, threads, wasmBinary, locateFile) {
  const { file, threaded } = FLAVOURS[flavour];
  const args = {};
  // Where the build's files are: dist/ beside this file; once bundled (import.meta empty), beside
  // the page or worker; or wherever locateFile says.
  const base = import.meta.url || globalThis.location?.href;
  const url = (path) => (locateFile ? new URL(locateFile(path, ''), base).href : new URL(`./dist/${path}`, base).href);
  if (wasmBinary) {
    args.wasmBinary = wasmBinary;
  } else if (isNode && !locateFile) {
    const { readFile } = await nodeImport('node:fs/promises');
    try {
      args.wasmBinary = await readFile(new URL(`./dist/${file}.wasm`, import.meta.url));
    } catch (e) {
      if (e?.code !== 'ENOENT') throw e;
      // A checkout set up by tools/grade has the CLI's flavour only: say what to run, not where it failed.
      throw Object.assign(
        new Error(
          `loadCore: the '${flavour}' build of the WebAssembly core is missing (wasm/dist/${file}.wasm): run tools/build`,
        ),
        { code: NOT_BUILT },
      );
    }
  }
  if (!isNode || locateFile) args.locateFile = locateFile ?? url;
  let createAttnlab, module;
  if (threaded) {
    // Node's Worker takes a file path; browsers a URL. The workers import mainScriptUrlOrBlob.
    if (isNode) args.locateFile = (path) => decodeURIComponent(new URL(url(path)).pathname);
    args.mainScriptUrlOrBlob = url(`${file}.mjs`);
    args.attnlabPoolSize = threads - 1; // PTHREAD_POOL_SIZE (tools/build-wasm): Web Workers started before the module resolves
    ({ default: createAttnlab } = await import(/* non-literal: not bundled */ args.mainScriptUrlOrBlob));
    try {
      module = await createAttnlab(args);
    } finally {
      // In Node the glue sets globalThis.Worker to worker_threads' Worker (and starts its workers
      // with it at once, inside createAttnlab); nothing else should see it.
      if (isNode) {
        if (ORIGINAL_WORKER) Object.defineProperty(globalThis, 'Worker', ORIGINAL_WORKER);
        else delete globalThis.Worker;
      }
    }
    // Node: the pool's worker threads must not keep the process alive (they wait for work forever).
    if (isNode) for (const w of module.PThread.unusedWorkers) w.unref();
    return makeCore(module, flavour, startThreads(module, threads));
  }
  ({ default: createAttnlab } = await GLUE[flavour]());
  module = await createAttnlab(args);
  return makeCore(module, flavour, { promise: Promise.resolve({ threads: 1, error: null }), keepAlive() {} });
}

// ---- tensors ---------------------------------------------------------------------------------

const shapeStr = (s) => `(${s.join(', ')}${s.length === 1 ? ',' : ''})`;

/** Tensor helper: tensor(flatData, shape) or tensor(nestedArrays) (shape inferred). */
export function tensor(data, shape) {
  if (shape === undefined) {
    shape = [];
    for (let x = data; Array.isArray(x); x = x[0]) shape.push(x.length);
    data = shape.length ? data.flat(shape.length - 1) : [data];
  }
  if (data instanceof Float64Array || data instanceof Uint8Array) return { data, shape: [...shape] };
  const isBool = data.length > 0 && typeof data[0] === 'boolean';
  return { data: isBool ? Uint8Array.from(data, Number) : Float64Array.from(data), shape: [...shape] };
}

// Normalises a Tensor-like input ({data, shape} or nested arrays) and checks data against shape.
function asTensor(x, fn, name, kind) {
  if (Array.isArray(x)) x = tensor(x);
  if (x === null || typeof x !== 'object' || x.data === undefined || !Array.isArray(x.shape)) {
    throw new TypeError(`${fn}: ${name} must be a tensor {data, shape} or nested arrays`);
  }
  const shape = Array.from(x.shape);
  if (!shape.every((d) => Number.isInteger(d) && d >= 0)) {
    throw new TypeError(`${fn}: ${name} has an invalid shape [${shape}]`);
  }
  const size = shape.reduce((a, b) => a * b, 1);
  if (x.data.length !== size) {
    throw new Error(`${fn}: ${name} has ${x.data.length} values but shape ${shapeStr(shape)} needs ${size}`);
  }
  if (kind === 'mask') {
    // Masks travel as bytes 0/1 (any truthy value means "may attend").
    const data = new Uint8Array(size);
    for (let i = 0; i < size; i++) data[i] = x.data[i] ? 1 : 0;
    return { data, shape };
  }
  return { data: x.data instanceof Float64Array ? x.data : Float64Array.from(x.data), shape };
}

// The bindings return {error} instead of throwing C++ exceptions across the boundary.
function unwrap(r) {
  if (r && typeof r.error === 'string') throw new Error(r.error);
  return r;
}

const isTensorLike = (x) => x !== null && typeof x === 'object' && x.data !== undefined && Array.isArray(x.shape);
const isNumericNest = (x) =>
  Array.isArray(x) &&
  (x.length === 0 || x.every((y) => typeof y === 'number' || typeof y === 'boolean' || isNumericNest(y)));

// An argument of core.call: tensors ({data, shape}, dtype 'bool' or a Uint8Array for masks; or nested
// numeric arrays) normalised for attnlab/embind.hpp, lists and option objects walked, the rest as is.
function callArg(x, fn) {
  if (x === undefined || x === null) return null;
  if (typeof x !== 'object') return x;
  if (isTensorLike(x))
    return asTensor(x, fn, 'an argument', x.dtype === 'bool' || x.data instanceof Uint8Array ? 'mask' : 'f64');
  if (isNumericNest(x))
    return asTensor(x, fn, 'an argument', typeof x.flat(Infinity)[0] === 'boolean' ? 'mask' : 'f64');
  if (Array.isArray(x)) return x.map((y) => callArg(y, fn));
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, callArg(v, fn)]));
}

// A result of core.call with each tensor's dtype named ('bool' for byte data).
function withDtypes(r) {
  if (isTensorLike(r)) return { ...r, dtype: r.data instanceof Uint8Array ? 'bool' : 'float64' };
  if (Array.isArray(r)) return r.map(withDtypes);
  if (r !== null && typeof r === 'object' && !ArrayBuffer.isView(r))
    return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, withDtypes(v)]));
  return r;
}

function makeCore(module, flavour, started) {
  const f = (x, fn, name) => asTensor(x, fn, name, 'f64');
  const optMask = (m, fn) => (m === undefined || m === null ? undefined : asTensor(m, fn, 'mask', 'mask'));
  const ready = started.promise.then((r) => {
    core.threadsError = r.error;
    return r.threads;
  });
  const core = {
    flavour,
    /**
     * Resolves to the threads attentionF32 runs on once a threaded build's pool is up (a few tens
     * of ms after load; until then calls run on the calling thread, with the same results), or to 1
     * (single-threaded builds at once; a threaded one whose workers did not load: threadsError says why).
     */
    get threadsReady() {
      started.keepAlive();
      return ready;
    },
    /** Why a threaded build's pool did not start, or null. */
    threadsError: null,
    // The fast float32 path (attentionF32, fusedKernelKind, heapBytes, threads): wasm/fused.mjs.
    ...fusedApi(module),
    /** The Emscripten module, for other bindings compiled into the same .wasm. */
    module,
    /** Names of the packs' reference functions ("<slug>.<fn>"), as registered by their bind.cpp. */
    functions: () =>
      Object.keys(module)
        .filter((k) => /^[\w-]+\.\w+$/.test(k) && typeof module[k] === 'function')
        .sort(),
    /**
     * Calls the reference function registered as `name` ("<slug>.<fn>", attnlab/embind.hpp), so a new
     * pack's functions need no wrapper here. Tensors anywhere in the arguments are normalised; trailing
     * arguments left out are passed as null; tensors in the result carry their dtype. A C++ error is
     * thrown as an Error with its message.
     */
    call(name, ...args) {
      const f = module[name];
      if (typeof name !== 'string' || !name.includes('.') || typeof f !== 'function') {
        throw new Error(
          `core.call: no reference function ${JSON.stringify(name)}; registered: ${this.functions().join(', ') || 'none'}`,
        );
      }
      // Embind wants every declared argument: trailing ones left out (an optional mask, options) are null.
      if (args.length > f.argCount)
        throw new Error(`core.call: ${name} takes ${f.argCount} arguments, got ${args.length}`);
      const all = [...args, ...new Array(f.argCount - args.length).fill(null)];
      return withDtypes(unwrap(f(...all.map((a) => callArg(a, name)))));
    },
    causalMask(T) {
      if (!Number.isInteger(T) || T < 0) throw new Error(`causal_mask: T must be a non-negative integer, got ${T}`);
      return unwrap(module.ref_causalMask(T));
    },
    softmax(x, axis = -1) {
      if (!Number.isInteger(axis)) throw new Error(`softmax: axis must be an integer, got ${axis}`);
      return unwrap(module.ref_softmax(f(x, 'softmax', 'x'), axis));
    },
    matmul(a, b) {
      return unwrap(module.ref_matmul(f(a, 'matmul', 'a'), f(b, 'matmul', 'b')));
    },
    /** The grader's Rng.normals on a stream at mulberry32 state `state` → { values, state } (grader/core/prng.mjs). */
    rngNormals(state, n, scale = 1) {
      return unwrap(module.rng_normals(state, n, scale));
    },
    attention(Q, K, V, { mask, scale, maskedScore } = {}) {
      const fn = 'attention';
      if (scale !== undefined && scale !== null && typeof scale !== 'number') {
        throw new TypeError(`attention: scale must be a number, got ${typeof scale}`);
      }
      if (maskedScore !== undefined && typeof maskedScore !== 'number') {
        throw new TypeError(`attention: maskedScore must be a number, got ${typeof maskedScore}`);
      }
      return unwrap(
        module.ref_attention(f(Q, fn, 'Q'), f(K, fn, 'K'), f(V, fn, 'V'), {
          mask: optMask(mask, fn),
          scale: scale ?? undefined,
          maskedScore,
        }),
      );
    },
    causalSelfAttention(X, Wq, Wk, Wv) {
      const fn = 'causal_self_attention';
      return unwrap(
        module.ref_causalSelfAttention(f(X, fn, 'X'), f(Wq, fn, 'W_q'), f(Wk, fn, 'W_k'), f(Wv, fn, 'W_v')),
      );
    },
    attentionLoops(Q, K, V, { mask } = {}) {
      const fn = 'attention_loops';
      return unwrap(module.ref_attentionLoops(f(Q, fn, 'Q'), f(K, fn, 'K'), f(V, fn, 'V'), optMask(mask, fn) ?? null));
    },
  };
  return core;
}
