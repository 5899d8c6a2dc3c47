// The shared conformance table on the WebGPU path in headless Chromium (SwiftShader without a GPU):
//   node --test tests/webgpu/chromium.test.mjs
// The page (page.mjs, bundled with esbuild) computes; Node checks against the double reference.
// Also: which backend 'auto' picks with and without --enable-unsafe-webgpu.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openGpuPage } from '../../tools/lib/gpu-page.mjs';
import { casesFor, caseInputs, compareCase } from '../conformance/harness.mjs';
import { loadTable, referenceFor } from '../conformance/reference.mjs';

let browser;
before(async () => {
  browser = await openGpuPage({ entry: new URL('./page.mjs', import.meta.url).pathname });
});
after(() => browser?.close());

test('conformance table on WebGPU in Chromium', async (t) => {
  const { table, source } = loadTable();
  const cases = casesFor(table, 'webgpu');
  const ref = await referenceFor();
  const { adapterInfo, results } = await browser.page.evaluate((cs) => globalThis.runCases(cs), cases);
  t.diagnostic(
    `table ${source}; adapter ${JSON.stringify(adapterInfo)}; reference: ${ref.name}; ${cases.length} cases`,
  );
  assert.deepEqual(browser.errors, []);
  const fails = cases.flatMap((c, n) => compareCase(c, results[n], ref.run(c, caseInputs(c)), table.tolerances.webgpu));
  assert.deepEqual(fails, []);
});

test("the page's 'auto' backend is WebGPU with --enable-unsafe-webgpu, the CPU without it", async () => {
  const on = await browser.page.evaluate(() => globalThis.pickBackend());
  assert.equal(on.name, 'webgpu', on.reason);
  const off = await openGpuPage({ entry: new URL('./page.mjs', import.meta.url).pathname, webgpu: false });
  try {
    const r = await off.page.evaluate(() => globalThis.pickBackend());
    assert.equal(r.name, 'simd', r.reason);
    assert.match(r.reason, /unavailable: webgpu \(WebGPU unavailable: requestAdapter\(\) returned null\)/);
  } finally {
    await off.close();
  }
});
