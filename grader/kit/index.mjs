// The grader's public kit for exercise packs: the one module a pack's suite.mjs imports (see
// exercises/README.md for the contract and a worked example). Everything else a test needs arrives
// in its `ctx` (grader/core/grade.mjs):
//   ctx.params, ctx.rng (seeded per test id), ctx.tol, ctx.lang, ctx.t(key, params) (a sentence as data,
//   { key, params }, of the pack's messages.json first, then the core's: rendered when the report is
//   written), ctx.fail(problem, cause) (sentences, never text), ctx.call(fn, ...args) (the
//   student's function, in the sandbox; a timeout is confirmed by a retry), ctx.probe(fn, ...args)
//   (the same for a diagnosis: no retry), ctx.measure(fn, args, { limit }) (the same call, with what it
//   built in np: arrays, bytes, the largest array and its line), ctx.array(value, fn), ctx.tuple(value, fn, names),
//   ctx.mismatch(actual, expected, what), ctx.diagnose(got, fn, args, { extra, recompute, confirm }) (the
//   cause that explains a wrong result, or null), ctx.ref.<name>(...) (the pack's reference functions,
//   reference/bind.cpp), ctx.engine (the shared C++ engine: causalMask, softmax, matmul, attention,
//   causalSelfAttention, attentionLoops, attentionF32), ctx.fast (the float32 fast path), ctx.members
//   (property names the student's code reads with a dot).
import { tensor, sizeOf, mapData, take0, swapLast2, reverseAxes, fmtShape } from '../core/tensor.mjs';
import { compare, close } from '../core/compare.mjs';
import { matches } from '../core/diagnose.mjs';
import { fmtNum } from '../core/format.mjs';

export { tensor, sizeOf, mapData, take0, swapLast2, reverseAxes, fmtShape, compare, close, matches, fmtNum };

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

/**
 * Compares a student's result with the expected one, part by part (`names` label the parts of a
 * tuple: ['out', 'weights']); on the first part that differs, fails with what differs, followed by
 * the cause ctx.diagnose(got, fn, args, { extra, recompute }) names for the whole result, else
 * `fallback()`'s sentence, if any.
 * @param {any} ctx
 * @param {any} got
 * @param {any} expected
 * @param {{ names?: string[], what?: any, fn?: string | null, args?: unknown[] | null, extra?: object[],
 *   recompute?: (options: object) => unknown, fallback?: () => unknown }} [options]
 */
export function expect(
  ctx,
  got,
  expected,
  { names, what = '', fn = null, args = null, extra, recompute, fallback } = {},
) {
  const parts = Array.isArray(expected)
    ? expected.map((e, i) => [got[i], e, names?.[i] ?? `[${i}]`])
    : [[got, expected, names?.[0] ?? '']];
  for (const [g, e, name] of parts) {
    const problem = ctx.mismatch(g, e, what && name ? ctx.t('label.part', { what, name }) : what || name);
    if (!problem) continue;
    ctx.fail(problem, ctx.diagnose(got, fn, args, { extra, recompute }) ?? fallback?.() ?? null);
  }
}
