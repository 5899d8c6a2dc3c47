#!/usr/bin/env node
// Times the WebGPU attention path: attnlab-webgpu in Node (Dawn) and in headless Chromium, and
// onnxruntime-web's WebGPU backend (ort-web-webgpu) in the same Chromium, on the same adapter.
// Shapes: B=H=1, d=64, causal, T in --sizes. Every row is checked first: max_abs_err of `out`
// against the double reference (core.attention); timings are medians of --runs calls after one
// warm-up call (first_ms = that call: pipeline/session compile included), upload and readback included.
//
//   LD_LIBRARY_PATH=/usr/lib/chromium VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json \
//     node tools/bench-webgpu.mjs [--sizes 256,1024] [--runs 5] [--no-browser]
//
// On machines without a GPU both hosts use SwiftShader (a CPU emulation of a GPU): such timings
// compare the two kernels on that emulator only and say nothing about real GPUs.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createWebGpuAttention } from '../wasm/webgpu/index.mjs';
import { loadCore } from '../wasm/index.mjs';
import { caseInputs, caseArgs, maxAbsErr } from '../tests/webgpu/harness.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : dflt; };
const sizes = opt('--sizes', '256,1024').split(',').map(Number);
const runs = Number(opt('--runs', 5));
const browser = !argv.includes('--no-browser');
const root = new URL('../', import.meta.url);
const cases = sizes.map((T) => ({ name: `B1_H1_T${T}_d64_causal`, B: 1, H: 1, Tq: T, Tk: T, d: 64, dv: 64, causal: true, scale: null, weights: false, magnitude: 1, seed: T }));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The peers' ONNX graph builder and onnxruntime-web live with tools/benchmark (helper "simd"). */
function ortPaths() {
  for (const dir of ['tools/benchmark/', 'tools/bench/']) {
    const model = new URL(`${dir}onnx.mjs`, root), dist = new URL(`${dir}node_modules/onnxruntime-web/dist/`, root);
    if (existsSync(model) && existsSync(dist)) return { model: fileURLToPath(model), dist: fileURLToPath(dist) };
  }
  return null;
}

async function nodeRows() {
  const gpu = await createWebGpuAttention({ timeoutMs: 20000 });
  try {
    const rows = [];
    for (const c of cases) {
      const args = caseArgs(c);
      let t0 = performance.now();
      const first = await gpu.attentionF32(args);
      const firstMs = performance.now() - t0;
      const times = [];
      for (let r = 0; r < runs; r++) { t0 = performance.now(); await gpu.attentionF32(args); times.push(performance.now() - t0); }
      rows.push({ peer: 'attnlab-webgpu', host: 'node (dawn)', c, firstMs, times, out: first.out });
    }
    return { adapter: gpu.adapterInfo, rows };
  } finally { gpu.destroy(); }
}

// Runs in the page: both peers on the same inputs, one after the other.
const pageSource = (modelPath) => `
import { createWebGpuAttention } from './wasm/webgpu/browser.mjs';
import { caseArgs } from './tests/webgpu/harness.mjs';
${modelPath ? `import { attentionModel } from ${JSON.stringify(modelPath)};` : ''}

async function time(run, runs) {
  let t0 = performance.now();
  const out = await run();
  const firstMs = performance.now() - t0;
  const times = [];
  for (let r = 0; r < runs; r++) { t0 = performance.now(); await run(); times.push(performance.now() - t0); }
  return { firstMs, times, out: Array.from(out) };
}

globalThis.bench = async (cases, runs) => {
  const rows = [], notes = [];
  const gpu = await createWebGpuAttention({ timeoutMs: 20000 });
  for (const c of cases) {
    const args = caseArgs(c);
    rows.push({ peer: 'attnlab-webgpu', c, ...(await time(async () => (await gpu.attentionF32(args)).out, runs)) });
  }
  const adapter = gpu.adapterInfo;
  gpu.destroy();
  ${modelPath ? `
  try {
    const ort = await import('/ort/ort.webgpu.min.mjs');
    ort.env.wasm.wasmPaths = '/ort/';
    ort.env.wasm.numThreads = 1;  // no cross-origin isolation here; the work is on the GPU anyway
    for (const c of cases) {
      const { q, k, v } = caseArgs(c);
      const shape = [c.B, c.H, c.Tq, c.d];
      const session = await ort.InferenceSession.create(attentionModel({ B: c.B, H: c.H, T: c.Tq, d: c.d, causal: c.causal }), { executionProviders: ['webgpu'] });
      const feeds = { Q: new ort.Tensor('float32', q, shape), K: new ort.Tensor('float32', k, shape), V: new ort.Tensor('float32', v, shape) };
      rows.push({ peer: 'ort-web-webgpu', c, ...(await time(async () => (await session.run(feeds)).out.data, runs)) });
      await session.release();
    }
  } catch (e) { notes.push('ort-web-webgpu failed: ' + e.message); }` : `notes.push('ort-web-webgpu skipped: no tools/benchmark (onnx.mjs + onnxruntime-web)');`}
  return { adapter, rows, notes };
};
globalThis.ready = true;
`;

async function browserRows() {
  const { openGpuPage } = await import('../tests/webgpu/chromium.mjs');
  const ort = ortPaths();
  const b = await openGpuPage({ source: pageSource(ort?.model), links: ort ? { ort: ort.dist } : {} });
  try {
    const r = await b.page.evaluate(([cs, n]) => globalThis.bench(cs, n), [cases, runs]);
    r.rows.forEach((row) => { row.host = 'chromium'; });
    if (b.errors.length) r.notes.push(...b.errors.map((e) => `page: ${e}`));
    return r;
  } finally { await b.close(); }
}

const core = await loadCore();
const expected = new Map(cases.map((c) => {
  const { q, k, v } = caseInputs(c);
  const t = (x) => ({ data: Float64Array.from(x), shape: [c.B, c.H, c.Tq, c.d] });
  const mask = { data: core.causalMask(c.Tq).data, shape: [c.Tq, c.Tq] };
  return [c.name, { out: core.attention(t(q), t(k), t(v), { mask }).out.data }];
}));

const results = [await nodeRows()];
if (browser) results.push(await browserRows());

console.log(`attention, B=1 H=1 d=64 causal, float32; median of ${runs} runs after a warm-up; reference: core.attention (${core.flavour}, double)`);
for (const r of results) console.log(`adapter (${r.rows[0]?.host}): ${JSON.stringify(r.adapter)}`);
console.log('| peer | host | T | median_ms | first_ms | max_abs_err |\n|---|---|---:|---:|---:|---:|');
for (const row of results.flatMap((r) => r.rows)) {
  const err = maxAbsErr({ out: row.out }, expected.get(row.c.name));
  console.log(`| ${row.peer} | ${row.host} | ${row.c.Tq} | ${median(row.times).toFixed(1)} | ${row.firstMs.toFixed(0)} | ${err.toExponential(2)} |`);
}
for (const note of results.flatMap((r) => r.notes ?? [])) console.log(`note: ${note}`);
if (results.some((r) => /swiftshader/i.test(r.adapter?.architecture ?? ''))) {
  console.log('SwiftShader emulates a GPU on the CPU: these timings say nothing about real GPUs.');
}
