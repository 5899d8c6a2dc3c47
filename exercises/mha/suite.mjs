// The seven graded tests of the multi-head attention exercise (ids as in spec.json), on the grader's
// kit. Inputs: seeded per test id (ctx.rng) or the hand example of spec.json. Expected values: the C++
// reference (reference/mha.hpp through ctx.ref). A wrong result names the mistake that explains all of
// it: the reference recomputed with the options spec.json declares ("mistakes"), or with the causal
// flag flipped (code candidates below), on inputs where no two of them coincide (T > 1, d_head > 1,
// several heads, d_head ≠ d_model).
import { normals, fromRows, expect, close, take0, fmtShape, asTensor as T_ } from '../../grader/kit/index.mjs';

/** @typedef {import('./ref').Ref} Ref */
/** @typedef {import('../../grader/types').Ctx<Ref>} Ctx */
// A spread of a list built at run time is cast to the arguments it stands for (tsc cannot count its items).
/** @template {keyof Ref} F @typedef {Parameters<Ref[F]>} Args */
/** @typedef {[any, any, any, any]} Four */
/** @typedef {[any, any, any, any, any]} Five */
/** @typedef {[any, any, any, any, any, any]} Six */
/** @typedef {[any, any, any, any, any, any, any]} Seven */

const PAIR = ['out', 'weights'];
const FUNCTIONS = ['split_heads', 'merge_heads', 'multi_head_attention'];
const MHA = 'multi_head_attention';

/**
 * X (…lead, T, d_model) and four (d_model, d_model) projections scaled so that scores stay moderate.
 * @param {Ctx} ctx
 */
function mhaInputs(ctx, lead, T, d) {
  const s = 1 / Math.sqrt(d);
  return {
    X: normals(ctx, [...lead, T, d]),
    Wq: normals(ctx, [d, d], s),
    Wk: normals(ctx, [d, d], s),
    Wv: normals(ctx, [d, d], s),
    Wo: normals(ctx, [d, d], s),
  };
}

/**
 * A float where Python wants an integer (a shape, `range`, an index): on the Python track `d_model / n_heads`
 * is 2.0, not 2, and reshape refuses it (JavaScript has one number type, so this never happens there).
 */
const FLOAT_AS_INT =
  /'float' object cannot be interpreted as an integer|can't convert float to int|indices must be integers.*\bfloat\b|slice indices must be integers/;

/**
 * Calls the student's `fn`; when it raises, the failure adds what the error says about the code:
 * `missingArg` (a key) when Python refused the call for its number of arguments (a parameter without
 * a default), a float where Python wants an integer (`/` made it), and with `dotT`, `.T` when the code
 * reads it (it reverses every axis of a (…, H, T, d_head) array).
 * @param {Ctx} ctx
 */
async function callStudent(ctx, fn, args, { dotT = false, missingArg = null } = {}) {
  try {
    return await ctx.call(fn, ...args);
  } catch (e) {
    if (!e.raised) throw e;
    if (missingArg && /positional argument/.test(e.raised)) ctx.fail(e.said, ctx.t(missingArg));
    if (ctx.track === 'python' && FLOAT_AS_INT.test(e.raised)) ctx.fail(e.said, ctx.t('d.int_division'));
    if (dotT && ctx.members.has('T')) ctx.fail(e.said, ctx.t('d.dot_T'));
    throw e;
  }
}

/**
 * The student's multi_head_attention as an [out, weights] pair.
 * @param {Ctx} ctx
 */
async function callMha(ctx, args, options = {}) {
  return ctx.tuple(await callStudent(ctx, MHA, args, { dotT: true, ...options }), MHA, PAIR);
}

/**
 * Why an [out, weights] result is wrong: the declared mistakes, then the causal flag the other way.
 * @param {Ctx} ctx
 */
function mhaCause(ctx, got, args) {
  const causal = args[6] ?? true;
  const flipped = [...args.slice(0, 6), !causal];
  return ctx.diagnose(got, MHA, args, {
    extra: [
      {
        key: causal ? 'd.no_causal_mask' : 'd.causal_ignored',
        run: () => ctx.ref[MHA](.../** @type {Args<typeof MHA>} */ (flipped)),
      },
    ],
  });
}

/**
 * Compares [out, weights] with the expected pair, weights first (a wrong split or scale shows there;
 * right weights with a wrong out point at the merge or W_o). On a mismatch: what differs, then `why()`,
 * the cause that explains both parts (a sentence, or null).
 * @param {Ctx} ctx
 */
function expectPair(ctx, got, expected, why, { label = null } = {}) {
  const name = (part) => (label ? ctx.t('label.part', { what: part, name: label }) : part);
  const problem = ctx.mismatch(got[1], expected[1], name('weights')) || ctx.mismatch(got[0], expected[0], name('out'));
  if (problem) ctx.fail(problem, why());
}

const mhaArgs = ({ X, Wq, Wk, Wv, Wo }, n_heads, causal) => [X, Wq, Wk, Wv, Wo, n_heads, causal];

// ---------------------------------------------------------------------------------------------

/** @param {Ctx} ctx */
export async function split_blocks(ctx) {
  for (const { shape, n_heads } of ctx.params.cases) {
    const x = normals(ctx, shape);
    const got = ctx.array(await callStudent(ctx, 'split_heads', [x, n_heads]), 'split_heads');
    expect(ctx, got, ctx.ref.split_heads(x, n_heads), {
      what: `split_heads(x, ${n_heads}), x ${fmtShape(shape)}`,
      fn: 'split_heads',
      args: [x, n_heads],
    });
  }
}

/** @param {Ctx} ctx */
export async function merge_inverse(ctx) {
  const x = normals(ctx, ctx.params.shape);
  const got = ctx.array(await callStudent(ctx, 'merge_heads', [x]), 'merge_heads');
  expect(ctx, got, ctx.ref.merge_heads(x), {
    what: `merge_heads(x), x ${fmtShape(x.shape)}`,
    fn: 'merge_heads',
    args: [x],
  });

  // merge_heads undoes split_heads (the reference's): y comes back exactly.
  const { shape, n_heads } = ctx.params.round_trip;
  const y = normals(ctx, shape);
  const heads = T_(ctx.ref.split_heads(y, n_heads));
  const back = ctx.array(await callStudent(ctx, 'merge_heads', [heads]), 'merge_heads');
  expect(ctx, back, y, {
    what: `merge_heads(split_heads(y, ${n_heads})), y ${fmtShape(shape)}`,
    fn: 'merge_heads',
    args: [heads],
  });
}

/** @param {Ctx} ctx */
export async function hand_example(ctx) {
  const p = ctx.params;
  const args = [p.X, p.W_q, p.W_k, p.W_v, p.W_o].map(fromRows).concat([p.n_heads, true]);
  const got = await callMha(ctx, args);
  expectPair(ctx, got, ctx.ref[MHA](.../** @type {Seven} */ (args)), () => mhaCause(ctx, got, args));
}

/** @param {Ctx} ctx */
export async function causal_heads(ctx) {
  const { B, T, d_model, n_heads } = ctx.params;
  const inputs = mhaInputs(ctx, [B], T, d_model);
  const args = mhaArgs(inputs, n_heads, true);
  const expected = ctx.ref[MHA](.../** @type {Args<typeof MHA>} */ (args));
  const withCausal = await callMha(ctx, args);
  expectPair(ctx, withCausal, expected, () => mhaCause(ctx, withCausal, args));

  // The same call without `causal`: the default is true. In Python a parameter without a default makes
  // this call raise for its number of arguments (the first call, with causal, ran the same code).
  const plain = args.slice(0, 6);
  const got = await callMha(ctx, plain, { missingArg: 'd.causal_no_default' });
  const causalDefault = { key: 'd.causal_default', run: () => ctx.ref[MHA](.../** @type {Six} */ (plain), false) };
  expectPair(ctx, got, expected, () => ctx.diagnose(got, null, null, { extra: [causalDefault] }), {
    label: ctx.t('label.without_causal'),
  });
}

/** @param {Ctx} ctx */
export async function non_causal(ctx) {
  const { T, d_model, n_heads } = ctx.params;
  const args = mhaArgs(mhaInputs(ctx, [], T, d_model), n_heads, false);
  const got = await callMha(ctx, args);
  expectPair(ctx, got, ctx.ref[MHA](.../** @type {Args<typeof MHA>} */ (args)), () => mhaCause(ctx, got, args));
}

/** @param {Ctx} ctx */
export async function batch(ctx) {
  const { B, T, d_model, n_heads } = ctx.params;
  const args = mhaArgs(mhaInputs(ctx, [B], T, d_model), n_heads, true);
  const got = await callMha(ctx, args);
  const expected = ctx.ref[MHA](.../** @type {Args<typeof MHA>} */ (args));
  // When sample 0 is right and a later one is not, say so if no classic mistake explains it.
  const laterSample = () => {
    if (got[0].shape.join() !== expected[0].shape.join()) return null;
    const bad = Array.from({ length: B }, (_, b) => !close(take0(got[0], b), take0(expected[0], b), ctx.tol));
    const b = bad.indexOf(true);
    return b > 0 ? ctx.t('batch.sample', { b }) : null;
  };
  expectPair(ctx, got, expected, () => mhaCause(ctx, got, args) ?? laterSample());
}

/** An error message from np ("ValueError: reshape: …") or from JavaScript itself, not the student's own check. */
function foreignError(message) {
  const m = /^(ValueError|AxisError|IndexError|TypeError|RangeError|ReferenceError): (?:([A-Za-z_.]+): )?/.exec(
    message,
  );
  if (!m || FUNCTIONS.includes(m[2])) return false;
  return !/d_model|n_heads/.test(message.slice(m[0].length));
}

// Python: `raise ValueError(...)` is how code says "bad input", so a ValueError (or an AssertionError,
// RuntimeError, Exception, …) in the student's own words is theirs. numpy's errors name their function
// first ("ValueError: reshape: …"); the interpreter's own are the types below, or a ValueError in its
// own wording (an unpacking that does not fit, math.sqrt of a negative, max() of an empty list).
const PY_INTERPRETER =
  /^(IndexError|KeyError|AttributeError|NameError|UnboundLocalError|ZeroDivisionError|OverflowError|RecursionError): /;
const PY_VALUE_WORDING =
  /^ValueError: .*(values to unpack|math domain error|empty sequence|not in (list|sequence)|invalid syntax for)/;

/** The same on the Python track: numpy's error or the interpreter's, not the student's own check. */
function foreignErrorPython(message) {
  const m = /^(\w+): (?:([a-z_][a-z0-9_.]*): )?/.exec(message);
  if (!m) return false;
  const sizes = /d_model|n_heads/.test(message.slice(m[1].length));
  if (m[2]) return !FUNCTIONS.includes(m[2]) && !sizes; // "ValueError: reshape: …"
  if (PY_INTERPRETER.test(message) || PY_VALUE_WORDING.test(message)) return true;
  return m[1] === 'TypeError' && !sizes; // a TypeError of their own names what it checks
}

/**
 * The call must throw an error of the student's own: d_model is not a multiple of n_heads.
 * @param {Ctx} ctx
 */
async function expectOwnError(ctx, fn, args, call) {
  const { d_model, n_heads } = ctx.params;
  let value;
  try {
    value = await ctx.call(fn, ...args);
  } catch (e) {
    if (!e.raised) throw e; // not implemented, too slow, …: reported as usual
    if ((ctx.track === 'python' ? foreignErrorPython : foreignError)(e.raised))
      ctx.fail(ctx.t('indivisible.foreign', { call, d_model, n_heads, message: e.raised }), ctx.t('d.no_check'));
    return;
  }
  let what;
  try {
    const r = Array.isArray(value) && value.length === 2 ? ctx.array(value[0], fn) : ctx.array(value, fn);
    what = ctx.t('indivisible.shape', { shape: fmtShape(r.shape) });
  } catch {
    what = ctx.t('indivisible.value');
  }
  ctx.fail(ctx.t('indivisible.returned', { call, d_model, n_heads, what }), ctx.t('d.no_check'));
}

/** @param {Ctx} ctx */
export async function indivisible(ctx) {
  const { B, T, d_model, n_heads } = ctx.params;
  const x = normals(ctx, [B, T, d_model]);
  await expectOwnError(ctx, 'split_heads', [x, n_heads], `split_heads(x, ${n_heads})`);
  const inputs = mhaInputs(ctx, [B], T, d_model);
  await expectOwnError(
    ctx,
    MHA,
    mhaArgs(inputs, n_heads, true),
    `multi_head_attention(X, W_q, W_k, W_v, W_o, ${n_heads})`,
  );
}

/**
 * The heatmap panel (spec.json panels.heatmap): the student's multi_head_attention on the hand
 * example; the page draws head 0 of the weights (the first lesson's example) next to the reference's.
 */
export function heatmap({ spec, engine, ref }) {
  const p = spec.tests.find((t) => t.id === 'hand_example').params;
  const args = [p.X, p.W_q, p.W_k, p.W_v, p.W_o].map(fromRows).concat([p.n_heads, true]);
  const [, weights] = ref[MHA](...args);
  return {
    args,
    reference: take0(T_(weights), 0),
    mask: T_(engine.causalMask(p.X.length)),
    weights: (value) => (Array.isArray(value) && value.length === 2 ? value[1] : null),
  };
}
