// The threaded WASM build in the page: served as tools/serve serves it (web/server.mjs,
// COOP same-origin + COEP require-corp) the page is cross-origin isolated, loads the relaxed-SIMD
// build with threads (attnlab-relaxed-mt: its glue and pthread worker script from dist/wasm/), names
// it and its threads on the badge, grades 7/7 (the student's code still single-threaded in its
// sandbox worker), and does all of that again offline after one visit
// (the service worker's cache keeps the headers). `?threads=1` gives the single-threaded build.
// Served without the headers (a plain static host), the page runs one thread and never fetches a
// threaded file, not even into the service worker's cache.
// Run: node --test tests/browser/threads.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launch, open, check, run, setCode } from '../../tools/lib/chromium.mjs';

let solution;
const browsers = [];
before(async () => {
  solution = await readFile(new URL('../../exercises/sdpa/solution.js', import.meta.url), 'utf8');
});
after(async () => {
  for (const b of browsers) await b.close();
  assert.deepEqual(browsers.flatMap((b) => b.errors).map(String), [], 'uncaught errors in the page');
});

// After the core's pool is up (it starts a few ms after the core loads) and the badge says so.
const state = (page) =>
  page.evaluate(async () => {
    const core = window.attnlab.state.core;
    await core.threadsReady;
    await new Promise((r) => requestAnimationFrame(r));
    const el = document.getElementById('backend');
    return {
      isolated: crossOriginIsolated,
      flavour: core.flavour,
      threads: core.threads(),
      kernel: core.fusedKernelKind(),
      text: el.textContent,
      title: el.title,
      dataThreads: el.dataset.threads,
      cores: navigator.hardwareConcurrency,
    };
  });
const threadedFiles = (b) => b.served.filter((r) => /-mt\.(mjs|wasm|worker\.js)$/.test(r.path)).map((r) => r.path);

async function grades(page) {
  await setCode(page, solution);
  assert.deepEqual(await check(page), { passed: 7, total: 7 });
}

test('cross-origin isolated: the threaded relaxed build, its threads on the badge, 7/7, and the same offline', async () => {
  const b = await launch();
  browsers.push(b);
  const { page } = b;
  await open(page, `${b.url}?lang=en`);
  await page.waitForSelector('#backend[data-backend]', { state: 'attached' });
  let s = await state(page);
  const n = Math.min(8, s.cores);
  assert.equal(s.isolated, true, 'COOP/COEP from web/server.mjs make the page cross-origin isolated');
  assert.ok(n >= 2, `this test needs 2 cores, Chromium reports ${s.cores}`);
  assert.deepEqual([s.flavour, s.kernel, s.threads, s.dataThreads], ['relaxed-mt', 'relaxed-simd', n, String(n)]);
  assert.equal(s.text, `WASM SIMD · ${n} threads`);
  assert.match(s.title, new RegExp(`auto: WASM core, relaxed-mt build, ${n} threads`));
  assert.match(s.title, new RegExp(`${n} threads: the page is cross-origin isolated`));
  for (const f of [
    '/wasm/attnlab-relaxed-mt.mjs',
    '/wasm/attnlab-relaxed-mt.wasm',
    '/wasm/attnlab-relaxed-mt.worker.js',
  ]) {
    assert.ok(threadedFiles(b).includes(f), `${f} was not fetched`);
  }
  // The pool really computes: a call big enough to be split, then how many threads took part.
  const used = await page.evaluate(() => {
    const core = window.attnlab.state.core,
      T = 2048,
      q = new Float32Array(T * 64).map((_, i) => Math.sin(i));
    let most = 0;
    for (let i = 0; i < 5 && most < 2; i++) {
      core.attentionF32({ q, k: q, v: q, Tq: T, d: 64, causal: true });
      most = Math.max(most, core.module.fused_last_call_threads());
    }
    return most;
  });
  assert.equal(used, 2, 'no call used more than the main thread');
  await grades(page);
  // The student's code stays single-threaded: its sandbox worker has no Worker and no WebAssembly,
  // isolated page or not.
  await setCode(page, 'print(typeof Worker, typeof WebAssembly);');
  assert.equal((await run(page)).trim(), 'undefined undefined');

  // Offline after this one visit: the cached page keeps its headers, hence the threaded build.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await b.context.setOffline(true);
  const before = b.served.length;
  try {
    await open(page, `${b.url}?lang=en`);
    await page.waitForSelector('#backend[data-backend]', { state: 'attached' });
    s = await state(page);
    assert.deepEqual([s.isolated, s.flavour, s.threads], [true, 'relaxed-mt', n]);
    await grades(page);
    assert.deepEqual(
      b.served.slice(before).filter((r) => r.path !== '/sw.js'),
      [],
      'nothing may reach the server while offline',
    );
  } finally {
    await b.context.setOffline(false);
  }

  // ?threads=1: the single-threaded relaxed build, said on the badge; a bad value is named.
  await open(page, `${b.url}?lang=en&threads=1&nosw`);
  await page.waitForSelector('#backend[data-backend]', { state: 'attached' });
  s = await state(page);
  assert.deepEqual([s.flavour, s.threads, s.text], ['relaxed', 1, 'WASM SIMD']);
  assert.match(s.title, /one thread \(\?threads=1\)/);
  await grades(page);
  await open(page, `${b.url}?lang=en&threads=lots&nosw`);
  await page.waitForSelector('#backend[data-backend]', { state: 'attached' });
  s = await state(page);
  assert.equal(s.flavour, 'relaxed-mt');
  assert.match(s.title, /\?threads=lots is not a whole number from 1 to 999; using the core count/);
});

test('not cross-origin isolated: one thread, and no threaded file is ever fetched', async () => {
  const b = await launch({ isolated: false });
  browsers.push(b);
  const { page } = b;
  await open(page, `${b.url}?lang=en`);
  await page.waitForSelector('#backend[data-backend]', { state: 'attached' });
  const s = await state(page);
  assert.deepEqual([s.isolated, s.flavour, s.threads, s.text], [false, 'relaxed', 1, 'WASM SIMD']);
  assert.match(s.title, /one thread: the page is not cross-origin isolated/);
  await grades(page);
  // Not even the service worker's precache (which fetches every other file of the build).
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  assert.ok(
    b.served.some((r) => r.path === '/wasm/attnlab.wasm'),
    'the precache did not run',
  );
  assert.deepEqual(threadedFiles(b), []);
});
