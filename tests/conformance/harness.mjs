// Conformance-table helpers shared by the Node and the Chromium WebGPU tests (no Node APIs here:
// the Chromium test bundles this file into its page).
import { Rng } from '../../grader/core/prng.mjs';
import { compare } from '../../grader/core/compare.mjs';
import { tensor } from '../../grader/core/tensor.mjs';

export const GPU_T_MAX = 128; // SwiftShader runs compute on the CPU: keep shapes small

/**
 * Cases of the table that `backend` runs: all not listed in table.skip[backend] (each skip has its
 * reason there). Throws if one left is larger than tMax: the table must say why it is skipped.
 */
export function casesFor(table, backend, tMax = GPU_T_MAX) {
  const skip = table.skip?.[backend] ?? {};
  const run = table.cases.filter((c) => !(c.name in skip));
  const big = run.filter((c) => c.Tq > tMax || c.Tk > tMax).map((c) => c.name);
  if (big.length)
    throw new Error(
      `cases with T > ${tMax} need an entry in skip.${backend} (too slow on SwiftShader): ${big.join(', ')}`,
    );
  return run;
}

/** Inputs as the table defines them: Q, then K, then V from one Rng(seed), times magnitude, rounded to f32. */
export function caseInputs(c) {
  const rng = new Rng(c.seed);
  const n = (t, w) => c.B * c.H * t * w;
  const q = Float32Array.from(rng.normals(n(c.Tq, c.d), c.magnitude));
  const k = Float32Array.from(rng.normals(n(c.Tk, c.d), c.magnitude));
  const v = Float32Array.from(rng.normals(n(c.Tk, c.dv), c.magnitude));
  return { q, k, v };
}

/** The Float32 fast-path arguments for a case. */
export function caseArgs(c, inputs = caseInputs(c)) {
  const { B, H, Tq, Tk, d, dv, causal, scale, weights } = c;
  return { ...inputs, B, H, Tq, Tk, d, dv, causal, scale, weights };
}

/**
 * Compares a backend's result with the double reference; returns failure lines (empty = pass).
 * NaN never passes, infinities must match exactly (sign included), nothing non-finite is skipped;
 * under `causal` every masked weight must be exactly 0.
 */
export function compareCase(c, got, expected, { atol, rtol }) {
  const fails = [];
  const tag = `${c.name} (seed ${c.seed})`;
  const check = (what, g, e) => {
    if (!g) return fails.push(`${tag}: ${what} missing`);
    if (g.length !== e.length) return fails.push(`${tag}: ${what} has ${g.length} values, expected ${e.length}`);
    // The grader's allclose (grader/core/compare.mjs): one rule for NaN and infinities everywhere.
    const flat = (x) => tensor(Float64Array.from(x), [x.length]);
    const r = compare(flat(g), flat(e), { atol, rtol });
    if (!r.ok)
      fails.push(
        `${tag}: ${what}[${r.index[0]}] = ${r.actual}, expected ${r.expected} (${r.count} of ${r.total} outside atol ${atol}, rtol ${rtol}; largest finite |err| ${r.maxAbsErr})`,
      );
  };
  check('out', got.out, expected.out);
  if (c.weights) {
    check('weights', got.weights, expected.weights);
    if (c.causal && got.weights) {
      const { Tq, Tk } = c;
      let nonzero = 0,
        first = '';
      for (let bh = 0; bh < c.B * c.H; bh++) {
        for (let i = 0; i < Tq; i++) {
          for (let j = i + 1; j < Tk; j++) {
            const w = got.weights[(bh * Tq + i) * Tk + j];
            if (w !== 0 && nonzero++ === 0) first = `[bh ${bh}, i ${i}, j ${j}] = ${w}`;
          }
        }
      }
      if (nonzero) fails.push(`${tag}: ${nonzero} masked weights are not exactly 0, first ${first}`);
    }
  }
  return fails;
}
