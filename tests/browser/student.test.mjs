// The page's flow as a student meets it, at 1280×800, 1366×768 and 390×844:
// every test listed (pending) before the first Check; after a failing Check the first failure's message
// on screen, the verdict focused and linking to it; a Check past its first 150 ms showing its progress
// test by test (a slow submission: each causal_mask waits 60 ms); results dimmed once out of
// date; the hints drawer opening without moving the editor; Tab/Shift+Tab and Escape-then-Tab in the
// editor (2 spaces in JavaScript, 4 in Python); Ctrl+Enter / Shift+Ctrl+Enter anywhere; Stop ending
// a check and a run that never end (JavaScript and Python), with a track switch clicked meanwhile kept.
// Expected verdicts come from the fixture's expected_results.json (the Node grader's). No timings.
// Screenshots: tests/artifacts/student-*.png.
// Run: node --test tests/browser/student.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdir } from 'node:fs/promises';
import { launch, open, check, run, getCode, setCode } from '../../tools/lib/chromium.mjs';

const root = new URL('../../', import.meta.url);
const read = (p) => readFile(new URL(p, root), 'utf8');
const artifacts = new URL('tests/artifacts/', root);
const VIEWPORTS = [
  [1280, 800],
  [1366, 768],
  [390, 844],
];

let b, page, spec, failing, expected, solutionPy;

before(async () => {
  [spec, failing, expected, solutionPy] = await Promise.all([
    read('exercises/sdpa/spec.json').then(JSON.parse),
    read('exercises/sdpa/fixtures/no-scaling/submission.js'),
    read('exercises/sdpa/fixtures/no-scaling/expected_results.json').then(JSON.parse),
    read('exercises/sdpa/solution.py'),
  ]);
  await mkdir(artifacts, { recursive: true });
  b = await launch();
  page = b.page;
});

after(async () => {
  await b?.close();
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the page');
});

const shot = (name) => page.screenshot({ path: new URL(`student-${name}.png`, artifacts).pathname });
const inView = (sel) =>
  page.$eval(sel, (el) => {
    const r = el.getBoundingClientRect(),
      bar = document.querySelector('.bar').getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, barBottom: bar.bottom, height: innerHeight, width: r.width };
  });

for (const [w, h] of VIEWPORTS) {
  test(`${w}×${h}: seven pending tests before Check; after a failing Check the first failure's message is on screen and the verdict links to it`, async () => {
    await page.setViewportSize({ width: w, height: h });
    await open(page, `${b.url}?lang=en&exercise=sdpa&track=js`);
    await setCode(page, failing);
    await open(page, `${b.url}?lang=en&exercise=sdpa&track=js`); // a fresh page with this code: nothing checked yet
    const pending = await page.$$eval('#results li', (lis) =>
      lis.map((li) => ({ cls: li.className, name: li.querySelector('.name').textContent })),
    );
    assert.deepEqual(
      pending,
      spec.tests.map((x) => ({ cls: 'pending', name: x.name.en })),
    );

    const want = { passed: expected.tests.filter((x) => x.status === 'pass').length, total: expected.tests.length };
    assert.deepEqual(await check(page), want);

    const first = expected.tests.find((x) => x.status !== 'pass');
    const li = page.locator('#results li.fail, #results li.error').first();
    assert.equal(await li.locator('.name').textContent(), first.name);
    const id = await li.getAttribute('data-test');
    const msg = await inView(`#test-${id} .msg`);
    assert.ok(
      msg.top >= msg.barBottom - 1 && msg.bottom <= msg.height + 1,
      `the message is not on screen: ${JSON.stringify(msg)}`,
    );
    // The verdict: focused, the sentence, and a link to that test.
    assert.equal(await page.evaluate(() => document.activeElement.id), 'verdict');
    assert.match(
      await page.textContent('#verdict'),
      new RegExp(`^${want.passed} of ${want.total} passed — first failure: `),
    );
    assert.equal(await page.textContent('#verdict a'), first.name);
    assert.equal(await page.getAttribute('#verdict a', 'href'), `#test-${id}`);
    const v = await inView('#verdict');
    assert.ok(v.top >= 0 && v.bottom <= v.height, 'the verdict is on screen');
    await shot(`${w}x${h}-failing`);

    // Each result expands to its message and the test's code.
    assert.ok(
      await li
        .locator('details')
        .first()
        .evaluate((d) => d.open),
    );
    assert.ok((await li.locator('.test-code pre').textContent()).length > 0, 'the test code is listed');

    // Hints: the drawer opens beside the editor, focus on the hint, and the page does not move.
    // (On one-panel screens Check brought the Results tab forward: back to the Code tab, as a student would.)
    if (await page.isVisible('#tab-code')) await page.click('#tab-code');
    await page.evaluate(() => document.querySelector('#editor').scrollIntoView({ block: 'nearest' }));
    const before = await page.evaluate(() => ({
      y: scrollY,
      editor: document.querySelector('#editor').getBoundingClientRect().top,
    }));
    await page.click('#hint');
    assert.ok(await page.isVisible('#hints-drawer'));
    assert.equal(
      await page.evaluate(
        () => document.activeElement.closest('#hints') !== null && document.activeElement.classList.contains('hint'),
      ),
      true,
    );
    const afterHint = await page.evaluate(() => ({
      y: scrollY,
      editor: document.querySelector('#editor').getBoundingClientRect().top,
    }));
    assert.deepEqual(afterHint, before, 'the page scrolled when the hint opened');
    const ed = await inView('#editor');
    assert.ok(ed.top < ed.height && ed.bottom > 0, 'the editor is on screen with the hint open');
    await shot(`${w}x${h}-hint`);
    await page.keyboard.press('Escape');
    assert.ok(!(await page.isVisible('#hints-drawer')));
    assert.equal(await page.evaluate(() => document.activeElement.id), 'hint');

    // Reset: the results stay, dimmed and said to be out of date.
    await page.click('#reset');
    await page.click('#confirm-reset button[value=ok]');
    await page.waitForSelector('#results[data-stale]', { state: 'attached' });
    assert.match(await page.textContent('#verdict'), /earlier version of the code/);
  });
}

test('a Check that runs past its first 150 ms shows its progress: every test listed, those graded filled in, the count up to the last', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, `${b.url}?lang=en&exercise=sdpa&track=js`);
  // The same mistakes, slower: each causal_mask call waits 60 ms of wall time (a few of the work count's
  // units), so the Check lasts well past 150 ms on any machine and its verdicts stay the fixture's.
  const slow = failing.replace(
    'function causal_mask(T) {',
    'function causal_mask(T) {\n  const t0 = Date.now();\n  while (Date.now() - t0 < 60);',
  );
  assert.notEqual(slow, failing);
  await setCode(page, slow);
  await page.evaluate(() => {
    window.counts = [];
    window.rows = [];
    new MutationObserver(() => window.counts.push(document.querySelector('#summary').textContent)).observe(
      document.querySelector('#summary'),
      { childList: true, characterData: true, subtree: true },
    );
    new MutationObserver(() =>
      window.rows.push([...document.querySelectorAll('#results li')].map((li) => li.className)),
    ).observe(document.querySelector('#results'), { childList: true });
  });
  const want = { passed: expected.tests.filter((x) => x.status === 'pass').length, total: expected.tests.length };
  assert.deepEqual(await check(page), want);
  const [counts, rows] = await page.evaluate(() => [window.counts, window.rows]);
  const progress = counts
    .map((c) => c.match(/^Checked (\d+) of 7…$/)?.[1])
    .filter(Boolean)
    .map(Number);
  assert.ok(progress.length >= 2, `the count shown as the tests are graded: ${counts}`);
  assert.deepEqual(
    progress,
    [...progress].sort((x, y) => x - y),
    `the count only grows: ${progress}`,
  );
  assert.equal(progress.at(-1), want.total, `the count reaches the last test: ${progress}`);
  assert.ok(
    rows.some((r) => r.length === want.total && r.includes('pending') && r.some((c) => c !== 'pending')),
    `a moment with the graded tests filled in and the rest pending: ${JSON.stringify(rows)}`,
  );
  // Until then a Check keeps the last results on screen, dimmed, rather than listing every test pending.
  const [before, atClick] = await page.evaluate(() => {
    const snap = () => ({
      rows: [...document.querySelectorAll('#results li')].map((li) => li.className),
      dimmed: document.querySelector('#results').hasAttribute('data-stale'),
    });
    const last = snap();
    document.getElementById('check').click(); // the Check starts in this task, up to its first wait
    return [last, snap()];
  });
  assert.deepEqual(atClick, { rows: before.rows, dimmed: true });
  assert.ok(!before.rows.includes('pending'), JSON.stringify(before));
  await page.waitForFunction(() => !window.attnlab.state.busy);
});

test('Tab and Shift+Tab indent in the editor (2 spaces in JavaScript, 4 in Python); Escape then Tab leaves it', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, `${b.url}?lang=en&track=js`);
  await setCode(page, 'function f() {\nreturn 1;\n}\n');
  await page.evaluate(() => window.attnlab.editor.goTo(2, 1));
  await page.keyboard.press('Tab');
  assert.equal(await getCode(page), 'function f() {\n  return 1;\n}\n');
  assert.ok(
    await page.evaluate(() => document.activeElement.closest('.cm-editor') !== null),
    'focus stayed in the editor',
  );
  await page.keyboard.press('Shift+Tab');
  assert.equal(await getCode(page), 'function f() {\nreturn 1;\n}\n');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  assert.equal(await getCode(page), 'function f() {\nreturn 1;\n}\n');
  assert.ok(
    await page.evaluate(() => document.activeElement.closest('.cm-editor') === null),
    'Escape, Tab left the editor',
  );
  // Back in, Tab indents again.
  await page.evaluate(() => window.attnlab.editor.goTo(2, 1));
  await page.keyboard.press('Tab');
  assert.equal(await getCode(page), 'function f() {\n  return 1;\n}\n');

  await open(page, `${b.url}?lang=en&track=python`);
  await page.waitForFunction(() => document.documentElement.dataset.track === 'python'); // Python's highlighting and indentation rules loaded
  await setCode(page, 'def f(x):\nreturn x');
  await page.evaluate(() => window.attnlab.editor.goTo(2, 1));
  await page.keyboard.press('Tab');
  assert.equal(await getCode(page), 'def f(x):\n    return x');
  await page.evaluate(() => window.attnlab.editor.goTo(1, 10));
  await page.keyboard.press('Enter');
  await page.keyboard.type('y = x');
  assert.equal(await getCode(page), 'def f(x):\n    y = x\n    return x');
  // Brackets close themselves. Escape first: the completion list (the local name `x`) opens after a
  // typing pause, and when it is open Enter takes its choice instead of a new line; whether it is open
  // by now depends on the machine's load, so the test closes it (Escape with no list is harmless).
  await page.keyboard.press('Escape');
  await page.keyboard.type('\nz = np.array([');
  assert.match(await getCode(page), /\n {4}z = np\.array\(\[\]\)\n/);
});

test('Ctrl+Enter runs and Shift+Ctrl+Enter checks from anywhere on the page; Run on other code dims the results', async () => {
  await open(page, `${b.url}?lang=en&track=js`);
  await setCode(page, 'print(40 + 2);\n');
  await page.focus('#lang');
  const out = await run(page, () => page.keyboard.press('Control+Enter'));
  assert.match(out, /42/);
  await page.focus('#results');
  const done = page.evaluate(
    () => new Promise((r) => addEventListener('attnlab:checked', (e) => r(e.detail.total), { once: true })),
  );
  await page.keyboard.press('Shift+Control+Enter');
  assert.equal(await done, spec.tests.length);
  // Run on the code just checked leaves the results as they are; on other code it dims them.
  await run(page, () => page.keyboard.press('Control+Enter'));
  assert.equal(await page.getAttribute('#results', 'data-stale'), null);
  await setCode(page, 'print(43);\n');
  await run(page, () => page.keyboard.press('Control+Enter'));
  assert.equal(await page.getAttribute('#results', 'data-stale'), '');
  assert.match(await page.textContent('#verdict'), /earlier version of the code/);
});

test(
  'Stop ends a check and a run that never end; a track switch clicked meanwhile happens; the next Check grades',
  { timeout: 300000 },
  async () => {
    // A limit longer than any test runs: only Stop can end these.
    await open(page, `${b.url}?lang=en&track=js&timeout=600000`);
    const stopped = (action) =>
      page.evaluate(
        (a) =>
          new Promise((r) => addEventListener('attnlab:stopped', (e) => e.detail.action === a && r(), { once: true })),
        action,
      );
    await setCode(page, 'while (true) {}\n');
    await page.click('#check');
    await page.waitForSelector('#stop', { state: 'visible' });
    let s = stopped('check');
    await page.click('#stop');
    await s;
    assert.match(await page.textContent('#verdict'), /Check stopped/);
    assert.deepEqual(await page.$$eval('#results li .st', (x) => [...new Set(x.map((e) => e.textContent))]), [
      'not checked',
    ]);
    assert.equal(await page.getAttribute('#check', 'aria-disabled'), null);
    assert.ok(!(await page.isVisible('#stop')));

    // Again, with the Python switch clicked during the check: it is kept, not dropped, and happens after Stop.
    await page.click('#check');
    await page.waitForSelector('#stop', { state: 'visible' });
    await page.click('#tracks button[data-track=python]');
    assert.match(await page.textContent('#verdict'), /Switching to Python/);
    const switched = page.evaluate(
      () => new Promise((r) => addEventListener('attnlab:track', (e) => r(e.detail.track), { once: true })),
    );
    s = stopped('check');
    await page.click('#stop');
    await s;
    assert.equal(await switched, 'python');

    await setCode(page, 'while True:\n    pass\n');
    await page.click('#run');
    await page.waitForSelector('#stop', { state: 'visible' });
    s = stopped('run');
    await page.click('#stop');
    await s;
    assert.match(await page.textContent('#output'), /Run stopped/);
    await page.click('#check');
    await page.waitForSelector('#stop', { state: 'visible' });
    s = stopped('check');
    await page.click('#stop');
    await s;
    await shot('stopped');

    await setCode(page, solutionPy);
    assert.deepEqual(await check(page), { passed: spec.tests.length, total: spec.tests.length });
    assert.equal(await page.textContent('#verdict'), `All tests passed: ${spec.tests.length} of ${spec.tests.length}.`);
  },
);
