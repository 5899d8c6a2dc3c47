// The Python track in the page (Debian's chromium), end to end: the JS/Python switch per exercise,
// remembered; code kept per (exercise, track); the Python engine fetched only once Python is chosen;
// Run prints the lesson's demo exactly as CPython with NumPy prints it; Check → 7/7; the worker's own
// CSP (WebAssembly, no eval, no network); offline after one visit; the Scale panel on Python.
// One browser for this file; the tests run in order and share the page (as a student would).
// Run: node --test tests/browser/python.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { launch, open, check, run, getCode, setCode } from '../../tools/lib/chromium.mjs';

const root = new URL('../../', import.meta.url);
const read = (p) => readFile(new URL(p, root), 'utf8');
const PYTHON_FILES = /micropython\.wasm|sandbox-worker-python\.js/;

let b, page, starterJs, starterPy, solutionPy;

before(async () => {
  [starterJs, starterPy, solutionPy] = await Promise.all(
    [
      'exercises/sdpa/starter.en.js',
      'exercises/sdpa/starter.en.py',
      'exercises/sdpa/solution.py',
    ] /* ?lang=en: the starters' English twins */
      .map(read),
  );
  b = await launch();
  page = b.page;
  await open(page, `${b.url}?lang=en&exercise=sdpa`);
});

after(async () => {
  await b?.close();
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the page');
});

const switchTo = async (track) => {
  const done = page.evaluate(
    (tr) => new Promise((r) => addEventListener('attnlab:track', (e) => e.detail.track === tr && r(), { once: true })),
    track,
  );
  await page.click(`#tracks button[data-track=${track}]`);
  await done;
};

test('the page opens on JavaScript and does not load the Python engine', async () => {
  assert.equal(await page.evaluate(() => window.attnlab.track), 'js');
  assert.equal(await getCode(page), starterJs);
  assert.deepEqual(
    await page.$$eval('#tracks button', (bs) => bs.map((x) => [x.dataset.track, x.getAttribute('aria-pressed')])),
    [
      ['js', 'true'],
      ['python', 'false'],
    ],
  );
  const fetchedByPage = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  assert.deepEqual(
    fetchedByPage.filter((u) => PYTHON_FILES.test(u)),
    [],
    'the JavaScript track fetched the Python engine',
  );
});

test("switching to Python: its starter, its texts, Run prints the starter's demo", async () => {
  await switchTo('python');
  assert.equal(await getCode(page), starterPy);
  assert.match(await page.textContent('h1'), /NumPy/);
  assert.equal(await page.getAttribute('#tracks button[data-track=python]', 'aria-pressed'), 'true');
  assert.equal((await run(page)).trim(), 'None'); // causal_mask(3) of the starter: `...` returns None
});

test("Run prints the lesson's demo as CPython with NumPy does, and Check grades 7/7", async () => {
  await setCode(page, solutionPy);
  const numpy = spawnSync('/usr/bin/python3', [fileURLToPath(new URL('exercises/sdpa/solution.py', root))], {
    encoding: 'utf8',
  });
  assert.equal(numpy.status, 0, numpy.stderr);
  assert.equal((await run(page)).trimEnd(), numpy.stdout.trimEnd());
  assert.deepEqual(await check(page), { passed: 7, total: 7 });
  assert.equal(await page.textContent('#summary'), '7/7');
});

test('a syntax error is named with its line, every test listed', async () => {
  await setCode(page, solutionPy.replace('return weights @ V, weights', 'return weights @ V, weights)'));
  const r = await check(page);
  assert.deepEqual(r, { passed: 0, total: 7 });
  const report = await page.evaluate(() => window.attnlab.state.report);
  assert.equal(report.status, 'error');
  assert.match(report.message, /line 25/);
  assert.equal(report.tests.length, 7);
  await setCode(page, solutionPy);
});

test('each track keeps its own code, and the page remembers the track', async () => {
  await switchTo('js');
  assert.equal(await getCode(page), starterJs);
  await switchTo('python');
  assert.equal(await getCode(page), solutionPy);
  await open(page, `${b.url}?lang=en&exercise=sdpa`);
  await page.waitForFunction(() => document.documentElement.dataset.track === 'python');
  assert.equal(await getCode(page), solutionPy);
});

test('the Python worker is served with its own CSP: WebAssembly only, no eval, no network', async () => {
  const res = await page.evaluate(async () => {
    const r = await fetch('./sandbox-worker-python.js', { cache: 'no-store' });
    return r.headers.get('content-security-policy');
  });
  assert.equal(res, "default-src 'none'; script-src 'wasm-unsafe-eval'");
});

test('offline after one visit: reload with the network cut, Check on Python → 7/7', async () => {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.waitForTimeout(300);
  await b.context.setOffline(true);
  await b.server.close(); // nothing is served any more: only the service worker's cache answers
  try {
    await open(page, `${b.url}?lang=en&exercise=sdpa&track=python`);
    await page.waitForFunction(() => document.documentElement.dataset.track === 'python');
    assert.deepEqual(await check(page), { passed: 7, total: 7 });
  } finally {
    await b.context.setOffline(false);
  }
});

test('the Scale panel times the Python attention inside the worker', async () => {
  await open(page, `${b.url}?lang=en&exercise=sdpa&track=python&scaleMax=64`);
  await page.waitForFunction(() => document.documentElement.dataset.track === 'python');
  await setCode(page, solutionPy);
  const done = page.evaluate(
    () => new Promise((r) => addEventListener('attnlab:scaled', (e) => r(e.detail), { once: true })),
  );
  await page.click('#scale');
  const result = await done;
  const student = result.series.find((s) => s.id === 'student');
  assert.equal(student.error, undefined, JSON.stringify(student.error));
  assert.deepEqual(
    student.points.map((p) => p.T),
    [16, 32, 64],
  );
  assert.ok(student.points.every((p) => p.ms > 0 && p.calls >= 1));
  assert.equal(await page.textContent('.scale-legend li[data-series=student] .name'), 'Your attention (Python)');
});
