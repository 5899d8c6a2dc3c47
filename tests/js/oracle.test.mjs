// The outside oracle (STYLE: expected values come from the C++ reference, and Debian's NumPy checks
// the reference): for every pack with exercises/<slug>/reference/oracle.json, each case's seeded inputs
// go to the pack's C++ reference through WASM (core.call('<slug>.<fn>', …)) and to its NumPy twin
// (reference/oracle.py, run by tests/oracle/run.py under /usr/bin/python3), and the two must agree.
// Case arguments: literals, null, lists, { "normal": shape, "scale"? } (seeded normals) and
// { "causal": T } (the causal mask). Tolerance: rtol 1e-9, atol 1e-12 unless a case says "tol".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXERCISES, listExercises } from '../../grader/hosts/node/exercise.mjs';
import { Rng, deriveSeed } from '../../grader/core/prng.mjs';
import { compare } from '../../grader/core/compare.mjs';
import { tensor, sizeOf } from '../../grader/core/tensor.mjs';
import { loadCore } from '../../wasm/index.mjs';

const PYTHON = '/usr/bin/python3';
const RUNNER = fileURLToPath(new URL('../oracle/run.py', import.meta.url));
const TOL = { rtol: 1e-9, atol: 1e-12 };
const core = await loadCore();

/** A case's argument spec → the value both sides get. */
function build(spec, rng) {
  if (Array.isArray(spec)) return spec.map((s) => build(s, rng));
  if (spec && typeof spec === 'object' && 'normal' in spec)
    return tensor(rng.normals(sizeOf(spec.normal), spec.scale ?? 1), spec.normal);
  if (spec && typeof spec === 'object' && 'causal' in spec) {
    const T = spec.causal,
      d = new Uint8Array(T * T);
    for (let i = 0; i < T; i++) for (let j = 0; j <= i; j++) d[i * T + j] = 1;
    return tensor(d, [T, T], 'bool');
  }
  return spec;
}

const num = (x) => (Number.isFinite(x) ? x : { $f: String(x) });
const toPy = (v) =>
  v && v.data && v.shape
    ? {
        $t: {
          shape: v.shape,
          dtype: v.dtype ?? 'float64',
          data: Array.from(v.data, v.dtype === 'bool' ? Boolean : num),
        },
      }
    : Array.isArray(v)
      ? v.map(toPy)
      : typeof v === 'number'
        ? num(v)
        : v;
const fromPy = (v) =>
  v && v.$t
    ? tensor(
        v.$t.dtype === 'bool'
          ? Uint8Array.from(v.$t.data, Number)
          : Float64Array.from(v.$t.data, (x) => (typeof x === 'number' ? x : Number(x.$f))),
        v.$t.shape,
        v.$t.dtype,
      )
    : Array.isArray(v)
      ? v.map(fromPy)
      : v && v.$f
        ? Number(v.$f)
        : v;

/** Differences between the reference's result and the oracle's, as sentences. */
function differences(ref, py, tol, where) {
  if (Array.isArray(py)) {
    if (!Array.isArray(ref) || ref.length !== py.length)
      return [
        `${where}: the reference gave ${Array.isArray(ref) ? `${ref.length} parts` : 'one value'}, NumPy ${py.length}`,
      ];
    return py.flatMap((p, i) => differences(ref[i], p, tol, `${where}[${i}]`));
  }
  if (py && py.data) {
    const r = compare(tensor(ref.data, ref.shape, ref.dtype), py, tol);
    return r.ok
      ? []
      : [
          `${where}: ${r.reason}${r.index ? ` at [${r.index}]: C++ ${r.actual}, NumPy ${r.expected}` : ` (C++ ${ref.shape}, NumPy ${py.shape})`}`,
        ];
  }
  return Object.is(ref, py) || ref === py ? [] : [`${where}: C++ ${ref}, NumPy ${py}`];
}

for (const slug of listExercises()) {
  const dir = join(EXERCISES, slug, 'reference');
  if (!existsSync(join(dir, 'oracle.json'))) continue;
  test(`${slug}: the C++ reference agrees with NumPy (reference/oracle.py)`, () => {
    const spec = JSON.parse(readFileSync(join(EXERCISES, slug, 'spec.json'), 'utf8'));
    const cases = JSON.parse(readFileSync(join(dir, 'oracle.json'), 'utf8'));
    const inputs = cases.map((c, i) => build(c.args, new Rng(deriveSeed(spec.seed, `oracle/${slug}/${i}`))));
    const run = spawnSync(PYTHON, [RUNNER], {
      input: JSON.stringify({
        module: join(dir, 'oracle.py'),
        cases: cases.map((c, i) => ({ fn: c.fn, args: toPy(inputs[i]) })),
      }),
      encoding: 'utf8',
      maxBuffer: 256 * 2 ** 20,
    });
    assert.equal(
      run.status,
      0,
      `${PYTHON} ${RUNNER} failed (is python3-numpy installed? tools/setup does it):\n${run.stderr}`,
    );
    const { results } = JSON.parse(run.stdout);
    const problems = cases.flatMap((c, i) =>
      differences(
        core.call(`${slug}.${c.fn}`, ...inputs[i]),
        fromPy(results[i]),
        { ...TOL, ...c.tol },
        `${c.fn} (case ${i})`,
      ),
    );
    assert.deepEqual(problems, []);
  });
}
