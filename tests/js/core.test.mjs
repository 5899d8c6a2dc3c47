// Tests of the WASM core through wasm/index.mjs, both flavours.
// Expected values: the lesson's printed numbers, closed forms, or the other flavour / the loop
// reference (cross-checks). Needs tools/build-wasm first. Run: node --test tests/js/core.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  coreCount,
  loadCore,
  relaxedSimdSupported,
  simdSupported,
  tensor,
  threadsSupported,
} from '../../wasm/index.mjs';
import { Rng } from '../../grader/core/prng.mjs';

const cores = {
  simd: await loadCore({ flavour: 'simd' }),
  baseline: await loadCore({ flavour: 'baseline' }),
};

const lesson = {
  Q: tensor([
    [2, 0],
    [0, 2],
    [1, 1],
  ]),
  K: tensor([
    [1, 0],
    [0, 1],
    [1, 1],
  ]),
  V: tensor([
    [10, 0],
    [0, 10],
    [5, 5],
  ]),
};

const round3 = (t) => Array.from(t.data, (x) => Math.round(x * 1000) / 1000 + 0); // + 0: no -0
const randn = (rng, shape, scale = 1) => ({
  data: rng.normals(
    shape.reduce((a, b) => a * b, 1),
    scale,
  ),
  shape,
});

function assertClose(a, b, msg, rtol = 1e-12, atol = 1e-14) {
  assert.deepEqual(a.shape, b.shape, `${msg}: shapes`);
  for (let i = 0; i < a.data.length; i++) {
    const x = a.data[i],
      y = b.data[i];
    const ok = Number.isNaN(y) ? Number.isNaN(x) : Math.abs(x - y) <= atol + rtol * Math.abs(y);
    assert.ok(ok, `${msg}: element ${i} is ${x}, expected ${y}`);
  }
}

test('flavours: each core reports its own; auto picks the fastest the runtime has', async () => {
  assert.equal(cores.simd.flavour, 'simd');
  assert.equal(cores.baseline.flavour, 'baseline');
  assert.equal(simdSupported(), true, 'Node 20 supports WebAssembly SIMD');
  // Node 20 has relaxed SIMD only behind a V8 flag (tests/js/conformance.test.mjs turns it on and
  // runs that build); Node 22+ and browsers have it by default.
  const relaxed = relaxedSimdSupported();
  // Node 20.16+ has worker_threads for the threaded builds: picked when there is more than one core.
  assert.equal(threadsSupported(), true, 'Node 20.16+ runs the threaded builds');
  const mt = coreCount() > 1 ? '-mt' : '';
  assert.equal((await loadCore()).flavour, (relaxed ? 'relaxed' : 'simd') + mt);
  assert.equal((await loadCore({ threads: 1 })).flavour, relaxed ? 'relaxed' : 'simd');
  assert.equal((await loadCore({ threads: 3 })).flavour, `${relaxed ? 'relaxed' : 'simd'}-mt`);
  assert.equal(await (await loadCore({ threads: 3 })).threadsReady, 3);
  assert.equal(await (await loadCore({ flavour: 'simd' })).threadsReady, 1);
  if (!relaxed) {
    await assert.rejects(
      loadCore({ flavour: 'relaxed' }),
      /this runtime has no WebAssembly relaxed SIMD; use flavour 'simd' or 'auto'/,
    );
    await assert.rejects(
      loadCore({ flavour: 'relaxed-mt' }),
      /no WebAssembly relaxed SIMD; use flavour 'simd-mt' or 'auto'/,
    );
  }
  await assert.rejects(
    loadCore({ flavour: 'avx' }),
    /unknown flavour "avx" \(use 'auto', 'relaxed-mt', 'relaxed', 'simd-mt', 'simd', 'baseline'\)/,
  );
  await assert.rejects(loadCore({ threads: 0 }), /loadCore: threads must be an integer >= 1, got 0/);
  await assert.rejects(loadCore({ flavour: 'simd', threads: 2.5 }), /threads must be an integer/);
});

test('a threaded build computes what its single-threaded twin does; Node exits with its pool alive', async () => {
  const mt = await loadCore({ flavour: 'simd-mt', threads: 2 });
  assert.equal(mt.flavour, 'simd-mt');
  assert.equal(await mt.threadsReady, 2);
  assert.equal(mt.maxThreads(), 2);
  const Q = tensor([
    [2, 0],
    [0, 2],
    [1, 1],
  ]);
  const r = mt.attention(Q, Q, Q, { mask: mt.causalMask(3) });
  assert.deepEqual(r.out.data, cores.simd.attention(Q, Q, Q, { mask: cores.simd.causalMask(3) }).out.data);
  // The pool's worker threads are unref'd: a script that loaded the build still ends by itself.
  const { spawnSync } = await import('node:child_process');
  const script = `import('${new URL('../../wasm/index.mjs', import.meta.url).href}').then(async (m) => {
    const c = await m.loadCore({ flavour: 'simd-mt', threads: 2 });
    console.log(await c.threadsReady, c.threads(), typeof globalThis.Worker);
  });`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 20000,
  });
  assert.equal(child.status, 0, child.stderr);
  // 2 threads, and no global Worker left behind by Emscripten's Node glue.
  assert.equal(child.stdout.trim(), '2 2 undefined');
  // A script that never waits for the threads does not wait for them to start either.
  const quick = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', script.replace('await c.threadsReady, ', '')],
    { encoding: 'utf8', timeout: 20000 },
  );
  assert.equal(quick.status, 0, quick.stderr);
  assert.match(quick.stdout.trim(), /^[12] undefined$/);
});

for (const [name, core] of Object.entries(cores)) {
  test(`${name}: the lesson example prints the lesson's numbers`, () => {
    const mask = core.causalMask(3);
    assert.deepEqual(mask, { data: Uint8Array.from([1, 0, 0, 1, 1, 0, 1, 1, 1]), shape: [3, 3] });
    const { out, weights } = core.attention(lesson.Q, lesson.K, lesson.V, { mask });
    assert.deepEqual(weights.shape, [3, 3]);
    assert.deepEqual(round3(weights), [1, 0, 0, 0.196, 0.804, 0, 0.248, 0.248, 0.503]);
    assert.deepEqual(round3(out), [10, 0, 1.956, 8.044, 5, 5]);
    // Full precision: row 1 = softmax(0, sqrt 2) = (1 / (1 + e^sqrt2), 1 / (1 + e^-sqrt2)).
    assert.ok(Math.abs(weights.data[4] - 1 / (1 + Math.exp(-Math.SQRT2))) < 1e-15);
    assert.equal(weights.data[2], 0); // masked: exactly zero
    // Unmasked, row 0 would be (0.446, 0.108, 0.446).
    const free = core.attention(lesson.Q, lesson.K, lesson.V);
    assert.deepEqual(round3(free.weights).slice(0, 3), [0.446, 0.108, 0.446]);
    // The same example through causalSelfAttention with identity projections, and through the loops.
    const I = tensor([
      [1, 0],
      [0, 1],
    ]);
    const viaX = core.causalSelfAttention(lesson.Q, I, I, I);
    assert.deepEqual(round3(viaX.weights), round3(core.attention(lesson.Q, lesson.Q, lesson.Q, { mask }).weights));
    const loops = core.attentionLoops(lesson.Q, lesson.K, lesson.V, { mask });
    assertClose(loops.out, out, 'attentionLoops vs attention');
  });

  test(`${name}: attention == attentionLoops on random batched inputs (T_q != T_k, d_v != d_k)`, () => {
    const seed = 2024;
    const rng = new Rng(seed);
    const Q = randn(rng, [2, 3, 5, 4], 2),
      K = randn(rng, [2, 3, 7, 4], 2),
      V = randn(rng, [2, 3, 7, 6]);
    const mask = { data: Uint8Array.from({ length: 35 }, () => (rng.next() < 0.8 ? 1 : 0)), shape: [5, 7] };
    const a = core.attention(Q, K, V, { mask });
    const l = core.attentionLoops(Q, K, V, { mask });
    assert.deepEqual(a.out.shape, [2, 3, 5, 6]);
    assert.deepEqual(a.weights.shape, [2, 3, 5, 7]);
    assertClose(a.out, l.out, `seed ${seed} out`);
    assertClose(a.weights, l.weights, `seed ${seed} weights`);
  });

  test(`${name}: softmax, matmul, masks given as booleans, NaN for a fully masked row`, () => {
    const s = core.softmax(
      tensor([
        [1, 2],
        [3, 5],
      ]),
      0,
    );
    assertClose(
      s,
      tensor([
        [1 / (1 + Math.E ** 2), 1 / (1 + Math.E ** 3)],
        [1 / (1 + Math.E ** -2), 1 / (1 + Math.E ** -3)],
      ]),
      'softmax axis 0',
    );
    assert.deepEqual(
      core.matmul(
        tensor([
          [1, 2, 3],
          [4, 5, 6],
        ]),
        tensor([
          [1, 0],
          [0, 1],
          [1, 1],
        ]),
      ),
      tensor([
        [4, 5],
        [10, 11],
      ]),
    );
    assert.deepEqual(core.matmul(randn(new Rng(3), [2, 1, 3, 4]), randn(new Rng(4), [5, 4, 2])).shape, [2, 5, 3, 2]);
    const boolMask = tensor([
      [true, false, false],
      [false, false, false],
      [true, true, true],
    ]);
    const r = core.attention(lesson.Q, lesson.K, lesson.V, { mask: boolMask });
    assert.equal(r.weights.data[0], 1);
    assert.ok(
      [3, 4, 5].every((i) => Number.isNaN(r.weights.data[i])),
      'row 1 is NaN like NumPy',
    );
    const finite = core.attention(lesson.Q, lesson.K, lesson.V, { mask: boolMask, maskedScore: -1e9 });
    assert.ok(Math.abs(finite.weights.data[3] - 1 / 3) < 1e-12, 'finite masked score: uniform row');
  });

  test(`${name}: errors name the shapes`, () => {
    const z = (...shape) => ({ data: new Float64Array(shape.reduce((a, b) => a * b, 1)), shape });
    assert.throws(() => core.attention(z(2, 3, 5), z(2, 3, 4), z(2, 3, 4)), {
      message: 'attention: Q has shape (2, 3, 5) but K has shape (2, 3, 4): last axes (d_k) differ',
    });
    assert.throws(() => core.attention(z(3, 4), z(3, 4), z(3, 4), { mask: core.causalMask(4) }), {
      message: 'attention: mask has shape (4, 4) but the scores Q K^T have shape (3, 3): not broadcastable',
    });
    assert.throws(() => core.matmul(z(2, 3), z(2, 3)), /matmul: a has shape \(2, 3\) but b has shape \(2, 3\)/);
    assert.throws(() => core.softmax(z(2, 3), 2), { message: 'softmax: axis 2 is out of range for x of shape (2, 3)' });
    assert.throws(
      () => core.causalSelfAttention(z(3, 5), z(4, 2), z(4, 2), z(4, 2)),
      /causal_self_attention: X has shape \(3, 5\) but W_q has shape \(4, 2\)/,
    );
    assert.throws(() => core.attention({ data: new Float64Array(5), shape: [2, 3] }, z(2, 3), z(2, 3)), {
      message: 'attention: Q has 5 values but shape (2, 3) needs 6',
    });
    assert.throws(() => core.causalMask(2.5), /causal_mask: T must be a non-negative integer/);
    assert.throws(() => core.attention(z(2, 3), 'K', z(2, 3)), TypeError);
    // The core still works after errors.
    assert.equal(core.causalMask(2).data.length, 4);
  });

  test(`${name}: results are JS-owned copies that survive WASM memory growth`, () => {
    const r = core.softmax(tensor([0, Math.log(3)]));
    assert.notEqual(r.data.buffer, core.module.HEAPF64.buffer);
    const before = Array.from(r.data);
    core.matmul(randn(new Rng(5), [1200, 1200]), randn(new Rng(6), [1200, 8]));
    assert.ok(core.module.HEAPU8.length > 16 * 2 ** 20, 'the heap grew past its initial 16 MiB');
    assert.deepEqual(Array.from(r.data), before);
    assertClose(r, tensor([0.25, 0.75]), 'softmax(0, ln 3)', 1e-15, 0);
  });
}

test('both flavours give bit-identical results on random inputs', () => {
  for (const seed of [1, 2, 3]) {
    const rng = new Rng(seed);
    const B = seed,
      T = 3 + 5 * seed,
      dm = 8,
      dk = 5,
      dv = 3;
    const X = randn(rng, [B, T, dm]),
      Wq = randn(rng, [dm, dk]),
      Wk = randn(rng, [dm, dk]),
      Wv = randn(rng, [dm, dv]);
    const [a, b] = [cores.simd, cores.baseline].map((c) => c.causalSelfAttention(X, Wq, Wk, Wv));
    assert.deepEqual(a, b, `seed ${seed}: causalSelfAttention differs between flavours`);
    const [s, t] = [cores.simd, cores.baseline].map((c) => c.softmax(X, 1));
    assert.deepEqual(s, t, `seed ${seed}: softmax differs between flavours`);
  }
});
