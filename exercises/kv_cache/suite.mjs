// The graded tests of the KV-cache exercise (ids as in spec.json), on the grader's kit. Inputs: seeded
// per test id (ctx.rng), the lesson's own numbers, or the hand-checkable x of spec.json. Expected
// values: the C++ reference (reference/kv_cache.hpp through ctx.ref) or the lesson's byte counts.
//
// attend_with_cache is graded the way it is used: a prefill, then more calls, each given the cache the
// student's previous call returned; every step's out must equal its rows of one full causal pass over
// the whole sequence (the reference's, without a cache), and every returned cache the full pass's keys
// and values up to that position. A wrong step names a mistake only when the reference run with that
// mistake's options (spec.json "mistakes") over the same steps, feeding its own caches forward, gives
// everything the student returned up to that step, or when the cache returned is the one passed in.
import { tensor, normals, fromRows, expect, close, matches, fmtShape } from '../../grader/kit/index.mjs';

/** @typedef {import('./ref').Ref} Ref */
/** @typedef {import('../../grader/types').Ctx<Ref>} Ctx */
// A spread of a list built at run time is cast to the arguments it stands for (tsc cannot count its items).
/** @template {keyof Ref} F @typedef {Parameters<Ref[F]>} Args */
/** @typedef {[any, any, any, any]} Four */
/** @typedef {[any, any, any, any, any]} Five */
/** @typedef {[any, any, any, any, any, any]} Six */

const FN = 'attend_with_cache';

// ---- tensors ----------------------------------------------------------------------------------

/** Positions from … to − 1 of axis -2 (T) of a tensor (…, T, C): a copy. */
function rows(a, from, to) {
  const R = a.shape.at(-2),
    C = a.shape.at(-1),
    lead = R * C ? a.data.length / (R * C) : 0,
    n = to - from;
  const out = new Float64Array(lead * n * C);
  for (let l = 0; l < lead; l++) out.set(a.data.subarray((l * R + from) * C, (l * R + to) * C), l * n * C);
  return tensor(out, [...a.shape.slice(0, -2), n, C]);
}

const scalar = (x) => tensor(Float64Array.of(x), []);

/** rope_cache(T, d_head)'s tables, as the rope exercise defines them: angle[t][i] = t · 10000^(−2i/d_head). An input, not an expected value. */
function ropeTables(T, d) {
  const cos = new Float64Array((T * d) / 2),
    sin = new Float64Array((T * d) / 2);
  for (let t = 0; t < T; t++) {
    for (let i = 0; i < d / 2; i++) {
      const a = t * 10000 ** ((-2 * i) / d);
      cos[(t * d) / 2 + i] = Math.cos(a);
      sin[(t * d) / 2 + i] = Math.sin(a);
    }
  }
  return [tensor(cos, [T, d / 2]), tensor(sin, [T, d / 2])];
}

/**
 * x (B, T, d_model) and the projections, scaled so that scores stay moderate.
 * @param {Ctx} ctx
 */
function inputs(ctx, { B, T, d_model, n_heads, n_kv_heads }) {
  const s = 1 / Math.sqrt(d_model),
    kv = n_kv_heads * (d_model / n_heads);
  return {
    x: normals(ctx, [B, T, d_model]),
    W: [
      normals(ctx, [d_model, d_model], s),
      normals(ctx, [d_model, kv], s),
      normals(ctx, [d_model, kv], s),
      normals(ctx, [d_model, d_model], s),
    ],
  };
}

// ---- the student's results --------------------------------------------------------------------

/**
 * Stand for a cache returned as null, and as undefined (so that a step is always [out, k, v] of
 * tensors). Only NONE can match "the cache passed in is returned" (the first call is given null).
 * On the Python track None is the only such value (it crosses as undefined, { $undef }): it is NONE,
 * since the first call is given None.
 */
const NONE = tensor(new Float64Array(0), [0]);
const UNDEFINED = tensor(new Float64Array(0), [0, 0]);
const missing = (t) => t === NONE || t === UNDEFINED;
/** @param {Ctx} ctx */
const py = (ctx) => ctx.track === 'python';

/**
 * What came back instead of an array or a list, named in the submission's language.
 * @param {Ctx} ctx
 */
function kindOf(ctx, v) {
  if (v && v.$array) return ctx.t('kind.array', { shape: fmtShape(v.$array.shape) });
  if (Array.isArray(v)) return ctx.t('kind.list', { n: v.length });
  if (py(ctx)) {
    // Python's names: None, bool, str; a number may have been an int or a float.
    if (typeof v === 'number') return ctx.t('kind.number');
    const type =
      v === null || v === undefined || (v && v.$undef)
        ? 'NoneType'
        : typeof v === 'boolean'
          ? 'bool'
          : typeof v === 'string'
            ? 'str'
            : v && v.$other
              ? v.$other
              : typeof v;
    return ctx.t('kind.value', { type });
  }
  return ctx.t('kind.value', { type: v === null ? 'null' : v && v.$other ? v.$other : typeof v });
}

/**
 * ctx.array for one part of attend_with_cache's result; a None there (on Python it crosses as { $undef }) is named None.
 * @param {Ctx} ctx
 */
function arrayOf(ctx, v) {
  if (py(ctx) && v && v.$undef) ctx.fail(ctx.t('not_array', { fn: FN, kind: 'None' }));
  return ctx.array(v, FN);
}

/**
 * The value attend_with_cache returned → [out, k, v] (k and v NONE or UNDEFINED for a cache returned
 * as null or undefined; None on Python is NONE), or the test fails saying what came back.
 * @param {Ctx} ctx
 */
function readStep(ctx, value, label) {
  if (!Array.isArray(value) || value.length !== 2) ctx.fail(ctx.t('result.pair', { kind: kindOf(ctx, value) }));
  const out = arrayOf(ctx, value[0]);
  const c = value[1];
  if (c === null || (py(ctx) && c && c.$undef)) return [out, NONE, NONE];
  if (c && c.$undef) return [out, UNDEFINED, UNDEFINED];
  if (!Array.isArray(c) || c.length !== 2) ctx.fail(ctx.t('result.cache', { label, kind: kindOf(ctx, c) }));
  return [out, arrayOf(ctx, c[0]), arrayOf(ctx, c[1])];
}

/** The reference's [out, [k, v]] → [out, k, v]. */
const flat = ([out, [k, v]]) => [out, k, v];

/**
 * What differs between one step's result and the expected [out, k, v] (shapes only, if `shapesOnly`), or null.
 * @param {Ctx} ctx
 */
function stepProblem(ctx, got, expected, label, shapesOnly = false) {
  /** @type {[any, number][]} */
  const parts = [
    ['out', 0],
    [ctx.t('cache.k'), 1],
    [ctx.t('cache.v'), 2],
  ];
  for (const [name, i] of parts) {
    if (i > 0 && missing(got[i]))
      return ctx.t('result.cache_null', {
        label,
        value: got[i] === UNDEFINED ? 'undefined' : py(ctx) ? 'None' : 'null',
      });
    if (shapesOnly && got[i].shape.join() === expected[i].shape.join()) continue;
    const problem = ctx.mismatch(got[i], expected[i], ctx.t('step.part', { label, name }));
    if (problem) return problem;
  }
  return null;
}

// ---- mistakes -----------------------------------------------------------------------------------

/**
 * Why the results `got` of calls `calls` (each { x }: its block; calls[0].given: the cache passed to the
 * first call, or null) are wrong: spec.json's mistakes, each the reference with those options over
 * every call in turn, its own returned cache handed to the next; and "the cache passed in is returned
 * unchanged" (the reference's out, with the cache it was given). Each yields the flat list of
 * [out, k, v] of every call. → a sentence, or null.
 * @param {Ctx} ctx
 */
function chainCause(ctx, got, calls, W, n_heads, rope) {
  const chain = (options) => {
    let cache = calls[0].given;
    return calls.flatMap(({ x }) => {
      const r = ctx.ref[FN](x, .../** @type {Four} */ (W), n_heads, cache, rope, options);
      cache = r[1];
      return flat(r);
    });
  };
  const notGrown = () => {
    const cache = calls[0].given;
    return calls.flatMap(({ x }) => [
      ctx.ref[FN](x, .../** @type {Four} */ (W), n_heads, cache, rope)[0],
      ...(cache ?? [NONE, NONE]),
    ]);
  };
  return ctx.diagnose(got, FN, null, { recompute: chain, extra: [{ key: 'd.cache_not_grown', run: notGrown }] });
}

// ---- attend_with_cache over several calls -------------------------------------------------------

/**
 * The student's attend_with_cache over the blocks `steps` of x (token counts), each call given the
 * cache the previous one returned (the first: no cache; passed as null, or left out with `omit`).
 * Each step is compared as it comes with its rows of the reference's full pass (out, and the cache up
 * to that position); at the first difference the test fails, naming the mistake that explains every
 * step so far.
 * @param {Ctx} ctx
 */
async function checkSteps(ctx, { x, W, n_heads, steps, rope = null, omit = false, shapesOnly = false, name = null }) {
  const full = flat(ctx.ref[FN](x, .../** @type {Four} */ (W), n_heads, null, rope));
  const got = [],
    calls = [];
  let cache = null,
    at = 0;
  for (const [i, n] of steps.entries()) {
    const block = rows(x, at, at + n);
    // Arguments as a caller writes them: the cache (null at first), then rope; left out where `omit`.
    const args = [block, ...W, n_heads];
    if (!omit || rope || cache) args.push(cache ?? null);
    if (rope) args.push(rope);
    const label = name ?? ctx.t(n === 1 ? 'step.one' : 'step.many', { n: i + 1, from: at, to: at + n - 1 });
    const step = readStep(ctx, await ctx.call(FN, ...args), label);
    calls.push({ x: block, given: null });
    got.push(...step);
    const expected = [rows(full[0], at, at + n), rows(full[1], 0, at + n), rows(full[2], 0, at + n)];
    const problem = stepProblem(ctx, step, expected, label, shapesOnly);
    if (problem) ctx.fail(problem, chainCause(ctx, got, calls, W, n_heads, rope));
    cache = missing(step[1]) ? null : [step[1], step[2]];
    at += n;
  }
}

// ---- kv_cache_bytes -----------------------------------------------------------------------------

const showBytes = (x) => (Number.isInteger(x) ? String(x) : String(+x.toPrecision(6)));

/** @param {Ctx} ctx */
async function checkBytes(ctx, args, expected, note = null) {
  const call = `kv_cache_bytes(${args.join(', ')})`;
  const got = ctx.array(await ctx.call('kv_cache_bytes', ...args), 'kv_cache_bytes');
  const want = scalar(expected);
  if (got.shape.length !== 0) ctx.fail(ctx.mismatch(got, want, call));
  if (close(got, want, ctx.tol)) return;
  const full = [...args, ...[2].slice(args.length - 5)]; // dtype_bytes = 2 when left out
  const params = {
    call,
    actual: showBytes(got.data[0]),
    expected: showBytes(expected),
    ...(note && { note }), // { ru, en }: said in the report's language
  };
  // With dtype_bytes = 2 the missing 2 of K and V and the missing 2 bytes give the same number: then
  // ctx.diagnose names neither, and the sentence says that one factor 2 is missing.
  const half = close(scalar(2 * got.data[0]), want, ctx.tol) && ctx.t('d.bytes_half');
  const why = ctx.diagnose(got, 'kv_cache_bytes', full, {
    recompute: (o) => scalar(ctx.ref.kv_cache_bytes(.../** @type {Six} */ (full), o)),
  });
  ctx.fail(ctx.t(note ? 'bytes.value' : 'bytes.plain', params), why || half);
}

/** @param {Ctx} ctx */
export async function bytes_lesson(ctx) {
  for (const { args, bytes, note } of ctx.params.cases) {
    // The lesson's numbers are the expected values; the reference must agree (a grader fault if not).
    const ref = ctx.ref.kv_cache_bytes(.../** @type {Args<'kv_cache_bytes'>} */ (args));
    if (ref !== bytes) throw new Error(`bytes_lesson: the reference gives ${ref} for (${args}), the lesson ${bytes}`);
    await checkBytes(ctx, args, bytes, note);
  }
}

/** @param {Ctx} ctx */
export async function bytes_factors(ctx) {
  const { args } = ctx.params;
  await checkBytes(ctx, args, ctx.ref.kv_cache_bytes(.../** @type {Args<'kv_cache_bytes'>} */ (args)));
  const short = args.slice(0, 5); // dtype_bytes left out: 2 (bf16)
  await checkBytes(ctx, short, ctx.ref.kv_cache_bytes(.../** @type {Args<'kv_cache_bytes'>} */ (short)));
}

// ---- repeat_kv ----------------------------------------------------------------------------------

/** @param {Ctx} ctx */
async function checkRepeat(ctx, x, n_rep) {
  const got = ctx.array(await ctx.call('repeat_kv', x, n_rep), 'repeat_kv');
  expect(ctx, got, ctx.ref.repeat_kv(x, n_rep), {
    what: `repeat_kv(x, ${n_rep}), x ${fmtShape(x.shape)}`,
    fn: 'repeat_kv',
    args: [x, n_rep],
  });
}

/** @param {Ctx} ctx */
export async function repeat_order(ctx) {
  const { x, n_rep, batch } = ctx.params;
  await checkRepeat(ctx, fromRows(x), n_rep);
  const y = normals(ctx, batch.shape);
  await checkRepeat(ctx, y, batch.n_rep);
  await checkRepeat(ctx, y, 1);
}

// ---- attend_with_cache --------------------------------------------------------------------------

/** @param {Ctx} ctx */
export async function prefill(ctx) {
  const p = ctx.params;
  const { x, W } = inputs(ctx, p);
  await checkSteps(ctx, {
    x,
    W,
    n_heads: p.n_heads,
    steps: [p.T],
    omit: true,
    name: ctx.t('call', { n_heads: p.n_heads }),
  });
}

/** @param {Ctx} ctx */
export async function cache_shapes(ctx) {
  const p = ctx.params;
  const { x, W } = inputs(ctx, { ...p, T: p.steps.reduce((a, b) => a + b) });
  await checkSteps(ctx, { x, W, n_heads: p.n_heads, steps: p.steps, shapesOnly: true });
}

/**
 * A sequence in `steps` blocks against one full pass, with rope_cache(T, d_head)'s tables or without rope.
 * @param {Ctx} ctx
 */
async function stepsTest(ctx) {
  const p = ctx.params,
    T = p.steps.reduce((a, b) => a + b);
  const { x, W } = inputs(ctx, { ...p, T });
  const rope = p.rope ? ropeTables(T, p.d_model / p.n_heads) : null;
  await checkSteps(ctx, { x, W, n_heads: p.n_heads, steps: p.steps, rope, omit: !p.rope });
}

export const decode_steps = stepsTest;
export const chunked_prefill = stepsTest;
export const without_rope = stepsTest;

/**
 * When the student's function raises on a cache of n_kv_heads heads: given the same cache repeated to
 * n_heads heads instead, does it return exactly what the reference computes when the heads are
 * repeated before caching? Then that is why it raised.
 * @param {Ctx} ctx
 */
async function cachesRepeated(ctx, x, W, n_heads, given) {
  const n_rep = n_heads / given[0].shape[1];
  const repeated = given.map((t) => ctx.ref.repeat_kv(t, n_rep));
  try {
    const probe = readStep(ctx, await ctx.call(FN, x, ...W, n_heads, repeated), '');
    return matches(
      probe,
      flat(ctx.ref[FN](x, .../** @type {Four} */ (W), n_heads, repeated, null, { repeat_before_cache: true })),
      ctx.tol,
    );
  } catch {
    return false;
  }
}

/** @param {Ctx} ctx */
export async function gqa_heads(ctx) {
  const { B, T, T_past, d_model, n_heads, kv_heads } = ctx.params;
  const d_head = d_model / n_heads;
  for (const n_kv_heads of kv_heads) {
    const { x, W } = inputs(ctx, { B, T, d_model, n_heads, n_kv_heads });
    const given = [normals(ctx, [B, n_kv_heads, T_past, d_head]), normals(ctx, [B, n_kv_heads, T_past, d_head])];
    const label = ctx.t('gqa.call', { n_kv_heads, n_heads });
    let value;
    try {
      value = await ctx.call(FN, x, ...W, n_heads, given);
    } catch (e) {
      if (e.raised && n_kv_heads < n_heads && (await cachesRepeated(ctx, x, W, n_heads, given)))
        ctx.fail(e.said, ctx.t('d.cache_repeated'));
      throw e;
    }
    const got = readStep(ctx, value, label);
    const problem = stepProblem(
      ctx,
      got,
      flat(ctx.ref[FN](x, .../** @type {Four} */ (W), n_heads, /** @type {[any, any]} */ (given))),
      label,
    );
    if (problem) ctx.fail(problem, chainCause(ctx, got, [{ x, given }], W, n_heads, null));
  }
}
