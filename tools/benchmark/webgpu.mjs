// The WebGPU rows of tools/bench (--webgpu): attnlab-webgpu in Node (Dawn, npm `webgpu`) and in headless
// Chromium, and onnxruntime-web's WebGPU backend (ort-web-webgpu) in the same Chromium page, so the two
// peers share one adapter. Same workload and inputs as the CPU table (workload.mjs): B=1, H=1, d=64,
// causal. Per T: each runner's first call (first_ms: pipeline / session compile included) is checked
// against the double reference and is the warm-up; a wrong one is not timed; then `runs` rounds in which
// every runner makes one call in turn. Times include upload and readback; in Chromium they are taken in
// the page (no automation round trip). On machines without a GPU both hosts run SwiftShader, a CPU
// emulation of a GPU: such timings compare the kernels on that emulator only, never real GPUs.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWebGpuAttention } from '../../wasm/webgpu/index.mjs';
import { CHROMIUM } from '../lib/chromium.mjs';
import { D, H, CAUSAL, TOL, makeInputs, reference, median } from './workload.mjs';

export const WEBGPU_IMPLS = ['attnlab-webgpu', 'ort-web-webgpu'];
const here = path.dirname(fileURLToPath(import.meta.url));
const SETUP_HINT =
  'tools/setup --browser installs chromium and libvulkan1; VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json selects SwiftShader';

/** '<vendor> <architecture> (<description>)[, fallback adapter]' from a GPUAdapterInfo-like object. */
export const adapterName = (a) =>
  a
    ? `${a.vendor || '?'} ${a.architecture || '?'}${a.description ? ` (${a.description})` : ''}${a.isFallbackAdapter ? ', fallback adapter' : ''}`
    : null;

// A host opens once and gives runners: setup(impl, T, inputs) -> { adapter, call(wantOut) -> { ms, out? }, close() }.
async function nodeHost() {
  let gpu;
  try {
    gpu = await createWebGpuAttention({ timeoutMs: 20000 });
  } catch (e) {
    throw new Error(`${e.message} (${SETUP_HINT})`, { cause: e });
  }
  return {
    async setup(impl, T, { q, k, v }) {
      if (impl !== 'attnlab-webgpu') throw new Error(`${impl} does not run in Node`);
      const args = { q, k, v, B: 1, H, Tq: T, d: D, causal: CAUSAL };
      return {
        adapter: adapterName(gpu.adapterInfo),
        async call(wantOut) {
          const t0 = performance.now();
          const { out } = await gpu.attentionF32(args);
          return { ms: performance.now() - t0, out: wantOut ? out : null };
        },
        async close() {},
      };
    },
    close: () => gpu.destroy(),
  };
}

// The page: both peers, runners kept by id; inputs arrive as plain arrays (exact for float32 values).
const PAGE = `
import { createWebGpuAttention } from './wasm/webgpu/browser.mjs';
import { attentionModel } from './tools/benchmark/onnx.mjs';
const info = (a) => a && { vendor: a.vendor, architecture: a.architecture, device: a.device, description: a.description, isFallbackAdapter: a.isFallbackAdapter };
const runners = [];
let gpu, ort;
globalThis.bench = {
  async setup(impl, T, d, causal, inp) {
    const q = Float32Array.from(inp.q), k = Float32Array.from(inp.k), v = Float32Array.from(inp.v);
    let run, close = async () => {}, adapter;
    if (impl === 'attnlab-webgpu') {
      gpu ??= await createWebGpuAttention({ timeoutMs: 20000 });
      const args = { q, k, v, B: 1, H: 1, Tq: T, d, causal };
      run = async () => (await gpu.attentionF32(args)).out;
      adapter = gpu.adapterInfo;
    } else {
      if (!ort) {
        ort = await import('/ort/ort.webgpu.min.mjs');
        ort.env.wasm.wasmPaths = '/ort/';
        ort.env.wasm.numThreads = 1;  // no cross-origin isolation here; the work is on the GPU anyway
      }
      const session = await ort.InferenceSession.create(attentionModel({ B: 1, H: 1, T, d, causal }), { executionProviders: ['webgpu'] });
      const shape = [1, 1, T, d];
      const feeds = { Q: new ort.Tensor('float32', q, shape), K: new ort.Tensor('float32', k, shape), V: new ort.Tensor('float32', v, shape) };
      run = async () => (await session.run(feeds)).out.data;
      close = () => session.release();
      const dev = await ort.env.webgpu.device;  // ort-web's own device: which adapter it requested
      adapter = dev?.adapterInfo ?? ort.env.webgpu.adapter?.info;
    }
    runners.push({ run, close });
    return { id: runners.length - 1, adapter: info(adapter) };
  },
  async call(id, wantOut) {
    const t0 = performance.now();
    const out = await runners[id].run();
    const ms = performance.now() - t0;
    return { ms, out: wantOut ? Array.from(out) : null };
  },
  close: (id) => runners[id].close(),
};
globalThis.ready = true;
`;

async function chromiumHost() {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (${SETUP_HINT})`);
  const ortDist = path.join(here, 'node_modules/onnxruntime-web/dist');
  if (!existsSync(ortDist))
    throw new Error(`no ${path.relative(process.cwd(), ortDist)}: tools/bench installs the peers`);
  const { openGpuPage } = await import('../lib/gpu-page.mjs');
  const b = await openGpuPage({ source: PAGE, links: { ort: ortDist } });
  const ev = b.evaluate;
  return {
    async setup(impl, T, { q, k, v }) {
      const r = await ev(
        (a) => globalThis.bench.setup(...a),
        [impl, T, D, CAUSAL, { q: Array.from(q), k: Array.from(k), v: Array.from(v) }],
      );
      return {
        adapter: adapterName(r.adapter),
        call: (wantOut) => ev((a) => globalThis.bench.call(...a), [r.id, wantOut]),
        close: () => ev((id) => globalThis.bench.close(id), r.id),
      };
    },
    close: () => b.close(),
  };
}

/**
 * Rows { impl, host, adapter, B, H, T, d, causal, ms_median, first_ms, max_abs_err, calls } (+ error) for
 * T in `sizes`; `impls` picks from WEBGPU_IMPLS. A host that cannot start gives rows with `error`.
 */
export async function webgpuRows({ sizes = [256, 1024], runs = 5, impls = WEBGPU_IMPLS } = {}) {
  const plan = [
    ['attnlab-webgpu', 'node', nodeHost],
    ['attnlab-webgpu', 'chromium', chromiumHost],
    ['ort-web-webgpu', 'chromium', chromiumHost],
  ].filter(([impl]) => impls.includes(impl));
  const hosts = new Map(); // name -> Promise<host>, opened on first use
  const open = (name, make) => {
    if (!hosts.has(name)) hosts.set(name, make());
    return hosts.get(name);
  };
  const rows = [];
  try {
    for (const T of sizes) {
      const inputs = makeInputs({ B: 1, T });
      const maxErr = reference({ B: 1, T }, inputs);
      const active = [];
      for (const [impl, host, make] of plan) {
        const row = {
          impl,
          host,
          adapter: null,
          B: 1,
          H,
          T,
          d: D,
          causal: CAUSAL,
          ms_median: null,
          first_ms: null,
          max_abs_err: null,
        };
        rows.push(row);
        try {
          const runner = await (await open(host, make)).setup(impl, T, inputs);
          row.adapter = runner.adapter;
          const first = await runner.call(true);
          Object.assign(row, { first_ms: first.ms, max_abs_err: maxErr(first.out) });
          if (!(row.max_abs_err <= TOL)) {
            row.error = `wrong result: max |out - reference| = ${row.max_abs_err} > ${TOL}`;
            await runner.close();
            continue;
          }
          active.push({ row, runner, samples: [] });
        } catch (e) {
          row.error = e.message.split('\n')[0];
        }
      }
      for (let r = 0; r < runs; r++) {
        for (const a of active.filter((x) => !x.row.error)) {
          try {
            a.samples.push((await a.runner.call(false)).ms);
          } catch (e) {
            a.row.error = e.message.split('\n')[0];
          }
        }
      }
      for (const a of active) {
        await a.runner.close().catch(() => {});
        if (a.row.error) continue;
        Object.assign(a.row, { ms_median: median(a.samples), calls: a.samples.length });
      }
    }
  } finally {
    for (const h of hosts.values())
      await h.then(
        (x) => x.close(),
        () => {},
      );
  }
  return rows;
}
