// Types of wasm/index.mjs (hand-written; keep in step with it and with wasm/README.md).

import type { FusedApi } from './fused';
export type { AttentionF32Args, AttentionF32Result, FusedApi } from './fused';

/** Row-major tensor. Float64Array for values, Uint8Array (0/1) for masks. */
export interface Tensor<D extends Float64Array | Uint8Array = Float64Array> {
  data: D;
  shape: number[];
}

/** What the functions accept: a Tensor-like {data, shape} (any numeric array-like data; NDArray
 *  objects qualify) or nested JS arrays. Masks may hold booleans or numbers (non-zero = may attend). */
export type TensorInput =
  | { data: ArrayLike<number>; shape: readonly number[] }
  | number[] | number[][] | number[][][] | number[][][][];
export type MaskInput =
  | { data: ArrayLike<number | boolean>; shape: readonly number[] }
  | boolean[] | boolean[][] | boolean[][][] | number[][];

/** The backends of the float32 fast path, 'auto' first (the CLI's --backend, the page's ?backend=). */
export type Backend = 'auto' | 'webgpu' | 'simd' | 'wasm';
export const BACKENDS: Readonly<Record<Backend, { label: string }>>;
export const BACKEND_NAMES: readonly Backend[];

export type Flavour = 'relaxed-mt' | 'relaxed' | 'simd-mt' | 'simd' | 'baseline';

/** One row of FLAVOURS: the build's files (dist/<file>.wasm, .mjs, and .worker.js when threaded). */
export interface FlavourInfo {
  file: string;
  /** What fusedKernelKind() reports for it. */
  kernel: 'relaxed-simd' | 'simd128' | 'scalar';
  /** -pthread build: the fused kernel on a pool; needs threadsSupported(). */
  threaded: boolean;
  /** Its name on the page. */
  label: string;
}
/** The builds, fastest first. */
export const FLAVOURS: Readonly<Record<Flavour, FlavourInfo>>;
/** Default cap on threads. */
export const MAX_THREADS: number;

export interface LoadOptions {
  /** 'auto' (default): bestFlavour({ threads }): the fastest SIMD build (relaxed before simd, threaded
   *  where threadsSupported() and threads > 1), else 'baseline'. */
  flavour?: Flavour | 'auto';
  /** Threads of a threaded build (its pool, created once); default defaultThreads(). Under 'auto', 1 picks a single-threaded build. */
  threads?: number;
  /** The flavour's .wasm bytes; requires an explicit flavour. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Browser: URL of the build's files (path is e.g. 'attnlab-simd.wasm', 'attnlab-relaxed-mt.worker.js'). Default: ./dist/ beside index.mjs. */
  locateFile?: (path: string, prefix: string) => string;
}

export interface AttentionOptions {
  /** true = may attend; last two axes 1 or (T_q, T_k), leading axes broadcast with the batch. */
  mask?: MaskInput | null;
  /** Multiplies Q Kᵀ; default 1 / sqrt(d_k). */
  scale?: number | null;
  /** Score written where the mask is false; default -Infinity (a fully masked row gives NaN). */
  maskedScore?: number;
}

export interface AttentionResult {
  /** (..., T_q, d_v) */
  out: Tensor;
  /** (..., T_q, T_k), rows sum to 1 */
  weights: Tensor;
}

/** All functions are synchronous, return fresh JS-owned copies, and throw Error naming the shapes. */
/** The core also carries the float32 fast path: attentionF32, fusedKernelKind, heapBytes (fused.d.ts). */
export interface Core extends FusedApi {
  readonly flavour: Flavour;
  /** Resolves to the threads attentionF32 runs on once a threaded build's pool is up (tens of ms
   *  after load; calls before run on the calling thread, same results); 1 for the others, or when a
   *  threaded build's workers did not load (threadsError says why). */
  readonly threadsReady: Promise<number>;
  /** Why a threaded build's pool did not start, or null. */
  readonly threadsError: string | null;
  /** The Emscripten module (other Embind blocks compiled into the same .wasm live here). */
  readonly module: any;
  /** The packs' reference functions, as "<slug>.<fn>" (registered by each pack's reference/bind.cpp). */
  functions(): string[];
  /**
   * Calls a pack's reference function by name ("<slug>.<fn>"): tensors anywhere in the arguments
   * are normalised, tensors in the result carry their dtype. Throws Error with the C++ message.
   */
  call(name: string, ...args: unknown[]): any;
  causalMask(T: number): Tensor<Uint8Array>;
  softmax(x: TensorInput, axis?: number): Tensor;
  /** numpy.matmul: batch axes broadcast, 1-D operands promoted. */
  matmul(a: TensorInput, b: TensorInput): Tensor;
  /**
   * n normals times `scale` from the grader's Rng whose mulberry32 state is `state` (a uint32), and
   * the state after them: grader/core/prng.mjs's normals(), bit for bit (wasm/include/attnlab/prng.hpp).
   */
  rngNormals(state: number, n: number, scale?: number): { values: Float64Array; state: number };
  attention(Q: TensorInput, K: TensorInput, V: TensorInput, options?: AttentionOptions): AttentionResult;
  /** X (T, d_model) or (B, T, d_model); W_q, W_k (d_model, d_k); W_v (d_model, d_v). */
  causalSelfAttention(X: TensorInput, Wq: TensorInput, Wk: TensorInput, Wv: TensorInput): AttentionResult;
  /** The plain nested-loop reference; default scale, -Infinity masking. */
  attentionLoops(Q: TensorInput, K: TensorInput, V: TensorInput, options?: { mask?: MaskInput | null }): AttentionResult;
}

/** Loads (and, with default options, caches per flavour) a core. */
export function loadCore(options?: LoadOptions): Promise<Core>;
export function simdSupported(): boolean;
/** True when relaxed SIMD validates too (Chrome/Edge 114+, Node 22+; Node 20 only with the V8 flag). */
export function relaxedSimdSupported(): boolean;
/** Shared WebAssembly memory and threads: a cross-origin isolated page or worker, or Node 20.16+. */
export function threadsSupported(): boolean;
/** navigator.hardwareConcurrency / os.availableParallelism(). */
export function coreCount(): number;
/** min(coreCount(), MAX_THREADS) where threadsSupported(), else 1. */
export function defaultThreads(): number;
/** 'relaxed' when supported, else 'simd'; the '-mt' one where threadsSupported() and threads (default defaultThreads()) > 1. */
export function simdFlavour(options?: { threads?: number }): 'relaxed-mt' | 'relaxed' | 'simd-mt' | 'simd';
/** What loadCore({ flavour: 'auto', threads }) loads. */
export function bestFlavour(options?: { threads?: number }): Flavour;
/** Node 20: turns on V8's --experimental-wasm-relaxed-simd for this process; resolves to relaxedSimdSupported(). */
export function enableRelaxedSimd(): Promise<boolean>;
/** tensor(flatData, shape) or tensor(nestedArrays); booleans become a Uint8Array mask. */
export function tensor(data: ArrayLike<number | boolean> | any[], shape?: readonly number[]): Tensor<Float64Array | Uint8Array>;
