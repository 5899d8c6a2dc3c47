// The workload every row of tools/bench shares (the CPU table in run.mjs and the WebGPU table in
// webgpu.mjs): the shape constants, the inputs, the check against the double reference, the median.
import { loadCore } from '../../wasm/index.mjs';
import { Rng } from '../../grader/index.mjs';

export const D = 64,
  H = 1,
  CAUSAL = true;
export const TOL = 1e-3; // max |out - reference| accepted (inputs ~ N(0, 1), float32 arithmetic)

// Useful work only: per visible (query, key) pair 2d flops for q.k and 2d for p*v.
export const flops = ({ B, T }) => B * H * (CAUSAL ? (T * (T + 1)) / 2 : T * T) * 4 * D;

export function makeInputs({ B, T }) {
  const rng = new Rng(1000 + T + B); // Q, then K, then V from one Rng, as in the conformance table
  const n = B * H * T * D;
  return {
    q: Float32Array.from(rng.normals(n)),
    k: Float32Array.from(rng.normals(n)),
    v: Float32Array.from(rng.normals(n)),
  };
}

export const refCore = await loadCore({ flavour: 'simd' });

// Reference output rows from core.attention (double precision, C++ through WASM): every row up to
// T = 1024, beyond that 64 rows per (b, h) including the first and the last (the reference holds a
// rows x T score matrix in doubles). Returns got -> max |got - reference| (NaN counts as Infinity).
export function reference({ B, T }, { q, k, v }) {
  const rows =
    T <= 1024 ? [...Array(T).keys()] : [...new Set([...Array(64).keys()].map((n) => Math.round((n * (T - 1)) / 63)))];
  const per = [];
  for (let bh = 0; bh < B * H; bh++) {
    const o = bh * T * D;
    const Q = new Float64Array(rows.length * D);
    rows.forEach((i, r) => Q.set(q.subarray(o + i * D, o + (i + 1) * D), r * D));
    const mask = new Uint8Array(rows.length * T);
    rows.forEach((i, r) => mask.fill(1, r * T, r * T + (CAUSAL ? i + 1 : T)));
    const t = (x) => ({ data: Float64Array.from(x.subarray(o, o + T * D)), shape: [T, D] });
    const { out } = refCore.attention({ data: Q, shape: [rows.length, D] }, t(k), t(v), {
      mask: { data: mask, shape: [rows.length, T] },
    });
    per.push(out.data);
  }
  return (got) => {
    let m = 0;
    per.forEach((want, bh) =>
      rows.forEach((i, r) => {
        for (let x = 0; x < D; x++) {
          const e = Math.abs(got[(bh * T + i) * D + x] - want[r * D + x]);
          m = Math.max(m, Number.isNaN(e) ? Infinity : e);
        }
      }),
    );
    return m;
  };
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b),
    m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
