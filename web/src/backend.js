// The page's compute backend for the float32 fast path: WebGPU → WASM SIMD → plain WASM
// (wasm/webgpu/backend.mjs), `?backend=webgpu|simd|wasm|auto` overrides. Only the Scale panel computes
// with it; grading and the heatmap's reference always use the double-precision core.attention.
import '../../wasm/webgpu/browser.mjs'; // registers the WGSL kernel (bundled as text) before any device use
import { chooseBackend, backendFromArgs, flavourFor } from '../../wasm/webgpu/backend.mjs';

export const LABEL = { webgpu: 'WebGPU', simd: 'WASM SIMD', wasm: 'WASM' };
/** What a loaded core's build is called on the page. */
export const flavourLabel = (flavour) => ({ relaxed: 'WASM SIMD (relaxed)', simd: 'WASM SIMD' })[flavour] ?? 'WASM';

/**
 * Reads `?backend=`; a bad value is named and 'auto' used instead (the page must still work).
 * → { backend, flavour, warning }; `flavour` is the grading core's build: a forced CPU backend also
 * decides it, so `?backend=wasm` loads (and grades with) the plain build only.
 */
export function backendParam(search) {
  let backend = 'auto', warning = null;
  try { backend = backendFromArgs(search); } catch (e) { warning = `?${e.message}; using auto`; }
  return { backend, flavour: flavourFor(backend), warning };
}

/**
 * Chooses the backend. `onChange(info)` is called with the choice, and again if WebGPU fails later
 * and 'auto' moves to the CPU. info: { name, label, reason, fallback, failed, be }.
 */
export async function pickBackend({ backend, loadCore, onChange }) {
  let be = null;
  try {
    be = await chooseBackend({
      backend, loadCore,
      onFallback: ({ to, reason }) => onChange({ name: to, label: `WebGPU → ${LABEL[to]}`, reason, fallback: true, be }),
    });
    onChange({ name: be.name, label: LABEL[be.name], reason: be.reason, fallback: false, be });
    return be;
  } catch (e) { // an explicit backend that is not there: said on the badge, the page keeps grading
    onChange({ name: backend, label: `${LABEL[backend] ?? backend} ✗`, reason: e.message, failed: true, be: null });
    return null;
  }
}

/** True when the adapter is a software rasteriser (SwiftShader): its timings say nothing about GPUs. */
export const softwareAdapter = (info) => Boolean(info && (info.isFallbackAdapter || /swiftshader/i.test(`${info.architecture} ${info.device} ${info.description}`)));
