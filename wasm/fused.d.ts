// Types of wasm/fused.mjs: the float32 fast path (wasm/include/attnlab/fused.hpp).

export interface AttentionF32Args {
  /** (B, H, Tq, d) row-major. Copied into the WASM heap for the call, never kept. */
  q: Float32Array;
  /** (B, H, Tk, d) row-major. */
  k: Float32Array;
  /** (B, H, Tk, dv) row-major. */
  v: Float32Array;
  B?: number; // default 1
  H?: number; // default 1
  Tq: number;
  Tk?: number; // default Tq
  d: number;
  dv?: number; // default d
  /** Query i sees keys j <= i (top-left aligned, also when Tq != Tk). Default false. */
  causal?: boolean;
  /** Default (null) 1 / sqrt(d). Must be finite. */
  scale?: number | null;
  /** Also return the (B, H, Tq, Tk) softmax weights (the only case where a Tq x Tk buffer exists). */
  weights?: boolean;
}

export interface AttentionF32Result {
  /** (B, H, Tq, dv): a fresh array the caller owns. */
  out: Float32Array;
  /** (B, H, Tq, Tk), present when weights: true; masked weights are exactly 0. */
  weights?: Float32Array;
}

export interface FusedApi {
  /** Synchronous. Throws an Error naming the mismatching sizes on bad arguments. */
  attentionF32(args: AttentionF32Args): AttentionF32Result;
  /** Which code the module was compiled with: 'relaxed-simd' (attnlab-relaxed.wasm: SIMD128 + relaxed_madd), 'simd128' (attnlab-simd.wasm) or 'scalar' (attnlab.wasm). */
  fusedKernelKind(): 'relaxed-simd' | 'simd128' | 'scalar';
  /** Current WASM memory size in bytes; memory never shrinks, so this is the peak so far. */
  heapBytes(): number;
  /** Threads attentionF32 runs on: 1 in the single-threaded builds; in the -mt builds up to maxThreads(). */
  threads(): number;
  /** Size of the threaded build's pool (created once, at load); 1 in the single-threaded builds. */
  maxThreads(): number;
  /** Use n threads (1 <= n <= maxThreads()) from the next call on; returns n. Throws an Error outside that range. */
  setThreads(n: number): number;
}

/** Wraps the Emscripten module that wasm/index.mjs loaded (core.module). */
export function fusedApi(module: object): FusedApi;
