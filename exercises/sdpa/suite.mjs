// The seven graded tests of the scaled dot-product attention exercise (ids as in spec.json), on the
// grader's kit (grader/kit/index.mjs). Inputs: seeded (ctx.rng) or the lesson's own numbers
// (spec.json). Expected values: the shared C++ engine through WASM (ctx.engine: sdpa's functions are
// the engine's own). When an output is wrong, `diagnose` recomputes the classic mistakes with the
// same reference and names the one the output matches.
import { tensor, swapLast2, take0, mapData, close, fmtNum, normals, fromRows, asTensor as T_, maskOf as maskRC } from '../../grader/kit/index.mjs';

const maskOf = (T, f) => maskRC(T, T, f);
const not = (m) => mapData(m, (x) => (x ? 0 : 1), 'bool');
const PAIR = ['out', 'weights'];

/** Scores for a variant that needs them: Q Kᵀ · scale with masked entries set to `fill`. */
function scores(core, Q, K, mask, scale, fill = -Infinity) {
  const S = T_(core.matmul(Q, swapLast2(K)));
  const cols = S.shape.at(-1), rows = S.shape.at(-2);
  return mapData(S, (x, i) => (mask && !mask.data[i % (rows * cols)] ? fill : x * scale));
}

/** The classic attention mistakes, each recomputed with the reference: [{ key, run() → {out, weights} }]. */
function attentionMistakes(core, Q, K, V, mask, { causal = false } = {}) {
  const dk = Q.shape.at(-1), dv = V.shape.at(-1), s = 1 / Math.sqrt(dk);
  const att = (opts) => { const r = core.attention(Q, K, V, opts); return { out: T_(r.out), weights: T_(r.weights) }; };
  const fromWeights = (w) => ({ out: T_(core.matmul(w, V)), weights: w });
  const list = [
    { key: 'd.no_scaling', run: () => att({ mask, scale: 1 }) },
    { key: 'd.scale_dk', run: () => att({ mask, scale: 1 / dk }) },
    dv !== dk && { key: 'd.scale_dv', run: () => att({ mask, scale: 1 / Math.sqrt(dv) }) },
    { key: 'd.softmax_axis', run: () => fromWeights(T_(core.softmax(scores(core, Q, K, mask, s), -2))) },
  ];
  if (mask) {
    const cols = mask.shape.at(-1), rows = mask.shape.at(-2);
    list.push(
      { key: 'd.mask_zero', run: () => att({ mask, maskedScore: 0 }) },
      { key: 'd.mask_after_softmax', run: () => fromWeights(mapData(att({}).weights, (x, i) => (mask.data[i % (rows * cols)] ? x : 0))) },
      { key: 'd.mask_inverted', run: () => att({ mask: not(mask) }) },
      { key: 'd.mask_inverted', run: () => att({ mask: not(mask), maskedScore: -1e9 }) },
      { key: causal ? 'd.no_mask' : 'd.mask_ignored', run: () => att({}) },
    );
    if (causal) list.push({ key: 'd.mask_too_wide', run: () => att({ mask: maskOf(rows, (i, j) => j <= i + 1) }) });
  }
  return list.filter(Boolean);
}

/** The classic mistake an [out, weights] pair matches, as a message key (null when none does). */
function diagnose(ctx, [out, weights], ref, mistakes) {
  const tol = ctx.tol;
  if (close(out, ref.weights, tol) && close(weights, ref.out, tol)) return 'd.swapped_return';
  for (const m of mistakes) {
    let r;
    try { r = m.run(); } catch { continue; }
    if (close(weights, r.weights, tol) || (close(out, r.out, tol) && weights.shape.join() === r.weights.shape.join())) return m.key;
  }
  return null;
}

/** Compare an [out, weights] pair with the reference; on a mismatch, fail with what differs and why. */
function expectAttention(ctx, got, ref, mistakes, fallback = () => null) {
  const [out, weights] = got;
  const problem = ctx.mismatch(weights, ref.weights, 'weights') || ctx.mismatch(out, ref.out, 'out');
  if (!problem) return;
  const cause = diagnose(ctx, got, ref, mistakes) || fallback();
  ctx.fail(problem, cause && ctx.t(cause));
}


// ---------------------------------------------------------------------------------------------

export async function causal_mask(ctx) {
  for (const T of ctx.params.sizes) {
    const what = `causal_mask(${T})`;
    const got = ctx.array(await ctx.call('causal_mask', T), 'causal_mask');
    const expected = T_(ctx.engine.causalMask(T));
    const problem = ctx.mismatch(got, expected, what);
    if (!problem) continue;
    const patterns = [
      ['d.mask_inverted', (i, j) => j > i], ['d.mask_too_wide', (i, j) => j <= i + 1],
      ['d.mask_upper', (i, j) => j >= i], ['d.mask_all', () => true], ['d.mask_diagonal', (i, j) => j < i],
    ];
    const asBool = got.dtype === 'bool' ? got : mapData(got, (x) => (x ? 1 : 0), 'bool');
    const hit = got.shape.join() === `${T},${T}` && patterns.find(([, f]) => close(asBool, maskOf(T, f), {}));
    ctx.fail(problem, hit && ctx.t(hit[0]));
  }
}

export async function softmax(ctx) {
  for (const c of ctx.params.cases) {
    const x = c.rows ? fromRows(c.rows) : normals(ctx, c.shape, c.scale ?? 1);
    const what = `softmax(x), x ${c.name}`;
    const got = ctx.array(await ctx.call('softmax', x), 'softmax');
    const expected = T_(ctx.engine.softmax(x));
    const problem = ctx.mismatch(got, expected, what);
    if (!problem) continue;
    let cause = null;
    if (got.shape.join() === x.shape.join()) {
      const bigInput = x.data.some((v) => Math.abs(v) > 700);
      if (bigInput && got.data.some((v) => !Number.isFinite(v))) cause = 'd.softmax_no_max';
      else if (x.shape.length >= 2 && close(got, T_(ctx.engine.softmax(x, -2)), ctx.tol)) cause = 'd.softmax_axis';
      else if (close(got, mapData(x, Math.exp), ctx.tol)) cause = 'd.softmax_no_norm';
    }
    ctx.fail(problem, cause && ctx.t(cause));
  }
}

export async function lesson_example(ctx) {
  const { Q, K, V } = ctx.params;
  const [q, k, v] = [Q, K, V].map(fromRows);
  const mask = T_(ctx.engine.causalMask(q.shape[0]));
  const got = ctx.tuple(await ctx.call('attention', q, k, v, mask), 'attention', PAIR);
  const ref = ctx.engine.attention(q, k, v, { mask });
  expectAttention(ctx, got, { out: T_(ref.out), weights: T_(ref.weights) }, attentionMistakes(ctx.engine, q, k, v, mask, { causal: true }));
}

export async function scaling(ctx) {
  const { T, d_k, d_v } = ctx.params;
  const Q = normals(ctx, [T, d_k]), K = normals(ctx, [T, d_k]), V = normals(ctx, [T, d_v]);
  const got = ctx.tuple(await ctx.call('attention', Q, K, V), 'attention', PAIR);
  const ref = ctx.engine.attention(Q, K, V);
  expectAttention(ctx, got, { out: T_(ref.out), weights: T_(ref.weights) }, attentionMistakes(ctx.engine, Q, K, V, null));
}

/** causal_self_attention inputs: X (…, T, d_model) and three projections scaled to keep scores moderate. */
function selfAttentionInputs(ctx, lead, T, d_model, d_k, d_v) {
  const X = normals(ctx, [...lead, T, d_model]);
  const s = 1 / Math.sqrt(d_model);
  return { X, Wq: normals(ctx, [d_model, d_k], s), Wk: normals(ctx, [d_model, d_k], s), Wv: normals(ctx, [d_model, d_v], s) };
}

function selfAttentionMistakes(ctx, { X, Wq, Wk, Wv }) {
  const core = ctx.engine;
  const [Q, K, V] = [Wq, Wk, Wv].map((W) => T_(core.matmul(X, W)));
  const mask = T_(core.causalMask(X.shape.at(-2)));
  const swapped = core.causalSelfAttention(X, Wq, Wk, Wk);
  return [
    ...attentionMistakes(core, Q, K, V, mask, { causal: true }),
    { key: 'd.wv_is_wk', run: () => ({ out: T_(swapped.out), weights: T_(swapped.weights) }) },
  ];
}

export async function causality(ctx) {
  const { T, d_model, d_k, d_v, changed_from: from } = ctx.params;
  const inputs = selfAttentionInputs(ctx, [], T, d_model, d_k, d_v);
  const { X, Wq, Wk, Wv } = inputs;
  const later = normals(ctx, [T - from, d_model], 3);
  const X2 = tensor(Float64Array.from(X.data), X.shape);
  X2.data.set(later.data, from * d_model);

  const got = ctx.tuple(await ctx.call('causal_self_attention', X, Wq, Wk, Wv), 'causal_self_attention', PAIR);
  const ref = ctx.engine.causalSelfAttention(X, Wq, Wk, Wv);
  const expected = { out: T_(ref.out), weights: T_(ref.weights) };
  const [out, weights] = got;
  const mistakes = selfAttentionMistakes(ctx, inputs);
  const sameShapes = weights.shape.join() === expected.weights.shape.join() && out.shape.join() === expected.out.shape.join();
  if (!sameShapes || weights.dtype === 'bool') return expectAttention(ctx, got, expected, mistakes);

  // 1. nothing above the diagonal
  for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) {
    const w = weights.data[i * T + j];
    if (w !== 0) {
      const cause = diagnose(ctx, got, expected, mistakes);
      ctx.fail(ctx.t('causal.above', { index: `[${i}, ${j}]`, value: fmtNum(w) }), cause && ctx.t(cause));
    }
  }
  // 2. each row a distribution
  for (let i = 0; i < T; i++) {
    let sum = 0;
    for (let j = 0; j < T; j++) sum += weights.data[i * T + j];
    if (!(Math.abs(sum - 1) <= 1e-6)) {
      const cause = diagnose(ctx, got, expected, mistakes);
      ctx.fail(ctx.t('rows_sum', { index: i, sum: fmtNum(sum) }), cause && ctx.t(cause));
    }
  }
  // 3. earlier outputs blind to later tokens
  const [out2] = ctx.tuple(await ctx.call('causal_self_attention', X2, Wq, Wk, Wv), 'causal_self_attention', PAIR);
  for (let p = 0; p < from; p++) {
    if (!close(take0(out, p), take0(out2, p), ctx.tol)) {
      const cause = diagnose(ctx, got, expected, mistakes);
      ctx.fail(ctx.t('causal.future', { from, last: T - 1, pos: p }), cause && ctx.t(cause));
    }
  }
  // 4. and the values themselves
  expectAttention(ctx, got, expected, mistakes);
}

export async function loop_reference(ctx) {
  const { T_q, T_k, d_k, d_v } = ctx.params;
  const Q = normals(ctx, [T_q, d_k]), K = normals(ctx, [T_k, d_k]), V = normals(ctx, [T_k, d_v]);
  // A random mask with at least one open key per query (a closed row has no defined answer).
  const open = Array.from({ length: T_q }, () => Math.floor(ctx.rng.next() * T_k));
  const mask = tensor(Uint8Array.from({ length: T_q * T_k }, (_, i) => (i % T_k === open[Math.floor(i / T_k)] || ctx.rng.next() < 0.6 ? 1 : 0)), [T_q, T_k], 'bool');
  const got = ctx.tuple(await ctx.call('attention', Q, K, V, mask), 'attention', PAIR);
  const ref = ctx.engine.attentionLoops(Q, K, V, { mask });
  expectAttention(ctx, got, { out: T_(ref.out), weights: T_(ref.weights) }, attentionMistakes(ctx.engine, Q, K, V, mask));
}

export async function batching(ctx) {
  const { B, T, d_model, d_k, d_v } = ctx.params;
  const Q = normals(ctx, [B, T, d_k]), K = normals(ctx, [B, T, d_k]), V = normals(ctx, [B, T, d_v]);
  const mask = T_(ctx.engine.causalMask(T));
  const batchHint = () => (ctx.members.has('T') ? 'd.batched_T' : null);
  // A call that raises on a batch while the code uses `.T`: say why.
  const batchCall = async (fn, ...args) => {
    try {
      return ctx.tuple(await ctx.call(fn, ...args), fn, PAIR);
    } catch (e) {
      if (e.raised && batchHint()) ctx.fail(e.message, ctx.t('d.batched_T'));
      throw e;
    }
  };
  const got = await batchCall('attention', Q, K, V, mask);
  const ref = ctx.engine.attention(Q, K, V, { mask });
  expectAttention(ctx, got, { out: T_(ref.out), weights: T_(ref.weights) }, attentionMistakes(ctx.engine, Q, K, V, mask, { causal: true }), batchHint);

  const inputs = selfAttentionInputs(ctx, [B], T, d_model, d_k, d_v);
  const { X, Wq, Wk, Wv } = inputs;
  const got2 = await batchCall('causal_self_attention', X, Wq, Wk, Wv);
  const ref2 = ctx.engine.causalSelfAttention(X, Wq, Wk, Wv);
  const expected2 = { out: T_(ref2.out), weights: T_(ref2.weights) };
  // Name the first batch element that goes wrong before the generic message.
  if (got2[0].shape.join() === expected2.out.shape.join()) {
    for (let b = 0; b < B; b++) {
      if (!close(take0(got2[0], b), take0(expected2.out, b), ctx.tol)) {
        if (b > 0 && close(take0(got2[0], 0), take0(expected2.out, 0), ctx.tol)) ctx.fail(ctx.t('batch.sample', { b }));
        break;
      }
    }
  }
  expectAttention(ctx, got2, expected2, selfAttentionMistakes(ctx, inputs), batchHint);

  // A larger hidden batch, checked against the fast float32 path (the backend the host chose; the
  // conformance table holds that path to the double reference within the tolerance used here).
  const L = ctx.params.large;
  if (!L) return;
  const f32 = () => Float32Array.from(ctx.rng.normals(L.B * L.T * L.d));
  const [q, k, v] = [f32(), f32(), f32()];
  const asTensor = (a) => tensor(Float64Array.from(a), [L.B, L.T, L.d]);
  const [got3out, got3w] = await batchCall('attention', asTensor(q), asTensor(k), asTensor(v), T_(ctx.engine.causalMask(L.T)));
  const fast = await ctx.fast.attentionF32({ q, k, v, B: L.B, Tq: L.T, d: L.d, causal: true, weights: true });
  const what = (name) => `${name} (${L.B}, ${L.T}, ${L.d})`;
  const problem = ctx.mismatch(got3w, tensor(Float64Array.from(fast.weights), [L.B, L.T, L.T]), what('weights'), L.tolerance)
    || ctx.mismatch(got3out, tensor(Float64Array.from(fast.out), [L.B, L.T, L.d]), what('out'), L.tolerance);
  if (problem) ctx.fail(problem, batchHint() && ctx.t('d.batched_T'));
}

/**
 * The heatmap panel (spec.json panels.heatmap): the student's attention on the lesson's worked
 * example. → { args (the inputs, as for ctx.call), reference (the expected weights, 2-D), mask (2-D
 * bool, hatched cells), weights(value) (the 2-D weights in a returned value, or null) }.
 */
export function heatmap({ spec, engine }) {
  const { Q, K, V } = spec.tests.find((t) => t.id === 'lesson_example').params;
  const [q, k, v] = [Q, K, V].map(fromRows);
  const mask = T_(engine.causalMask(q.shape[0]));
  return {
    args: [q, k, v, mask],
    reference: T_(engine.attention(q, k, v, { mask }).weights),
    mask,
    weights: (value) => (Array.isArray(value) && value.length === 2 ? value[1] : null),
  };
}
