// The conformance table (tests/conformance/attention.json) on the threaded WASM builds in headless
// Chromium, where students run them: a cross-origin isolated page (web/server.mjs's headers, as
// tools/serve sends them) loads attnlab-relaxed-mt and attnlab-simd-mt with a pool of max(2, cores)
// threads and their single-threaded twins, and runs every case on 1, 2 and the core count threads,
// each call through the pool (no small-call shortcut). Node checks the results against the double
// reference (as tests/js/conformance.test.mjs does in Node); the page checks they are bit-identical
// to the twin's.
// Run: node --test tests/browser/conformance.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { openGpuPage } from '../../tools/lib/gpu-page.mjs';
import { casesFor, caseInputs, compareCase } from '../conformance/harness.mjs';
import { loadTable, referenceFor } from '../conformance/reference.mjs';
import { FLAVOURS } from '../../wasm/index.mjs';

const PAGE = `
import { loadCore, FLAVOURS } from './wasm/index.mjs';
import { caseArgs } from './tests/conformance/harness.mjs';
const same = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
globalThis.runCases = async (flavour, cases) => {
  if (!crossOriginIsolated) throw new Error('the page is not cross-origin isolated');
  const cores = navigator.hardwareConcurrency, pool = Math.max(2, Math.min(cores, 8));
  const core = await loadCore({ flavour, threads: pool });
  if ((await core.threadsReady) !== pool) throw new Error('the pool did not start: ' + core.threadsError);
  const twin = await loadCore({ flavour: flavour.replace(/-mt$/, '') });
  const counts = [...new Set([1, 2, pool])];
  core.module.fused_set_min_parallel_work(0);
  const runs = [];
  for (const threads of counts) {
    core.setThreads(threads);
    const results = [], differ = [];
    for (const c of cases) {
      const r = core.attentionF32(caseArgs(c)), w = twin.attentionF32(caseArgs(c));
      if (!same(r.out, w.out) || (c.weights && !same(r.weights, w.weights))) differ.push(c.name);
      results.push({ out: Array.from(r.out), weights: r.weights && Array.from(r.weights) });
    }
    runs.push({ threads, results, differ });
  }
  return { cores, pool, kernel: core.fusedKernelKind(), maxThreads: core.maxThreads(), runs };
};
globalThis.ready = true;
`;

const root = fileURLToPath(new URL('../../', import.meta.url));
let browser;
before(async () => {
  browser = await openGpuPage({ source: PAGE, links: { dist: `${root}wasm/dist` }, webgpu: false });
});
after(() => browser?.close());

const TOLERANCE = { 'relaxed-simd': 'wasm-relaxed', simd128: 'wasm-simd' };
for (const [flavour, b] of Object.entries(FLAVOURS).filter(([, x]) => x.threaded)) {
  test(`${flavour} in Chromium on 1, 2 and the core count threads: the conformance table, bit-identical to its twin`, async (t) => {
    const { table } = loadTable();
    const backend = TOLERANCE[b.kernel];
    const cases = casesFor(table, backend, Infinity);
    const ref = await referenceFor();
    const r = await browser.evaluate((a) => globalThis.runCases(...a), [flavour, cases]);
    t.diagnostic(
      `${cases.length} cases; Chromium reports ${r.cores} cores; pool ${r.pool}; threads ${r.runs.map((x) => x.threads).join(', ')}`,
    );
    assert.equal(r.kernel, b.kernel);
    assert.equal(r.maxThreads, r.pool);
    assert.deepEqual(browser.errors, []);
    const want = cases.map((c) => ref.run(c, caseInputs(c)));
    for (const run of r.runs) {
      assert.deepEqual(run.differ, [], `${run.threads} threads: not bit-identical to ${flavour.replace(/-mt$/, '')}`);
      const fails = cases.flatMap((c, n) =>
        compareCase(c, run.results[n], want[n], table.tolerances[backend]).map((f) => `${run.threads} threads: ${f}`),
      );
      assert.deepEqual(fails, []);
    }
  });
}
