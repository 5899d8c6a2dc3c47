// The seven graded tests of the scaled dot-product attention exercise (ids as in spec.json), on the
// grader's kit (grader/kit/index.mjs). Inputs: seeded (ctx.rng) or the lesson's own numbers
// (spec.json). Expected values: sdpa's reference (ctx.ref: reference/sdpa.hpp, the shared C++ engine's
// functions with an options object).
//
// When an output is wrong, the test says what differs, then why, if it can: each classic mistake is
// recomputed by the reference with the options spec.json declares ("mistakes": scales, softmax
// variants, masks, the V step, rounding, a swapped return) or, where it depends on the inputs, with
// options built here (a batch axis read as d_k, the projections), and named only when it alone
// explains both out and weights, on these inputs and on a second call with other sizes
// (ctx.diagnose). Non-finite values are looked at before anything else (a fully masked row is NaN,
// not a causality leak). A batch that goes wrong while each sample alone is right is traced to the
// construct on the failing function's path (`.T`, a shape read from the front, swapaxes of the first
// axes, np.dot, a boolean index), named only when the error shows what that construct makes of a
// batch. Where nothing explains the output, the message names the step to check.
import {
  tensor,
  take0,
  mapData,
  close,
  fmtNum,
  normals,
  fromRows,
  maskOf,
  asTensor,
  matches,
} from '../../grader/kit/index.mjs';

/** @typedef {import('./ref').Ref} Ref */
/** @typedef {import('../../grader/types').Ctx<Ref>} Ctx */
// A spread of a list built at run time is cast to the arguments it stands for (tsc cannot count its items).
/** @template {keyof Ref} F @typedef {Parameters<Ref[F]>} Args */
/** @typedef {[any, any, any, any]} Four */
/** @typedef {[any, any, any, any, any]} Five */
/** @typedef {[any, any, any, any, any, any]} Six */

const PAIR = ['out', 'weights'];
const SELF = 'causal_self_attention';
const tril = (T, k = 0) => maskOf(T, T, (i, j) => j - i <= k);
const rowSum = (r) => r.reduce((a, b) => a + b, 0);

// ---- the mistakes: the reference with the options spec.json declares, and those of these inputs ----

/** The reference's arguments for inputs `inp` ({ Q, K, V, mask } of attention, or { X, W } of causal_self_attention). */
const refArgs = (inp) =>
  inp.self ? [inp.X, inp.W.W_q, inp.W.W_k, inp.W.W_v] : [inp.Q, inp.K, inp.V, inp.mask ?? null];

/** Q, K and V projected from the other weight matrices, named by what was used ("Q = X @ W_k"). */
const RIGHT = ['W_q', 'W_k', 'W_v'];
/** @param {Ctx} ctx */
function projections(ctx, args) {
  const list = [];
  for (const q of RIGHT)
    for (const k of RIGHT)
      for (const v of RIGHT) {
        const used = [q, k, v];
        // Q from W_k and K from W_q give exactly K·Qᵀ: that one is named as transposed scores.
        if (used.join() === RIGHT.join() || (q === 'W_k' && k === 'W_q' && v === 'W_v')) continue;
        const wrong = ['Q', 'K', 'V']
          .map((name, i) => (used[i] !== RIGHT[i] ? `${name} = X @ ${used[i]}` : null))
          .filter(Boolean)
          .join(', ');
        list.push({
          key: 'd.projection',
          params: { wrong },
          run: () => ctx.ref[SELF](.../** @type {Four} */ (args), { projection: used }),
        });
      }
  return list;
}

/**
 * The candidate mistakes for an [out, weights] result of attention or causal_self_attention on `inp`
 * beside those spec.json declares: those that depend on the inputs, the scale by a batch axis read as
 * d_k (K.shape[0] on (B, T, d); not where that size is d_k or T_k, named otherwise), and for
 * causal_self_attention each projection from each weight matrix.
 * @param {Ctx} ctx
 */
function inputMistakes(ctx, inp) {
  const fn = inp.self ? SELF : 'attention',
    args = refArgs(inp);
  const K = inp.self ? inp.X : inp.K,
    dk = inp.self ? inp.W.W_k.shape.at(-1) : K.shape.at(-1);
  const batch = K.shape
    .slice(0, -2)
    .filter((n) => n !== dk && n !== K.shape.at(-2))
    .map((n) => ({
      key: 'd.scale_batch',
      params: { n },
      run: () => ctx.ref[fn](.../** @type {Four} */ (args), { scale: 1 / Math.sqrt(n) }),
    }));
  return [...batch, ...(inp.self ? projections(ctx, args) : [])];
}

/**
 * ctx.diagnose of an [out, weights] result on `inp`: the declared mistakes and those of these inputs.
 * @param {Ctx} ctx
 */
const diagnosePair = (ctx, got, inp, confirm = null) =>
  ctx.diagnose(got, inp.self ? SELF : 'attention', refArgs(inp), { extra: inputMistakes(ctx, inp), confirm });

/**
 * Fails an attention result that differs from `expected`: what differs (non-finite values first),
 * then the mistake that explains it on these inputs and on `confirm`'s second call, else the step to
 * check. `fn`: the student's function, for causes read from its source.
 * @param {Ctx} ctx
 */
async function checkAttention(ctx, fn, got, expected, inp, confirm) {
  const [out, weights] = got;
  const problem = ctx.mismatch(weights, expected[1], 'weights') || ctx.mismatch(out, expected[0], 'out');
  if (!problem) return;
  const why = await causeOf(ctx, fn, got, inp, confirm);
  if (why) ctx.fail(problem, ctx.t(why.key, why.params));
  ctx.fail(problem, ctx.t(matches(weights, expected[1], ctx.tol) ? 'step.out' : 'step.weights'));
}

/**
 * Why an attention result is wrong: the student's own mask, the numbers, refined by the source.
 * @param {Ctx} ctx
 */
const causeOf = async (ctx, fn, got, inp, confirm) =>
  (inp.self ? await ownMaskCause(ctx, got, inp) : null) ??
  sourceCause(ctx, fn, got, await diagnosePair(ctx, got, inp, confirm));

/**
 * A cause the code shows better than the numbers do: a scale by √T that comes from reading d_k as
 * `K.shape[0]`; weights that are all NaN because `K.shape[-1]` is undefined in JavaScript.
 * @param {Ctx} ctx
 */
function sourceCause(ctx, fn, [, weights], why) {
  const reads = ctx.reads(fn);
  if (!reads) return why;
  if (reads.shapeNegative.length && weights.data.length && weights.data.every((w) => Number.isNaN(w))) {
    const expr = reads.shapeNegative[0];
    return { key: 'd.shape_negative_index', params: { expr, fix: expr.replace(/\[(-\d+)\]$/, '.at($1)') } };
  }
  const front = reads.shapeAxes.find((e) => /\[[01]\]$/.test(e));
  if ((why?.key === 'd.scale_T' || why?.key === 'd.scale_batch') && front)
    return { key: 'd.dk_axis', params: { expr: front } };
  return why;
}

/**
 * causal_self_attention builds its mask with the student's own causal_mask: when that one is wrong
 * and attention with it gives the student's result, say so (with what is wrong in the mask).
 * @param {Ctx} ctx
 */
async function ownMaskCause(ctx, got, inp) {
  const T = inp.X.shape.at(-2);
  let theirs;
  try {
    theirs = ctx.array(await ctx.probe('causal_mask', T), 'causal_mask');
  } catch {
    return null;
  }
  const right = tril(T);
  if (
    theirs.shape.join() !== right.shape.join() ||
    close(
      mapData(theirs, (x) => (x ? 1 : 0), 'bool'),
      right,
      {},
    )
  )
    return null;
  const asBool = mapData(theirs, (x) => (x ? 1 : 0), 'bool');
  let r;
  try {
    r = ctx.engine.attention(inp.Q, inp.K, inp.V, { mask: asBool });
  } catch {
    return null;
  }
  if (!matches(got, [asTensor(r.out), asTensor(r.weights)], ctx.tol)) return null;
  const pattern = MASK_PATTERNS.find(([, f]) => close(asBool, maskOf(T, T, f), {}));
  const nanRow = got[1].data.some((w) => Number.isNaN(w));
  // What is wrong in the mask, and a NaN row's reason, said after it.
  const more = [pattern && ctx.t(pattern[0]), nanRow && ctx.t('d.row_all_masked')].filter(Boolean);
  return { key: 'd.own_mask', params: { more } };
}

/** The shapes an error message quotes, as 'a,b,c' strings. */
const shapesIn = (message) =>
  [...message.matchAll(/\((\d+(?:,\s*\d+)*),?\)/g)].map((m) => m[1].split(/,\s*/).map(Number).join(','));

/**
 * The cause of an error `fn` raised, read from the shapes it quotes: scores of shape (T_k, T_q)
 * (K·Qᵀ), V @ weights, a causal mask whose size is not T, a square triangle that `fn` builds
 * itself (np.tril/np.triu on its path) meeting the (T_q, T_k) scores. → { key, params } or null.
 * @param {Ctx} ctx
 */
function raisedCause(ctx, fn, message, inp) {
  const shapes = shapesIn(message);
  const has = (...dims) => shapes.includes(dims.join(','));
  const { Q, K, V } = inp;
  const Tq = Q?.shape.at(-2),
    Tk = K?.shape.at(-2);
  if (Q && Tq !== Tk && has(Tk, Tq)) return { key: 'd.weights_transposed', params: {} };
  const reads = ctx.reads(fn);
  const triangle = reads && (reads.members.has('tril') || reads.members.has('triu'));
  if (Q && triangle && !inp.causal && !inp.self && Tq !== Tk && has(Tq, Tk) && (has(Tk, Tk) || has(Tq, Tq)))
    return { key: 'd.mask_hardcoded', params: {} };
  if (V && /matmul/.test(message) && has(...V.shape) && has(...Q.shape.slice(0, -1), Tk))
    return { key: 'd.v_order', params: {} };
  if (inp.self) {
    const T = inp.X.shape.at(-2);
    const square = shapes
      .map((s) => s.split(',').map(Number))
      .find((d) => d.length === 2 && d[0] === d[1] && d[0] !== T);
    if (square) return { key: 'd.T_axis', params: { n: square[0], T } };
  }
  return null;
}

/**
 * ctx.call + ctx.tuple for [out, weights], with the error's cause read from its shapes when it raises.
 * @param {Ctx} ctx
 */
async function callPair(ctx, fn, args, inp) {
  try {
    return ctx.tuple(await ctx.call(fn, ...args), fn, PAIR);
  } catch (e) {
    const why = e.error && raisedCause(ctx, fn, e.error.message, inp);
    if (why) ctx.fail(e.problem, ctx.t(why.key, why.params));
    throw e;
  }
}

/**
 * A confirming look for ctx.diagnose: the student's `fn` on other seeded inputs of other sizes (the
 * same mistake must give what the student gave there too; where it makes no difference at those sizes,
 * the student must simply be right there).
 * @param {Ctx} ctx
 */
function confirmWith(ctx, fn, makeInputs) {
  return async () => {
    const { args, inp, expected } = makeInputs();
    try {
      const got = ctx.tuple(await ctx.probe(fn, ...args), fn, PAIR);
      return { got, args: refArgs(inp), extra: inputMistakes(ctx, inp), expected };
    } catch {
      return null; // (a raise there is no confirmation)
    }
  };
}

/** @param {Ctx} ctx */
const refAttention = (ctx, Q, K, V, mask) => ctx.ref.attention(Q, K, V, mask);
/** @param {Ctx} ctx */
const refSelf = (ctx, { X, W }) => ctx.ref.causal_self_attention(X, W.W_q, W.W_k, W.W_v);

/**
 * Seeded attention inputs: Q, K (…, T_q|T_k, d_k), V (…, T_k, d_v), with a causal or random mask.
 * @param {Ctx} ctx
 */
function attentionInputs(ctx, { lead = [], Tq, Tk = Tq, dk, dv, mask = null }) {
  const Q = normals(ctx, [...lead, Tq, dk]),
    K = normals(ctx, [...lead, Tk, dk]),
    V = normals(ctx, [...lead, Tk, dv]);
  let m = null;
  if (mask === 'causal') m = tril(Tq);
  if (mask === 'random') {
    // At least one open key per query: a closed row has no defined answer.
    const open = Array.from({ length: Tq }, () => Math.floor(ctx.rng.next() * Tk));
    m = tensor(
      Uint8Array.from({ length: Tq * Tk }, (_, i) =>
        i % Tk === open[Math.floor(i / Tk)] || ctx.rng.next() < 0.6 ? 1 : 0,
      ),
      [Tq, Tk],
      'bool',
    );
  }
  return { Q, K, V, mask: m, causal: mask === 'causal' };
}

/**
 * causal_self_attention inputs: X (…, T, d_model) and projections scaled to keep scores moderate.
 * @param {Ctx} ctx
 */
function selfInputs(ctx, lead, T, dModel, dk, dv) {
  const X = normals(ctx, [...lead, T, dModel]),
    s = 1 / Math.sqrt(dModel);
  const W = {
    W_q: normals(ctx, [dModel, dk], s),
    W_k: normals(ctx, [dModel, dk], s),
    W_v: normals(ctx, [dModel, dv], s),
  };
  return { X, W, dModel, mask: tril(T), causal: true, self: true };
}
/** @param {Ctx} ctx */
const withProjections = (ctx, sin) => ({
  ...sin,
  Q: asTensor(ctx.engine.matmul(sin.X, sin.W.W_q)),
  K: asTensor(ctx.engine.matmul(sin.X, sin.W.W_k)),
  V: asTensor(ctx.engine.matmul(sin.X, sin.W.W_v)),
});

// ---- the tests ---------------------------------------------------------------------------------

/** @type {[string, (i: number, j: number) => boolean][]} */
const MASK_PATTERNS = [
  ['d.mask_inverted', (i, j) => j > i],
  ['d.mask_too_wide', (i, j) => j <= i + 1],
  ['d.mask_upper', (i, j) => j >= i],
  ['d.mask_all', () => true],
  ['d.mask_diagonal', (i, j) => j < i],
];

/** @param {Ctx} ctx */
export async function causal_mask(ctx) {
  // Every size first: a pattern is named only if it holds at every size > 1 (at T = 1 most coincide).
  const sizes = ctx.params.sizes,
    got = [];
  for (const T of sizes) got.push(ctx.array(await ctx.call('causal_mask', T), 'causal_mask'));
  for (const [i, T] of sizes.entries()) {
    const problem = ctx.mismatch(got[i], asTensor(ctx.ref.causal_mask(T)), `causal_mask(${T})`);
    if (!problem) continue;
    const square = got.every((g, k) => g.shape.join() === `${sizes[k]},${sizes[k]}`);
    const truth = (g) => (g.dtype === 'bool' ? g : mapData(g, (x) => (x ? 1 : 0), 'bool'));
    const holds = (f) => square && sizes.every((T2, k) => T2 < 2 || close(truth(got[k]), maskOf(T2, T2, f), {}));
    const numbers = got[i].dtype !== 'bool' && holds((r, c) => c <= r);
    const hit = !numbers && MASK_PATTERNS.find(([, f]) => holds(f));
    ctx.fail(problem, numbers ? ctx.t('d.mask_numbers') : hit ? ctx.t(hit[0]) : null);
  }
}

/** @param {Ctx} ctx */
export async function softmax(ctx) {
  // All cases first: a cause is named only if it explains the student's result on every case.
  const xs = ctx.params.cases.map((c) => (c.rows ? fromRows(c.rows) : normals(ctx, c.shape, c.scale ?? 1)));
  const got = [];
  for (const x of xs) got.push(ctx.array(await ctx.call('softmax', x), 'softmax'));
  const expected = xs.map((x) => asTensor(ctx.ref.softmax(x)));
  for (const [i, c] of ctx.params.cases.entries()) {
    const problem = ctx.mismatch(got[i], expected[i], ctx.t('softmax.case', { name: c.name }));
    if (!problem) continue;
    // spec.json's mistakes, each on every case (the same axis for all: -2, or one counted from the front).
    ctx.fail(problem, ctx.diagnose(got, 'softmax', null, { recompute: (o) => xs.map((x) => ctx.ref.softmax(x, o)) }));
  }
}

/** @param {Ctx} ctx */
export async function lesson_example(ctx) {
  const [Q, K, V] = ['Q', 'K', 'V'].map((k) => fromRows(ctx.params[k]));
  const mask = tril(Q.shape[0]);
  const inp = { Q, K, V, mask, causal: true };
  const got = await callPair(ctx, 'attention', [Q, K, V, mask], inp);
  // The lesson's matrices are tiny (d_k = d_v = 2): a cause is confirmed on seeded (5, 3) inputs.
  const second = () => {
    const inp = attentionInputs(ctx, { Tq: 5, dk: 3, dv: 4, mask: 'causal' });
    return { args: [inp.Q, inp.K, inp.V, inp.mask], inp, expected: refAttention(ctx, inp.Q, inp.K, inp.V, inp.mask) };
  };
  await checkAttention(
    ctx,
    'attention',
    got,
    refAttention(ctx, Q, K, V, mask),
    inp,
    confirmWith(ctx, 'attention', second),
  );
}

/** @param {Ctx} ctx */
export async function scaling(ctx) {
  const { T, d_k, d_v } = ctx.params;
  const inp = attentionInputs(ctx, { Tq: T, dk: d_k, dv: d_v });
  const got = await callPair(ctx, 'attention', [inp.Q, inp.K, inp.V], inp);
  const second = () => {
    const i2 = attentionInputs(ctx, { Tq: T + 3, dk: d_k / 2, dv: d_v + 3 });
    return { args: [i2.Q, i2.K, i2.V], inp: i2, expected: refAttention(ctx, i2.Q, i2.K, i2.V, null) };
  };
  await checkAttention(
    ctx,
    'attention',
    got,
    refAttention(ctx, inp.Q, inp.K, inp.V, null),
    inp,
    confirmWith(ctx, 'attention', second),
  );
}

/** @param {Ctx} ctx */
export async function causality(ctx) {
  const { T, d_model, d_k, d_v, changed_from: from } = ctx.params;
  const sin = withProjections(ctx, selfInputs(ctx, [], T, d_model, d_k, d_v));
  const { X, W } = sin;
  const later = normals(ctx, [T - from, d_model], 3);
  const X2 = tensor(Float64Array.from(X.data), X.shape);
  X2.data.set(later.data, from * d_model);
  const call = (x) => callPair(ctx, 'causal_self_attention', [x, W.W_q, W.W_k, W.W_v], sin);
  const got = await call(X);
  const expected = refSelf(ctx, sin);
  const second = () => {
    const s2 = withProjections(ctx, selfInputs(ctx, [], T + 2, d_model + 3, d_k + 1, d_v + 2));
    return { args: [s2.X, s2.W.W_q, s2.W.W_k, s2.W.W_v], inp: s2, expected: refSelf(ctx, s2) };
  };
  const confirm = confirmWith(ctx, 'causal_self_attention', second);
  const [out, weights] = got;
  const fits =
    weights.shape.join() === expected[1].shape.join() &&
    out.shape.join() === expected[0].shape.join() &&
    weights.dtype !== 'bool';
  // Non-finite values first: a NaN row is a fully masked query, not a look into the future.
  if (!fits || weights.data.some((w) => !Number.isFinite(w)) || out.data.some((o) => !Number.isFinite(o)))
    return checkAttention(ctx, 'causal_self_attention', got, expected, sin, confirm);
  const because = async () => {
    const why = await causeOf(ctx, 'causal_self_attention', got, sin, confirm);
    return why && ctx.t(why.key, why.params);
  };
  // 1. nothing above the diagonal
  for (let i = 0; i < T; i++)
    for (let j = i + 1; j < T; j++) {
      const w = weights.data[i * T + j];
      if (w !== 0) ctx.fail(ctx.t('causal.above', { index: `[${i}, ${j}]`, value: fmtNum(w) }), await because());
    }
  // 2. each row a distribution
  for (let i = 0; i < T; i++) {
    const sum = rowSum(weights.data.subarray(i * T, (i + 1) * T));
    if (!(Math.abs(sum - 1) <= 1e-6)) ctx.fail(ctx.t('rows_sum', { index: i, sum: fmtNum(sum) }), await because());
  }
  // 3. earlier outputs blind to later tokens
  const [out2] = await call(X2);
  for (let p = 0; p < from; p++) {
    if (!close(take0(out, p), take0(out2, p), ctx.tol))
      ctx.fail(ctx.t('causal.future', { from, last: T - 1, pos: p }), await because());
  }
  // 4. and the values themselves
  await checkAttention(ctx, 'causal_self_attention', got, expected, sin, confirm);
}

/** @param {Ctx} ctx */
export async function loop_reference(ctx) {
  const { T_q, T_k, d_k, d_v } = ctx.params;
  const inp = attentionInputs(ctx, { Tq: T_q, Tk: T_k, dk: d_k, dv: d_v, mask: 'random' });
  const got = await callPair(ctx, 'attention', [inp.Q, inp.K, inp.V, inp.mask], inp);
  const loops = ctx.engine.attentionLoops(inp.Q, inp.K, inp.V, { mask: inp.mask }); // the independent nested-loop reference
  const second = () => {
    const i2 = attentionInputs(ctx, { Tq: T_q + 1, Tk: T_k + 2, dk: d_k + 1, dv: d_v - 1, mask: 'random' });
    return { args: [i2.Q, i2.K, i2.V, i2.mask], inp: i2, expected: refAttention(ctx, i2.Q, i2.K, i2.V, i2.mask) };
  };
  await checkAttention(
    ctx,
    'attention',
    got,
    [asTensor(loops.out), asTensor(loops.weights)],
    inp,
    confirmWith(ctx, 'attention', second),
  );
}

/**
 * Why a batch went wrong, when each sample alone is right: the construct on `fn`'s path that
 * treats the axes of a batch as those of a single sample, named only where it explains what went
 * wrong: the error `message` quotes the shape that construct makes of a batch input (`.T`: (B, T, d)
 * reversed; swapaxes(…, 0, 1): (T, B, d); np.dot: (B, T_q, B, T_k)), or says a boolean index did not
 * fit; a shape read from the front (written for (T, d): on a batch axis 0 is B, axis 1 is T) where
 * the error quotes an (n, n) array of the size it reads there (a causal mask), or where `got` is the
 * right attention scaled by 1/√n. `inp`: the call's inputs (Q, K, V, X). → a sentence, or null.
 * @param {Ctx} ctx
 */
function batchCause(ctx, fn, inp, message = '', got = null) {
  const shapes = shapesIn(message);
  const batched = [inp.Q, inp.K, inp.V, inp.X].filter((a) => a?.shape.length === 3).map((a) => a.shape);
  const shows = (f) => batched.some((s) => shapes.includes(f(s).join(',')));
  const reversed = (s) => [...s].reverse(),
    front = ([b, t, ...rest]) => [t, b, ...rest];
  if (/boolean index did not match/.test(message)) return ctx.t('d.bool_index_batch');
  const reads = ctx.reads(fn);
  if (!reads) return ctx.members.has('T') && shows(reversed) ? ctx.t('d.batched_T') : null;
  const swap01 = [...reads.calls].find((c) => /swapaxes\((?:[^,()]+,\s*)?0\s*,\s*1\s*\)/.test(c));
  if (swap01 && shows(front)) return ctx.t('d.swapaxes_01', { call: swap01 });
  for (const expr of reads.shapeAxes) {
    const axis = Number(/\[(\d+)\]$/.exec(expr)[1]);
    const sizes = new Set(batched.map((s) => s[axis]));
    const scaledBy = (n) => {
      try {
        return matches(
          got,
          ctx.ref.attention(inp.Q, inp.K, inp.V, inp.mask ?? null, { scale: 1 / Math.sqrt(n) }),
          ctx.tol,
        );
      } catch {
        return false;
      }
    };
    if (![...sizes].some((n) => shapes.includes(`${n},${n}`) || (got && inp.Q && scaledBy(n)))) continue;
    const fromEnd = axis - 2; // written for (T, d): axis 0 is T, -2 from the end; axis 1 is d, -1
    return ctx.t('d.shape_axis', {
      expr,
      fix: expr.replace(/\[\d+\]$/, ctx.track === 'python' ? `[${fromEnd}]` : `.at(${fromEnd})`),
    });
  }
  if (reads.members.has('T') && shows(reversed)) return ctx.t('d.batched_T');
  const [B, Tq] = inp.Q?.shape ?? [],
    Tk = inp.K?.shape.at(-2);
  if (reads.members.has('dot') && shapes.includes([B, Tq, B, Tk].join(','))) return ctx.t('d.dot_batch');
  return null;
}

/**
 * Calls `fn` on each batch element alone: true when every one of them is right.
 * @param {Ctx} ctx
 */
async function samplesRight(ctx, fn, args, expected, B) {
  for (let b = 0; b < B; b++) {
    let r;
    try {
      r = ctx.tuple(
        await ctx.probe(fn, ...args.map((a) => (a && a.shape && a.shape.length === 3 ? take0(a, b) : a))),
        fn,
        PAIR,
      );
    } catch {
      return false;
    }
    if (
      !matches(
        r,
        expected.map((e) => take0(e, b)),
        ctx.tol,
      )
    )
      return false;
  }
  return true;
}

/** @param {Ctx} ctx */
export async function batching(ctx) {
  const { B, T, d_model, d_k, d_v } = ctx.params;
  // A call that goes wrong on a batch although each sample is right: say which construct did it.
  const batchCall = async (fn, args, expected, inp) => {
    let got;
    try {
      got = ctx.tuple(await ctx.call(fn, ...args), fn, PAIR);
    } catch (e) {
      if (e.error && (await samplesRight(ctx, fn, args, expected, B)))
        ctx.fail(e.problem, batchCause(ctx, fn, inp, e.error.message) ?? ctx.t('batch.each'));
      const why = e.error && raisedCause(ctx, fn, e.error.message, inp);
      if (why) ctx.fail(e.problem, ctx.t(why.key, why.params));
      throw e;
    }
    if (matches(got, expected, ctx.tol)) return got;
    const problem = ctx.mismatch(got[1], expected[1], 'weights') || ctx.mismatch(got[0], expected[0], 'out');
    if (await samplesRight(ctx, fn, args, expected, B)) {
      ctx.fail(problem, batchCause(ctx, fn, inp, '', got) ?? diagnosePair(ctx, got, inp) ?? ctx.t('batch.each'));
    }
    await checkAttention(ctx, fn, got, expected, inp, null);
    return got;
  };
  const inp = attentionInputs(ctx, { lead: [B], Tq: T, dk: d_k, dv: d_v, mask: 'causal' });
  await batchCall('attention', [inp.Q, inp.K, inp.V, inp.mask], refAttention(ctx, inp.Q, inp.K, inp.V, inp.mask), inp);

  const sin = withProjections(ctx, selfInputs(ctx, [B], T, d_model, d_k, d_v));
  await batchCall('causal_self_attention', [sin.X, sin.W.W_q, sin.W.W_k, sin.W.W_v], refSelf(ctx, sin), sin);

  // A larger hidden batch, checked against the fast float32 path (the backend the host chose; the
  // conformance table holds that path to the double reference within the tolerance used here).
  const L = ctx.params.large;
  if (!L) return;
  const f32 = () => Float32Array.from(ctx.rng.normals(L.B * L.T * L.d));
  const [q, k, v] = [f32(), f32(), f32()];
  const big = (a) => tensor(Float64Array.from(a), [L.B, L.T, L.d]);
  const [got3out, got3w] = ctx.tuple(await ctx.call('attention', big(q), big(k), big(v), tril(L.T)), 'attention', PAIR);
  const fast = await ctx.fast.attentionF32({ q, k, v, B: L.B, Tq: L.T, d: L.d, causal: true, weights: true });
  const what = (name) => `${name} (${L.B}, ${L.T}, ${L.d})`;
  const problem =
    ctx.mismatch(got3w, tensor(Float64Array.from(fast.weights), [L.B, L.T, L.T]), what('weights'), L.tolerance) ||
    ctx.mismatch(got3out, tensor(Float64Array.from(fast.out), [L.B, L.T, L.d]), what('out'), L.tolerance);
  if (problem) ctx.fail(problem, batchCause(ctx, 'attention', {}));
}

/**
 * The heatmap panel (spec.json panels.heatmap): the student's attention on the lesson's worked
 * example. → { args (the inputs, as for ctx.call), reference (the expected weights, 2-D), mask (2-D
 * bool, hatched cells), weights(value) (the 2-D weights in a returned value, or null) }.
 */
export function heatmap({ spec, ref }) {
  const [q, k, v] = ['Q', 'K', 'V'].map((key) =>
    fromRows(spec.tests.find((t) => t.id === 'lesson_example').params[key]),
  );
  const mask = tril(q.shape[0]);
  return {
    args: [q, k, v, mask],
    reference: asTensor(ref.attention(q, k, v, mask)[1]),
    mask,
    weights: (value) => (Array.isArray(value) && value.length === 2 ? value[1] : null),
  };
}
