// A track is one folder, in the page (tests/js/toy-track.test.mjs: the same in the CLI): in a copy of
// the tree with tests/fixtures/toy-track/ added as grader/tracks/toy/ (and nothing else but the sdpa
// pack's Toy JS starter and solution), `web/build.mjs` builds the page with the track offered, and the
// page grades it as the CLI does: the solution 7/7, the no-scaling fixture with the statuses and
// messages of its expected_results.json (the JavaScript track's, reviewed), a loop refused with its
// line and explained in the track's own sentence (`toy.no_loops`, its messages.mjs, rendered); its worker
// (the browser host's shell with the track's worker.js as its guest) is served with the CSP derived from
// its realm (eval only).
// Run: node --test tests/browser/toy-track.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { copyWithToyTrack, TOY_CHANGES } from '../fixtures/toy-copy.mjs';

const root = new URL('../../', import.meta.url);
const read = (p) => readFile(new URL(p, root), 'utf8');
let copy, b, page, lib;

before(async () => {
  copy = copyWithToyTrack();
  // The copy's own helpers: its web/server.mjs builds and serves the copy's page.
  lib = await import(pathToFileURL(join(copy.dir, 'tools', 'lib', 'chromium.mjs')).href);
  b = await lib.launch();
  page = b.page;
  await lib.open(page, `${b.url}?lang=en&exercise=sdpa&track=toy`);
  await page.waitForFunction(() => document.documentElement.dataset.track === 'toy');
});

after(async () => {
  await b?.close();
  copy?.remove();
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the page');
});

test('only the track folder (and the pack content in its language) was added', () => {
  assert.deepEqual(copy.changed, TOY_CHANGES);
});

test('the page offers the third track after the others, and opens it with its starter', async () => {
  assert.deepEqual(
    await page.$$eval('#tracks button', (bs) => bs.map((x) => [x.dataset.track, x.getAttribute('aria-pressed')])),
    [
      ['js', 'false'],
      ['python', 'false'],
      ['toy', 'true'],
    ],
  );
  assert.equal(await lib.getCode(page), await read('exercises/sdpa/starter.js'));
});

test('Check grades the solution in Toy JS: 7/7', async () => {
  await lib.setCode(page, await read('exercises/sdpa/solution.js'));
  assert.deepEqual(await lib.check(page), { passed: 7, total: 7 });
});

test("a mistake gets the JavaScript track's statuses and messages (no-scaling)", async () => {
  await lib.setCode(page, await read('exercises/sdpa/fixtures/no-scaling/submission.js'));
  const expected = JSON.parse(await read('exercises/sdpa/fixtures/no-scaling/expected_results.json'));
  assert.deepEqual(await lib.check(page), { passed: 2, total: 7 });
  const report = await page.evaluate(() => window.attnlab.state.report);
  assert.deepEqual(
    report.tests.map((t) => [t.status, t.message ?? null]),
    expected.tests.map((t) => [t.status, t.message ?? null]),
  );
});

test("a loop is refused with its line, every test listed, and explained in the track's own sentence", async () => {
  await lib.setCode(page, await read('exercises/sdpa/fixtures/pass-loops/submission.js'));
  assert.deepEqual(await lib.check(page), { passed: 0, total: 7 });
  const report = await page.evaluate(() => window.attnlab.state.report);
  assert.equal(report.status, 'error');
  assert.match(report.message, /Toy JS has no loops: `while` is not allowed/);
  assert.match(report.message, /line 10\b/);
  assert.deepEqual(report.said.at(-1), { key: 'toy.no_loops', params: { keyword: 'while' } });
  const sentence =
    'Toy JS has no loops (`while` is one): compute over whole arrays with np, such as `np.sum(x, { axis: -1 })` instead of a loop that adds.';
  assert.ok(report.message.endsWith(sentence), report.message);
  // and the page shows it, rendered (its `code` spans as code), never its key
  const shown = await page.evaluate(() => document.body.innerText);
  assert.ok(shown.includes(sentence.replaceAll('`', '')), `the page shows the sentence: ${shown}`);
  assert.doesNotMatch(shown, /toy\.no_loops/);
});

test("the track's worker is served with the CSP its realm asks for: eval only", async () => {
  const csp = await page.evaluate(async () =>
    (await fetch('./sandbox-worker-toy.js', { cache: 'no-store' })).headers.get('content-security-policy'),
  );
  assert.equal(csp, "default-src 'none'; script-src 'unsafe-eval'");
});
