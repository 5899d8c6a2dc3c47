// grade-batch's report.html in Chromium: a small class (JavaScript and Python, a hostile submission,
// nine copies of one file) graded with the CLI, then the report opened from disk with every request
// other than the file refused: it fetches nothing, draws its plots (score histogram, pass rate per test,
// diagnoses), lists the nine copies as one exact cluster, pages through their 36 pairs 25 at a time with
// each pair side by side, sorts the student table by score and by CPU time on a click, and filters it by
// what is typed in its search box.
// Then a page per student and the causes (issue 32, item 5), with a class that has packaging problems, an
// HTML and an ANSI forgery, a copy and a resubmission: the failing tests by cause with the packaging rows
// named; a click on a row opens that student's page (tests with status and message, their code escaped
// with line numbers, history, the similar submission linked), Back (the link and the browser's) returns to
// the table with its search and sort as they were; nothing the students wrote runs or colours the page; the
// same pages in a Russian merge of the run; at 1280 and 390 px nothing is wider than the window.
// Screenshots: tests/artifacts/batch-report.png, batch-report-{class,student}-{1280,390}.png.
// Run: node --test tests/browser/batch-report.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openBrowser } from '../../tools/lib/chromium.mjs';
import { cli } from '../js/cli.mjs';
import { casesFor, writeClass } from '../fixtures/class.mjs';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
/**
 * Waits until the report has drawn what its address names: it redraws on hashchange, a task after the click
 * or Back that changed the address, so a read at once may see the page before (as it did beside other
 * browser tests). `name`: the student whose page is the heading; null: the class table.
 */
const drawn = (page, name) =>
  page.waitForFunction(
    (n) =>
      n === null
        ? !document.getElementById('class').hidden
        : !document.getElementById('student').hidden && document.querySelector('#page h2')?.textContent === n,
    name,
  );

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
    // The CPU column: every row measured (an empty cell's value is -1), sortable as numbers. Linux counts
    // a process's CPU time in ticks of 10 ms, so a short run (the starter's, a copy of a fork server
    // that raises at once) may read 0 on a fast machine; a whole passing grade does not. A JavaScript
    // syntax error is found on the trusted side (acorn): its code never ran in the sandbox, and its row says 0.
    const cpuCol = await page.$$eval('#students th', (th) => th.findIndex((h) => h.textContent === 'CPU, ms'));
    await page.click(`#students th:nth-child(${cpuCol + 1})`);
    const cpu = await page.$$eval(
      '#students tbody tr',
      (rows, c) => rows.map((r) => [r.cells[0].textContent, Number(r.cells[c].dataset.v)]),
      cpuCol,
    );
    assert.ok(
      cpu.every(([who, v]) => (who === 'error-syntax' ? v === 0 : v >= 0)),
      `CPU time per row: ${cpu.join('; ')}`,
    );
    const passing = cpu.filter(([who]) => who === 'pass' || who === 'py-pass');
    // Each may read 0 on a machine fast enough (10 ms ticks); together they are measured.
    assert.ok(passing.length === 2 && passing[0][1] + passing[1][1] > 0, `CPU time per row: ${cpu.join('; ')}`);
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

test('report.html: a page per student (tests, code escaped, history, similar), back keeps search and sort; causes with packaging rows', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'attnlab-report-pages-'));
  const browser = await openBrowser();
  try {
    const cases = casesFor('sdpa');
    const input = join(tmp, 'class');
    writeClass(input, cases, ['pass', 'mask-added', 'no-scaling', 'error-syntax', 'sandbox-ansi-forgery']);
    copyFileSync(cases.get('mask-added').file, join(input, 'copycat.js'));
    const root = fileURLToPath(new URL('../../', import.meta.url));
    // An HTML forgery: a name, an error message and code that would run or draw if they reached the page as HTML.
    const forged = '<img src=x onerror=window.__pwned=1>';
    writeFileSync(
      join(input, `${forged}.js`),
      `// </script><script>window.__pwned = 2</script><b>bold</b>\n` +
        readFileSync(join(root, 'exercises/sdpa/solution.js'), 'utf8').replace(
          'function softmax(',
          `function softmax(x) { throw new Error('<img src=y onerror="window.__pwned=3"> &amp; <b>'); }\nfunction softmax_unused(`,
        ),
    );
    // Packaging problems: a notebook that does not parse, a file over the cap, a folder without code.
    writeFileSync(join(input, 'dave.ipynb'), '{"cells": [oops');
    writeFileSync(join(input, 'frank.py'), Buffer.alloc(1258291, 0x20));
    mkdirSync(join(input, 'gus'));
    writeFileSync(join(input, 'gus', 'readme.txt'), 'hello');
    // Ann hands in the starter, then the solution: two gradings in her history.
    writeFileSync(join(input, 'ann.js'), readFileSync(join(root, 'exercises/sdpa/starter.js')));
    const out = join(tmp, 'out');
    const grade = () => {
      const r = cli('grade-batch', input, '--exercise', 'sdpa', '--out', out, '--lang', 'en', '--jobs', '2');
      assert.equal(r.status, 0, r.stderr);
    };
    grade();
    copyFileSync(join(root, 'exercises/sdpa/solution.js'), join(input, 'ann.js'));
    grade();
    const ru = join(tmp, 'out-ru');
    const m = cli('grade-batch', 'merge', out, '--out', ru, '--lang', 'ru');
    assert.equal(m.status, 0, m.stderr);

    mkdirSync(ARTIFACTS, { recursive: true });
    for (const width of [1280, 390]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const requests = [],
        errors = [];
      page.on('pageerror', (e) => errors.push(e));
      page.on('dialog', (d) => errors.push(new Error(`a dialog: ${d.message()}`)));
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:')) return route.continue();
        requests.push(url);
        return route.abort();
      });
      await page.goto(pathToFileURL(join(out, 'report.html')).href);
      const fits = async (what) => {
        const [w, past] = await page.evaluate((width) => {
          const out = [...document.querySelectorAll('body *')].filter(
            (e) => e.getBoundingClientRect().right > width && !e.parentElement.closest('.wide, pre'),
          );
          return [
            document.documentElement.scrollWidth,
            out.slice(0, 5).map((e) => `${e.tagName}#${e.id}.${e.className}`),
          ];
        }, width);
        assert.ok(w <= width, `${what} at ${width}px: ${w}px wide (${past.join(', ')})`);
      };
      // The failing tests by cause: each packaging problem its own row, named, above the code's causes.
      const causes = await page.$$eval('#causes-test tbody tr[data-key]', (rows) =>
        rows.map((r) => [
          r.dataset.key,
          r.classList.contains('packaging'),
          r.cells[0].textContent,
          r.cells[1].textContent,
        ]),
      );
      const keys = causes.map((c) => c[0]);
      for (const [key, label] of [
        ['batch.too_big', 'file over the size cap'],
        ['batch.notebook', 'notebook that does not parse'],
        ['batch.no_code', 'no code file'],
        ['not_run.syntax', 'syntax error'],
      ])
        assert.ok(
          causes.some((c) => c[0] === key && c[1] && c[2] === `${label} ${key}` && c[3] === '1'),
          `${key} row: ${JSON.stringify(causes)}`,
        );
      assert.ok(keys.indexOf('not_run.syntax') < keys.indexOf('d.mask_added'), 'packaging rows first');
      assert.ok(await page.isVisible('#causes-function tr[data-key="batch.too_big"]'));
      await fits('the class view');
      await page.screenshot({ path: join(ARTIFACTS, `batch-report-class-${width}.png`), fullPage: true });

      // Search and sort, then a click on a row (not on its link) opens that student's page.
      await page.fill('#search', 'an');
      await page.click('#students th:nth-child(2)');
      await page.click('#students th:nth-child(2)');
      const table = () =>
        page.$$eval('#students tbody tr', (rows) => rows.map((r) => [r.cells[0].textContent, r.hidden]));
      const before = await table();
      assert.ok(before.some(([, hidden]) => hidden) && before.some(([, hidden]) => !hidden), 'the search hides rows');
      await page.click('#students tbody tr:has(a[href="#student/ann"]) td:nth-child(2)');
      await drawn(page, 'ann');
      assert.ok(page.url().endsWith('#student/ann'), page.url());
      assert.ok(await page.isHidden('#class'));
      assert.equal(await page.textContent('#page h2'), 'ann');
      const tests = await page.$$eval('#student-tests li', (li) =>
        li.map((x) => [x.dataset.test, x.querySelector('.st').textContent]),
      );
      assert.deepEqual(
        tests,
        ['causal_mask', 'softmax', 'lesson_example', 'scaling', 'causality', 'loop_reference', 'batching'].map((id) => [
          id,
          'passed',
        ]),
      );
      const history = await page.$$eval('#student-history tr', (rows) =>
        rows.slice(1).map((r) => [r.cells[1].textContent, r.cells[2].textContent, r.cells[3].textContent]),
      );
      assert.deepEqual(history, [
        ['0', 'failed', 'ann.js'],
        ['7', 'passed', 'ann.js'],
      ]);
      const lines = await page.$$eval('#page pre span', (s) => s.slice(0, 2).map((x) => x.textContent));
      assert.match(lines[0], /^1/, 'code with line numbers');
      await fits('a student page');
      // Back (the link): the table as it was, searched and sorted.
      await page.click('#back');
      await drawn(page, null);
      assert.ok(await page.isVisible('#students'));
      assert.equal(await page.inputValue('#search'), 'an');
      assert.deepEqual(await table(), before);

      // The forged student: name, message and code shown as text; nothing of theirs runs.
      await page.fill('#search', '');
      const who = page.locator('#students a.who', { hasText: forged });
      await who.click();
      await drawn(page, forged);
      assert.equal(await page.textContent('#page h2'), forged);
      const softmax = await page.textContent('#student-tests li[data-test="softmax"] .msg');
      assert.match(softmax, /<img src=y onerror="window.__pwned=3"> &amp; <b>/);
      assert.match(await page.textContent('#page pre'), /<\/script><script>window\.__pwned = 2<\/script><b>bold<\/b>/);
      assert.equal(await page.evaluate(() => window.__pwned), undefined, 'no student HTML ran');
      assert.equal(await page.$$eval('img, iframe', (x) => x.length), 0, 'no element of theirs');
      assert.equal(await page.evaluate(() => document.scripts.length), 2, "the report's own two scripts");
      await page.screenshot({ path: join(ARTIFACTS, `batch-report-student-${width}.png`), fullPage: true });
      // The browser's Back: the table again.
      await page.goBack();
      await drawn(page, null);
      assert.ok(await page.isVisible('#students'));

      // The ANSI forgery: its escapes shown as text, no control character on the page.
      await page.click('#students a.who[href="#student/sandbox-ansi-forgery"]');
      await drawn(page, 'sandbox-ansi-forgery');
      const text = await page.textContent('#page');
      assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/.test(text), 'no control character');
      assert.match(await page.textContent('#student-tests li[data-test="softmax"] .msg'), /\\x1b\[2J/);
      await fits('the ANSI forgery page');

      // Similar submissions linked: from the cluster to copycat's page, which leads to mask-added's, which leads back.
      await page.click('#back');
      await drawn(page, null);
      await page.click('#clusters a:text-is("copycat")');
      await drawn(page, 'copycat');
      assert.ok(page.url().endsWith('#student/copycat'));
      assert.equal(await page.textContent('#page h2'), 'copycat');
      await page.click('#page ul.similar a:text-is("mask-added")');
      await drawn(page, 'mask-added');
      assert.ok(page.url().endsWith('#student/mask-added'));
      assert.equal(await page.textContent('#page h2'), 'mask-added');
      assert.ok(await page.isVisible('#page ul.similar a:text-is("copycat")'));
      assert.match(await page.textContent('#student-tests li[data-test="lesson_example"] .msg'), /mask was added/);
      assert.deepEqual(requests, [], 'the report fetches nothing');
      assert.deepEqual(errors, []);
      await page.close();
    }

    // The same run merged in Russian: the pages and the causes in Russian.
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(pathToFileURL(join(ru, 'report.html')).href);
    assert.match(
      await page.textContent('#causes-test tr[data-key="batch.too_big"] th'),
      /^файл больше предела batch\.too_big$/,
    );
    assert.ok(await page.isVisible('#causes-test tr.group th:text-is("Сдача: файл не удалось взять как код")'));
    await page.click('#students a.who[href="#student/no-scaling"]');
    await drawn(page, 'no-scaling');
    assert.equal(await page.textContent('#back'), '← назад к группе');
    assert.deepEqual(await page.$$eval('#page h3', (h) => h.map((x) => x.textContent)), [
      'Тесты',
      'История (каждая проверка)',
      'Похожие работы',
      'Код',
    ]);
    assert.equal(await page.textContent('#student-tests li[data-test="scaling"] .st'), 'не пройден');
    assert.match(await page.textContent('#student-tests li[data-test="scaling"] .msg'), /[а-я]{4}/);
    await page.close();
  } finally {
    await browser.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});
