// Node side of the conformance runners: the table and the double reference for a case.
import fs from 'node:fs';

const root = new URL('../../', import.meta.url);
const TABLE = new URL('tests/conformance/attention.json', root);

export function loadTable() {
  return { table: JSON.parse(fs.readFileSync(TABLE, 'utf8')), source: 'tests/conformance/attention.json' };
}

let corePromise = null;
/** The double reference: core.attention from wasm/index.mjs (the C++ reference through WASM). */
export async function referenceFor() {
  if (!fs.existsSync(new URL('wasm/dist/attnlab.mjs', root))) {
    throw new Error('the double reference needs wasm/dist: run tools/build-wasm first');
  }
  corePromise ??= import(new URL('wasm/index.mjs', root)).then((m) => m.loadCore({ threads: 1 })); // a single-threaded build
  const core = await corePromise;
  return { name: `core.attention (${core.flavour})`, run: (c, inputs) => coreReference(core, c, inputs) };
}

function coreReference(core, c, { q, k, v }) {
  const { B, H, Tq, Tk, d, dv } = c;
  const t = (x, T, w) => ({ data: Float64Array.from(x), shape: [B, H, T, w] });
  const opts = {};
  if (c.scale !== null) opts.scale = c.scale;
  if (c.causal) {
    const mask = new Uint8Array(Tq * Tk); // top-left aligned: query i sees keys j <= i
    for (let i = 0; i < Tq; i++) for (let j = 0; j <= i && j < Tk; j++) mask[i * Tk + j] = 1;
    opts.mask = { data: mask, shape: [Tq, Tk] };
  }
  const r = core.attention(t(q, Tq, d), t(k, Tk, d), t(v, Tk, dv), opts);
  return { out: r.out.data, weights: r.weights.data };
}
