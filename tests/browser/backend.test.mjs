// The page's compute backend (web/src/backend.js over wasm/webgpu/backend.mjs): WebGPU with
// --enable-unsafe-webgpu (SwiftShader here), WASM SIMD without it, `?backend=` overrides, the badge and
// its reason, the switch to the CPU when the GPU is lost — and grading that does not depend on any of it
// (the double-precision reference grades; the backend only drives the Scale panel's fast path).
// Run: node --test tests/browser/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launch, open, check, setCode, WEBGPU } from '../../tools/lib/chromium.mjs';

let gpu, cpu, solution, graded; // browsers with and without WebGPU; the report of the first 7/7 Check
// The server sends COOP/COEP (web/server.mjs): the page is cross-origin isolated, so its WASM SIMD
// backend is the threaded relaxed build on min(cores, 8) threads — named on the badge.
let threads, simd;

before(async () => {
  solution = await readFile(new URL('../../exercises/sdpa/solution.js', import.meta.url), 'utf8');
  gpu = await launch({ args: WEBGPU });
  await gpu.page.goto(gpu.url + '?nosw');
  threads = Math.min(8, await gpu.page.evaluate(() => navigator.hardwareConcurrency));
  simd = threads > 1 ? `WASM SIMD · ${threads} threads` : 'WASM SIMD';
});
after(async () => {
  await gpu?.close();
  await cpu?.close();
  assert.deepEqual([...(gpu?.errors ?? []), ...(cpu?.errors ?? [])].map(String), [], 'uncaught errors in the page');
});

/** Opens `query`, waits for the backend choice → { text, title, state, name }. */
async function openAt(b, query) {
  await open(b.page, `${b.url}${query}`);
  await b.page.waitForSelector('#backend[data-backend]', { state: 'attached' }); // in the Scale panel, closed
  return badge(b.page);
}
const badge = (page) =>
  page.$eval('#backend', (el) => ({
    text: el.textContent,
    title: el.title,
    state: el.dataset.state,
    name: el.dataset.backend,
  }));

/** Check with the reference solution: 7/7, and the same tests, statuses and messages every time. */
async function gradesSame(page) {
  await setCode(page, solution);
  assert.deepEqual(await check(page), { passed: 7, total: 7 });
  const report = await page.evaluate(() => window.attnlab.state.report.tests.map((t) => [t.id, t.status, t.message]));
  if (graded) assert.deepEqual(report, graded);
  graded ??= report;
}

test('WebGPU on: the badge says WebGPU and why; Check grades 7/7', async () => {
  const b = await openAt(gpu, '?lang=en');
  assert.equal(b.text, 'WebGPU', b.title);
  assert.equal(b.state, 'ok');
  assert.match(b.title, /grading always uses the double-precision reference/);
  assert.match(b.title, /auto: WebGPU adapter .*swiftshader/i);
  await gradesSame(gpu.page);
});

test('?backend=wasm forces plain WASM (the core too) and grades the same; a bad value is named', async () => {
  let b = await openAt(gpu, '?lang=en&backend=wasm');
  assert.equal(b.text, 'WASM', b.title);
  assert.match(b.title, /requested: WASM core, baseline build/);
  assert.equal(await gpu.page.evaluate(() => window.attnlab.state.core.flavour), 'baseline');
  await gradesSame(gpu.page);
  b = await openAt(gpu, '?lang=en&backend=simd');
  assert.equal(b.text, simd, b.title);
  // Chromium has relaxed SIMD: the SIMD backend is the build with fused multiply-adds, threaded here.
  assert.match(
    b.title,
    threads > 1
      ? new RegExp(`requested: WASM core, relaxed-mt build, ${threads} threads`)
      : /requested: WASM core, relaxed build/,
  );
  assert.equal(
    await gpu.page.evaluate(() => window.attnlab.state.core.flavour),
    threads > 1 ? 'relaxed-mt' : 'relaxed',
  );
  b = await openAt(gpu, '?lang=en&backend=gpu');
  assert.equal(b.text, 'WebGPU', b.title);
  assert.match(b.title, /"gpu" is not one of auto, webgpu, simd, wasm; using auto/);
});

test('a lost GPU: the badge switches to WASM SIMD at once and says so; Check still grades', async () => {
  assert.equal((await openAt(gpu, '?lang=en')).text, 'WebGPU');
  // As a driver reset would: the device dies while nothing is computing.
  await gpu.page.evaluate(() => window.attnlab.state.backend.be.webgpu.device.destroy());
  await gpu.page.waitForSelector('#backend[data-state=fallback]', { state: 'attached' });
  const b = await badge(gpu.page);
  assert.equal(b.text, `WebGPU → ${simd}`);
  assert.match(
    b.title,
    /^WebGPU failed; computing on the CPU instead\.\nfell back from WebGPU to simd: WebGPU device lost/,
  );
  assert.equal(await gpu.page.evaluate(() => window.attnlab.state.backend.be.name), 'simd');
  await gradesSame(gpu.page);
});

test('WebGPU off: WASM SIMD with the reason, the same grades; ?backend=webgpu fails loudly but grading works', async () => {
  cpu = await launch();
  let b = await openAt(cpu, '?lang=en');
  assert.equal(b.text, simd, b.title);
  assert.match(b.title, /unavailable: webgpu \(WebGPU unavailable: requestAdapter\(\) returned null\)/);
  await gradesSame(cpu.page);
  b = await openAt(cpu, '?lang=en&backend=webgpu');
  assert.equal(b.text, 'WebGPU ✗');
  assert.equal(b.state, 'failed');
  assert.match(b.title, /chooseBackend\(webgpu\): nothing loaded/);
  await gradesSame(cpu.page);
});
