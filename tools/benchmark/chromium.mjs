// The CPU rows of tools/bench that run inside headless Chromium (--browser): our two SIMD builds and
// onnxruntime-web's WASM backend in one page, i.e. where students run them. Each runner has the CPU
// table's interface { once() -> Float32Array, time(minMs) -> [ms per call], close() }, so run.mjs
// times them in the same interleaved rounds as the Node rows; calls are timed inside the page (no
// automation round trip). One page is opened on first use and closed by closeChromium().
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM } from '../../tests/browser/launcher.mjs';
import { D, H, CAUSAL } from './workload.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

/** Row name -> what the page runs. */
export const CHROMIUM_IMPLS = {
  'attnlab-wasm-relaxed@chromium': { flavour: 'relaxed' },
  'attnlab-wasm-simd@chromium': { flavour: 'simd' },
  'ort-web-wasm-1t@chromium': { ort: true },
};

// Inputs arrive as plain arrays (exact for float32 values); results go back the same way.
const PAGE = `
import { loadCore } from './wasm/index.mjs';
import { attentionModel } from './tools/benchmark/onnx.mjs';
const runners = [];
let ort;
globalThis.bench = {
  async setup(spec, B, H, T, d, causal, inp) {
    const q = Float32Array.from(inp.q), k = Float32Array.from(inp.k), v = Float32Array.from(inp.v);
    let run, close = () => {};
    if (spec.flavour) {
      const core = await loadCore({ flavour: spec.flavour });
      if (core.fusedKernelKind() !== (spec.flavour === 'relaxed' ? 'relaxed-simd' : 'simd128')) throw new Error('wrong build: ' + core.fusedKernelKind());
      const args = { q, k, v, B, H, Tq: T, d, causal };
      run = () => core.attentionF32(args).out;
    } else {
      if (!ort) {
        ort = await import('/ort/ort.min.mjs');
        ort.env.wasm.wasmPaths = '/ort/';
        ort.env.wasm.numThreads = 1;
      }
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

let pagePromise = null;
function openPage() {
  pagePromise ??= (async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (tools/setup --browser installs it)`);
    const ortDist = path.join(here, 'node_modules/onnxruntime-web/dist');
    if (!existsSync(ortDist)) throw new Error(`no ${ortDist}: tools/bench installs the peers`);
    const { openGpuPage } = await import('../../tests/webgpu/chromium.mjs');
    // The bundle's loadCore finds the .wasm files at ./dist/ beside page.js.
    return openGpuPage({ source: PAGE, links: { ort: ortDist, dist: path.join(root, 'wasm/dist') }, webgpu: false });
  })();
  return pagePromise;
}

/** A runner for row `impl` (a key of CHROMIUM_IMPLS) on shape {B, T} and the table's inputs. */
export async function chromiumRunner(impl, { B, T }, { q, k, v }) {
  const b = await openPage();
  const ev = b.evaluate;
  const id = await ev((a) => globalThis.bench.setup(...a),
    [CHROMIUM_IMPLS[impl], B, H, T, D, CAUSAL, { q: Array.from(q), k: Array.from(k), v: Array.from(v) }]);
  return {
    once: async () => Float32Array.from(await ev((i) => globalThis.bench.once(i), id)),
    time: (minMs) => ev((a) => globalThis.bench.time(...a), [id, minMs]),
    close: () => { ev((i) => globalThis.bench.close(i), id).catch(() => {}); },
  };
}

/** Closes the page if one was opened. */
export async function closeChromium() {
  if (!pagePromise) return;
  const p = pagePromise;
  pagePromise = null;
  await p.then((b) => b.close(), () => {});
}
