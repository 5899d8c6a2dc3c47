// The page's comforts (web/src/theme.js, comforts.js): dark mode from prefers-color-scheme with a
// remembered toggle, a quiet "saved" sign, and after a pass a congratulation with the next exercise in
// the course's order (spec.json "order", the picker's). Screenshots: tests/artifacts/comforts-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdir } from 'node:fs/promises';
import { listExercises } from '../../grader/hosts/node/exercise.mjs';
import { launch, open, check, setCode } from '../../tools/lib/chromium.mjs';

const root = new URL('../../', import.meta.url);
const artifacts = new URL('tests/artifacts/', root);
const read = (p) => readFile(new URL(p, root), 'utf8');
const COURSE = 'https://course.example.org'; // the course origin embed mode is opened for (the page is its own top here)
let b, page, course;

before(async () => {
  // The course's order as its authors wrote it in each spec.json.
  const specs = await Promise.all(
    listExercises().map(async (slug) => JSON.parse(await read(`exercises/${slug}/spec.json`))),
  );
  course = specs.sort((x, y) => x.order - y.order);
  await mkdir(artifacts, { recursive: true });
  b = await launch({ embedAncestors: COURSE }); // embed mode needs the course origin listed
  page = b.page;
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, `${b.url}?timeout=300&nosw`);
});

after(async () => {
  await b?.close();
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the page');
});

const shot = (name) => page.screenshot({ path: new URL(`comforts-${name}.png`, artifacts).pathname });
const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

test('dark mode follows the system, the toggle overrides it and is remembered; the background is painted', async () => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark'); // the media query's change event
  assert.equal(await background(), 'rgb(18, 20, 23)');
  assert.equal(await page.getAttribute('#theme', 'aria-pressed'), 'true');
  // The editor is dark too (its own theme, not the light one on a dark page).
  assert.equal(
    await page.evaluate(() => getComputedStyle(document.querySelector('.cm-editor')).backgroundColor),
    'rgb(27, 31, 36)',
  );
  await shot('dark');
  await page.click('#theme');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  assert.equal(await background(), 'rgb(246, 247, 249)');
  await page.reload();
  await open(page, `${b.url}?timeout=300&nosw`);
  assert.equal(
    await page.evaluate(() => document.documentElement.dataset.theme),
    'light',
    'the choice outlives a reload',
  );
  await page.click('#theme');
  assert.equal(await page.evaluate(() => localStorage.getItem('attnlab:theme')), 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  assert.equal(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), false);
  assert.equal(
    await page.evaluate(() => document.documentElement.dataset.theme),
    'dark',
    'a chosen theme wins over the system',
  );
  await page.click('#theme');
});

test('typing shows a quiet "saved" sign once the code is stored', async () => {
  assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('saved')).opacity), '0');
  await page.click('.cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n// saved?');
  await page.waitForFunction(() => document.getElementById('saved').classList.contains('on'));
  assert.equal(await page.textContent('#saved'), 'Сохранено');
  assert.match(await page.evaluate(() => localStorage.getItem('attnlab:sdpa:code')), /\/\/ saved\?$/);
  // Not a live region: it is not read out after every pause in typing.
  assert.equal(await page.getAttribute('#saved', 'aria-live'), null);
});

test('a pass shows a congratulation and links to the next exercise; a failing Check does not', async () => {
  await setCode(page, await read('exercises/sdpa/fixtures/no-scaling/submission.js'));
  await check(page);
  assert.equal(await page.isVisible('#cheer'), false);
  await setCode(page, await read('exercises/sdpa/solution.js'));
  assert.deepEqual(await check(page), { passed: 7, total: 7 });
  assert.ok(await page.isVisible('#cheer'));
  assert.match(await page.textContent('#cheer'), /Пройдены все тесты \(7\)/);
  const next = course[course.findIndex((s) => s.slug === 'sdpa') + 1];
  assert.equal(await page.textContent('#cheer a.next'), next.title.ru);
  // The picker lists the same order.
  assert.deepEqual(
    await page.$$eval('#exercise option', (os) => os.map((o) => o.value)),
    course.map((s) => s.slug),
  );
  await shot('pass');
  // In English it says so in English; the link opens the next exercise in the same language.
  await page.click('#lang');
  assert.match(await page.textContent('#cheer'), /All 7 tests passed/);
  assert.equal(await page.textContent('#cheer a.next'), next.title.en);
  await Promise.all([page.waitForURL(new RegExp(`exercise=${next.slug}`)), page.click('#cheer a.next')]);
  await page.waitForFunction(() => /^core/.test(document.documentElement.dataset.ready ?? ''));
  assert.equal(await page.inputValue('#exercise'), next.slug);
  await page.click('#lang'); // back to Russian for whoever comes next
});

test('the last exercise of the course says so instead of a link', async () => {
  const last = course.at(-1);
  await open(page, `${b.url}?nosw&exercise=${last.slug}&track=js`); // the grader's own limits
  await setCode(page, await read(`exercises/${last.slug}/solution.js`));
  const { passed, total } = await check(page);
  assert.equal(passed, total);
  assert.equal(await page.$('#cheer a.next'), null);
  assert.match(await page.textContent('#cheer'), /последнее упражнение курса/);
});

test('embed mode: the congratulation alone (the course decides what comes next), no theme toggle', async () => {
  await open(page, `${b.url}?embed=1&parent-origin=${encodeURIComponent(COURSE)}&exercise=sdpa`);
  assert.equal(await page.isVisible('#theme'), false);
  await setCode(page, await read('exercises/sdpa/solution.js'));
  assert.deepEqual(await check(page), { passed: 7, total: 7 });
  assert.match(await page.textContent('#cheer'), /Пройдены все тесты \(7\)/);
  assert.equal(await page.$('#cheer a'), null);
});
