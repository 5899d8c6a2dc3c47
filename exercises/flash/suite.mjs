// The graded tests of flash (spec.json), on the grader's kit. Expected values: the C++ reference
// (reference/flash.hpp through ctx.ref), which computes by blocks and is checked against the whole
// softmax by its doctest and by NumPy (reference/oracle.py). Each flash_attention test calls the
// student's function on all its cases first, then compares them in order; at the first difference it
// names the mistake that explains every result of the test (spec.json "mistakes": the reference with
// those options; "the causal mask left out": the reference with causal = false), so that inputs where
// two mistakes coincide (one key per block hides a wrong per-block mask) never decide alone.
import { tensor, normals, fromRows, fmtShape } from '../../grader/kit/index.mjs';

const vector = (values) => fromRows(values);

// ---- softmax_merge ------------------------------------------------------------------------------

async function checkMerge(ctx, args, what) {
  const got = ctx.tuple(await ctx.call('softmax_merge', ...args), 'softmax_merge', ['m', 'l']);
  const expected = ctx.ref.softmax_merge(...args);
  for (const [i, name] of ['m', 'l'].entries()) {
    const problem = ctx.mismatch(got[i], expected[i], `${what}: ${name}`);
    if (!problem) continue;
    ctx.fail(problem, ctx.diagnose(got, 'softmax_merge', args));
  }
}

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

export async function merge_empty(ctx) {
  const p = ctx.params;
  await checkMerge(ctx, [p.m_a, p.l_a, p.m_b, p.l_b].map(vector), 'softmax_merge(m_a, l_a, m_b, l_b)');
}

// ---- flash_attention ----------------------------------------------------------------------------

/** Q, K, V of one case (spec.json params.cases[]), from the test's stream. */
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
 */
async function checkFlash(ctx, calls) {
  const got = [];
  for (const { args } of calls) got.push(ctx.array(await ctx.call('flash_attention', ...args), 'flash_attention'));
  const withArgs = (args) => [...args, ...[true].slice(args.length - 4)]; // causal = true when left out
  for (const [i, { args, what }] of calls.entries()) {
    const problem = ctx.mismatch(got[i], ctx.ref.flash_attention(...args), what);
    if (!problem) continue;
    // The declared mistakes over every call, and the mask left out where a call is causal.
    const noMask = calls.some((c) => withArgs(c.args)[4]) && {
      key: 'd.no_mask',
      run: () => calls.map((c) => ctx.ref.flash_attention(...withArgs(c.args).slice(0, 4), false)),
    };
    const recompute = (o) => calls.map((c) => ctx.ref.flash_attention(...withArgs(c.args), o));
    ctx.fail(problem, ctx.diagnose(got, 'flash_attention', null, { recompute, extra: [noMask] }));
  }
}

const label = (c, args) =>
  `flash_attention(Q, K, V, ${c.block_size}${args.length > 4 ? `, ${c.causal}` : ''}), Q ${fmtShape(args[0].shape)}, K ${fmtShape(args[1].shape)}`;

/** The spec's cases, each called with causal given explicitly (left out where it is true and `omitTrue`). */
function casesCalls(ctx, omitTrue = false) {
  return ctx.params.cases.map((c) => {
    const args = [...caseInputs(ctx, c), c.block_size];
    if (!(omitTrue && c.causal)) args.push(c.causal);
    return { args, what: label(c, args) };
  });
}

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

export async function partial_block(ctx) {
  await checkFlash(ctx, casesCalls(ctx, true));
}

export async function reference_grid(ctx) {
  await checkFlash(ctx, casesCalls(ctx));
}

export async function large_scores(ctx) {
  await checkFlash(ctx, casesCalls(ctx));
}

/**
 * The memory test: at T = 1024 the student's flash_attention must give the reference's values and
 * build no array larger than the computation needs: the largest of Q, K, V and out, or one block of
 * scores (B·T_q·block_size, B the product of the leading axes). np records every array the call
 * creates (ctx.measure; views and the arguments are not counted), so the whole score matrix of a
 * naive solution is named with its shape and the line that built it.
 */
export async function memory(ctx) {
  const c = ctx.params;
  const args = [...caseInputs(ctx, c), c.block_size];
  const B = c.lead.reduce((a, b) => a * b, 1);
  const limit = Math.max(...args.slice(0, 3).map((t) => t.data.length), B * c.T_q * c.d_v, B * c.T_q * c.block_size);
  const call = `flash_attention(Q, K, V, ${c.block_size})`;
  const m = await ctx.measure('flash_attention', args, { limit });
  const got = ctx.array(m.value, 'flash_attention');
  const expected = ctx.ref.flash_attention(...args);
  const problem = ctx.mismatch(got, expected, `${call}, Q, K, V ${fmtShape(args[0].shape)}`);
  if (problem) {
    const why = ctx.diagnose(got, 'flash_attention', null, {
      recompute: (o) => ctx.ref.flash_attention(...args, true, o),
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
}
