// The page's compute backend for the float32 fast path: WebGPU → WASM SIMD → plain WASM
// (wasm/webgpu/backend.mjs), `?backend=webgpu|simd|wasm|auto` overrides; the WASM builds run on the
// core count's threads where the page is cross-origin isolated, `?threads=N` overrides. Only the Scale
// panel computes with it; grading and the heatmap's reference always use the double-precision core.attention.
import '../../wasm/webgpu/browser.mjs'; // registers the WGSL kernel (bundled as text) before any device use
import { chooseBackend, backendFromArgs, flavourFor } from '../../wasm/webgpu/backend.mjs';
import { BACKENDS, FLAVOURS, threadsSupported } from '../../wasm/index.mjs';

/** What a loaded core's build is called on the page (FLAVOURS' label). */
export const flavourLabel = (flavour) => FLAVOURS[flavour]?.label ?? 'WASM';

/**
 * Reads `?backend=` and `?threads=N`; a bad value is named and the default used instead (the page
 * must still work). → { backend, threads, flavour, warning }; `flavour` is the grading core's build:
 * a forced CPU backend also decides it, so `?backend=wasm` loads (and grades with) the plain build
 * only. `threads` (undefined: the core count) is the threaded build's; 1 picks a single-threaded one.
 */
export function backendParam(search) {
  let backend = 'auto',
    threads,
    warning = null;
  try {
    backend = backendFromArgs(search);
  } catch (e) {
    warning = `?${e.message}; using auto`;
  }
  const t = new URLSearchParams(search).get('threads');
  if (t !== null) {
    if (/^[1-9]\d{0,2}$/.test(t)) threads = Number(t);
    else
      warning = [warning, `?threads=${t} is not a whole number from 1 to 999; using the core count`]
        .filter(Boolean)
        .join('\n');
  }
  return { backend, threads, flavour: flavourFor(backend, { threads }), warning };
}

/** Why the CPU build has the threads it has (for the badge's title). */
export function threadsNote(core, threads) {
  const n = core?.threads?.() ?? 1;
  if (core?.threadsError) return `one thread: ${core.flavour} started no threads: ${core.threadsError}`;
  if (n > 1) return `${n} threads: the page is cross-origin isolated${threads ? ` (?threads=${threads})` : ''}`;
  if (!threadsSupported()) return 'one thread: the page is not cross-origin isolated (no SharedArrayBuffer)';
  return threads === 1 ? 'one thread (?threads=1)' : 'one thread';
}

/**
 * Chooses the backend. `onChange(info)` is called with the choice, and again if WebGPU fails later
 * and 'auto' moves to the CPU. info: { name, label, threads, reason, fallback, failed, be }; threads:
 * those of the CPU backend's build (1 for WebGPU).
 */
export async function pickBackend({ backend, threads, loadCore, onChange }) {
  let be = null;
  const cpuThreads = () => be?.core?.threads?.() ?? 1;
  try {
    be = await chooseBackend({
      backend,
      loadCore,
      threads,
      onFallback: ({ to, reason }) =>
        onChange({
          name: to,
          label: `WebGPU → ${BACKENDS[to].label}`,
          threads: cpuThreads(),
          reason,
          fallback: true,
          be,
        }),
    });
    onChange({
      name: be.name,
      label: BACKENDS[be.name].label,
      threads: cpuThreads(),
      reason: be.reason,
      fallback: false,
      be,
    });
    return be;
  } catch (e) {
    // an explicit backend that is not there: said on the badge, the page keeps grading
    onChange({
      name: backend,
      label: `${BACKENDS[backend]?.label ?? backend} ✗`,
      threads: 1,
      reason: e.message,
      failed: true,
      be: null,
    });
    return null;
  }
}

/** True when the adapter is a software rasteriser (SwiftShader): its timings say nothing about GPUs. */
export const softwareAdapter = (info) =>
  Boolean(
    info && (info.isFallbackAdapter || /swiftshader/i.test(`${info.architecture} ${info.device} ${info.description}`)),
  );
