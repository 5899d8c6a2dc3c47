// grade-batch's report.html in Chromium: a small class (JavaScript and Python, a hostile submission,
// nine copies of one file) graded with the CLI, then the report opened from disk with every request
// other than the file refused: it fetches nothing, draws its plots (score histogram, pass rate per test,
// diagnoses), lists the nine copies as one exact cluster, pages through their 36 pairs 25 at a time with
// each pair side by side, sorts the student table by score and by CPU time on a click, and filters it by
// what is typed in its search box.
// Screenshot: tests/artifacts/batch-report.png.
// Run: node --test tests/browser/batch-report.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openBrowser } from '../../tools/lib/chromium.mjs';
import { cli } from '../js/cli.mjs';
import { casesFor, writeClass } from '../fixtures/class.mjs';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));

test('report.html: offline, plots drawn, similar pair side by side, table sorted by score', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'attnlab-report-'));
  const browser = await openBrowser();
  try {
    const cases = casesFor('sdpa');
    const input = join(tmp, 'class');
    writeClass(input, cases, [
      'pass',
      'py-pass',
      'mask-added',
      'no-scaling',
      'py-no-scaling',
      'error-syntax',
      'starter',
      'sandbox-ansi-forgery',
    ]);
    // Eight copies of one file: 36 exact pairs in one cluster of nine, more than a page of pairs (25).
    copyFileSync(cases.get('mask-added').file, join(input, 'copycat.js'));
    for (let i = 2; i <= 8; i++) copyFileSync(cases.get('mask-added').file, join(input, `copycat-${i}.js`));
    const out = join(tmp, 'out');
    const r = cli(
      'grade-batch',
      input,
      '--exercise',
      'sdpa',
      '--out',
      out,
      '--lang',
      'en',
      '--jobs',
      '2',
      '--timeout-ms',
      '10000',
    );
    assert.equal(r.status, 0, r.stderr);

    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const requests = [],
      errors = [];
    page.on('pageerror', (e) => errors.push(e));
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      requests.push(url);
      return route.abort();
    });
    await page.goto(pathToFileURL(join(out, 'report.html')).href);
    assert.deepEqual(requests, [], 'the report fetches nothing');
    assert.deepEqual(errors, []);
    const svgs = await page.$$eval('svg', (list) =>
      list.map((s) => ({ bars: s.querySelectorAll('rect').length, w: s.getBoundingClientRect().width })),
    );
    assert.ok(svgs.length >= 3, `three plots, got ${svgs.length}`);
    assert.equal(svgs[0].bars, 8, 'the histogram has a bar per score 0…7');
    assert.equal(svgs[1].bars, 7, 'a pass-rate bar per test');
    assert.ok(
      svgs.every((s) => s.w > 300),
      'every plot is drawn at its width',
    );
    // The scores, from the fixtures' expected results: 7 7 3 2 2 0 0 6, and the copies' 3.
    const histogram = await page.$$eval('svg:first-of-type g title', (t) => t.map((x) => x.textContent));
    assert.deepEqual(histogram, ['0: 2', '1: 0', '2: 2', '3: 9', '4: 0', '5: 0', '6: 1', '7: 2']);
    // The cluster: the nine copies, exact, listed once; the pairs paged 25 at a time.
    const clusters = await page.$$eval('#clusters tr', (rows) =>
      rows.slice(1).map((r) => [...r.cells].map((c) => c.textContent)),
    );
    const nine = ['copycat', ...[2, 3, 4, 5, 6, 7, 8].map((i) => `copycat-${i}`), 'mask-added'].sort().join(', ');
    assert.ok(
      clusters.some((c) => c[1] === nine && c[2] === 'exact copy'),
      `one cluster of the nine copies: ${JSON.stringify(clusters)}`,
    );
    assert.equal(await page.textContent('#pageno'), 'page 1 / 2 (36 pairs)');
    assert.equal(await page.$$eval('#pairs details', (d) => d.length), 25);
    await page.click('#next');
    assert.equal(await page.textContent('#pageno'), 'page 2 / 2 (36 pairs)');
    assert.equal(await page.$$eval('#pairs details', (d) => d.length), 11);
    assert.ok(await page.$eval('#next', (b) => b.disabled));
    // (By name, the pairs of copycat-2 … copycat-8 come first: copycat ↔ mask-added is on this page.)
    const pair = await page.$$eval('details summary', (s) => s.map((x) => x.textContent));
    assert.ok(
      pair.some((t) => /copycat ↔ mask-added: 100%/.test(t)),
      `similar pair listed: ${pair}`,
    );
    const copy = page.locator('details', { hasText: 'copycat ↔ mask-added' });
    await copy.locator('summary').click();
    assert.ok(
      await copy.evaluate(
        (d) =>
          d.open &&
          [...d.querySelectorAll('.pair pre')].length === 2 &&
          [...d.querySelectorAll('.pair pre')].every((x) => x.querySelector('span.sh')),
      ),
      'both files shown with shared lines marked',
    );
    const scores = () => page.$$eval('#students tbody tr', (rows) => rows.map((r) => Number(r.cells[1].dataset.v)));
    await page.click('#students th:nth-child(2)');
    const asc = await scores();
    assert.deepEqual(
      asc,
      [...asc].sort((a, b) => a - b),
    );
    await page.click('#students th:nth-child(2)');
    const desc = await scores();
    assert.deepEqual(
      desc,
      [...asc].sort((a, b) => b - a),
    );
    assert.equal(desc[0], 7);
    // The search box keeps the rows whose text holds what is typed; emptied, every row is back.
    const shown = () =>
      page.$$eval('#students tbody tr', (rows) => rows.filter((r) => !r.hidden).map((r) => r.cells[0].textContent));
    const all = (await shown()).length;
    await page.fill('#search', 'COPYCAT');
    assert.deepEqual((await shown()).sort(), ['copycat', ...[2, 3, 4, 5, 6, 7, 8].map((i) => `copycat-${i}`)]);
    await page.fill('#search', '');
    assert.equal((await shown()).length, all);
    // The CPU column: every row whose code ran measured, sortable as numbers. A JavaScript syntax error is
    // found on the trusted side (acorn): its code never ran in the sandbox, and its row says 0.
    const cpuCol = await page.$$eval('#students th', (th) => th.findIndex((h) => h.textContent === 'CPU, ms'));
    await page.click(`#students th:nth-child(${cpuCol + 1})`);
    const cpu = await page.$$eval(
      '#students tbody tr',
      (rows, c) => rows.map((r) => [r.cells[0].textContent, Number(r.cells[c].dataset.v)]),
      cpuCol,
    );
    assert.ok(
      cpu.every(([who, v]) => (who === 'error-syntax' ? v === 0 : v > 0)),
      `CPU time per row: ${cpu.join('; ')}`,
    );
    assert.deepEqual(
      cpu.map(([, v]) => v),
      cpu.map(([, v]) => v).sort((a, b) => a - b),
    );
    assert.ok(!(await page.content()).includes('\u001b'), 'no control character from the forgery');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'batch-report.png'), fullPage: true });
  } finally {
    await browser.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});
