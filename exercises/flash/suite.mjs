// The graded tests of flash (spec.json), on the grader's kit. Expected values: the C++ reference
// (reference/flash.hpp through ctx.ref), which computes by blocks and is checked against the whole
// softmax by its doctest and by NumPy (reference/oracle.py). Each flash_attention test calls the
// student's function on all its cases first, then compares them in order; at the first difference it
// names the mistake that explains every result of the test (spec.json "mistakes": the reference with
// those options; "the causal mask left out": the reference with causal = false), so that inputs where
// two mistakes coincide (one key per block hides a wrong per-block mask) never decide alone.
import { tensor, normals, fromRows, fmtShape } from '../../grader/kit/index.mjs';

/** @typedef {import('./ref').Ref} Ref */
/** @typedef {import('../../grader/types').Ctx<Ref>} Ctx */
// A spread of a list built at run time is cast to the arguments it stands for (tsc cannot count its items).
/** @template {keyof Ref} F @typedef {Parameters<Ref[F]>} Args */
/** @typedef {[any, any, any, any]} Four */
/** @typedef {[any, any, any, any, any]} Five */
/** @typedef {[any, any, any, any, any, any]} Six */

const vector = (values) => fromRows(values);

// ---- softmax_merge ------------------------------------------------------------------------------

/** @param {Ctx} ctx */
async function checkMerge(ctx, args, what) {
  const got = ctx.tuple(await ctx.call('softmax_merge', ...args), 'softmax_merge', ['m', 'l']);
  const expected = ctx.ref.softmax_merge(.../** @type {Args<'softmax_merge'>} */ (args));
  for (const [i, name] of ['m', 'l'].entries()) {
    const problem = ctx.mismatch(got[i], expected[i], `${what}: ${name}`);
    if (!problem) continue;
    ctx.fail(problem, ctx.diagnose(got, 'softmax_merge', args));
  }
}

/** @param {Ctx} ctx */
export async function merge_hand(ctx) {
  const p = ctx.params;
  await checkMerge(ctx, [p.m_a, p.l_a, p.m_b, p.l_b].map(vector), 'softmax_merge(m_a, l_a, m_b, l_b)');
  // Statistics of two random blocks of a (2, 3) batch of rows: l > 0 as a sum of exponentials is.
  const stats = () => [
    normals(ctx, p.batch, 3),
    tensor(
      normals(ctx, p.batch).data.map((x) => 1 + Math.abs(x)),
      p.batch,
    ),
  ];
  const [m_a, l_a] = stats(),
    [m_b, l_b] = stats();
  await checkMerge(ctx, [m_a, l_a, m_b, l_b], `softmax_merge, ${fmtShape(p.batch)}`);
}

/** @param {Ctx} ctx */
export async function merge_empty(ctx) {
  const p = ctx.params;
  await checkMerge(ctx, [p.m_a, p.l_a, p.m_b, p.l_b].map(vector), 'softmax_merge(m_a, l_a, m_b, l_b)');
}

// ---- flash_attention ----------------------------------------------------------------------------

/**
 * Q, K, V of one case (spec.json params.cases[]), from the test's stream.
 * @param {Ctx} ctx
 */
function caseInputs(ctx, c) {
  const s = c.scale ?? 1;
  return [
    normals(ctx, [...c.lead, c.T_q, c.d], s),
    normals(ctx, [...c.lead, c.T_k, c.d], s),
    normals(ctx, [...c.lead, c.T_k, c.d_v]),
  ];
}

/**
 * The student's flash_attention on every call of `calls` ({ args, what }), then each result against the
 * reference's. At the first difference the test fails, with the mistake that explains all the results.
 * @param {Ctx} ctx
 */
async function checkFlash(ctx, calls) {
  const got = [];
  for (const { args } of calls) got.push(ctx.array(await ctx.call('flash_attention', ...args), 'flash_attention'));
  const withArgs = (args) => [...args, ...[true].slice(args.length - 4)]; // causal = true when left out
  for (const [i, { args, what }] of calls.entries()) {
    const problem = ctx.mismatch(
      got[i],
      ctx.ref.flash_attention(.../** @type {Args<'flash_attention'>} */ (args)),
      what,
    );
    if (!problem) continue;
    // The declared mistakes over every call, and the mask left out where a call is causal.
    const noMask = calls.some((c) => withArgs(c.args)[4]) && {
      key: 'd.no_mask',
      run: () =>
        calls.map((c) => ctx.ref.flash_attention(.../** @type {Four} */ (withArgs(c.args).slice(0, 4)), false)),
    };
    const recompute = (o) => calls.map((c) => ctx.ref.flash_attention(.../** @type {Five} */ (withArgs(c.args)), o));
    ctx.fail(problem, ctx.diagnose(got, 'flash_attention', null, { recompute, extra: [noMask] }));
  }
}

const label = (c, args) =>
  `flash_attention(Q, K, V, ${c.block_size}${args.length > 4 ? `, ${c.causal}` : ''}), Q ${fmtShape(args[0].shape)}, K ${fmtShape(args[1].shape)}`;

/**
 * The spec's cases, each called with causal given explicitly (left out where it is true and `omitTrue`).
 * @param {Ctx} ctx
 */
function casesCalls(ctx, omitTrue = false) {
  return ctx.params.cases.map((c) => {
    const args = [...caseInputs(ctx, c), c.block_size];
    if (!(omitTrue && c.causal)) args.push(c.causal);
    return { args, what: label(c, args) };
  });
}

/** @param {Ctx} ctx */
export async function lesson_example(ctx) {
  const [Q, K, V] = ['Q', 'K', 'V'].map((k) => fromRows(ctx.params[k]));
  // The lesson's attention with its causal mask is what the blocks must give (the engine's whole softmax).
  const lesson = ctx.engine.attention(Q, K, V, { mask: ctx.engine.causalMask(3) }).out;
  const ref = ctx.ref.flash_attention(Q, K, V, 1);
  if (ctx.mismatch(ref, lesson, 'reference'))
    throw new Error("lesson_example: the reference disagrees with the lesson's attention");
  await checkFlash(
    ctx,
    ctx.params.block_sizes.map((bs) => ({ args: [Q, K, V, bs], what: `flash_attention(Q, K, V, ${bs})` })),
  );
}

/** @param {Ctx} ctx */
export async function partial_block(ctx) {
  await checkFlash(ctx, casesCalls(ctx, true));
}

/** @param {Ctx} ctx */
export async function reference_grid(ctx) {
  await checkFlash(ctx, casesCalls(ctx));
}

/** @param {Ctx} ctx */
export async function large_scores(ctx) {
  await checkFlash(ctx, casesCalls(ctx));
}

// The memory test's bound on what a call keeps at once: KEPT_UNITS arrays the size of the largest of
// Q, K, V, out and a block of scores (a blockwise solution keeps 2–5: the running statistics, the
// output, a block of scores and its temporaries); and its growth when T doubles, beyond doubling, at
// most GROWTH_UNITS such arrays (blockwise memory doubles with T, a T×T matrix quadruples).
const KEPT_UNITS = 8;
const GROWTH_UNITS = 2;
const KEPT = ['np', 'typed', 'lists', 'heap']; // what can hold memory (measured.kept), in that order
const MIB = 2 ** 20;
const mib = (bytes) => +(bytes / MIB).toFixed(2);
const keptBytes = (kept) => KEPT.reduce((sum, k) => sum + kept[k].bytes, 0);

/**
 * The memory test: flash_attention at T = 1024 must give the reference's values and build no array
 * larger than the computation needs: the largest of Q, K, V and out, or one block of scores
 * (B·T_q·block_size, B the product of the leading axes). np records every array the call creates
 * (ctx.measure; views and the arguments are not counted), so the whole score matrix of a naive solution
 * is named with its shape and the line that built it. Then what the call keeps at once, whatever holds
 * it (np arrays alive at once, typed arrays, plain arrays, the Python heap: measured.kept), at T = 1024
 * and at T = 512: at most KEPT_UNITS arrays of the bound's size at each, and growing no faster than
 * blocks do when T doubles; the message names what holds the most and, where the track knows, the line.
 * @param {Ctx} ctx
 */
export async function memory(ctx) {
  const c = ctx.params;
  const args = [...caseInputs(ctx, c), c.block_size];
  const small = { ...c, T_q: c.T_q / 2, T_k: c.T_k / 2 };
  const smallArgs = [...caseInputs(ctx, small), c.block_size]; // drawn after the large ones: those stay as they were
  const B = c.lead.reduce((a, b) => a * b, 1);
  const limitOf = (p, a) =>
    Math.max(...a.slice(0, 3).map((t) => t.data.length), B * p.T_q * p.d_v, B * p.T_q * p.block_size);
  const limit = limitOf(c, args);
  const call = `flash_attention(Q, K, V, ${c.block_size})`;
  const m = await ctx.measure('flash_attention', args, { limit });
  const got = ctx.array(m.value, 'flash_attention');
  const expected = ctx.ref.flash_attention(.../** @type {Args<'flash_attention'>} */ (args));
  const problem = ctx.mismatch(got, expected, `${call}, Q, K, V ${fmtShape(args[0].shape)}`);
  if (problem) {
    const why = ctx.diagnose(got, 'flash_attention', null, {
      recompute: (o) => ctx.ref.flash_attention(.../** @type {Four} */ (args), true, o),
    });
    ctx.fail(problem, why);
  }
  const big = m.largest;
  if (big && big.shape.reduce((a, b) => a * b, 1) > limit) {
    const scores = big.shape.length >= 2 && big.shape.at(-1) === c.T_k && big.shape.at(-2) === c.T_q;
    ctx.fail(
      ctx.t('memory.too_large', {
        call,
        shape: fmtShape(big.shape),
        mb: +(big.bytes / 2 ** 20).toFixed(1),
        limit,
        where: big.line ? ctx.t('memory.where', { line: big.line }) : '',
      }),
      ctx.t(!scores ? 'd.too_large' : big.dtype === 'bool' ? 'd.mask_matrix' : 'd.score_matrix'),
    );
  }
  const s = await ctx.measure('flash_attention', smallArgs, { limit: limitOf(small, smallArgs) });
  ctx.array(s.value, 'flash_attention');
  const unit = limit * 8;
  const kept = keptBytes(m.kept),
    keptSmall = keptBytes(s.kept);
  const grew = kept - 2 * keptSmall > GROWTH_UNITS * unit;
  if (!grew && kept <= KEPT_UNITS * unit && keptSmall <= (KEPT_UNITS * unit) / 2) return;
  // What holds the most at T (for a growth: what grew the most), and where.
  const by = (f) => KEPT.reduce((a, k) => (f(k) > f(a) ? k : a));
  const what = grew ? by((k) => m.kept[k].bytes - 2 * s.kept[k].bytes) : by((k) => m.kept[k].bytes);
  const line = m.kept[what].line ?? s.kept[what].line;
  const loaded = what === 'np' ? m.kept.np.loaded : 0;
  ctx.fail(
    ctx.t('memory.kept', {
      call,
      T: c.T_q,
      mb: mib(kept),
      half: small.T_q,
      mb_half: mib(keptSmall),
      ratio: keptSmall > 0 ? +(kept / keptSmall).toFixed(1) : '∞',
      what: ctx.t(`memory.what.${what}`, { mb: mib(m.kept[what].bytes), mb_half: mib(s.kept[what].bytes) }),
      loaded: loaded > 0 ? ctx.t('memory.loaded', { mb: mib(loaded) }) : '',
      where: line ? ctx.t('memory.kept_where', { line }) : '',
      bound: mib(KEPT_UNITS * unit),
      units: KEPT_UNITS,
      shape: fmtShape(args[0].shape),
    }),
    ctx.t('d.kept_scores'),
  );
}
