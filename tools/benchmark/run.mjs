// Driver of tools/bench: fused attention (attnlab) against its peers on the same inputs.
// Every implementation's result is checked against the double reference (core.attention) before it
// is timed, then warmed up for >= 0.4 s (V8 tier-up), then timed in interleaved rounds (so a noisy
// neighbour hits every implementation alike); a row reports the median of all timed calls.
// The -mt rows run on --threads N threads (default: the core count, at most 8), and a thread-scaling
// table follows the CPU table: the threaded build against ort-web's, on 1, 2, 4 ... N threads.
// --webgpu adds a last table (webgpu.mjs): attnlab-webgpu and ort-web-webgpu on one adapter.
// Usage (through tools/bench, which installs the peers and builds): [--quick] [--browser] [--webgpu]
//   [--threads N] [--backend auto|webgpu|simd|wasm] [--json FILE] [--svg FILE] [--only name,name]
// README.md beside this file says what each implementation is.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import {
  BACKEND_NAMES,
  defaultThreads,
  enableRelaxedSimd,
  loadCore,
  relaxedSimdSupported,
  threadsSupported,
} from '../../wasm/index.mjs';
import { backendFromArgs } from '../../wasm/webgpu/backend.mjs';
import { attentionModel } from './onnx.mjs';
import { timePlot } from './svg.mjs';
import { D, H, CAUSAL, TOL, flops, makeInputs, reference, median } from './workload.mjs';
import { WEBGPU_IMPLS, webgpuRows } from './webgpu.mjs';
import { CHROMIUM_IMPLS, chromiumRunner, closeChromium } from './chromium.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const require = createRequire(path.join(here, 'package.json'));

// ---- options ---------------------------------------------------------------------------------
const argv = process.argv.slice(2);
const USAGE = `tools/bench [--quick] [--browser] [--webgpu] [--threads N] [--backend ${BACKEND_NAMES.join('|')}] [--json FILE] [--svg FILE] [--only impl,impl]`;
const opt = {
  quick: false,
  browser: false,
  webgpu: false,
  json: path.join(here, 'out/bench.json'),
  svg: path.join(here, 'out/bench.svg'),
  only: null,
  threads: null,
};
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--quick' || a === '--webgpu' || a === '--browser') opt[a.slice(2)] = true;
  else if (a === '--json' || a === '--svg' || a === '--only' || a === '--backend' || a === '--threads') {
    if (argv[i + 1] === undefined) usage(`${a} needs a value`);
    opt[a.slice(2)] = argv[++i];
  } else if (!a.startsWith('--backend=')) usage(`unknown argument ${a}`);
}
function usage(msg) {
  console.error(`bench: ${msg}\nusage: ${USAGE}`);
  process.exit(2);
}
try {
  opt.backend = backendFromArgs(argv);
} catch (e) {
  usage(e.message);
}
if (opt.threads !== null && !/^[1-9]\d{0,2}$/.test(opt.threads))
  usage(`--threads needs a whole number from 1 to 999, got ${opt.threads}`);
if (!threadsSupported())
  usage(`node ${process.version} cannot run the threaded builds (Node 20.16+ with worker_threads)`);
// The -mt rows' threads: the machine's cores (at most 8, loadCore's default) unless --threads says.
const THREADS = opt.threads === null ? defaultThreads() : Number(opt.threads);
// The scaling table: 1, 2, 4 ... and THREADS itself.
const THREAD_COUNTS = [
  ...new Set([...Array(Math.floor(Math.log2(THREADS)) + 1).keys()].map((e) => 2 ** e).concat(THREADS)),
];
// --backend keeps the attnlab rows of that backend only (auto: all); the peers stay.
const BACKEND_IMPL = {
  simd: ['attnlab-wasm-relaxed-mt', 'attnlab-wasm-relaxed', 'attnlab-wasm-simd'],
  wasm: ['attnlab-wasm'],
  webgpu: ['attnlab-webgpu'],
};
if (opt.backend === 'webgpu') opt.webgpu = true;

const SHAPES = opt.quick
  ? [
      { B: 1, T: 256 },
      { B: 1, T: 1024 },
    ]
  : [
      { B: 1, T: 64 },
      { B: 1, T: 256 },
      { B: 1, T: 1024 },
      { B: 1, T: 2048 },
      { B: 1, T: 4096 },
      { B: 8, T: 256 },
    ];
const HEAP_T = 16384;
const WARMUP_MS = 400;
const ROUNDS = 6; // many short rounds: a burst of load on this shared machine hits every implementation
const MEASURE_MS = opt.quick ? 450 : 1500; // per shape and implementation, split over the rounds
const BASELINE = 'ort-web-wasm-1t';
const SCALING_T = opt.quick ? [1024] : [1024, 4096]; // B=1: the thread-scaling table's shapes
const WEBGPU_T = [256, 1024],
  WEBGPU_RUNS = 5; // SwiftShader: ~0.4-1.5 s per call at T=1024

// ---- implementations -------------------------------------------------------------------------
// setup(shape, inputs, { threads }) -> runner { once() -> Float32Array out, time(minMs) -> [ms per call], close() }
// (threads: only the -mt rows read it; default THREADS)

function inProcess(call) {
  return {
    once: async () => call(),
    async time(minMs) {
      const samples = [],
        start = performance.now();
      do {
        const t0 = performance.now();
        await call();
        samples.push(performance.now() - t0);
      } while (performance.now() - start < minMs);
      return samples;
    },
    close() {},
  };
}

// A child process that loaded the inputs once and answers `out` / `time MS` / `quit` (native.cpp).
async function child(cmd, args, { env, dir, n, hello = false }) {
  const proc = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  let exited = null;
  proc.on('exit', (code) => {
    exited = code;
  });
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`${path.basename(cmd)} exited (code ${exited}) without answering`);
    const r = JSON.parse(value);
    if (r.error) throw new Error(r.error);
    return r;
  };
  const ask = (line) => {
    proc.stdin.write(`${line}\n`);
    return next();
  };
  const info = hello ? await next() : {};
  return {
    info,
    async once() {
      await ask('out');
      const buf = fs.readFileSync(path.join(dir, 'out.f32'));
      if (buf.length !== n * 4) throw new Error(`out.f32 has ${buf.length} bytes, expected ${n * 4}`);
      return new Float32Array(buf.buffer, buf.byteOffset, n);
    },
    time: async (ms) => (await ask(`time ${ms}`)).samples,
    close() {
      proc.stdin.end('quit\n');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function writeInputs({ q, k, v }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-bench-'));
  for (const [name, a] of Object.entries({ q, k, v })) fs.writeFileSync(path.join(dir, `${name}.f32`), a);
  return dir;
}

function causalMaskAdd(T) {
  // 0 where key j <= query i, -inf above the diagonal
  const m = new Float32Array(T * T);
  for (let i = 0; i < T; i++) m.fill(-Infinity, i * T + i + 1, (i + 1) * T);
  return m;
}

// Plain JavaScript: loops over Float32Arrays, one score row at a time (doubles).
function jsLoops({ q, k, v }, B, T) {
  const out = new Float32Array(B * H * T * D),
    s = new Float64Array(T),
    acc = new Float64Array(D);
  const scale = 1 / Math.sqrt(D);
  for (let bh = 0; bh < B * H; bh++) {
    const o = bh * T * D;
    for (let i = 0; i < T; i++) {
      const n = CAUSAL ? i + 1 : T;
      let m = -Infinity;
      for (let j = 0; j < n; j++) {
        let dot = 0;
        for (let x = 0; x < D; x++) dot += q[o + i * D + x] * k[o + j * D + x];
        s[j] = dot * scale;
        if (s[j] > m) m = s[j];
      }
      let sum = 0;
      acc.fill(0);
      for (let j = 0; j < n; j++) {
        const p = Math.exp(s[j] - m);
        sum += p;
        for (let x = 0; x < D; x++) acc[x] += p * v[o + j * D + x];
      }
      for (let x = 0; x < D; x++) out[o + i * D + x] = acc[x] / sum;
    }
  }
  return out;
}

const fusedCall =
  (api, { B, T }, { q, k, v }) =>
  () =>
    api.attentionF32({ q, k, v, B, H, Tq: T, d: D, causal: CAUSAL }).out;

async function ortRunner(ort, options, { B, T }, { q, k, v }) {
  const session = await ort.InferenceSession.create(attentionModel({ B, H, T, d: D, causal: CAUSAL }), options);
  const dims = [B, H, T, D];
  const run = async () => {
    const t = (x) => new ort.Tensor('float32', x, dims);
    const r = await session.run({ Q: t(q), K: t(k), V: t(v) });
    return r.out.data;
  };
  return { ...inProcess(run), close: () => session.release() };
}

const lazy = (f) => {
  let p;
  return () => (p ??= f());
};
const peers = {
  // Node 20 ships relaxed SIMD behind a V8 flag (Chrome 114+ and Node 22+ by default): turned on here.
  relaxed: lazy(async () => {
    const byDefault = relaxedSimdSupported();
    if (!(await enableRelaxedSimd())) throw new Error(`node ${process.version} cannot run WebAssembly relaxed SIMD`);
    notes['attnlab-wasm-relaxed'] =
      `relaxed SIMD ${byDefault ? 'on by default' : `turned on with --experimental-wasm-relaxed-simd (V8 ${process.versions.v8})`}`;
    return loadCore({ flavour: 'relaxed' });
  }),
  // The threaded relaxed build with a pool of THREADS; each runner sets its own count (scaling table).
  relaxedMt: lazy(async () => {
    await peers.relaxed();
    const core = await loadCore({ flavour: 'relaxed-mt', threads: THREADS });
    if ((await core.threadsReady) !== THREADS)
      throw new Error(`relaxed-mt: ${core.threads()} threads, not ${THREADS}: ${core.threadsError}`);
    return core;
  }),
  simd: lazy(() => loadCore({ flavour: 'simd' })),
  baseline: lazy(() => loadCore({ flavour: 'baseline' })),
  ortWeb: lazy(async () => {
    const ort = await import('onnxruntime-web');
    ort.env.wasm.numThreads = 1;
    return ort;
  }),
  ortNode: lazy(async () => (await import('onnxruntime-node')).default),
  tf: lazy(async () => {
    const tf = await import('@tensorflow/tfjs-core');
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    wasm.setThreadsCount(1);
    wasm.setWasmPaths(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + path.sep);
    if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');
    return tf;
  }),
};

const ALL_IMPLS = [
  {
    name: 'attnlab-wasm-relaxed-mt',
    threaded: true,
    setup: async (s, inp, { threads = THREADS } = {}) => {
      const core = await peers.relaxedMt(),
        call = fusedCall(core, s, inp);
      return inProcess(() => {
        core.setThreads(threads);
        return call();
      });
    },
  },
  { name: 'attnlab-wasm-relaxed', setup: async (s, inp) => inProcess(fusedCall(await peers.relaxed(), s, inp)) },
  { name: 'attnlab-wasm-simd', setup: async (s, inp) => inProcess(fusedCall(await peers.simd(), s, inp)) },
  { name: 'attnlab-wasm', setup: async (s, inp) => inProcess(fusedCall(await peers.baseline(), s, inp)) },
  ...['attnlab-native', 'attnlab-native-fma'].map((name) => ({
    name,
    setup: async ({ B, T }, inp) => {
      const exe = path.join(root, 'build/bench', name);
      if (!fs.existsSync(exe))
        throw new Error(`${exe} was not built (tools/bench builds the FMA twin only on CPUs with FMA)`);
      const dir = writeInputs(inp);
      return child(exe, [dir, B, H, T, D, CAUSAL ? 1 : 0].map(String), { dir, n: B * H * T * D });
    },
  })),
  {
    name: 'ort-web-wasm-1t',
    setup: async (s, inp) =>
      ortRunner(await peers.ortWeb(), { executionProviders: ['wasm'], graphOptimizationLevel: 'all' }, s, inp),
  },
  {
    // A child process per thread count: ort-web reads numThreads once per process (ort_web_child.mjs).
    name: 'ort-web-wasm-mt',
    threaded: true,
    setup: async ({ B, T }, inp, { threads = THREADS } = {}) => {
      const dir = writeInputs(inp);
      const r = await child(
        process.execPath,
        [path.join(here, 'ort_web_child.mjs'), dir, B, H, T, D, CAUSAL ? 1 : 0, threads].map(String),
        { dir, n: B * H * T * D, hello: true },
      );
      if (r.info.threads !== threads) throw new Error(`ort-web runs on ${r.info.threads} threads, not ${threads}`);
      return r;
    },
  },
  {
    name: 'ort-node-1t',
    setup: async (s, inp) =>
      ortRunner(
        await peers.ortNode(),
        {
          executionProviders: ['cpu'],
          intraOpNumThreads: 1,
          interOpNumThreads: 1,
          executionMode: 'sequential',
          graphOptimizationLevel: 'all',
        },
        s,
        inp,
      ),
  },
  {
    name: 'tfjs-wasm',
    setup: async ({ B, T }, { q, k, v }) => {
      const tf = await peers.tf();
      const mask = tf.tensor2d(causalMaskAdd(T), [T, T]);
      const dims = [B, H, T, D];
      // K is transposed explicitly: matMul(..., transposeB = true) is ~10x slower in tfjs-backend-wasm 4.22.
      const run = () => {
        const o = tf.tidy(() => {
          const Q = tf.mul(tf.tensor4d(q, dims), 1 / Math.sqrt(D));
          const Kt = tf.transpose(tf.tensor4d(k, dims), [0, 1, 3, 2]);
          return tf.matMul(tf.softmax(tf.add(tf.matMul(Q, Kt), mask)), tf.tensor4d(v, dims));
        });
        const data = o.dataSync();
        o.dispose();
        return data;
      };
      return { ...inProcess(run), close: () => mask.dispose() };
    },
  },
  {
    name: 'numpy',
    setup: async ({ B, T }, inp) => {
      const dir = writeInputs(inp);
      // One BLAS thread; OPENBLAS_CORETYPE / L2_SIZE (set on some hosts for old OpenBLAS builds) would
      // pin a slow kernel, so they are cleared for this process only.
      const env = { OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1', OPENBLAS_CORETYPE: '', OPENBLAS_L2_SIZE: '' };
      const r = await child(
        '/usr/bin/python3',
        [path.join(here, 'numpy_attn.py'), dir, B, H, T, D, CAUSAL ? 1 : 0].map(String),
        { env, dir, n: B * H * T * D, hello: true },
      );
      notes.numpy = `BLAS: ${r.info.blas}`;
      return r;
    },
  },
  { name: 'js-loops', setup: async ({ B, T }, inp) => inProcess(() => jsLoops(inp, B, T)) },
  // --browser: the same kernels and ort-web in headless Chromium (chromium.mjs), timed in the page.
  ...Object.keys(CHROMIUM_IMPLS).map((name) => ({
    name,
    browser: true,
    threaded: /-mt@/.test(name),
    setup: (s, inp, { threads = THREADS } = {}) => chromiumRunner(name, s, inp, { threads, maxThreads: THREADS }),
  })),
];
const notes = {};

// --only names rows of either table (a WebGPU name turns --webgpu on); --backend drops other attnlab rows.
const only = opt.only?.split(',');
const unknown = only?.filter((n) => !ALL_IMPLS.some((i) => i.name === n) && !WEBGPU_IMPLS.includes(n));
if (unknown?.length)
  usage(
    `--only: unknown ${unknown.join(', ')}; known: ${[...ALL_IMPLS.map((i) => i.name), ...WEBGPU_IMPLS].join(', ')}`,
  );
const byBackend = (name) =>
  opt.backend === 'auto' || !name.startsWith('attnlab-') || BACKEND_IMPL[opt.backend].includes(name.split('@')[0]);
const IMPLS = ALL_IMPLS.filter((i) => (only ? only.includes(i.name) : !i.browser || opt.browser) && byBackend(i.name));
const onlyGpu = only?.filter((n) => WEBGPU_IMPLS.includes(n));
if (onlyGpu?.length) opt.webgpu = true;
const GPU_IMPLS = opt.webgpu
  ? WEBGPU_IMPLS.filter((n) => (!onlyGpu?.length || onlyGpu.includes(n)) && byBackend(n))
  : [];
if (!IMPLS.length && !GPU_IMPLS.length) usage(`--only ${opt.only} with --backend ${opt.backend} leaves nothing to run`);

// ---- run ---------------------------------------------------------------------------------------
const rows = [];
const fmt = (x, p) => (x === undefined || x === null ? '-' : typeof x === 'number' ? x.toFixed(p) : String(x));
// One table line: impl, B, T, ms, GFLOP/s, ratio, max|err| (numbers or preformatted strings).
const line = (c) =>
  [
    c[0].padEnd(33),
    fmt(c[1], 0).padStart(2),
    fmt(c[2], 0).padStart(5),
    fmt(c[3], 3).padStart(9),
    fmt(c[4], 1).padStart(8),
    fmt(c[5], 2).padStart(20),
    (typeof c[6] === 'number' ? c[6].toExponential(1) : c[6]).padStart(9),
  ].join(' ');
const cpu = `${os.cpus()[0]?.model ?? 'cpu ?'} x${os.cpus().length}`;
console.log(
  `tools/bench${opt.quick ? ' --quick' : ''}: H=${H}, d=${D}, causal, float32, one thread (-mt rows: ${THREADS}); node ${process.version}, ${cpu}`,
);
if (IMPLS.length) console.log(line(['impl', 'B', 'T', 'ms', 'GFLOP/s', `x ${BASELINE}`, 'max|err|']));

// Checks each entry's first result, warms it up, then times all of them in interleaved rounds;
// fills in each entry's row (ms_median, calls, gflops or error). entries: [{ row, setup }].
async function measure(shape, entries) {
  const inputs = makeInputs(shape);
  const maxErr = reference(shape, inputs);
  const active = [];
  for (const { row, setup } of entries) {
    try {
      const runner = await setup(inputs);
      row.max_abs_err = maxErr(await runner.once());
      if (!(row.max_abs_err <= TOL)) {
        row.error = `wrong result: max |out - reference| = ${row.max_abs_err} > ${TOL}`;
        runner.close();
        continue;
      }
      await runner.time(WARMUP_MS);
      active.push({ row, runner, samples: [] });
    } catch (e) {
      row.error = e.message.split('\n')[0];
    }
  }
  for (let r = 0; r < ROUNDS; r++)
    for (const a of active) a.samples.push(...(await a.runner.time(MEASURE_MS / ROUNDS)));
  for (const a of active) {
    a.runner.close();
    Object.assign(a.row, {
      ms_median: median(a.samples),
      calls: a.samples.length,
      gflops: flops(shape) / median(a.samples) / 1e6,
    });
  }
}

for (const shape of IMPLS.length ? SHAPES : []) {
  const entries = IMPLS.map((impl) => ({
    row: {
      impl: impl.name,
      B: shape.B,
      H,
      T: shape.T,
      d: D,
      causal: CAUSAL,
      ...(impl.threaded && { threads: THREADS }),
      ms_median: null,
      max_abs_err: null,
    },
    setup: (inputs) => impl.setup(shape, inputs),
  }));
  rows.push(...entries.map((e) => e.row));
  await measure(shape, entries);
  const base = rows.find((x) => x.T === shape.T && x.B === shape.B && x.impl === BASELINE)?.ms_median;
  for (const row of rows.filter((x) => x.T === shape.T && x.B === shape.B)) {
    if (base && row.ms_median) row.speedup_vs_ort_web = base / row.ms_median;
    console.log(
      row.error
        ? `${row.impl.padEnd(33)} ${fmt(row.B, 0).padStart(2)} ${fmt(row.T, 0).padStart(5)}  ${row.error}`
        : line([row.impl, row.B, row.T, row.ms_median, row.gflops, row.speedup_vs_ort_web, row.max_abs_err]),
    );
  }
}

// ---- thread scaling: the threaded build and ort-web's on 1, 2, 4 ... THREADS threads -------------
// Every (impl, threads) pair of a shape is timed in the same interleaved rounds; "x 1 thread" is a
// row's speed-up over the same implementation on one thread, "x ort-web-wasm-mt" its speed-up over
// ort-web on as many threads in the same host.
const SCALING_IMPLS = IMPLS.filter((i) => i.threaded);
const scaling = [];
if (SCALING_IMPLS.length) {
  const hostOf = (impl) => (impl.includes('@') ? impl.split('@')[1] : 'node');
  const sline = (c) =>
    [
      c[0].padEnd(33),
      fmt(c[1], 0).padStart(7),
      fmt(c[2], 0).padStart(5),
      fmt(c[3], 3).padStart(9),
      fmt(c[4], 1).padStart(8),
      fmt(c[5], 2).padStart(11),
      fmt(c[6], 2).padStart(18),
    ].join(' ');
  console.log(`\nThread scaling: B=1, H=${H}, d=${D}, causal, float32; threads ${THREAD_COUNTS.join(', ')}`);
  console.log(sline(['impl', 'threads', 'T', 'ms', 'GFLOP/s', 'x 1 thread', 'x ort-web-wasm-mt']));
  for (const T of SCALING_T) {
    const shape = { B: 1, T };
    const entries = SCALING_IMPLS.flatMap((impl) =>
      THREAD_COUNTS.map((threads) => ({
        row: {
          table: 'scaling',
          impl: impl.name,
          host: hostOf(impl.name),
          threads,
          B: 1,
          H,
          T,
          d: D,
          causal: CAUSAL,
          ms_median: null,
          max_abs_err: null,
        },
        setup: (inputs) => impl.setup(shape, inputs, { threads }),
      })),
    );
    scaling.push(...entries.map((e) => e.row));
    await measure(shape, entries);
    for (const row of entries.map((e) => e.row)) {
      const one = scaling.find((x) => x.T === T && x.impl === row.impl && x.threads === 1)?.ms_median;
      const ort = scaling.find(
        (x) => x.T === T && x.host === row.host && x.impl.startsWith('ort-web-wasm-mt') && x.threads === row.threads,
      )?.ms_median;
      if (one && row.ms_median) row.speedup_vs_1t = one / row.ms_median;
      if (ort && row.ms_median && !row.impl.startsWith('ort-')) row.speedup_vs_ort_web_mt = ort / row.ms_median;
      console.log(
        row.error
          ? `${row.impl.padEnd(33)} ${fmt(row.threads, 0).padStart(7)} ${fmt(T, 0).padStart(5)}  ${row.error}`
          : sline([row.impl, row.threads, T, row.ms_median, row.gflops, row.speedup_vs_1t, row.speedup_vs_ort_web_mt]),
      );
    }
  }
  rows.push(...scaling);
}

await closeChromium();

// Peak WASM heap at T = 16384 in a fresh instance of the SIMD build (memory only grows: its size
// after the call is the peak).
if (IMPLS.some((i) => i.name === 'attnlab-wasm-simd')) {
  const shape = { B: 1, T: HEAP_T };
  const inputs = makeInputs(shape);
  const wasmBinary = fs.readFileSync(path.join(root, 'wasm/dist/attnlab-simd.wasm'));
  const api = await loadCore({ flavour: 'simd', wasmBinary }); // wasmBinary: a fresh, uncached instance
  const t0 = performance.now();
  const out = fusedCall(api, shape, inputs)();
  const ms = performance.now() - t0;
  const row = {
    impl: 'attnlab-wasm-simd',
    B: 1,
    H,
    T: HEAP_T,
    d: D,
    causal: CAUSAL,
    ms_median: ms,
    max_abs_err: reference(shape, inputs)(out),
    peak_heap_bytes: api.heapBytes(),
    calls: 1,
  };
  rows.push(row);
  console.log(
    `${line([row.impl, 1, HEAP_T, ms, flops(shape) / ms / 1e6, '(one call)', row.max_abs_err])}` +
      `  peak WASM heap ${(row.peak_heap_bytes / 2 ** 20).toFixed(1)} MiB`,
  );
}
for (const [k, v] of Object.entries(notes)) console.log(`${k}: ${v}`);

// The issue's targets at B=1, T=1024 (informational: timings on a shared machine vary).
const at = (impl) => rows.find((r) => r.impl === impl && r.B === 1 && r.T === 1024)?.ms_median;
// Each WASM SIMD build against the peers; the relaxed one also against its native twin (FMA too).
for (const [impl, twin] of [
  ['attnlab-wasm-simd', 'attnlab-native'],
  ['attnlab-wasm-relaxed', 'attnlab-native-fma'],
]) {
  const ms = at(impl);
  if (!ms) continue;
  const targets = [
    ['ort-web-wasm-1t', 3, '>= 3x faster than'],
    ['ort-node-1t', 1, 'at least as fast as'],
    [twin, 0.7, '>= 0.7x the speed of'],
  ];
  for (const [peer, need, text] of targets) {
    const p = at(peer);
    if (p) console.log(`T=1024: ${impl} ${text} ${peer}: ${(p / ms).toFixed(2)}x -> ${p / ms >= need ? 'yes' : 'NO'}`);
  }
}
// In Chromium, against ort-web in the same page (the browser is where students run it).
for (const impl of ['attnlab-wasm-simd@chromium', 'attnlab-wasm-relaxed@chromium']) {
  const ms = at(impl),
    p = at('ort-web-wasm-1t@chromium');
  if (ms && p)
    console.log(
      `T=1024: ${impl} >= 3x faster than ort-web-wasm-1t@chromium: ${(p / ms).toFixed(2)}x -> ${p / ms >= 3 ? 'yes' : 'NO'}`,
    );
}
// Issue 13: at B=1, T=1024 and 4096, on THREADS threads: the threaded build >= 1.5x faster than
// ort-web on as many threads; and at T=4096 its speed-up over one thread >= 0.8 x THREADS.
for (const host of ['', '@chromium']) {
  const ours = `attnlab-wasm-relaxed-mt${host}`,
    peer = `ort-web-wasm-mt${host}`;
  const main = (impl, T) => rows.find((r) => r.impl === impl && r.B === 1 && r.T === T && !r.table)?.ms_median;
  for (const T of [1024, 4096]) {
    const ms = main(ours, T),
      p = main(peer, T);
    if (ms && p)
      console.log(
        `T=${T}, ${THREADS} threads: ${ours} >= 1.5x faster than ${peer}: ${(p / ms).toFixed(2)}x -> ${p / ms >= 1.5 ? 'yes' : 'NO'}`,
      );
  }
  const x = scaling.find((r) => r.impl === ours && r.T === 4096 && r.threads === THREADS)?.speedup_vs_1t;
  if (x && THREADS > 1)
    console.log(
      `T=4096: ${ours} on ${THREADS} threads >= ${(0.8 * THREADS).toFixed(1)}x its 1-thread speed: ${x.toFixed(2)}x -> ${x >= 0.8 * THREADS ? 'yes' : 'NO'}`,
    );
}
const heap = rows.find((r) => r.peak_heap_bytes);
if (heap) {
  const ok = heap.peak_heap_bytes < 64 * 2 ** 20;
  console.log(`T=${HEAP_T}: peak WASM heap ${heap.peak_heap_bytes} bytes < 64 MiB -> ${ok ? 'yes' : 'NO'}`);
}

// ---- WebGPU (--webgpu): a second table, its own adapter(s) and the issue's targets ---------------
if (GPU_IMPLS.length) {
  const gpuRows = await webgpuRows({ sizes: WEBGPU_T, runs: WEBGPU_RUNS, impls: GPU_IMPLS });
  rows.push(...gpuRows);
  const ort = (T) => gpuRows.find((r) => r.impl === 'ort-web-webgpu' && r.T === T)?.ms_median;
  for (const r of gpuRows) {
    if (r.ms_median) r.gflops = flops(r) / r.ms_median / 1e6;
    // The ratio only within one host: Dawn in Node and Chromium drive the adapter differently.
    if (r.ms_median && r.host === 'chromium' && ort(r.T)) r.speedup_vs_ort_webgpu = ort(r.T) / r.ms_median;
  }
  console.log(
    `\nWebGPU: B=1, H=${H}, d=${D}, causal, float32; first call = compile + check, then median of ${WEBGPU_RUNS} calls; upload and readback included`,
  );
  const adapters = new Map();
  for (const r of gpuRows.filter((x) => x.adapter))
    adapters.set(r.adapter, [...new Set([...(adapters.get(r.adapter) ?? []), `${r.impl} in ${r.host}`])]);
  for (const [a, who] of adapters) console.log(`adapter: ${a}  <- ${who.join(', ')}`);
  const gline = (c) =>
    [
      c[0].padEnd(16),
      c[1].padEnd(8),
      fmt(c[2], 0).padStart(5),
      fmt(c[3], 1).padStart(9),
      fmt(c[4], 0).padStart(9),
      fmt(c[5], 2).padStart(8),
      fmt(c[6], 2).padStart(17),
      (typeof c[7] === 'number' ? c[7].toExponential(1) : c[7]).padStart(9),
    ].join(' ');
  console.log(gline(['impl', 'host', 'T', 'ms', 'first ms', 'GFLOP/s', 'x ort-web-webgpu', 'max|err|']));
  for (const r of gpuRows) {
    console.log(
      r.error
        ? `${r.impl.padEnd(16)} ${r.host.padEnd(8)} ${fmt(r.T, 0).padStart(5)}  ${r.error}`
        : gline([r.impl, r.host, r.T, r.ms_median, r.first_ms, r.gflops, r.speedup_vs_ort_webgpu, r.max_abs_err]),
    );
  }
  if ([...adapters.keys()].some((a) => /swiftshader/i.test(a))) {
    console.log(
      'SwiftShader is a CPU emulation of a GPU (here sharing the CPU cores): these timings compare the two kernels on ' +
        'that emulator only and say nothing about real GPUs.',
    );
  }
  // The issue's targets: attnlab-webgpu at least as fast as ort-web-webgpu on the same host, max_abs_err < 1e-4.
  for (const T of WEBGPU_T) {
    const x = gpuRows.find(
      (r) => r.impl === 'attnlab-webgpu' && r.host === 'chromium' && r.T === T,
    )?.speedup_vs_ort_webgpu;
    console.log(
      `T=${T}: attnlab-webgpu at least as fast as ort-web-webgpu (both in chromium): ${x ? `${x.toFixed(2)}x -> ${x >= 1 ? 'yes' : 'NO'}` : 'not measured'}`,
    );
  }
  const errs = gpuRows.map((r) => r.max_abs_err).filter((e) => e !== null);
  const worst = errs.length ? Math.max(...errs) : null;
  console.log(
    `WebGPU max_abs_err < 1e-4 on all ${gpuRows.length} rows: ${
      worst === null
        ? 'not measured'
        : `largest ${worst.toExponential(1)} -> ${worst < 1e-4 && errs.length === gpuRows.length ? 'yes' : 'NO'}`
    }`,
  );
}

fs.mkdirSync(path.dirname(opt.json), { recursive: true });
fs.writeFileSync(opt.json, JSON.stringify(rows, null, 1) + '\n');
// One line per implementation (and host, for the WebGPU rows: drawn dashed).
const seriesName = (r) => (r.host ? `${r.impl} (${r.host})` : r.impl);
const series = [...new Set(rows.filter((r) => !r.table).map(seriesName))]
  .map((name) => ({
    name,
    dash: rows.some((r) => r.host && seriesName(r) === name),
    points: rows
      .filter((r) => seriesName(r) === name && r.B === 1 && r.ms_median && !r.peak_heap_bytes && !r.table)
      .map((r) => [r.T, r.ms_median]),
  }))
  .filter((s) => s.points.length);
if (series.length) {
  fs.mkdirSync(path.dirname(opt.svg), { recursive: true });
  const gpu = series.some((s) => s.dash)
    ? ` (dashed: WebGPU, ${rows.find((r) => r.host && r.adapter)?.adapter.split(' (')[0] ?? '?'})`
    : '';
  fs.writeFileSync(
    opt.svg,
    timePlot(series, {
      title: `Causal attention, B=1, H=1, d=${D}, float32, one thread (-mt: ${THREADS})${gpu}: median ms`,
    }),
  );
}
console.log(`rows: ${path.relative(process.cwd(), opt.json)}, plot: ${path.relative(process.cwd(), opt.svg)}`);
process.exit(rows.some((r) => r.error?.startsWith('wrong result')) ? 1 : 0);
