// The shared conformance table on the WebGPU path in Node (npm `webgpu` = Dawn; SwiftShader without a GPU):
//   LD_LIBRARY_PATH=/usr/lib/chromium VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json \
//     node --test tests/webgpu/node.test.mjs
// No adapter is a failure, unless ATTNLAB_ALLOW_NO_GPU=1 (then the tests are skipped, saying why).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createWebGpuAttention, WebGpuUnavailableError } from '../../wasm/webgpu/index.mjs';
import { casesFor, caseInputs, caseArgs, compareCase } from '../conformance/harness.mjs';
import { loadTable, referenceFor } from '../conformance/reference.mjs';
import { nodeGpu } from './node-gpu.mjs';

const { table, source } = loadTable();
const cases = casesFor(table, 'webgpu');
const tol = table.tolerances.webgpu;

const { gpu, skip } = await nodeGpu();
after(() => gpu?.destroy());
const opts = { skip };

test(`conformance table ${source} on WebGPU`, opts, async (t) => {
  const ref = await referenceFor();
  t.diagnostic(
    `adapter: ${JSON.stringify(gpu.adapterInfo)}; reference: ${ref.name}; ${cases.length} of ${table.cases.length} cases (the rest in skip.webgpu)`,
  );
  assert.ok(cases.length > 0, 'no case selected for webgpu');
  for (const c of cases) {
    await t.test(c.name, async () => {
      const inputs = caseInputs(c);
      const got = await gpu.attentionF32(caseArgs(c, inputs));
      assert.deepEqual(compareCase(c, got, ref.run(c, inputs), tol), []);
    });
  }
});

test('the widest rows the kernel holds (d = dv = 128), with odd T', opts, async () => {
  const ref = await referenceFor();
  const c = {
    name: 'B1_H1_Tq33_Tk47_d128_causal_weights',
    B: 1,
    H: 1,
    Tq: 33,
    Tk: 47,
    d: 128,
    dv: 128,
    causal: true,
    scale: null,
    weights: true,
    magnitude: 1,
    seed: 2024,
  };
  const inputs = caseInputs(c);
  assert.deepEqual(compareCase(c, await gpu.attentionF32(caseArgs(c, inputs)), ref.run(c, inputs), tol), []);
});

test('buffers and pipelines are reused: repeated and overlapping calls give identical results', opts, async () => {
  const pick = cases.filter((c) => c.Tq <= 32).slice(0, 3);
  const first = [];
  for (const c of pick) first.push(await gpu.attentionF32(caseArgs(c)));
  const again = await Promise.all(pick.map((c) => gpu.attentionF32(caseArgs(c))));
  for (let n = 0; n < pick.length; n++) assert.deepEqual(again[n], first[n], pick[n].name);
});

test('bad arguments reject with the sizes named', opts, async () => {
  const q = new Float32Array(2 * 3 * 4),
    k = new Float32Array(2 * 3 * 4),
    v = new Float32Array(2 * 3 * 4);
  await assert.rejects(
    gpu.attentionF32({ q, k: k.subarray(1), v, B: 2, Tq: 3, d: 4 }),
    /k has 23 elements but \(B,H,Tk,d\) with B=2, H=1, Tq=3, Tk=3, d=4, dv=4 needs 24/,
  );
  await assert.rejects(
    gpu.attentionF32({ q: Array.from(q), k, v, B: 2, Tq: 3, d: 4 }),
    /q must be a Float32Array, got Array/,
  );
  await assert.rejects(gpu.attentionF32({ q, k, v, B: 2, Tq: 0, d: 4 }), /Tq must be a positive integer, got 0/);
  const big = new Float32Array(129);
  await assert.rejects(gpu.attentionF32({ q: big, k: big, v: big, Tq: 1, d: 129 }), /d and dv must be <= 128/);
});

test('a lost device makes later calls reject with WebGpuUnavailableError (callers fall back)', opts, async () => {
  const seen = [];
  const other = await createWebGpuAttention({ timeoutMs: 15000, onError: (e) => seen.push(e) });
  const log = console.error;
  console.error = () => {}; // the loss is logged loudly; keep the test output readable
  try {
    other.device.destroy(); // behind the object's back, as a driver reset would
    await other.device.lost;
  } finally {
    console.error = log;
  }
  assert.equal(seen.length, 1);
  await assert.rejects(
    other.attentionF32(caseArgs(cases[0])),
    (e) => e instanceof WebGpuUnavailableError && /device lost/.test(e.message),
  );
  other.destroy();
});
