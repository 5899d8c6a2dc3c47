// Accessibility: axe-core (npm dev dependency) run inside the page in every state a student meets —
// fresh, after a failing Check, a hint open, Scale open, the Reset dialog open, a phone, dark mode —
// with no serious or critical violation; and a keyboard-only walk-through (Tab to the editor, type,
// Escape then Tab out, reach Check, press it, reach the results).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { launch, open, check, setCode, getCode } from '../../tools/lib/chromium.mjs';

const root = new URL('../../', import.meta.url);
const artifacts = new URL('tests/artifacts/', root);
const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let b, page, failing;

before(async () => {
  failing = await readFile(new URL('exercises/sdpa/fixtures/no-scaling/submission.js', root), 'utf8');
  await mkdir(artifacts, { recursive: true });
  b = await launch();
  page = b.page;
  // Reduced motion: axe judges the page at rest. A fade (the saved sign's) caught halfway, which a busy
  // machine makes likely, is a transition, not the colours a student reads.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, `${b.url}?timeout=300&nosw&scaleMax=32`);
});

after(async () => {
  await b?.close();
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the page');
});

const shot = (name) => page.screenshot({ path: new URL(`a11y-${name}.png`, artifacts).pathname });

/**
 * Runs axe on the page as it is (injected through the debugging protocol: the page's CSP allows no
 * inline script) and fails on any serious or critical violation, naming the rule and the elements.
 */
async function noSerious(state) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(AXE);
  const found = await page.evaluate(async () =>
    (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    })),
  );
  const serious = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    serious.map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 4).join(' | ')}`),
    [],
    `axe, ${state}`,
  );
  await shot(state);
  return found;
}

test('fresh page: no serious or critical violation (nor heading-order, empty-table-header)', async () => {
  const all = await noSerious('fresh');
  assert.deepEqual(
    all
      .filter((v) => ['heading-order', 'empty-table-header', 'scrollable-region-focusable'].includes(v.id))
      .map((v) => v.id),
    [],
  );
});

test('after a failing Check', async () => {
  await setCode(page, failing);
  const { passed, total } = await check(page);
  assert.ok(passed < total);
  await page.waitForSelector('[data-map=student] svg'); // the student's heatmap and its table
  const all = await noSerious('checked');
  assert.deepEqual(
    all.filter((v) => ['empty-table-header', 'scrollable-region-focusable'].includes(v.id)).map((v) => v.id),
    [],
  );
});

test('a hint open', async () => {
  await page.click('#tab-task');
  await page.click('#hint');
  await page.waitForSelector('#hints .hint');
  await noSerious('hint');
});

test('Scale open (its plot in view, labels ≥ 11 px, the legend in plain words)', async () => {
  const done = page.evaluate(() => new Promise((r) => addEventListener('attnlab:scaled', () => r(), { once: true })));
  await page.click('#scale');
  await done;
  const plot = await page.evaluate(() => {
    const svg = document.querySelector('#scale-out .scale-plot'),
      r = svg.getBoundingClientRect();
    const k = r.width / svg.viewBox.baseVal.width; // user units → CSS px
    const sizes = [...svg.querySelectorAll('.grid text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * k);
    return { top: r.top, bottom: r.bottom, innerHeight, smallest: Math.min(...sizes) };
  });
  assert.ok(plot.top >= 0 && plot.top < plot.innerHeight && plot.bottom > 0, `plot at ${plot.top}…${plot.bottom}`);
  assert.ok(plot.smallest >= 11, `tick labels ${plot.smallest.toFixed(1)} px`);
  // No WebGPU in this browser (no flag): said in Russian, plain words, no API's error text.
  assert.equal(await page.textContent('.scale-legend [data-series=gpu] .why'), 'WebGPU в этом браузере недоступен');
  assert.doesNotMatch(await page.textContent('#scale-panel'), /requestAdapter|returned null/);
  await noSerious('scale');
  await page.click('#scale'); // closed again
});

test('the Reset dialog open', async () => {
  await page.click('#reset');
  await page.waitForSelector('#confirm-reset[open]');
  await noSerious('dialog');
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#confirm-reset'), false);
});

test('dark mode', async () => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await noSerious('dark');
  await page.emulateMedia({ colorScheme: 'light' });
});

test('a phone (390×844), fresh and after Check', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('#tab-task');
  await noSerious('phone-task');
  await page.click('#tab-code');
  await check(page);
  await noSerious('phone-checked');
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('keyboard only: Tab to the editor, type, Escape+Tab out, reach Check, press it, reach the results', async () => {
  await page.reload();
  await open(page, `${b.url}?timeout=300&nosw&scaleMax=32`);
  await setCode(page, failing);
  await page.evaluate(() => document.activeElement?.blur());
  const focused = () =>
    page.evaluate(() => {
      const a = document.activeElement;
      return a?.classList.contains('cm-content') ? 'editor' : a?.id || a?.tagName;
    });
  // Forward from the top of the page to the editor, noting Check on the way.
  const seen = [];
  for (let i = 0; i < 40 && (await focused()) !== 'editor'; i++) {
    await page.keyboard.press('Tab');
    seen.push(await focused());
  }
  assert.equal(await focused(), 'editor', `Tab order: ${seen.join(' → ')}`);
  assert.ok(seen.includes('check'), `Check is reached by Tab: ${seen.join(' → ')}`);
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('// typed\n');
  assert.ok((await getCode(page)).startsWith('// typed\n'));
  // Escape, then Tab leaves the editor (whether or not Tab indents inside it).
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  assert.notEqual(await focused(), 'editor');
  // Back to Check with Shift+Tab and press it with the keyboard.
  // (Back through the editor: Escape first, or Shift+Tab dedents there.)
  for (let i = 0; i < 40 && (await focused()) !== 'check'; i++) {
    if ((await focused()) === 'editor') await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+Tab');
  }
  assert.equal(await focused(), 'check');
  const done = page.evaluate(
    () => new Promise((r) => addEventListener('attnlab:checked', ({ detail: d }) => r(d.passed), { once: true })),
  );
  await page.keyboard.press('Enter');
  assert.ok((await done) < 7);
  // The results can be reached: Tab forward lands inside the results column (shown, Results selected).
  assert.equal(await page.getAttribute('#tab-results', 'aria-selected'), 'true');
  let inside = false;
  for (let i = 0; i < 60 && !inside; i++) {
    if ((await focused()) === 'editor') await page.keyboard.press('Escape'); // through the editor: Escape, then Tab
    await page.keyboard.press('Tab');
    inside = await page.evaluate(() => document.getElementById('results-panel').contains(document.activeElement));
  }
  assert.ok(inside, 'the results are reached by Tab');
  await shot('keyboard');
});
