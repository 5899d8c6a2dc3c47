// The conformance table (tests/conformance/attention.json) on the five WASM builds of the fused
// float32 kernel (core.attentionF32: wasm/fused.mjs over wasm/include/attnlab/fused.hpp) against the
// double reference core.attention, plus the proof that each build runs the code it claims: SIMD
// multiplies in the SIMD build, relaxed_madd in the relaxed one, no SIMD in the baseline, atomics
// in the threaded ones. The threaded builds (-mt: fused_parallel.hpp on a pool of worker threads)
// run the table on 1, 2 and the core count threads, every call through the pool, and must give
// results bit-identical to their single-threaded twin. On Node 20 the relaxed builds need V8's
// --experimental-wasm-relaxed-simd, turned on here (enableRelaxedSimd) — in the workers too (V8
// flags are per process; the test would fail if a worker refused the module).
// Input rule and comparison are shared with the WebGPU tests (tests/conformance/harness.mjs).
// Needs tools/build-wasm first, and llvm-objdump-14 (llvm-14, installed with Debian's emscripten).
// Run: node --test tests/js/conformance.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { FLAVOURS, coreCount, enableRelaxedSimd, loadCore, threadsSupported } from '../../wasm/index.mjs';
import { caseArgs, caseInputs, casesFor, compareCase } from '../conformance/harness.mjs';
import { loadTable, referenceFor } from '../conformance/reference.mjs';

const { table } = loadTable();
const reference = await referenceFor();

assert.ok(await enableRelaxedSimd(), 'this Node cannot run relaxed SIMD, even with --experimental-wasm-relaxed-simd');

// The table's tolerance key of each kernel; a threaded build shares its single-threaded twin's.
const TOLERANCE = { 'relaxed-simd': 'wasm-relaxed', simd128: 'wasm-simd', scalar: 'wasm' };
const builds = Object.entries(FLAVOURS)
  .filter(([, b]) => !b.threaded)
  .map(([flavour, b]) => ({ flavour, backend: TOLERANCE[b.kernel], kind: b.kernel, file: `${b.file}.wasm` }));
assert.ok(threadsSupported(), 'this Node cannot run the threaded builds (Node 20.16+ with worker_threads needed)');
// 1, 2 and the core count; 5 besides on small machines: an odd count, more threads than cores.
const THREADS = [...new Set([1, 2, coreCount(), ...(coreCount() < 5 ? [5] : [])])];

for (const { backend, flavour, kind, file } of builds) {
  const api = await loadCore({ flavour }); // core.attentionF32 etc. come from wasm/fused.mjs

  test(`${backend}: conformance table against ${reference.name}`, async (t) => {
    const cases = casesFor(table, backend, Infinity);
    assert.ok(cases.length > 10, `only ${cases.length} cases run on ${backend}`);
    for (const c of cases) {
      await t.test(c.name, () => {
        const inputs = caseInputs(c);
        const fails = compareCase(
          c,
          api.attentionF32(caseArgs(c, inputs)),
          reference.run(c, inputs),
          table.tolerances[backend],
        );
        assert.deepEqual(fails, [], fails.join('\n'));
      });
    }
  });

  test(`${backend}: compiled as ${kind}, and the binary agrees`, () => {
    assert.equal(api.fusedKernelKind(), kind);
    const path = fileURLToPath(new URL(`../../wasm/dist/${file}`, import.meta.url));
    const dis = spawnSync('llvm-objdump-14', ['-d', path], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(dis.status, 0, `llvm-objdump-14 -d ${path} failed (llvm-14 missing?): ${dis.error ?? dis.stderr}`);
    const count = (re) => (dis.stdout.match(re) ?? []).length;
    const simdOps = count(/\t(?:v128|f32x4|i32x4|i16x8|i8x16|f64x2|i64x2)\.[a-z_0-9]+/g);
    // LLVM 14 does not know the standard relaxed_madd opcode: it lists those bytes as <unknown>.
    const madd = count(/ fd 85 02 +\t<unknown>/g),
      mul = count(/\tf32x4\.mul\b/g);
    if (kind === 'scalar') {
      assert.equal(simdOps + madd, 0, `${file}: the baseline build contains SIMD instructions`);
    } else if (kind === 'simd128') {
      assert.ok(
        mul >= 16 && madd === 0,
        `${file}: ${mul} f32x4.mul and ${madd} relaxed_madd, expected the vector kernel's muls only`,
      );
    } else {
      assert.ok(madd >= 16, `${file}: ${madd} f32x4.relaxed_madd, expected the kernels' 16 at least`);
      assert.equal(
        count(/\tf32x4\.fma\b/g),
        0,
        `${file}: early-opcode f32x4.fma left (tools/relaxed-opcodes.mjs not run?)`,
      );
    }
  });

  test(`${backend}: bad arguments throw an Error naming the sizes`, () => {
    const q = new Float32Array(2 * 3),
      k = new Float32Array(4 * 3),
      v = new Float32Array(4 * 2);
    const ok = { q, k, v, Tq: 2, Tk: 4, d: 3, dv: 2 };
    assert.equal(api.attentionF32(ok).out.length, 2 * 2);
    assert.throws(
      () => api.attentionF32({ ...ok, k: new Float32Array(11) }),
      /k has 11 values but shape \(B=1, H=1, T=4, d=3\) needs 12/,
    );
    assert.throws(
      () => api.attentionF32({ ...ok, v: new Float64Array(8) }),
      /v must be a Float32Array, got Float64Array/,
    );
    assert.throws(() => api.attentionF32({ ...ok, Tk: 0 }), /Tk must be an integer >= 1, got 0/);
    assert.throws(() => api.attentionF32({ ...ok, scale: Infinity }), /scale must be a finite number/);
    assert.throws(() => api.attentionF32({ ...ok, H: 2 }), /q has 6 values but shape \(B=1, H=2, T=2, d=3\) needs 12/);
  });

  test(`${backend}: results are fresh copies that survive heap growth`, () => {
    const c = {
      B: 1,
      H: 1,
      Tq: 4,
      Tk: 4,
      d: 2,
      dv: 2,
      causal: true,
      scale: null,
      weights: true,
      magnitude: 1,
      seed: 5,
    };
    const first = api.attentionF32(caseArgs(c));
    const snapshot = Float32Array.from(first.out);
    const Tk = 1 << 19,
      d = 8; // 16 MiB each for k and v: more than the initial heap, so it grows
    const before = api.heapBytes();
    api.attentionF32({
      q: new Float32Array(d),
      k: new Float32Array(Tk * d),
      v: new Float32Array(Tk * d),
      Tq: 1,
      Tk,
      d,
    });
    assert.ok(api.heapBytes() > before, 'the heap did not grow: the test proves nothing');
    assert.deepEqual(first.out, snapshot);
    assert.ok(!(first.out.buffer instanceof SharedArrayBuffer) && first.out.buffer.byteLength === first.out.byteLength);
  });
}

// The threaded builds: same table and tolerance as the twin, bit for bit the twin's numbers.
const identical = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
for (const [flavour, b] of Object.entries(FLAVOURS).filter(([, x]) => x.threaded)) {
  const twinName = flavour.replace(/-mt$/, '');
  const twin = await loadCore({ flavour: twinName });
  const api = await loadCore({ flavour, threads: Math.max(...THREADS) });
  const before = api.threads(); // the module resolves before its workers have loaded
  assert.equal(await api.threadsReady, Math.max(...THREADS), api.threadsError ?? '');
  const backend = TOLERANCE[b.kernel];

  test(`${flavour}: a pool of ${Math.max(...THREADS)} threads, compiled as ${b.kernel} with atomics`, () => {
    assert.equal(api.flavour, flavour);
    assert.equal(api.fusedKernelKind(), b.kernel);
    assert.equal(api.maxThreads(), Math.max(...THREADS));
    assert.equal(api.threads(), Math.max(...THREADS));
    assert.ok(before === 1 || before === Math.max(...THREADS), `threads() was ${before} before the pool was up`);
    assert.equal(api.threadsError, null);
    assert.throws(() => api.setThreads(0), /setThreads: n must be an integer from 1 to \d+/);
    assert.throws(() => api.setThreads(api.maxThreads() + 1), /setThreads/);
    assert.equal(twin.maxThreads(), 1);
    const path = fileURLToPath(new URL(`../../wasm/dist/${b.file}.wasm`, import.meta.url));
    const dis = spawnSync('llvm-objdump-14', ['-d', path], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(dis.status, 0, `llvm-objdump-14 -d ${path} failed: ${dis.error ?? dis.stderr}`);
    assert.ok(
      (dis.stdout.match(/\tmemory\.atomic\.(?:wait32|notify)\b/g) ?? []).length > 0,
      `${b.file}.wasm: no atomic wait/notify: not a threaded build`,
    );
  });

  for (const n of THREADS) {
    test(`${flavour} on ${n} thread${n > 1 ? 's' : ''}: conformance table, every call through the pool, bit-identical to ${twinName}`, async (t) => {
      api.setThreads(n);
      api.module.fused_set_min_parallel_work(0); // the table's shapes are small: no shortcut
      try {
        for (const c of casesFor(table, backend, Infinity)) {
          await t.test(c.name, () => {
            const inputs = caseInputs(c);
            const got = api.attentionF32(caseArgs(c, inputs));
            const fails = compareCase(c, got, reference.run(c, inputs), table.tolerances[backend]);
            assert.deepEqual(fails, [], fails.join('\n'));
            const want = twin.attentionF32(caseArgs(c, inputs));
            assert.ok(identical(got.out, want.out), `${c.name} (seed ${c.seed}): out differs from ${twinName}'s`);
            if (c.weights)
              assert.ok(
                identical(got.weights, want.weights),
                `${c.name} (seed ${c.seed}): weights differ from ${twinName}'s`,
              );
          });
        }
      } finally {
        api.module.fused_set_min_parallel_work(NaN);
      }
    });
  }

  test(`${flavour}: large calls run on several threads and match ${twinName} bit for bit`, () => {
    api.setThreads(Math.min(2, api.maxThreads()));
    for (const c of [
      { B: 1, H: 1, Tq: 2100, Tk: 2100, d: 64, dv: 64, causal: true, weights: false, seed: 41 },
      { B: 2, H: 3, Tq: 300, Tk: 500, d: 32, dv: 24, causal: true, weights: true, seed: 42 },
    ]) {
      const args = caseArgs({ ...c, scale: null, magnitude: 1 });
      const want = twin.attentionF32(args);
      let threads = 0;
      // A worker joins a call when it wakes before the calling thread has taken every chunk; on a
      // loaded machine that can miss some calls, so keep calling, up to 200 calls (a count, not a
      // time: the scheduler gives a waiting thread a slice within one of these calls, however busy the
      // machine is; each call is checked bit for bit).
      let calls = 0;
      for (; calls === 0 || (threads < 2 && calls < 200); calls++) {
        const got = api.attentionF32(args);
        assert.ok(
          identical(got.out, want.out) && (!c.weights || identical(got.weights, want.weights)),
          `B${c.B} T${c.Tq}: differs from ${twinName}`,
        );
        threads = Math.max(threads, api.module.fused_last_call_threads());
      }
      assert.equal(threads, 2, `B${c.B} T${c.Tq}: the workers never took part in ${calls} calls`);
    }
  });
}
