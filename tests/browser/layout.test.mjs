// The page's layouts (web/src/layout.js, styles.css) at the sizes students use: 1280×800, 1366×768,
// a phone (390×844) and the narrowest (320 wide). Nothing wider than the viewport; the editor (or its tab)
// on the first screen; after a failing Check the first failure's message inside the viewport.
// Screenshots: tests/artifacts/layout-<w>x<h>-{fresh,checked}.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdir } from 'node:fs/promises';
import { launch, open, check, setCode } from '../../tools/lib/chromium.mjs';

const root = new URL('../../', import.meta.url);
const artifacts = new URL('tests/artifacts/', root);
const FIXTURE = 'exercises/sdpa/fixtures/no-scaling/';
let b, page, failing, expected;

before(async () => {
  failing = await readFile(new URL(`${FIXTURE}submission.js`, root), 'utf8');
  expected = JSON.parse(await readFile(new URL(`${FIXTURE}expected_results.json`, root), 'utf8')); // from the Node grader
  await mkdir(artifacts, { recursive: true });
  b = await launch();
  page = b.page;
});

after(async () => {
  await b?.close();
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the page');
});

const shot = (name) => page.screenshot({ path: new URL(`${name}.png`, artifacts).pathname });
const overflow = () => page.evaluate(() => ({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth }));
const box = (sel) =>
  page.evaluate((s) => {
    const e = document.querySelector(s);
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return {
      top: r.top,
      bottom: r.bottom,
      left: r.left,
      right: r.right,
      height: r.height,
      innerHeight,
      shown: r.width > 0 && r.height > 0,
    };
  }, sel);

/** A first visit at this size: nothing kept from the previous one (code, tab, theme). */
async function fresh(width, height) {
  await page.setViewportSize({ width, height });
  await page.goto(`${b.url}?nosw`);
  await page.evaluate(() => localStorage.clear());
  await open(page, `${b.url}?timeout=300&nosw`);
}

const expectedPassed = () => expected.tests.filter((t) => t.status === 'pass').length;

for (const [width, height] of [
  [1280, 800],
  [1366, 768],
]) {
  test(`${width}×${height}: editor beside the results; after a failing Check the first failure is in view`, async () => {
    await fresh(width, height);
    const { scrollWidth, innerWidth } = await overflow();
    assert.ok(scrollWidth <= innerWidth, `page ${scrollWidth} px wide in a ${innerWidth} px viewport`);
    // The editor always shows (no Code tab at this width) and starts on the first screen.
    assert.equal(await page.isVisible('#tab-code'), false);
    const editor = await box('#editor');
    assert.ok(editor.top < height / 2 && editor.bottom <= height, `editor ${editor.top}…${editor.bottom}`);
    assert.equal(await page.getAttribute('#tab-task', 'aria-selected'), 'true');
    assert.ok(await page.isVisible('#run kbd'), 'the Ctrl+Enter label on a desktop');
    await shot(`layout-${width}x${height}-fresh`);

    await setCode(page, failing);
    assert.deepEqual(await check(page), { passed: expectedPassed(), total: expected.tests.length });
    assert.equal(await page.getAttribute('#tab-results', 'aria-selected'), 'true');
    // Side by side: the results column to the left of the editor, the editor still on screen.
    const first = await box('#results li.fail .msg');
    assert.ok(
      first.top >= 0 && first.top + 20 <= height,
      `the first failure's message at ${first.top}…${first.bottom} in ${height}`,
    );
    const [results, editorAfter] = [await box('#results-panel'), await box('#editor')];
    assert.ok(results.right <= editorAfter.left && editorAfter.top < height, 'results and editor side by side');
    // Nothing Check produced lies below the page's fold: the results column scrolls on its own.
    const tall = await page.evaluate(() => ({ scrollHeight: document.scrollingElement.scrollHeight, innerHeight }));
    assert.ok(
      tall.scrollHeight <= tall.innerHeight + 1,
      `the page itself is ${tall.scrollHeight} px tall in ${tall.innerHeight}`,
    );
    assert.ok((await overflow()).scrollWidth <= width);
    await shot(`layout-${width}x${height}-checked`);
  });
}

for (const [width, height] of [
  [390, 844],
  [320, 640],
]) {
  test(`${width}×${height}: tabs, a compact header, the editor on the first screen, results shown after Check`, async () => {
    await fresh(width, height);
    let o = await overflow();
    assert.ok(o.scrollWidth <= o.innerWidth, `page ${o.scrollWidth} px wide in a ${o.innerWidth} px viewport`);
    assert.ok((await box('.top')).height <= 140, `header ${(await box('.top')).height} px tall`);
    // A first visit opens on the task; the Code tab is on the first screen.
    assert.equal(await page.getAttribute('#tab-task', 'aria-selected'), 'true');
    const tab = await box('#tab-code');
    assert.ok(tab.shown && tab.bottom <= height, `the Code tab at ${tab.top}…${tab.bottom}`);
    assert.equal(await page.isVisible('#run kbd'), false, 'no Ctrl+Enter label on a phone');
    // The task's table reflows inside the screen.
    const table = await box('#task table');
    assert.ok(table.right <= width, `the task table ends at ${table.right}`);
    await shot(`layout-${width}x${height}-fresh`);

    await page.click('#tab-code');
    const editor = await box('#editor');
    assert.ok(editor.shown && editor.top < height / 2, `editor top at ${editor.top}`);
    assert.equal(await page.isVisible('#task'), false, 'one panel at a time');

    await setCode(page, failing);
    assert.deepEqual(await check(page), { passed: expectedPassed(), total: expected.tests.length });
    assert.equal(await page.getAttribute('#tab-results', 'aria-selected'), 'true');
    assert.equal(await page.isVisible('#editor'), false);
    const first = await box('#results li.fail .msg');
    assert.ok(
      first.top >= 0 && first.top + 20 <= height,
      `the first failure's message at ${first.top}…${first.bottom} in ${height}`,
    );
    // Focus was on Check, now hidden: it moved to the verdict line at the top of the results, not to the page's body.
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'verdict');
    assert.ok(await page.evaluate(() => document.getElementById('results-panel').contains(document.activeElement)));
    o = await overflow();
    assert.ok(o.scrollWidth <= o.innerWidth, `after Check: ${o.scrollWidth} px in ${o.innerWidth}`);
    await shot(`layout-${width}x${height}-checked`);
  });
}

test('a phone returning to an exercise with its code kept opens on the editor', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, `${b.url}?timeout=300&nosw`); // the code of the test above is kept
  assert.equal(await page.getAttribute('#tab-code', 'aria-selected'), 'true');
  const editor = await box('#editor');
  assert.ok(editor.shown && editor.top < 844 / 2, `editor top at ${editor.top}`);
  // The tabs follow the ARIA pattern: arrows move between them.
  await page.focus('#tab-code');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-results');
  assert.equal(await page.getAttribute('#tab-results', 'aria-selected'), 'true');
  await page.keyboard.press('Home');
  assert.equal(await page.getAttribute('#tab-task', 'aria-selected'), 'true');
  // Widening the window to a desktop shows the editor again beside the selected side panel (once the
  // media query's change event has come: waited for, not timed).
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForSelector('#editor', { state: 'visible' });
  assert.ok(await page.isVisible('#task'));
  // A window too short to be one screen keeps the tabs (nothing cut off below a page that cannot scroll).
  await page.setViewportSize({ width: 1280, height: 500 });
  await page.waitForSelector('#tab-code', { state: 'visible' });
  await page.click('#tab-code');
  assert.ok(await page.isVisible('#editor'));
  assert.equal(await page.isVisible('#task'), false);
});

test('in English at 320 wide: the tabs read Task · Code · Results and nothing overflows', async () => {
  await page.setViewportSize({ width: 320, height: 640 });
  await open(page, `${b.url}?timeout=300&nosw&lang=en`);
  assert.deepEqual(await page.$$eval('#tabs [role=tab]', (ts) => ts.map((t) => t.textContent)), [
    'Task',
    'Code',
    'Results',
  ]);
  assert.equal(await page.getAttribute('#theme', 'aria-label'), 'Dark theme');
  for (const tab of ['task', 'code', 'results']) {
    await page.click(`#tab-${tab}`);
    const o = await overflow();
    assert.ok(o.scrollWidth <= o.innerWidth, `${tab}: ${o.scrollWidth} px in ${o.innerWidth}`);
  }
  await shot('layout-320-en');
});
