// The graded tests of the rope exercise (ids as in spec.json), on the grader's kit. Inputs: seeded
// (ctx.rng) or the hand-checkable numbers of spec.json. Expected values: the C++ reference
// (reference/rope.hpp through ctx.ref). A wrong result names a classic mistake only when the
// reference with that mistake's options (spec.json "mistakes") gives the student's whole output, or,
// for an unsliced table, when the student's own function gives the right answer once it is handed
// exactly the rows it needs.
import { tensor, normals, fromRows, expect, close, fmtNum, fmtShape } from '../../grader/kit/index.mjs';

/** @typedef {import('../../grader/types').Ctx<import('./ref').Ref>} Ctx */

const PAIR = ['cos', 'sin'];

/** Rows from … to − 1 of the second-to-last axis of a tensor (…, R, C): a copy. */
function rowsOf(a, from, to) {
  const R = a.shape.at(-2),
    C = a.shape.at(-1),
    lead = a.data.length / (R * C),
    n = to - from;
  const out = new Float64Array(lead * n * C);
  for (let l = 0; l < lead; l++) out.set(a.data.subarray((l * R + from) * C, (l * R + to) * C), l * n * C);
  return tensor(out, [...a.shape.slice(0, -2), n, C]);
}

/**
 * One number against another, as numpy.isclose with the test's tolerance.
 * @param {Ctx} ctx
 */
const near = (ctx, actual, expected) => Math.abs(actual - expected) <= ctx.tol.atol + ctx.tol.rtol * Math.abs(expected);

// ---------------------------------------------------------------------------------------------
// rope_cache

/** @param {Ctx} ctx */
async function checkCache(ctx, { T, d_head: d, base }) {
  const args = base === undefined ? [T, d] : [T, d, base];
  const what = `rope_cache(${args.join(', ')})`;
  const got = ctx.tuple(await ctx.call('rope_cache', ...args), 'rope_cache', PAIR);
  const expected = ctx.ref.rope_cache(T, d, base ?? 10000);
  // The declared mistakes, and a base given but not used.
  const diagnosis = {
    fn: /** @type {const} */ ('rope_cache'),
    args: [T, d, base ?? 10000],
    extra: [
      base !== undefined && base !== 10000 && { key: 'd.base_ignored', run: () => ctx.ref.rope_cache(T, d, 10000) },
    ],
  };
  const why = () => ctx.diagnose(got, diagnosis.fn, diagnosis.args, { extra: diagnosis.extra });
  // Shapes first: each table is (T, d_head / 2).
  for (const [p, name] of PAIR.entries()) {
    const problem =
      got[p].shape.join() !== expected[p].shape.join() && ctx.mismatch(got[p], expected[p], `${what} ${name}`);
    if (problem) ctx.fail(problem, why());
  }
  const half = d / 2,
    at = (a, t, i) => a.data[t * half + i];
  // The hand-checkable entries: position 0 has angle 0 (cos 1, sin 0) …
  for (let i = 0; i < half; i++) {
    if (!near(ctx, at(got[0], 0, i), 1) || !near(ctx, at(got[1], 0, i), 0)) {
      ctx.fail(ctx.t('cache.origin', { i, cos: fmtNum(at(got[0], 0, i)), sin: fmtNum(at(got[1], 0, i)) }), why());
    }
  }
  // … and pair 0 has frequency 1, so its angle is the position itself.
  for (let t = 1; t < T; t++) {
    for (const [p, name] of PAIR.entries()) {
      if (!near(ctx, at(got[p], t, 0), at(expected[p], t, 0))) {
        ctx.fail(
          ctx.t('cache.first_pair', {
            name,
            t,
            expected: fmtNum(at(expected[p], t, 0)),
            actual: fmtNum(at(got[p], t, 0)),
          }),
          why(),
        );
      }
    }
  }
  expect(ctx, got, expected, { names: PAIR, what, ...diagnosis });
}

/** @param {Ctx} ctx */
export async function cache_values(ctx) {
  await checkCache(ctx, ctx.params);
}

/** @param {Ctx} ctx */
export async function cache_base(ctx) {
  await checkCache(ctx, ctx.params);
}

// ---------------------------------------------------------------------------------------------
// apply_rope

/**
 * apply_rope(x, cos, sin) on a table of exactly T rows, offset left to its default.
 * @param {Ctx} ctx
 */
async function checkApply(ctx, x, cos, sin, what) {
  const got = ctx.array(await ctx.call('apply_rope', x, cos, sin), 'apply_rope');
  expect(ctx, got, ctx.ref.apply_rope(x, cos, sin, 0), { what, fn: 'apply_rope', args: [x, cos, sin, 0] });
}

/** @param {Ctx} ctx */
export async function quarter_turn(ctx) {
  const [x, cos, sin] = [ctx.params.x, ctx.params.cos, ctx.params.sin].map(fromRows);
  await checkApply(ctx, x, cos, sin, 'apply_rope(x, cos, sin)');
}

/** @param {Ctx} ctx */
export async function apply_batch(ctx) {
  const { B, H, T, d_head: d } = ctx.params;
  const x = normals(ctx, [B, H, T, d]);
  const [cos, sin] = ctx.ref.rope_cache(T, d);
  await checkApply(ctx, x, cos, sin, `apply_rope(x, cos, sin), x ${fmtShape(x.shape)}`);
}

/** @param {Ctx} ctx */
export async function norms(ctx) {
  const { B, T, d_head: d } = ctx.params;
  const x = normals(ctx, [B, T, d], 2);
  const [cos, sin] = ctx.ref.rope_cache(T, d);
  const got = ctx.array(await ctx.call('apply_rope', x, cos, sin), 'apply_rope');
  const expected = ctx.ref.apply_rope(x, cos, sin, 0);
  const why = () => ctx.diagnose(got, 'apply_rope', [x, cos, sin, 0]);
  if (got.shape.join() !== x.shape.join()) ctx.fail(ctx.mismatch(got, expected, 'apply_rope(x, cos, sin)'), why());
  // Each pair (y[2i], y[2i+1]) is as long as (x[2i], x[2i+1]): a property of the output alone.
  for (let r = 0; r < B * T; r++) {
    for (let i = 0; i < d / 2; i++) {
      const k = r * d + 2 * i;
      const before = Math.hypot(x.data[k], x.data[k + 1]),
        after = Math.hypot(got.data[k], got.data[k + 1]);
      if (!near(ctx, after, before)) {
        ctx.fail(
          ctx.t('norms.pair', {
            index: `[${Math.floor(r / T)}, ${r % T}]`,
            i,
            before: fmtNum(before),
            after: fmtNum(after),
          }),
          why(),
        );
      }
    }
  }
}

/**
 * The student's apply_rope(x, cos, sin, offset) on a table longer than x. When it raises, or its
 * result has the wrong shape, and the same function handed exactly rows offset … offset + T − 1
 * (offset 0) gives the reference's answer, the table was not sliced: say so.
 * @param {Ctx} ctx
 */
async function applyOnTable(ctx, x, cos, sin, offset) {
  const T = x.shape.at(-2);
  const expected = ctx.ref.apply_rope(x, cos, sin, offset);
  const slicedWorks = async () => {
    try {
      const probe = ctx.array(
        await ctx.call('apply_rope', x, rowsOf(cos, offset, offset + T), rowsOf(sin, offset, offset + T), 0),
        'apply_rope',
      );
      return close(probe, expected, ctx.tol);
    } catch {
      return false;
    }
  };
  let got;
  try {
    got = ctx.array(await ctx.call('apply_rope', x, cos, sin, offset), 'apply_rope');
  } catch (e) {
    if (e.raised && (await slicedWorks())) ctx.fail(e.said, ctx.t('d.cache_not_sliced'));
    throw e;
  }
  if (got.shape.join() !== x.shape.join()) {
    const note = ctx.diagnose(got, 'apply_rope', [x, cos, sin, offset]);
    ctx.fail(
      ctx.mismatch(
        got,
        expected,
        `apply_rope(x, cos, sin, ${offset}), x ${fmtShape(x.shape)}, cos ${fmtShape(cos.shape)}`,
      ),
      note || ((await slicedWorks()) && ctx.t('d.cache_not_sliced')),
    );
  }
  return got;
}

/** @param {Ctx} ctx */
export async function relative(ctx) {
  const { L, d_head: d, same, different } = ctx.params;
  const q = normals(ctx, [1, d]),
    k = normals(ctx, [1, d]);
  const [cos, sin] = ctx.ref.rope_cache(L, d);
  const calls = []; // [input, offset, the student's result], for the diagnosis over every call
  const rotate = async (v, offset) => {
    const got = await applyOnTable(ctx, v, cos, sin, offset);
    calls.push([v, offset, got]);
    return got;
  };
  const dot = (a, b) => a.data.reduce((s, v, i) => s + v * b.data[i], 0);
  const score = async ([m, n]) => dot(await rotate(q, m), await rotate(k, n));
  const why = () =>
    ctx.diagnose(
      calls.map((c) => c[2]),
      'apply_rope',
      null,
      { recompute: (o) => calls.map(([v, off]) => ctx.ref.apply_rope(v, cos, sin, off, o)) },
    );
  for (const [a, b] of same) {
    const [sa, sb] = [await score(a), await score(b)];
    if (!near(ctx, sb, sa)) {
      ctx.fail(ctx.t('relative.same', { m1: a[0], n1: a[1], m2: b[0], n2: b[1], a: fmtNum(sa), b: fmtNum(sb) }), why());
    }
  }
  const [a, b] = different;
  const [sa, sb] = [await score(a), await score(b)];
  // The reference's two scores differ by far more than the tolerance on these inputs.
  const [ra, rb] = [a, b].map(([m, n]) => dot(ctx.ref.apply_rope(q, cos, sin, m), ctx.ref.apply_rope(k, cos, sin, n)));
  if (Math.abs(ra - rb) < 1e-2)
    throw new Error(`relative: the reference's scores ${ra} and ${rb} are too close; choose other positions`);
  if (near(ctx, sb, sa)) {
    ctx.fail(
      ctx.t('relative.different', {
        m1: a[0],
        n1: a[1],
        m2: b[0],
        n2: b[1],
        a: fmtNum(sa),
        b: fmtNum(sb),
        d1: a[0] - a[1],
        d2: b[0] - b[1],
      }),
      why(),
    );
  }
}

/** @param {Ctx} ctx */
export async function offset(ctx) {
  const { B, T, d_head: d, offset: off, L } = ctx.params;
  const longer = normals(ctx, [B, off + T, d]);
  const x = rowsOf(longer, off, off + T);
  const [cos, sin] = ctx.ref.rope_cache(L, d);
  const got = await applyOnTable(ctx, x, cos, sin, off);
  // Expected: rows offset … of the same rotation run from position 0 over the longer sequence.
  const expected = rowsOf(ctx.ref.apply_rope(longer, cos, sin, 0), off, off + T);
  expect(ctx, got, expected, { what: `apply_rope(x, cos, sin, ${off})`, fn: 'apply_rope', args: [x, cos, sin, off] });
}
