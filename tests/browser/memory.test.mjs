// The Memory panel (web/src/memory.js, a pack's panels.memory): what the student's function builds
// against T, measured by np in the page's sandbox worker. The naive whole softmax's largest array is
// the (T, T) score matrix, named with its line; the blocked solution's is one block of scores or an
// input-sized array; both the plot and the table show it. ?memoryMax=256 keeps it quick. Sizes, not
// timings, are asserted. Screenshots go to tests/artifacts/memory-panel{-naive,}.png.
// Run: node --test tests/browser/memory.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdir } from 'node:fs/promises';
import { launch, open, setCode } from '../../tools/lib/chromium.mjs';

const root = new URL('../../', import.meta.url);
const artifacts = new URL('tests/artifacts/', root);
const SIZES = [64, 128, 256];
let b, page, solution, naive, pySolution;

before(async () => {
  [solution, naive, pySolution] = await Promise.all(
    ['exercises/flash/solution.js', 'exercises/flash/fixtures/naive/submission.js', 'exercises/flash/solution.py'].map(
      (p) => readFile(new URL(p, root), 'utf8'),
    ),
  );
  await mkdir(artifacts, { recursive: true });
  b = await launch();
  page = b.page;
  await open(page, `${b.url}?lang=en&exercise=flash&memoryMax=${SIZES.at(-1)}`);
});
after(async () => {
  await b?.close();
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the page');
});

async function measured(trigger) {
  const done = page.evaluate(
    () => new Promise((r) => addEventListener('attnlab:memory', (e) => r(e.detail), { once: true })),
  );
  await trigger();
  return done;
}
const largest = () =>
  page.$$eval('.memory-table tbody tr', (trs) => trs.map((tr) => [tr.dataset.t, tr.dataset.largest]));

test('the naive softmax builds the (T, T) score matrix at every T, named with its line; the blocked solution never', async () => {
  assert.equal(await page.isVisible('#memory'), true);
  assert.equal(await page.isVisible('#memory-panel'), false);
  await setCode(page, naive);
  const r = await measured(() => page.click('#memory'));
  assert.deepEqual(
    r.points.map((p) => [p.T, p.largest.shape, p.largest.line]),
    SIZES.map((T) => [T, [T, T], 16]),
  );
  assert.deepEqual(
    await largest(),
    SIZES.map((T) => [String(T), `${T}x${T}`]),
  );
  assert.equal(await page.locator('#memory-panel .series[data-series=largest] circle').count(), SIZES.length);
  await page.locator('#memory-panel').screenshot({ path: new URL('memory-panel-naive.png', artifacts).pathname });
  await setCode(page, solution);
  const s = await measured(() => page.click('#memory-run'));
  for (const p of s.points)
    assert.ok(p.largest.shape.reduce((a, x) => a * x) <= p.T * 64, `T = ${p.T}: ${p.largest.shape}`);
  assert.deepEqual(
    await largest(),
    SIZES.map((T) => [String(T), `${T}x64`]),
  );
  await page.locator('#memory-panel').screenshot({ path: new URL('memory-panel.png', artifacts).pathname });
});

test('on the Python track the panel measures the same way', async () => {
  await open(page, `${b.url}?lang=en&exercise=flash&track=python&memoryMax=${SIZES.at(-1)}`);
  await page.waitForFunction(() => document.documentElement.dataset.track === 'python');
  await setCode(page, pySolution);
  const r = await measured(() => page.click('#memory'));
  assert.deepEqual(
    r.points.map((p) => p.T),
    SIZES,
  );
  for (const p of r.points)
    assert.ok(p.largest.shape.reduce((a, x) => a * x) <= p.T * 64, `T = ${p.T}: ${p.largest.shape}`);
});
