// The CPU rows of tools/bench that run inside headless Chromium (--browser): our SIMD builds (the
// threaded one too) and onnxruntime-web's WASM backend, i.e. where students run them. Each runner
// has the CPU table's interface { once() -> Float32Array, time(minMs) -> [ms per call], close() }, so
// run.mjs times them in the same interleaved rounds as the Node rows; calls are timed inside the
// page (no automation round trip). The pages are served cross-origin isolated (web/server.mjs), as
// tools/serve serves the exercise page: SharedArrayBuffer for the threaded builds, and a 5 us
// performance.now(). ort-web reads numThreads once per page, so each of its thread counts gets a
// page of its own; closeChromium() closes them all.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM } from '../lib/chromium.mjs';
import { FLAVOURS } from '../../wasm/index.mjs';
import { D, H, CAUSAL } from './workload.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

/** Row name -> what the page runs (flavour: a key of wasm/index.mjs FLAVOURS; ort: 1 thread or 'mt'). */
export const CHROMIUM_IMPLS = {
  'attnlab-wasm-relaxed@chromium': { flavour: 'relaxed' },
  'attnlab-wasm-simd@chromium': { flavour: 'simd' },
  'attnlab-wasm-relaxed-mt@chromium': { flavour: 'relaxed-mt' },
  'ort-web-wasm-1t@chromium': { ort: 1 },
  'ort-web-wasm-mt@chromium': { ort: 'mt' },
};

// Inputs arrive as plain arrays (exact for float32 values); results go back the same way.
// A threaded core is loaded once per page with the most threads asked for; each runner sets its own
// count before it runs (setThreads: no thread is created), so the scaling table shares one pool.
const PAGE = `
import { loadCore, FLAVOURS } from './wasm/index.mjs';
import { attentionModel } from './tools/benchmark/onnx.mjs';
const runners = [];
let ort;
globalThis.bench = {
  async setup(spec, B, H, T, d, causal, inp) {
    const q = Float32Array.from(inp.q), k = Float32Array.from(inp.k), v = Float32Array.from(inp.v);
    let run, close = () => {};
    if (spec.flavour) {
      const threaded = FLAVOURS[spec.flavour].threaded;
      if (threaded && !crossOriginIsolated) throw new Error('the bench page is not cross-origin isolated');
      const core = await loadCore({ flavour: spec.flavour, ...(threaded && { threads: spec.maxThreads }) });
      if (threaded && (await core.threadsReady) !== spec.maxThreads) throw new Error('the pool did not start: ' + core.threadsError);
      if (core.fusedKernelKind() !== FLAVOURS[spec.flavour].kernel) throw new Error('wrong build: ' + core.fusedKernelKind());
      const args = { q, k, v, B, H, Tq: T, d, causal };
      run = () => { if (threaded) core.setThreads(spec.threads); return core.attentionF32(args).out; };
    } else {
      if (!ort) {
        ort = await import('/ort/ort.min.mjs');
        ort.env.wasm.wasmPaths = '/ort/';
        ort.env.wasm.numThreads = spec.threads;
      }
      if (ort.env.wasm.numThreads !== spec.threads) throw new Error('this page runs ort-web on ' + ort.env.wasm.numThreads + ' threads');
      const session = await ort.InferenceSession.create(attentionModel({ B, H, T, d, causal }), { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
      const shape = [B, H, T, d];
      const t = (x) => new ort.Tensor('float32', x, shape);
      run = async () => (await session.run({ Q: t(q), K: t(k), V: t(v) })).out.data;
      close = () => session.release();
    }
    runners.push({ run, close });
    return runners.length - 1;
  },
  once: async (id) => Array.from(await runners[id].run()),
  async time(id, minMs) {
    const samples = [], start = performance.now();
    do {
      const t0 = performance.now();
      await runners[id].run();
      samples.push(performance.now() - t0);
    } while (performance.now() - start < minMs);
    return samples;
  },
  close: (id) => runners[id].close(),
};
globalThis.ready = true;
`;

const pages = new Map(); // 'attnlab+ort1' | 'ort<N>' -> Promise<page>
function openPage(key) {
  if (!pages.has(key)) {
    pages.set(
      key,
      (async () => {
        if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (tools/setup --browser installs it)`);
        const ortDist = path.join(here, 'node_modules/onnxruntime-web/dist');
        if (!existsSync(ortDist)) throw new Error(`no ${ortDist}: tools/bench installs the peers`);
        const { openGpuPage } = await import('../lib/gpu-page.mjs');
        // The bundle's loadCore finds the build's files at ./dist/ beside page.js.
        return openGpuPage({
          source: PAGE,
          links: { ort: ortDist, dist: path.join(root, 'wasm/dist') },
          webgpu: false,
        });
      })(),
    );
  }
  return pages.get(key);
}

/**
 * A runner for row `impl` (a key of CHROMIUM_IMPLS) on shape {B, T} and the table's inputs.
 * threads: of a threaded build or of ort-web-wasm-mt; maxThreads: the threaded build's pool.
 */
export async function chromiumRunner(impl, { B, T }, { q, k, v }, { threads = 1, maxThreads = threads } = {}) {
  const base = CHROMIUM_IMPLS[impl];
  const spec = base.ort ? { threads: base.ort === 'mt' ? threads : 1 } : { flavour: base.flavour, threads, maxThreads };
  if (spec.flavour && !FLAVOURS[spec.flavour].threaded) spec.threads = 1;
  const b = await openPage(base.ort === 'mt' ? `ort${threads}` : 'attnlab+ort1');
  const ev = b.evaluate;
  const id = await ev(
    (a) => globalThis.bench.setup(...a),
    [spec, B, H, T, D, CAUSAL, { q: Array.from(q), k: Array.from(k), v: Array.from(v) }],
  );
  return {
    once: async () => Float32Array.from(await ev((i) => globalThis.bench.once(i), id)),
    time: (minMs) => ev((a) => globalThis.bench.time(...a), [id, minMs]),
    close: () => {
      ev((i) => globalThis.bench.close(i), id).catch(() => {});
    },
  };
}

/** Closes every page that was opened. */
export async function closeChromium() {
  const all = [...pages.values()];
  pages.clear();
  await Promise.all(
    all.map((p) =>
      p.then(
        (b) => b.close(),
        () => {},
      ),
    ),
  );
}
