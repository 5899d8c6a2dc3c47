// The grader's public kit for exercise packs: the one module a pack's suite.mjs imports (see
// exercises/README.md for the contract and a worked example). Everything else a test needs arrives
// in its `ctx` (grader/core/grade.mjs):
//   ctx.params, ctx.rng (seeded per test id), ctx.tol, ctx.lang, ctx.t(key, params) (a sentence as data,
//   { key, params }, of the pack's messages.json first, then the core's: rendered when the report is
//   written), ctx.fail(problem, cause) (sentences, never text), ctx.call(fn, ...args) (the
//   student's function, in the sandbox; a timeout is confirmed by a retry), ctx.probe(fn, ...args)
//   (the same for a diagnosis: no retry), ctx.measure(fn, args, { limit }) (the same call, with what it
//   built in np: arrays, bytes, the largest array and its line), ctx.array(value, fn), ctx.tuple(value, fn, names),
//   ctx.mismatch(actual, expected, what), ctx.ref.<name>(...) (the pack's reference functions,
//   reference/bind.cpp), ctx.engine (the shared C++ engine: causalMask, softmax, matmul, attention,
//   causalSelfAttention, attentionLoops, attentionF32), ctx.fast (the float32 fast path), ctx.members
//   (property names the student's code reads with a dot).
import { tensor, sizeOf, mapData, take0, swapLast2, reverseAxes, fmtShape } from '../core/tensor.mjs';
import { compare, close } from '../core/compare.mjs';
import { fmtNum } from '../core/format.mjs';

export { tensor, sizeOf, mapData, take0, swapLast2, reverseAxes, fmtShape, compare, close, fmtNum };

/** A result of the engine or of ctx.ref as a plain tensor ({ data, shape, dtype }). */
export const asTensor = (x) => tensor(x.data, x.shape, x.dtype ?? (x.data instanceof Uint8Array ? 'bool' : 'float64'));

/** Standard normals of `shape` (times `scale`) from the test's own stream. */
export const normals = (ctx, shape, scale = 1) => tensor(ctx.rng.normals(sizeOf(shape), scale), shape);

/** Nested JS arrays of numbers → tensor (the lesson's matrices in spec.json params); strings such as "-Infinity" are numbers. */
export function fromRows(rows) {
  const shape = [];
  for (let r = rows; Array.isArray(r); r = r[0]) shape.push(r.length);
  return tensor(Float64Array.from(rows.flat(Infinity), Number), shape);
}

/** A bool (rows, cols) mask with `f(i, j)` true where attending is allowed. */
export function maskOf(rows, cols, f) {
  const d = new Uint8Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) d[i * cols + j] = f(i, j) ? 1 : 0;
  return tensor(d, [rows, cols], 'bool');
}

/** Does `got` (a tensor, or a list of them) match `expected` of the same structure, within `tol` (NaN equals NaN)? */
export function matches(got, expected, tol) {
  if (Array.isArray(expected))
    return Array.isArray(got) && got.length === expected.length && expected.every((e, i) => matches(got[i], e, tol));
  return !Array.isArray(got) && close(got, expected, tol);
}

/**
 * The classic-mistake recomputation: `mistakes` is a list of { key, params?, run } where run()
 * recomputes the result a mistake would give (with the reference, usually ctx.ref or ctx.engine with
 * other options). → the one { key, params } whose result the student's `got` matches, or null: when
 * no mistake explains it, and also when mistakes with different keys explain it equally (the inputs
 * cannot tell them apart, as at T = 1: naming one would be a guess). A mistake whose recomputation
 * throws (it does not apply to these inputs) is skipped. `got` and each result have the same
 * structure: a tensor, or a list of tensors.
 */
export function explainWhy(got, mistakes, tol) {
  let found = null;
  for (const m of mistakes) {
    if (!m) continue;
    let r;
    try {
      r = m.run();
    } catch {
      continue;
    }
    if (!matches(got, r, tol)) continue;
    if (found && found.key !== m.key) return null;
    found ??= { key: m.key, params: m.params ?? {} };
  }
  return found;
}

/** explainWhy's key alone (null when nothing, or more than one cause, explains `got`). */
export const explain = (got, mistakes, tol) => explainWhy(got, mistakes, tol)?.key ?? null;

/**
 * explainWhy, confirmed on a second input where that is possible: `confirm(key)` (async) calls the
 * student's function on other inputs and says whether the same mistake explains that result too.
 * A cause is named only when it holds on both.
 */
export async function diagnose(got, mistakes, tol, confirm = null) {
  const why = explainWhy(got, mistakes, tol);
  if (!why || !confirm) return why;
  return (await confirm(why.key)) ? why : null;
}

/**
 * Compares a student's result with the expected one, part by part (`names` label the parts of a
 * tuple: ['out', 'weights']); on the first part that differs, fails with what differs, followed by
 * the mistake that explains the whole result (explainWhy()) or by `fallback()`'s key, if any.
 */
export function expect(ctx, got, expected, { names, what = '', mistakes = [], fallback } = {}) {
  const parts = Array.isArray(expected)
    ? expected.map((e, i) => [got[i], e, names?.[i] ?? `[${i}]`])
    : [[got, expected, names?.[0] ?? '']];
  for (const [g, e, name] of parts) {
    const problem = ctx.mismatch(g, e, what && name ? ctx.t('label.part', { what, name }) : what || name);
    if (!problem) continue;
    const why = explainWhy(got, mistakes, ctx.tol) ?? (fallback?.() ? { key: fallback(), params: {} } : null);
    ctx.fail(problem, why && ctx.t(why.key, why.params));
  }
}
