// Picks the backend for the Float32 attention fast path: WebGPU -> WASM SIMD -> plain WASM.
//
//   const be = await chooseBackend({ backend: 'auto' });   // or 'webgpu' | 'simd' | 'wasm'
//   be.name, be.reason                                      // which one runs, and why
//   const { out } = await be.attentionF32({ q, k, v, Tq, d, causal: true });
//   be.destroy();
//
// 'auto' takes the first that loads and, if the GPU is lost later (or a call needs d > 128), runs on
// the CPU instead and says so through onFallback. The switch happens as soon as the device reports the
// loss or an uncaptured error (so a page's badge can say so at once), or at the next call at the
// latest. An explicit choice is never replaced: it fails loudly.
import { createWebGpuAttention, WebGpuUnavailableError } from './index.mjs';
import { loadCore as defaultLoadCore, simdFlavour, BACKEND_NAMES } from '../index.mjs';

/**
 * The loadCore flavour of a CPU backend ('simd': the relaxed-SIMD build where the engine has it, threaded
 * where threads are supported and `threads` (default: the core count) > 1); 'auto' otherwise.
 */
export const flavourFor = (backend, { threads } = {}) =>
  ({ simd: () => simdFlavour({ threads }), wasm: () => 'baseline' })[backend]?.() ?? 'auto';

/** Reads `?backend=` (page) or `--backend X` / `--backend=X` (CLI, bench); 'auto' when absent. */
export function backendFromArgs(source) {
  let v = null;
  if (typeof source === 'string') v = new URLSearchParams(source).get('backend');
  else if (Array.isArray(source)) {
    const i = source.findIndex((a) => a === '--backend' || a.startsWith('--backend='));
    if (i >= 0) v = source[i].includes('=') ? source[i].split('=')[1] : source[i + 1];
  }
  if (v === null || v === undefined) return 'auto';
  if (!BACKEND_NAMES.includes(v)) throw new Error(`backend: "${v}" is not one of ${BACKEND_NAMES.join(', ')}`);
  return v;
}

/**
 * @param {{ backend?: 'auto'|'webgpu'|'simd'|'wasm', gpu?: GPU, timeoutMs?: number, threads?: number,
 *           loadCore?: (opts: {flavour: string, threads?: number}) => Promise<any>, onFallback?: (e: {from, to, reason}) => void }} opts
 *   threads: for the CPU backends (loadCore's option; default: the core count where threads are supported)
 * @returns {Promise<{ name, reason, tried, adapterInfo?, core?, webgpu?, attentionF32(args): Promise<{out, weights?}>, destroy() }>}
 */
export async function chooseBackend({
  backend = 'auto',
  gpu,
  timeoutMs = 10000,
  loadCore = defaultLoadCore,
  onFallback,
  threads,
} = {}) {
  if (!BACKEND_NAMES.includes(backend))
    throw new Error(`chooseBackend: backend "${backend}" is not one of ${BACKEND_NAMES.join(', ')}`);
  const tried = []; // [{ name, error }] for every backend that did not load
  let cur = null,
    be = null; // be is set once chosen: a GPU failure before that shows at the first call
  let switching = null; // the one switch to the CPU, however many failures report it

  async function open(name) {
    if (name === 'webgpu') {
      // Under 'auto' a lost device or an uncaptured error switches to the CPU right away.
      const g = await createWebGpuAttention({
        gpu,
        timeoutMs,
        onError:
          backend === 'auto'
            ? (e) => {
                if (be) fallBack(e).catch(() => {});
              }
            : undefined,
      });
      const a = g.adapterInfo;
      const software = a.isFallbackAdapter || /swiftshader/i.test(`${a.architecture} ${a.device}`);
      return {
        name,
        gpu: g,
        adapterInfo: a,
        detail: `WebGPU adapter ${a.vendor} ${a.architecture}${software ? ' (software rasteriser: no faster than the CPU)' : ''}`,
      };
    }
    const flavour = flavourFor(name, { threads });
    const core = await loadCore({ flavour, threads });
    if (core.flavour !== flavour)
      throw new Error(`loadCore({ flavour: '${flavour}' }) returned the '${core.flavour}' build`);
    if (typeof core.attentionF32 !== 'function') throw new Error('this WASM core has no attentionF32');
    const n = (await core.threadsReady) ?? core.threads?.() ?? 1; // a threaded build's pool starts just after load
    return { name, core, detail: `WASM core, ${core.flavour} build${n > 1 ? `, ${n} threads` : ''}` };
  }
  async function first(names) {
    for (const name of names) {
      try {
        return await open(name);
      } catch (e) {
        tried.push({ name, error: e.message });
      }
    }
    return null;
  }

  const order = backend === 'auto' ? ['webgpu', 'simd', 'wasm'] : [backend];
  cur = await first(order);
  if (!cur)
    throw new Error(
      `chooseBackend(${backend}): nothing loaded: ` + tried.map((t) => `${t.name}: ${t.error}`).join('; '),
    );
  const why = () =>
    (backend === 'auto' ? `auto: ${cur.detail}` : `requested: ${cur.detail}`) +
    (tried.length ? `; unavailable: ${tried.map((t) => `${t.name} (${t.error})`).join(', ')}` : '');

  let cpu = cur.core ? cur : null;
  async function cpuBackend() {
    cpu ??= await first(['simd', 'wasm']);
    if (!cpu) throw new Error('no CPU backend loaded: ' + tried.map((t) => `${t.name}: ${t.error}`).join('; '));
    return cpu;
  }

  // device.lost, uncapturederror and a failing call may all report one failure: switch once.
  function fallBack(e) {
    switching ??= (async () => {
      const from = cur.name;
      cur.gpu.destroy();
      cur = await cpuBackend();
      be.name = cur.name;
      be.core = cur.core;
      be.reason = `fell back from WebGPU to ${cur.name}: ${e.message}`;
      onFallback?.({ from, to: cur.name, reason: be.reason });
    })();
    return switching;
  }

  be = {
    name: cur.name,
    reason: why(),
    tried,
    adapterInfo: cur.adapterInfo ?? null,
    core: cur.core ?? null,
    /** The WebGPU attention object (index.mjs) while WebGPU is in use, else null. */
    get webgpu() {
      return cur.gpu ?? null;
    },
    async attentionF32(args) {
      if (switching) await switching;
      if (cur.core) return cur.core.attentionF32(args);
      const tooBig = cur.gpu.unsupported(args);
      if (tooBig && backend === 'auto') return (await cpuBackend()).core.attentionF32(args);
      try {
        return await cur.gpu.attentionF32(args);
      } catch (e) {
        if (!(e instanceof WebGpuUnavailableError) || backend !== 'auto') throw e;
        await fallBack(e);
        return cur.core.attentionF32(args);
      }
    },
    destroy() {
      cur.gpu?.destroy();
    },
  };
  return be;
}
