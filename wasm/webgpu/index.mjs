// WebGPU host for attention.wgsl: the asynchronous twin of the CPU `core.attentionF32`.
//
//   const gpu = await createWebGpuAttention({ timeoutMs: 10000 });
//   const { out, weights } = await gpu.attentionF32({ q, k, v, B, H, Tq, Tk, d, dv, causal, scale, weights: true });
//   gpu.destroy();
//
// Node: uses npm `webgpu` (Dawn) unless `gpu`/`device` is given; on a machine without a GPU run with
//   LD_LIBRARY_PATH=/usr/lib/chromium VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json
// Browser: import ./browser.mjs instead (it registers the WGSL through esbuild's text loader).

const KERNEL = 'attention.wgsl';
const D_MAX = 128; // = 4 * D4_MAX in attention.wgsl (register arrays)
// Workgroup memory for the K and V tiles. Not the 16 KiB limit: SwiftShader compiles the mandatory
// zero-initialisation of workgroup memory into straight-line code, so a pipeline with 16 KiB took
// ~4 s to build here against ~1 s with 8 KiB, and ran no faster (BK=16 vs 32 at d=64).
const TILE_BYTES = 8192;
// WebGPU enum values are fixed by the spec; spelled out so Node needs no globals.
const USAGE = { MAP_READ: 1, COPY_SRC: 4, COPY_DST: 8, UNIFORM: 64, STORAGE: 128 };
const MAP_READ = 1;
const COMPUTE = 4;

let shaderSources = null;

/** Hands the WGSL text over (browser bundles); Node reads the .wgsl files beside this module. */
export function setShaderSources({ attention }) {
  if (typeof attention !== 'string' || !attention.includes('fn main')) {
    throw new Error('setShaderSources: `attention` must be the text of wasm/webgpu/attention.wgsl');
  }
  shaderSources = { attention };
}

function kernelSource() {
  if (shaderSources) return shaderSources.attention;
  // process.getBuiltinModule (Node >= 20.16) keeps `node:fs` out of browser bundles.
  const fs = globalThis.process?.getBuiltinModule?.('node:fs');
  if (!fs)
    throw new Error(
      `WebGPU attention: no WGSL source; in a browser import wasm/webgpu/browser.mjs (esbuild --loader:.wgsl=text) or call setShaderSources()`,
    );
  return fs.readFileSync(new URL(`./${KERNEL}`, import.meta.url), 'utf8');
}

/** Thrown when the GPU is gone or misbehaved: the caller should fall back to the CPU path. */
export class WebGpuUnavailableError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = 'WebGpuUnavailableError';
  }
}

function withTimeout(promise, ms, what) {
  if (!ms) return promise;
  let timer;
  const t = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new WebGpuUnavailableError(`WebGPU: ${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, t]).finally(() => clearTimeout(timer));
}

async function defaultGpu() {
  if (globalThis.navigator?.gpu) return { gpu: globalThis.navigator.gpu };
  if (!globalThis.process?.versions?.node) {
    throw new WebGpuUnavailableError(
      'WebGPU unavailable: navigator.gpu is undefined (needs a secure context and a browser with WebGPU enabled)',
    );
  }
  const spec = 'webgpu'; // not a literal: bundlers must not pull Dawn's Node addon into a web page
  let mod;
  try {
    mod = await import(spec);
  } catch (e) {
    throw new WebGpuUnavailableError(`WebGPU unavailable in Node: cannot load npm "webgpu" (${e.message})`, {
      cause: e,
    });
  }
  // The object from create() must outlive every GPU call (Dawn crashes at random otherwise): we keep it.
  return { gpu: mod.create([]), node: true };
}

function plainInfo(info) {
  if (!info) return { vendor: 'unknown', architecture: '', device: '', description: '' };
  const { vendor, architecture, device, description, isFallbackAdapter } = info;
  return { vendor, architecture, device, description, isFallbackAdapter: Boolean(isFallbackAdapter) };
}

/** Checks the Float32 fast-path arguments; returns the resolved shape or throws naming the sizes. */
export function checkArgs(args, where = 'attentionF32') {
  if (args === null || typeof args !== 'object')
    throw new TypeError(`${where}: expected an options object { q, k, v, Tq, d, ... }`);
  const { q, k, v, B = 1, H = 1, Tq, causal = false, scale = null, weights = false } = args;
  const Tk = args.Tk ?? Tq;
  const d = args.d;
  const dv = args.dv ?? d;
  for (const [name, x] of Object.entries({ B, H, Tq, Tk, d, dv })) {
    if (!Number.isInteger(x) || x < 1) throw new RangeError(`${where}: ${name} must be a positive integer, got ${x}`);
  }
  const dims = `B=${B}, H=${H}, Tq=${Tq}, Tk=${Tk}, d=${d}, dv=${dv}`;
  for (const [name, x, want, shp] of [
    ['q', q, B * H * Tq * d, '(B,H,Tq,d)'],
    ['k', k, B * H * Tk * d, '(B,H,Tk,d)'],
    ['v', v, B * H * Tk * dv, '(B,H,Tk,dv)'],
  ]) {
    if (!(x instanceof Float32Array))
      throw new TypeError(`${where}: ${name} must be a Float32Array, got ${x?.constructor?.name ?? typeof x}`);
    if (x.length !== want)
      throw new RangeError(`${where}: ${name} has ${x.length} elements but ${shp} with ${dims} needs ${want}`);
  }
  if (scale !== null && !Number.isFinite(scale))
    throw new RangeError(`${where}: scale must be a finite number or null, got ${scale}`);
  return {
    q,
    k,
    v,
    B,
    H,
    Tq,
    Tk,
    d,
    dv,
    causal: Boolean(causal),
    scale: scale ?? 1 / Math.sqrt(d),
    weights: Boolean(weights),
  };
}

/**
 * Acquires an adapter and a device (each bounded by timeoutMs) and returns the attention object.
 * `gpu`: a GPU (navigator.gpu or Dawn's create()); `device`: an existing GPUDevice (not destroyed by us).
 * `callTimeoutMs`: a call whose results are not back by then fails and poisons the object.
 * `onError(err)`: told about device loss and uncaptured errors (they are also logged).
 */
export async function createWebGpuAttention({ gpu, device, timeoutMs = 10000, callTimeoutMs = 60000, onError } = {}) {
  const code = kernelSource();
  let keep = null; // Dawn's GPU object in Node, referenced until destroy()
  let adapterInfo;
  const ownsDevice = !device;
  if (!device) {
    if (!gpu) {
      const g = await defaultGpu();
      gpu = g.gpu;
      if (g.node) keep = gpu;
    }
    const adapter = await withTimeout(
      gpu.requestAdapter({ powerPreference: 'high-performance' }),
      timeoutMs,
      'requestAdapter()',
    );
    if (!adapter) {
      const hint = keep
        ? ' (Node without a GPU: set LD_LIBRARY_PATH=/usr/lib/chromium VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json)'
        : '';
      throw new WebGpuUnavailableError(`WebGPU unavailable: requestAdapter() returned null${hint}`);
    }
    adapterInfo = plainInfo(adapter.info);
    const want = ['maxComputeWorkgroupStorageSize', 'maxStorageBufferBindingSize', 'maxBufferSize'];
    const requiredLimits = Object.fromEntries(want.map((n) => [n, adapter.limits[n]]));
    device = await withTimeout(
      adapter.requestDevice({ requiredLimits, label: 'attnlab' }),
      timeoutMs,
      'requestDevice()',
    );
  } else {
    adapterInfo = plainInfo(device.adapterInfo);
  }

  let failure = null; // once set, every call rejects with it
  let destroyed = false;
  const fail = (err) => {
    if (!failure) failure = err;
    if (destroyed) return;
    console.error(`[attnlab webgpu] ${err.message}`);
    onError?.(err);
  };
  device.lost.then((info) => {
    if (!destroyed) fail(new WebGpuUnavailableError(`WebGPU device lost (${info.reason}): ${info.message}`));
  });
  device.addEventListener('uncapturederror', (ev) => {
    fail(new WebGpuUnavailableError(`WebGPU uncaptured ${ev.error.constructor?.name ?? 'error'}: ${ev.error.message}`));
  });

  const module = device.createShaderModule({ code, label: KERNEL });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length) {
    destroyed = true; // nothing to report about our own device any more
    if (ownsDevice) device.destroy();
    throw new Error(
      `${KERNEL} does not compile:\n` + errors.map((m) => `  ${m.lineNum}:${m.linePos} ${m.message}`).join('\n'),
    );
  }
  const entry = (binding, type) => ({ binding, visibility: COMPUTE, buffer: { type } });
  const layout = device.createBindGroupLayout({
    label: 'attention',
    entries: [entry(0, 'uniform'), entry(1, 'read-only-storage'), entry(2, 'storage'), entry(3, 'storage')],
  });
  const pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [layout] });
  const limits = device.limits;

  // One pipeline per (row capacity bucket, weights?); both staged tiles must fit TILE_BYTES.
  const pipelines = new Map();
  const tileBytes = Math.min(TILE_BYTES, limits.maxComputeWorkgroupStorageSize);
  function tiling(d, dv) {
    let dcap4 = 1;
    while (dcap4 * 4 < Math.max(d, dv)) dcap4 *= 2;
    const bk = Math.min(64, Math.floor(tileBytes / (2 * 16 * dcap4)));
    if (bk < 1)
      throw new RangeError(
        `WebGPU attention: d=${d}, dv=${dv} do not fit ${limits.maxComputeWorkgroupStorageSize} bytes of workgroup memory`,
      );
    return { WG: 64, BK: bk, DCAP4: dcap4 };
  }
  function pipeline(t, withWeights) {
    const key = `${t.DCAP4}/${t.BK}/${withWeights}`;
    if (!pipelines.has(key)) {
      pipelines.set(
        key,
        device.createComputePipelineAsync({
          label: `attention ${key}`,
          layout: pipelineLayout,
          compute: {
            module,
            entryPoint: 'main',
            constants: { WG: t.WG, BK: t.BK, DCAP4: t.DCAP4, WRITE_WEIGHTS: withWeights ? 1 : 0 },
          },
        }),
      );
    }
    return pipelines.get(key);
  }

  // Grow-only buffers, reused across calls; the bind group is rebuilt only when one of them grows.
  const pool = {};
  let bindGroup = null;
  const uniform = device.createBuffer({ label: 'attention shape', size: 48, usage: USAGE.UNIFORM | USAGE.COPY_DST });
  function ensure(name, bytes, usage) {
    const need = Math.max(16, Math.ceil(bytes / 256) * 256);
    if (pool[name] && pool[name].size >= need) return pool[name];
    // Doubling keeps reallocations rare; a storage buffer is bound whole, so it stays under the binding limit.
    const cap = usage & USAGE.STORAGE ? limits.maxStorageBufferBindingSize : limits.maxBufferSize;
    const size = Math.max(need, Math.min(cap, 2 * (pool[name]?.size ?? 0)));
    pool[name]?.destroy();
    pool[name] = device.createBuffer({ label: `attention ${name}`, size, usage });
    bindGroup = null;
    return pool[name];
  }

  async function run(a) {
    if (failure) throw failure;
    const { B, H, Tq, Tk, d, dv } = a;
    const BH = B * H;
    const qOff = 0,
      kOff = a.q.length,
      vOff = kOff + a.k.length;
    const inFloats = vOff + a.v.length,
      outFloats = BH * Tq * dv,
      wFloats = a.weights ? BH * Tq * Tk : 0;
    for (const [what, floats] of [
      ['q, k and v together', inFloats],
      ['out', outFloats],
      ['weights', wFloats],
    ]) {
      if (floats * 4 > limits.maxStorageBufferBindingSize) {
        throw new RangeError(
          `WebGPU attention: ${what} (B=${B}, H=${H}, Tq=${Tq}, Tk=${Tk}, d=${d}, dv=${dv}) need ${floats * 4} bytes, over maxStorageBufferBindingSize ${limits.maxStorageBufferBindingSize}`,
        );
      }
    }
    const t = tiling(d, dv);
    const pipe = await pipeline(t, a.weights);
    const input = ensure('qkv', inFloats * 4, USAGE.STORAGE | USAGE.COPY_DST);
    const out = ensure('out', outFloats * 4, USAGE.STORAGE | USAGE.COPY_SRC);
    const wts = ensure('weights', wFloats * 4, USAGE.STORAGE | USAGE.COPY_SRC);
    const readback = ensure('readback', (outFloats + wFloats) * 4, USAGE.MAP_READ | USAGE.COPY_DST);
    bindGroup ??= device.createBindGroup({
      layout,
      entries: [uniform, input, out, wts].map((buffer, binding) => ({ binding, resource: { buffer } })),
    });

    const u = new Uint32Array(12);
    u.set([BH, Tq, Tk, d, dv, a.causal ? 1 : 0, 0, qOff, kOff, vOff]);
    new Float32Array(u.buffer, 6 * 4, 1)[0] = a.scale;
    const q = device.queue;
    q.writeBuffer(uniform, 0, u);
    q.writeBuffer(input, qOff * 4, a.q);
    q.writeBuffer(input, kOff * 4, a.k);
    q.writeBuffer(input, vOff * 4, a.v);

    device.pushErrorScope('out-of-memory');
    device.pushErrorScope('validation');
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipe);
    pass.setBindGroup(0, bindGroup);
    const y = Math.min(BH, limits.maxComputeWorkgroupsPerDimension);
    pass.dispatchWorkgroups(Math.ceil(Tq / t.WG), y, Math.ceil(BH / y));
    pass.end();
    enc.copyBufferToBuffer(out, 0, readback, 0, outFloats * 4);
    if (wFloats) enc.copyBufferToBuffer(wts, 0, readback, outFloats * 4, wFloats * 4);
    q.submit([enc.finish()]);
    const [validation, oom] = [await device.popErrorScope(), await device.popErrorScope()];
    if (validation || oom) throw new Error(`WebGPU attention: ${(validation ?? oom).message}`);

    const bytes = (outFloats + wFloats) * 4;
    try {
      await withTimeout(
        readback.mapAsync(MAP_READ, 0, bytes),
        callTimeoutMs,
        `attention (B=${B}, H=${H}, Tq=${Tq}, Tk=${Tk}, d=${d})`,
      );
    } catch (e) {
      const err =
        e instanceof WebGpuUnavailableError
          ? e
          : new WebGpuUnavailableError(`WebGPU: reading results failed: ${e.message}`, { cause: e });
      fail(err); // the queue may still hold the work: this object is unusable now
      throw err;
    }
    const all = new Float32Array(readback.getMappedRange(0, bytes));
    const res = { out: all.slice(0, outFloats) }; // fresh copies, the caller owns them
    if (wFloats) res.weights = all.slice(outFloats);
    readback.unmap();
    return res;
  }

  /** null if this object can run the call, else why not (the CPU path can). */
  function unsupported(args) {
    const { d, dv } = checkArgs(args);
    return d > D_MAX || dv > D_MAX
      ? `d=${d}, dv=${dv}: the WebGPU kernel holds rows in registers, d and dv must be <= ${D_MAX}`
      : null;
  }

  let chain = Promise.resolve(); // calls share the pool: run them one at a time
  return {
    adapterInfo,
    device,
    gpu: keep, // Dawn's GPU object (Node): must stay referenced while the device lives
    unsupported,
    get failure() {
      return failure;
    },
    attentionF32(args) {
      let a;
      try {
        a = checkArgs(args);
        const why = unsupported(args);
        if (why) throw new RangeError(`attentionF32 (WebGPU): ${why}`);
      } catch (e) {
        return Promise.reject(e);
      }
      const p = chain.then(() => run(a));
      chain = p.catch(() => {});
      return p;
    },
    /** Releases the buffers; destroys the device only if this object created it. */
    destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const b of [uniform, ...Object.values(pool)]) b.destroy();
      if (ownsDevice) device.destroy();
    },
  };
}
