// Bundled by chromium.test.mjs (esbuild, --loader:.wgsl=text): runs table cases on the browser's
// WebGPU, and reports which backend 'auto' picks here.
import { createWebGpuAttention } from '../../wasm/webgpu/browser.mjs';
import { chooseBackend } from '../../wasm/webgpu/backend.mjs';
import { caseArgs } from '../conformance/harness.mjs';

globalThis.runCases = async (cases) => {
  const gpu = await createWebGpuAttention({ timeoutMs: 15000 });
  try {
    const results = [];
    for (const c of cases) {
      const r = await gpu.attentionF32(caseArgs(c));
      results.push({ out: Array.from(r.out), weights: r.weights ? Array.from(r.weights) : undefined });
    }
    return { adapterInfo: gpu.adapterInfo, results };
  } finally {
    gpu.destroy();
  }
};

// The CPU side is a stand-in: this checks the choice, not the CPU kernels (tested on their own).
globalThis.pickBackend = async () => {
  const be = await chooseBackend({ loadCore: async ({ flavour }) => ({ flavour, attentionF32: () => ({}) }) });
  be.destroy();
  return { name: be.name, reason: be.reason };
};

globalThis.ready = true;
