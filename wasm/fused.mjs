// JS side of the fused float32 attention (wasm/include/attnlab/fused.hpp, wasm/src/bind_fused.cpp).
// fusedApi(module) takes the Emscripten module that wasm/index.mjs loaded and returns
//   attentionF32({ q, k, v, B = 1, H = 1, Tq, Tk = Tq, d, dv = d, causal = false, scale = null,
//                  weights = false }) -> { out: Float32Array, weights?: Float32Array }
//   fusedKernelKind() -> 'relaxed-simd' | 'simd128' | 'scalar' (which code the module was compiled with)
//   heapBytes() -> current WASM memory size in bytes (memory never shrinks: the peak so far)
//   threads() -> threads attentionF32 runs on (1 in a single-threaded build)
//   maxThreads() -> the threaded build's pool (created once, at load), 1 in the others
//   setThreads(n) -> uses n of them from the next call on (1 <= n <= maxThreads()); returns n
// Ownership: q, k, v are copied into the WASM heap for the call and never kept; the results are
// fresh Float32Arrays owned by the caller. All synchronous. Bad arguments throw an Error that names
// the mismatching sizes, before anything is copied.

const dimNames = ['B', 'H', 'Tq', 'Tk', 'd', 'dv'];

export function fusedApi(module) {
  if (typeof module?.fused_attention_f32 !== 'function') {
    throw new Error('fusedApi: this module has no fused_attention_f32 (was wasm/src/bind_fused.cpp built in?)');
  }
  return {
    fusedKernelKind: () => module.fused_kernel_kind(),
    heapBytes: () => module.fused_heap_bytes(),
    threads: () => module.fused_threads(),
    maxThreads: () => module.fused_max_threads(),
    setThreads(n) {
      const max = module.fused_max_threads();
      if (!Number.isInteger(n) || n < 1 || n > max) {
        throw new Error(
          `setThreads: n must be an integer from 1 to ${max} (this build's pool${max === 1 ? ': single-threaded' : ''}), got ${n}`,
        );
      }
      return module.fused_set_threads(n);
    },
    attentionF32(args) {
      if (args === null || typeof args !== 'object') throw new TypeError('attentionF32: expected one options object');
      const { q, k, v, B = 1, H = 1, Tq, d, causal = false, scale = null, weights = false } = args;
      const Tk = args.Tk ?? Tq;
      const dv = args.dv ?? d;
      const dims = { B, H, Tq, Tk, d, dv };
      for (const name of dimNames) {
        if (!Number.isInteger(dims[name]) || dims[name] < 1) {
          throw new Error(`attentionF32: ${name} must be an integer >= 1, got ${dims[name]}`);
        }
      }
      const shape = (T, last) => `(B=${B}, H=${H}, T=${T}, ${last})`;
      for (const [name, arr, T, last, n] of [
        ['q', q, Tq, `d=${d}`, d],
        ['k', k, Tk, `d=${d}`, d],
        ['v', v, Tk, `dv=${dv}`, dv],
      ]) {
        if (!(arr instanceof Float32Array)) {
          throw new TypeError(
            `attentionF32: ${name} must be a Float32Array, got ${arr?.constructor?.name ?? typeof arr}`,
          );
        }
        const need = B * H * T * n;
        if (arr.length !== need) {
          throw new Error(`attentionF32: ${name} has ${arr.length} values but shape ${shape(T, last)} needs ${need}`);
        }
      }
      if (scale !== null && scale !== undefined && !(typeof scale === 'number' && Number.isFinite(scale))) {
        throw new Error(`attentionF32: scale must be a finite number or null, got ${scale}`);
      }
      const r = module.fused_attention_f32(q, k, v, B, H, Tq, Tk, d, dv, !!causal, scale ?? NaN, !!weights);
      if (typeof r.error === 'string') throw new Error(r.error);
      return r;
    },
  };
}
