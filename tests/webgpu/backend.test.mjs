// Backend choice (wasm/webgpu/backend.mjs): order WebGPU -> SIMD -> WASM, explicit overrides, and the
// fall-back when the GPU is lost. The CPU side is a recording stand-in for loadCore, so the choice is
// tested without wasm/dist; the conformance of each CPU build is tested by its own table runner.
//   LD_LIBRARY_PATH=/usr/lib/chromium VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json \
//     node --test tests/webgpu/backend.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseBackend, backendFromArgs } from '../../wasm/webgpu/backend.mjs';
import { caseArgs } from '../conformance/harness.mjs';
import { nodeGpu } from './node-gpu.mjs';

const probe = await nodeGpu(); // tests that need an adapter skip only with ATTNLAB_ALLOW_NO_GPU=1
probe.gpu?.destroy();
const needsGpu = { skip: probe.skip };

const noAdapter = { requestAdapter: async () => null };
const small = {
  B: 1,
  H: 1,
  Tq: 3,
  Tk: 3,
  d: 4,
  dv: 4,
  causal: true,
  scale: null,
  weights: false,
  magnitude: 1,
  seed: 1,
};

/** loadCore stand-in: `have` lists the flavours that load; calls are recorded. threads: 1 below keeps
 *  the single-threaded builds (the threaded ones have their own test). */
function cores(have) {
  const calls = [];
  const loadCore = async ({ flavour, threads }) => {
    calls.push(flavour);
    if (!have.includes(flavour)) throw new Error(`${flavour} build missing`);
    return {
      flavour,
      threads: () => (flavour.endsWith('-mt') ? threads : 1),
      attentionF32: (a) => ({ out: new Float32Array(a.Tq * (a.dv ?? a.d)).fill(flavour === 'simd' ? 1 : 2) }),
    };
  };
  return { loadCore, calls };
}

test('with threads > 1 the SIMD backend asks for the threaded build, and the reason names the threads', async () => {
  const r = cores(['simd-mt', 'relaxed-mt', 'simd', 'baseline']);
  const be = await chooseBackend({ backend: 'simd', loadCore: r.loadCore, threads: 3 });
  assert.match(r.calls[0], /^(relaxed|simd)-mt$/); // Node 20.16+ has worker threads
  assert.match(be.reason, /^requested: WASM core, (relaxed|simd)-mt build, 3 threads$/);
});

test('auto picks WebGPU when an adapter exists and names it', needsGpu, async () => {
  const { loadCore, calls } = cores(['simd', 'baseline']);
  const be = await chooseBackend({ loadCore, threads: 1 });
  try {
    assert.equal(be.name, 'webgpu');
    assert.match(be.reason, /^auto: WebGPU adapter \S+/);
    assert.deepEqual(calls, []); // the CPU core is not loaded until needed
    assert.equal((await be.attentionF32(caseArgs(small))).out.length, 12);
  } finally {
    be.destroy();
  }
});

test('auto without an adapter takes SIMD, then plain WASM, and says why', async () => {
  let r = cores(['simd', 'baseline']);
  let be = await chooseBackend({ gpu: noAdapter, loadCore: r.loadCore, threads: 1 });
  assert.equal(be.name, 'simd');
  assert.match(
    be.reason,
    /auto: WASM core, simd build; unavailable: webgpu \(WebGPU unavailable: requestAdapter\(\) returned null\)/,
  );
  r = cores(['baseline']);
  be = await chooseBackend({ gpu: noAdapter, loadCore: r.loadCore, threads: 1 });
  assert.equal(be.name, 'wasm');
  assert.deepEqual(r.calls, ['simd', 'baseline']);
  assert.match(be.reason, /simd \(simd build missing\)/);
  assert.deepEqual(Array.from((await be.attentionF32(caseArgs(small))).out.subarray(0, 2)), [2, 2]);
});

test('an explicit backend is used as asked or fails loudly', async () => {
  const r = cores(['simd', 'baseline']);
  assert.equal((await chooseBackend({ backend: 'wasm', loadCore: r.loadCore, threads: 1 })).name, 'wasm');
  assert.deepEqual(r.calls, ['baseline']);
  await assert.rejects(
    chooseBackend({ backend: 'webgpu', gpu: noAdapter, loadCore: r.loadCore, threads: 1 }),
    /chooseBackend\(webgpu\): nothing loaded: webgpu: WebGPU unavailable: requestAdapter\(\) returned null/,
  );
  await assert.rejects(
    chooseBackend({ backend: 'simd', loadCore: cores([]).loadCore, threads: 1 }),
    /simd: simd build missing/,
  );
  await assert.rejects(chooseBackend({ backend: 'cuda' }), /"cuda" is not one of auto, webgpu, simd, wasm/);
});

test('auto falls back to the CPU when the device is lost, and reports it', needsGpu, async () => {
  const { loadCore } = cores(['simd', 'baseline']);
  const seen = [];
  const be = await chooseBackend({ loadCore, onFallback: (e) => seen.push(e), threads: 1 });
  try {
    assert.equal(be.name, 'webgpu');
    // d > 128 does not fit the kernel's registers: that call alone runs on the CPU
    assert.equal((await be.attentionF32(caseArgs({ ...small, d: 130, dv: 130 }))).out[0], 1);
    assert.equal(be.name, 'webgpu');
    const { device } = be.webgpu;
    const log = console.error;
    console.error = () => {}; // the loss is logged loudly; keep the test output readable
    try {
      device.destroy(); // behind the backend's back, as a driver reset would
      await device.lost;
    } finally {
      console.error = log;
    }
    assert.equal((await be.attentionF32(caseArgs(small))).out[0], 1);
    assert.equal(be.name, 'simd');
    assert.equal(be.webgpu, null);
    assert.match(be.reason, /^fell back from WebGPU to simd: WebGPU device lost \(destroyed\)/);
    assert.deepEqual(
      seen.map((e) => [e.from, e.to]),
      [['webgpu', 'simd']],
    );
  } finally {
    be.destroy();
  }
});

test('--backend and ?backend= are parsed, bad values named', () => {
  assert.equal(backendFromArgs(['grade', 'x.js', '--backend', 'simd']), 'simd');
  assert.equal(backendFromArgs(['--backend=webgpu']), 'webgpu');
  assert.equal(backendFromArgs('?backend=wasm&lang=ru'), 'wasm');
  assert.equal(backendFromArgs('?lang=ru'), 'auto');
  assert.throws(() => backendFromArgs('?backend=gpu'), /"gpu" is not one of auto, webgpu, simd, wasm/);
});
