// Node side of the WebGPU tests: the GPU, or the reason to skip.
import { createWebGpuAttention } from '../../wasm/webgpu/index.mjs';

/**
 * → { gpu, skip }: a WebGPU attention object, or (only with ATTNLAB_ALLOW_NO_GPU=1) null and the
 * reason to skip. Without that variable a missing adapter throws: the tests fail.
 */
export async function nodeGpu() {
  try {
    return { gpu: await createWebGpuAttention({ timeoutMs: 15000 }), skip: false };
  } catch (e) {
    if (process.env.ATTNLAB_ALLOW_NO_GPU !== '1') throw e;
    return { gpu: null, skip: `no WebGPU adapter (${e.message}); skipped because ATTNLAB_ALLOW_NO_GPU=1` };
  }
}
