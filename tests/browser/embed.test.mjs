// Embed mode (web/README.md, "Embedding"): the page on one origin (A, web/server.mjs), framed by a course
// page on another (B), with a third origin (C) framed beside it that tries the same API. Every message
// both ways; messages from C, and malformed ones from B, change nothing and get no answer; who may
// frame which page (frame-ancestors), as headers and in the browser.
// Run: node --test tests/browser/embed.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname, join, sep } from 'node:path';
import { check, launch, open as openPage, otherOrigin, setCode, slowSolution } from '../../tools/lib/chromium.mjs';
import { startServer } from '../../web/server.mjs';

const root = new URL('../../', import.meta.url);
const artifacts = new URL('tests/artifacts/', root);
const read = (p) => readFile(new URL(p, root), 'utf8');
// The first lesson's seven tests, in order (DESIGN.md).
const SDPA_TESTS = ['causal_mask', 'softmax', 'lesson_example', 'scaling', 'causality', 'loop_reference', 'batching'];

/**
 * Serves HTML pages ({ path: html }, looked up at each request) on another origin. Paths starting
 * /isolated are sent cross-origin isolated (COOP same-origin, COEP require-corp).
 */
const htmlServer = (pages) =>
  otherOrigin(
    (path) =>
      pages[path] && {
        body: pages[path],
        type: 'text/html; charset=utf-8',
        headers: path.startsWith('/isolated')
          ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' }
          : {},
      },
  );

let b, page, A, B, C, D, L, starter, solution;

// B: the course page. It frames the exercise (A) and C's page, keeps every message it receives (with
// its origin), and sizes the frame from attnlab:resize.
const parentPage = (embedUrl, cOrigin) => `<!doctype html><meta charset="utf-8"><title>course</title>
<p>Lesson text above the exercise.</p>
<iframe name="attnlab" id="ex" src="${embedUrl}" style="width:800px;border:0;display:block"></iframe>
<iframe name="c" src="${cOrigin}/c.html" style="width:10px;height:10px"></iframe>
<script>
  window.received = [];
  addEventListener('message', (e) => {
    received.push({ origin: e.origin, fromExercise: e.source === document.getElementById('ex').contentWindow, data: e.data });
    if (e.data && e.data.type === 'attnlab:resize') document.getElementById('ex').style.height = e.data.height + 'px';
  });
  window.toExercise = (msg) => document.getElementById('ex').contentWindow.postMessage(msg, new URL(document.getElementById('ex').src).origin);
</script>`;

// C: another origin in the same course page. On request it sends the whole API to the exercise's frame
// (any target origin) and records any answer it gets.
const thirdPage = `<!doctype html><meta charset="utf-8"><script>
  window.answers = [];
  addEventListener('message', (e) => { if (e.source === parent.frames.attnlab) answers.push(e.data); });
  window.attack = () => {
    const ex = parent.frames.attnlab;
    for (const m of [{ type: 'attnlab:set-code', code: 'stolen()' }, { type: 'attnlab:check' }, { type: 'attnlab:get-code' }]) ex.postMessage(m, '*');
    return true;
  };
</script>`;

// A static lesson page with the web component: two lines of HTML; it records the component's events.
const lessonPage = (
  a,
) => `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lesson 1</title>
<style>body { font: 16px/1.5 Georgia, serif; margin: 0 auto; max-width: 60rem; padding: 0 .5rem; }</style>
<h1>Lesson 1: attention</h1>
<p>Now write it yourself. Press Check when you are done.</p>
<script type="module" src="${a}/embed.js"></script>
<attnlab-exercise exercise="sdpa" track="js" lang="en"></attnlab-exercise>
<p>The lesson goes on below the exercise.</p>
<script>
  window.events = [];
  for (const t of ['attnlab-ready', 'attnlab-checked']) document.addEventListener(t, (e) => events.push({ type: e.type, target: e.target.localName, detail: e.detail }));
</script></html>`;

// Each helper works on a course page (parentPage), by default the one of `before`.
const received = (p = page) => p.evaluate(() => window.received);
const fromExercise = async (type, p = page) =>
  (await received(p)).filter((m) => m.fromExercise && m.data?.type === type);
const waitFor = (type, n = 1, p = page) =>
  p.waitForFunction(([t, k]) => window.received.filter((m) => m.data?.type === t).length >= k, [type, n]);
const toExercise = (msg, p = page) => p.evaluate((m) => window.toExercise(m), msg);
const exerciseFrame = (p = page) => p.frame({ name: 'attnlab' });
/** Asks for the code; resolves with the answer (messages from one window arrive in order, so whatever was sent before is handled). */
async function getCode(p = page) {
  const n = (await fromExercise('attnlab:code', p)).length;
  await toExercise({ type: 'attnlab:get-code' }, p);
  await waitFor('attnlab:code', n + 1, p);
  return (await fromExercise('attnlab:code', p))[n].data.code;
}
/**
 * Waits until the last attnlab:resize, the frame's height in the parent and the content's height inside
 * all agree (a resize is posted on the frame after the change that caused it) → that height.
 */
async function settledHeight() {
  return settled(exerciseFrame(), async () => (await fromExercise('attnlab:resize')).at(-1)?.data.height);
}
/** Waits until `frame` is as tall as its content (and `announced()`, if given, says the same) → that height. */
async function settled(frame, announced = async () => undefined) {
  let seen;
  for (let i = 0; i < 1200; i++) {
    // ≥ 30 s, as playwright waits
    seen = {
      announced: await announced(),
      ...(await frame.evaluate(() => ({
        content: Math.ceil(document.documentElement.getBoundingClientRect().height),
        view: innerHeight,
      }))),
    };
    if (seen.view === seen.content && (seen.announced ?? seen.content) === seen.content) return seen.content;
    await frame.page().waitForTimeout(25);
  }
  assert.fail(`the frame's height never settled on its content's: ${JSON.stringify(seen)}`);
}
async function checkViaApi(p = page) {
  const n = (await fromExercise('attnlab:checked', p)).length;
  await toExercise({ type: 'attnlab:check' }, p);
  await waitFor('attnlab:checked', n + 1, p);
  return (await fromExercise('attnlab:checked', p))[n].data;
}

before(async () => {
  [starter, solution] = await Promise.all([
    read('exercises/sdpa/starter.en.js') /* lang=en: the starter's English twin */,
    read('exercises/sdpa/solution.js'),
  ]);
  const cPages = { '/c.html': thirdPage };
  C = await htmlServer(cPages);
  const pages = {};
  B = await htmlServer(pages);
  // D: another port of 127.0.0.1 (another origin of the same site: it shares A's storage); L: B's server
  // as http://localhost (another origin and another site). The host lists B, D and L, not C.
  D = await htmlServer(pages);
  L = `http://localhost:${new URL(B.origin).port}`;
  Object.assign(B, { pages });
  Object.assign(C, { pages: cPages });
  b = await launch({ embedAncestors: `${B.origin} ${D.origin} ${L}` });
  page = b.page;
  A = new URL(b.url).origin;
  // Test-only parameters in the URL: embed mode ignores them (a score never depends on its URL).
  const embed = `${A}/?embed=1&exercise=sdpa&track=js&lang=en&timeout=600000&flavour=baseline&parent-origin=`;
  // C frames the exercise naming itself as the parent: not in the host's list.
  cPages['/self.html'] = `<!doctype html><iframe name="n" src="${embed}${encodeURIComponent(C.origin)}"></iframe>`;
  Object.assign(pages, {
    '/course.html': parentPage(embed + encodeURIComponent(B.origin), C.origin),
    '/course-d.html': parentPage(
      `${A}/?embed=1&exercise=sdpa&track=js&lang=en&timeout=1&parent-origin=${encodeURIComponent(D.origin)}`,
      C.origin,
    ),
    '/course-l.html': parentPage(embed + encodeURIComponent(L), C.origin),
    // The normal page, and embed mode naming another parent: both must stay unframed.
    '/normal.html': `<!doctype html><iframe name="n" src="${A}/?lang=en"></iframe>`,
    '/other.html': `<!doctype html><iframe name="n" src="${embed}${encodeURIComponent(C.origin)}"></iframe>`,
    '/lesson.html': lessonPage(A),
    // The exercise as wide as the window (no column of text around it): the compact layout's widths.
    '/wide-lesson.html': `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>wide</title><style>body { margin: 0; }</style><script type="module" src="${A}/embed.js"></script>
<attnlab-exercise exercise="sdpa" track="js" lang="en"></attnlab-exercise>
<script>window.events = []; document.addEventListener('attnlab-checked', (e) => events.push(e.detail));</script></html>`,
    '/isolated-lesson.html': lessonPage(A),
    // Two exercises on one lesson page, the second far below (loaded lazily): the first dark whatever the
    // system says, the second following it.
    '/two.html': `<!doctype html><meta charset="utf-8"><title>two</title><script type="module" src="${A}/embed.js"></script>
<attnlab-exercise id="one" exercise="sdpa" track="js" lang="en" theme="dark"></attnlab-exercise>
<div style="height:8000px">The lesson goes on.</div>
<attnlab-exercise id="two" exercise="rope" track="js" lang="en" theme="auto"></attnlab-exercise>
<script>
  window.events = [];
  document.addEventListener('attnlab-ready', (e) => events.push(e.target.id));
</script>`,
  });
  await mkdir(artifacts, { recursive: true });
  await page.goto(`${B.origin}/course.html`);
  await waitFor('attnlab:ready');
});

after(async () => {
  await b?.close();
  await B?.close();
  await C?.close();
  await D?.close();
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the pages');
});

test("ready: the exercise and track, from the exercise's origin; the frame is sized to its content", async () => {
  const [ready] = await fromExercise('attnlab:ready');
  assert.equal(ready.origin, A);
  assert.deepEqual(ready.data, { type: 'attnlab:ready', exercise: 'sdpa', track: 'js' });
  // Only the exercise: no picker, no language switch, no badge; the task, editor and buttons are there.
  const frame = exerciseFrame();
  for (const sel of ['#exercise', '#lang', '#backend']) assert.equal(await frame.isVisible(sel), false, sel);
  for (const sel of ['#task-fold', '#editor', '#check', '#run', '.panes'])
    assert.equal(await frame.isVisible(sel), true, sel);
  // The last resize is the content's height, and the parent's frame has it (no scrolling inside).
  const height = await settledHeight();
  assert.ok(Number.isInteger(height) && height > 300, `height ${height}`);
  assert.equal(
    await frame.evaluate(() => document.documentElement.scrollHeight),
    height,
    'nothing left to scroll inside the frame',
  );
});

test('get-code answers the starter; set-code puts code in the editor; check → checked with the score', async () => {
  const before = await settledHeight();
  assert.equal(await getCode(), starter);
  await toExercise({ type: 'attnlab:set-code', code: solution });
  assert.equal(await getCode(), solution);
  assert.equal(await exerciseFrame().evaluate(() => window.attnlab.editor.value), solution);
  const { tests, ...passed } = await checkViaApi();
  assert.deepEqual(passed, { type: 'attnlab:checked', exercise: 'sdpa', track: 'js', passed: 7, total: 7, score: 1 });
  assert.deepEqual(
    tests.map((x) => [x.id, x.status]),
    SDPA_TESTS.map((id) => [id, 'pass']),
  );
  assert.ok(
    tests.every((x) => Object.keys(x).join() === 'id,name,status' && typeof x.name === 'string' && x.name.length > 0),
    JSON.stringify(tests),
  );

  await toExercise({ type: 'attnlab:set-code', code: starter });
  const failed = await checkViaApi();
  assert.deepEqual([failed.passed, failed.total, failed.score], [0, 7, 0]);
  assert.ok(
    failed.tests.every((x) => x.status !== 'pass'),
    JSON.stringify(failed.tests),
  );
  // A Check the student clicks is announced the same way.
  const n = (await fromExercise('attnlab:checked')).length;
  await exerciseFrame().click('#check');
  await waitFor('attnlab:checked', n + 1);
  assert.equal((await fromExercise('attnlab:checked'))[n].data.total, 7);
  // The results made the page taller: the frame followed.
  assert.ok((await settledHeight()) > before, 'the frame did not grow with the results');
});

test('malformed messages from the parent are ignored, without an answer', async () => {
  const before = await received();
  for (const m of [
    null,
    'attnlab:check',
    42,
    [{ type: 'attnlab:check' }],
    { type: 5 },
    { type: 'attnlab:set-code' },
    { type: 'attnlab:set-code', code: 42 },
    { type: 'attnlab:set-code', code: ['x'] },
    { type: 'attnlab:set-code', code: 'x'.repeat(200_001) },
    { type: 'attnlab:nonsense' },
    { type: 'ATTNLAB:CHECK' },
    {},
  ])
    await toExercise(m);
  assert.equal(await getCode(), starter);
  const after = (await received()).slice(before.length).filter((m) => m.data?.type !== 'attnlab:resize');
  assert.deepEqual(
    after.map((m) => m.data.type),
    ['attnlab:code'],
    'only the get-code was answered',
  );
});

test("a third origin's messages are ignored and get no answer", async () => {
  const before = (await received()).length;
  const c = page.frame({ name: 'c' });
  assert.equal(await c.evaluate(() => window.attack()), true);
  // The exercise handled C's messages before the parent's next one (one event loop): nothing changed.
  assert.equal(await getCode(), starter);
  const after = (await received()).slice(before).filter((m) => m.data?.type !== 'attnlab:resize');
  assert.deepEqual(
    after.map((m) => m.data.type),
    ['attnlab:code'],
  );
  assert.deepEqual(await c.evaluate(() => window.answers), []);
  assert.equal(await exerciseFrame().evaluate(() => window.attnlab.editor.value), starter);
});

test("frame-ancestors: the host's list when it allows the named parent; the normal page, an unlisted or bad parent-origin, and a host without a list say none", async () => {
  const csp = async (query, server = b.server) =>
    (await fetch(`${server.url}${query}`)).headers.get('content-security-policy').match(/frame-ancestors ([^;]*)/)[1];
  const list = `${B.origin} ${D.origin} ${L}`;
  assert.equal(await csp(''), "'none'");
  assert.equal(await csp(`?lang=en&parent-origin=${encodeURIComponent(B.origin)}`), "'none'", 'not embed mode');
  assert.equal(await csp(`?embed=1&parent-origin=${encodeURIComponent(B.origin)}`), list);
  assert.equal(await csp(`index.html?embed=1&parent-origin=${encodeURIComponent(L)}`), list);
  for (const bad of [
    C.origin, // a page that names itself: not in the list
    'https://lms.example.org',
    '',
    'javascript:alert(1)',
    `${B.origin}/`,
    `${B.origin}/x`,
    `${B.origin} 'unsafe-inline'`,
    'null',
    `${B.origin};script-src *`,
  ]) {
    assert.equal(await csp(`?embed=1&parent-origin=${encodeURIComponent(bad)}`), "'none'", bad);
  }
  // Files other than the page are never framable.
  assert.match(
    (await fetch(`${b.url}app.js?embed=1&parent-origin=${encodeURIComponent(B.origin)}`)).headers.get(
      'content-security-policy',
    ),
    /frame-ancestors 'none'/,
  );
  // The list, published beside the page.
  assert.deepEqual(await (await fetch(`${b.url}embed-ancestors.json`)).json(), { ancestors: list.split(' ') });
  // A host without a list (the default): embed mode off, whatever the URL names; a wildcard list; `*`.
  const none = await startServer();
  const s = await startServer({ embedAncestors: 'https://*.lms.example.org' });
  const all = await startServer({ embedAncestors: '*' });
  try {
    assert.equal(await csp(`?embed=1&parent-origin=${encodeURIComponent(B.origin)}`, none), "'none'");
    assert.deepEqual(await (await fetch(`${none.url}embed-ancestors.json`)).json(), { ancestors: [] });
    assert.equal(await csp('?embed=1&parent-origin=https://a.lms.example.org', s), 'https://*.lms.example.org');
    assert.equal(await csp('?embed=1&parent-origin=https://lms.example.org', s), "'none'");
    assert.equal(await csp(`?embed=1&parent-origin=${encodeURIComponent(C.origin)}`, all), '*');
    assert.equal(await csp('?embed=1', all), "'none'", 'no parent-origin');
    assert.equal(await csp('', all), "'none'");
  } finally {
    await Promise.all([none.close(), s.close(), all.close()]);
  }
  assert.throws(
    () => startServer({ embedAncestors: 'https://ok.org/path' }),
    /"https:\/\/ok\.org\/path" is not an origin/,
  );
  assert.throws(() => startServer({ embedAncestors: 'parent' }), /"parent" is no longer a source/);
});

test('in the browser: the normal page, embed mode naming another parent, and a page naming itself that is not listed, are not framed', async () => {
  for (const url of [`${B.origin}/normal.html`, `${B.origin}/other.html`, `${C.origin}/self.html`]) {
    const p = await b.context.newPage();
    try {
      await p.goto(url); // waits for the frame's load too
      // A blocked frame holds the browser's error page, never the exercise.
      const frame = p.frame({ name: 'n' });
      const loaded = await frame.evaluate(() => Boolean(document.getElementById('editor'))).catch(() => false);
      assert.equal(loaded, false, `${url}: the frame shows the exercise (${frame.url()})`);
    } finally {
      await p.close();
    }
  }
});

test('<attnlab-exercise> on a static page of another origin: ready, a solution set and checked → score 1; screenshots at 800 and 390 px', async () => {
  for (const width of [800, 390]) {
    const p = await b.context.newPage();
    try {
      await p.setViewportSize({ width, height: 900 });
      await p.goto(`${B.origin}/lesson.html`);
      await p.waitForFunction(() => window.events.some((e) => e.type === 'attnlab-ready'));
      const [ready] = await p.evaluate(() => window.events);
      assert.deepEqual(ready, {
        type: 'attnlab-ready',
        target: 'attnlab-exercise',
        detail: { type: 'attnlab:ready', exercise: 'sdpa', track: 'js' },
      });
      const src = await p.evaluate(() => document.querySelector('attnlab-exercise iframe').src);
      assert.equal(src, `${A}/?embed=1&exercise=sdpa&track=js&lang=en&parent-origin=${encodeURIComponent(B.origin)}`);

      const code = await p.evaluate(async (c) => {
        const el = document.querySelector('attnlab-exercise');
        el.setCode(c);
        el.check();
        return el.getCode();
      }, solution);
      assert.equal(code, solution);
      await p.waitForFunction(() => window.events.some((e) => e.type === 'attnlab-checked'));
      const checked = (await p.evaluate(() => window.events)).find((e) => e.type === 'attnlab-checked');
      assert.deepEqual(
        [checked.target, checked.detail.exercise, checked.detail.passed, checked.detail.total, checked.detail.score],
        ['attnlab-exercise', 'sdpa', 7, 7, 1],
      );
      // The frame is as tall as the exercise inside it (the results included), and no wider than the page.
      const frame = p.frame({ url: (u) => u.searchParams.get('embed') === '1' });
      await frame.waitForFunction(() => document.querySelectorAll('#results li.pass').length === 7);
      await settled(frame);
      const sizes = await frame.evaluate(() => ({ wide: document.documentElement.scrollWidth, width: innerWidth }));
      assert.ok(sizes.wide <= sizes.width, `the exercise is wider than its frame: ${sizes.wide} > ${sizes.width}`);
      await p.screenshot({ path: new URL(`embed-${width}.png`, artifacts).pathname, fullPage: true });
    } finally {
      await p.close();
    }
  }
});

test('<attnlab-exercise> in a cross-origin isolated lesson page (COEP require-corp) still loads, answers and grades', async () => {
  const p = await b.context.newPage();
  try {
    await p.goto(`${B.origin}/isolated-lesson.html`);
    assert.equal(await p.evaluate(() => crossOriginIsolated), true, 'the lesson page is isolated');
    await p.waitForFunction(() => window.events.some((e) => e.type === 'attnlab-ready'));
    await p.evaluate((c) => {
      const el = document.querySelector('attnlab-exercise');
      el.setCode(c);
      el.check();
    }, solution);
    await p.waitForFunction(() => window.events.some((e) => e.type === 'attnlab-checked'));
    const checked = (await p.evaluate(() => window.events)).find((e) => e.type === 'attnlab-checked');
    assert.equal(checked.detail.score, 1);
  } finally {
    await p.close();
  }
});

test('embed mode ignores ?timeout= and ?flavour= (the page itself honours them): the same slow solution is timed out in the frame, passes on the page', async () => {
  // The frame's URL says timeout=600000&flavour=baseline.
  assert.notEqual(await exerciseFrame().evaluate(() => window.attnlab.state.core.flavour), 'baseline');
  await toExercise({ type: 'attnlab:set-code', code: slowSolution(solution) });
  const framed = await checkViaApi();
  // Each realm's first call of causal_mask runs out of the grader's own limit (which tests make that first
  // call is the grader's business): causal_mask's own test among them.
  assert.ok(framed.passed < 7, JSON.stringify(framed));
  assert.equal(framed.tests.find((x) => x.id === 'causal_mask').status, 'fail', JSON.stringify(framed.tests));
  // The page itself, with the same parameters: the same code passes, on the baseline build.
  const own = await b.context.newPage();
  try {
    await openPage(own, `${A}/?lang=en&exercise=sdpa&track=js&nosw&timeout=600000&flavour=baseline`);
    assert.equal(await own.evaluate(() => window.attnlab.state.core.flavour), 'baseline');
    await setCode(own, slowSolution(solution));
    assert.deepEqual(await check(own), { passed: 7, total: 7 });
    await setCode(own, starter); // as the next test expects the page's own code
  } finally {
    await own.close();
  }
  await toExercise({ type: 'attnlab:set-code', code: starter });
  assert.equal(await getCode(), starter);
});

test("storage per parent origin: frames under another origin (another port; localhost) start empty and never read or overwrite another's code; the page's own code stays", async () => {
  const OWN = `// my own page's code\n${starter}`;
  const FOR_B = `// written in course B\n${solution}`;
  // The exercise's own page: the student's code there (autosaved as ever).
  const own = await b.context.newPage();
  await openPage(own, `${A}/?lang=en&exercise=sdpa&track=js&nosw`);
  await setCode(own, OWN);
  // Course B's frame: the student writes there.
  await toExercise({ type: 'attnlab:set-code', code: FOR_B });
  assert.equal(await getCode(), FOR_B);
  const pages = [];
  try {
    for (const url of [`${D.origin}/course-d.html`, `${L}/course-l.html`]) {
      const p = await b.context.newPage();
      pages.push(p);
      await p.goto(url);
      await waitFor('attnlab:ready', 1, p);
      // Another origin starts on the starter: neither B's code nor the page's own.
      assert.equal(await getCode(p), starter, url);
      // Its set-code (and a Check: D's URL says timeout=1, ignored) changes only its own copy.
      await toExercise({ type: 'attnlab:set-code', code: `stolen(); // ${url}\n${solution}` }, p);
      const checked = await checkViaApi(p);
      assert.deepEqual([checked.passed, checked.total], [7, 7], url);
    }
    // B's code, reloaded from storage, is B's; the page's own is its own.
    await page.reload();
    await waitFor('attnlab:ready');
    assert.equal(await getCode(), FOR_B);
    await own.reload();
    await own.waitForFunction(() => window.attnlab?.editor);
    assert.equal(await own.evaluate(() => window.attnlab.editor.value), OWN);
    // A and D share one storage (one site): each parent origin under a key of its own, the page's keys as before.
    const keys = await own.evaluate(() =>
      Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)])),
    );
    assert.equal(keys['attnlab:sdpa:code'], OWN);
    assert.equal(keys[`embed ${B.origin} attnlab:sdpa:code`], FOR_B);
    assert.match(keys[`embed ${D.origin} attnlab:sdpa:code`], /^stolen\(\);/);
    for (const [k, v] of Object.entries(keys))
      if (/stolen/.test(v)) assert.ok(k.startsWith(`embed ${D.origin} `) || k.startsWith(`embed ${L} `), k);
  } finally {
    for (const p of pages) await p.close();
    await own.close();
  }
  await toExercise({ type: 'attnlab:set-code', code: starter });
});

test('a host that sends no CSP (a plain static server) is still covered: the page refuses an unlisted parent-origin, one that is not its real parent, and none; a listed one works', async () => {
  const { distDir } = await import('../../web/build.mjs');
  const { MIME } = await import('../../web/server.mjs');
  // The static host: web/dist as files, with the list of course origins it publishes (B and D).
  const S = await otherOrigin(async (path) => {
    if (path === '/embed-ancestors.json')
      return { body: JSON.stringify({ ancestors: [B.origin, D.origin] }), type: MIME['.json'] };
    const file = join(distDir, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(distDir + sep)) return null;
    return { body: await readFile(file), type: MIME[extname(file)] ?? 'application/octet-stream' };
  });
  const at = (parent) =>
    `${S.origin}/?embed=1&exercise=sdpa&track=js&lang=en${parent === null ? '' : `&parent-origin=${encodeURIComponent(parent)}`}`;
  const framing = (
    src,
  ) => `<!doctype html><meta charset="utf-8"><iframe name="attnlab" id="ex" src="${src}" style="width:700px;height:240px;border:1px solid #ccc"></iframe>
<script>window.received = []; addEventListener('message', (e) => received.push(e.data));</script>`;
  const cases = [
    // [course page, the parent-origin its frame names, why the page refuses (null: it works)]
    [C, C.origin, 'notListed'],
    [B, D.origin, 'notParent'],
    [B, null, 'noParent'],
    [B, B.origin, null],
  ];
  try {
    for (const [i, [host, parent, why]] of cases.entries()) {
      const path = `/static-${i}.html`;
      host.pages[path] = framing(at(parent));
      const p = await b.context.newPage();
      try {
        await p.goto(`${host.origin}${path}`);
        const frame = p.frame({ name: 'attnlab' });
        if (!why) {
          await p.waitForFunction(() => window.received.some((m) => m?.type === 'attnlab:ready'));
          assert.equal(await frame.isVisible('#editor'), true);
          continue;
        }
        await frame.waitForFunction(() => document.documentElement.dataset.embedRefused);
        assert.equal(await frame.evaluate(() => document.documentElement.dataset.embedRefused), why);
        const notice = await frame.textContent('#notice');
        assert.match(notice, why === 'noParent' ? /parent-origin/ : new RegExp(parent.replace(/[.]/g, '\\.')), notice);
        assert.equal(await frame.isVisible('#editor'), false);
        assert.equal(await frame.$('.cm-editor'), null, 'no editor was made');
        // Nothing was sent to the parent, and its messages get no answer.
        await frame.evaluate(() => new Promise((r) => setTimeout(r, 300)));
        await p.evaluate(
          (o) => document.getElementById('ex').contentWindow.postMessage({ type: 'attnlab:get-code' }, o),
          S.origin,
        );
        await frame.evaluate(() => new Promise((r) => setTimeout(r, 300)));
        assert.deepEqual(await p.evaluate(() => window.received), [], why);
        await p.screenshot({ path: new URL(`embed-refused-${why}.png`, artifacts).pathname });
      } finally {
        await p.close();
      }
    }
  } finally {
    await S.close();
  }
});

test('<attnlab-exercise theme>: dark whatever the system says, auto following it; a second exercise far below loads only when the reader comes near it', async () => {
  const p = await b.context.newPage();
  try {
    await p.emulateMedia({ colorScheme: 'light' });
    await p.goto(`${B.origin}/two.html`);
    await p.waitForFunction(() => window.events.includes('one'));
    const frameOf = (slug) => p.frame({ url: (u) => u.searchParams.get('exercise') === slug });
    assert.equal(await frameOf('sdpa').evaluate(() => document.documentElement.dataset.theme), 'dark');
    // The second is not loaded while it is far below the screen.
    await p.waitForTimeout(1500);
    assert.deepEqual(await p.evaluate(() => window.events), ['one']);
    assert.equal(frameOf('rope'), null, 'the far frame was not loaded');
    await p.evaluate(() => document.getElementById('two').scrollIntoView());
    await p.waitForFunction(() => window.events.includes('two'));
    assert.equal(await frameOf('rope').evaluate(() => document.documentElement.dataset.theme), 'light');
    await p.emulateMedia({ colorScheme: 'dark' });
    await frameOf('rope').waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    assert.equal(await frameOf('sdpa').evaluate(() => document.documentElement.dataset.theme), 'dark');
    await p.evaluate(() => document.getElementById('one').scrollIntoView());
    await p.screenshot({ path: new URL('embed-theme-dark.png', artifacts).pathname });
  } finally {
    await p.close();
  }
});

test("<attnlab-exercise> that cannot reach its exercise (server down, a 404, embed mode refused): a short message in the page's language with a link, not a blank box", async () => {
  // A port nobody listens on: a server started and closed.
  const gone = await htmlServer({});
  await gone.close();
  B.pages['/unreachable.html'] = `<!doctype html><html lang="ru"><meta charset="utf-8"><title>урок</title>
<script type="module" src="${A}/embed.js"></script>
<attnlab-exercise id="down" exercise="sdpa" track="js" src="${gone.origin}/"></attnlab-exercise>
<attnlab-exercise id="missing" exercise="sdpa" track="js" lang="en" src="${B.origin}/no-such-folder/"></attnlab-exercise>
<attnlab-exercise id="fine" exercise="sdpa" track="js"></attnlab-exercise>`;
  const p = await b.context.newPage();
  try {
    await p.goto(`${B.origin}/unreachable.html`);
    const shown = () =>
      p.evaluate(() =>
        [...document.querySelectorAll('attnlab-exercise')].map((el) => {
          const box = el.querySelector('.attnlab-fallback');
          return {
            id: el.id,
            text: box?.textContent ?? null,
            lang: box?.lang ?? null,
            link: box?.querySelector('a')?.href ?? null,
            frameShown: el.querySelector('iframe').getBoundingClientRect().height > 0,
          };
        }),
      );
    await p.waitForFunction(() => document.querySelectorAll('.attnlab-fallback').length === 2, null, {
      timeout: 30_000,
    });
    const got = await shown();
    const link = (origin) => `${origin}/?exercise=sdpa&track=js`;
    assert.deepEqual(got, [
      {
        id: 'down',
        text: 'Упражнение не удалось загрузить. Открыть его в новой вкладке',
        lang: 'ru',
        link: link(gone.origin),
        frameShown: false,
      },
      {
        id: 'missing',
        text: 'The exercise could not be loaded. Open it in a new tab',
        lang: 'en',
        link: `${B.origin}/no-such-folder/?exercise=sdpa&track=js&lang=en`,
        frameShown: false,
      },
      { id: 'fine', text: null, lang: null, link: null, frameShown: true },
    ]);
    await p.screenshot({ path: new URL('embed-unreachable.png', artifacts).pathname, fullPage: true });
    // Embed mode refused (C is not in the host's list): the frame says why inside, but says nothing to
    // the parent, so the lesson page shows the message too (English: the browser's language).
    C.pages['/lesson-c.html'] = `<!doctype html><meta charset="utf-8"><title>c</title>
<script type="module" src="${A}/embed.js"></script><attnlab-exercise exercise="sdpa" track="js"></attnlab-exercise>`;
    await p.goto(`${C.origin}/lesson-c.html`);
    await p.waitForSelector('.attnlab-fallback', { timeout: 30_000 });
    assert.equal(await p.textContent('.attnlab-fallback'), 'The exercise could not be loaded. Open it in a new tab');
    assert.equal(await p.getAttribute('.attnlab-fallback a', 'href'), link(A));
  } finally {
    await p.close();
  }
});

const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

test('compact embedded layout: the task folded, the results beside the editor at 1280 px, well under two screens; one readable column at 390 px; axe clean', async () => {
  const heights = {};
  for (const width of [1280, 390]) {
    const p = await b.context.newPage();
    try {
      await p.emulateMedia({ reducedMotion: 'reduce' });
      await p.setViewportSize({ width, height: 800 });
      await p.goto(`${B.origin}/wide-lesson.html`);
      const frame = await (async () => {
        for (let i = 0; i < 600; i++) {
          const f = p.frame({ url: (u) => u.searchParams.get('embed') === '1' });
          if (f) return f;
          await p.waitForTimeout(50);
        }
        assert.fail('no frame');
      })();
      await frame.waitForFunction(() => document.documentElement.dataset.ready === 'core');
      // Folded: the task's heading is a button; the task's text hidden until it is pressed.
      assert.equal(await frame.isVisible('#task'), false, `${width}: the task folded`);
      assert.equal(await frame.getAttribute('#task-fold', 'aria-expanded'), 'false');
      assert.equal((await frame.textContent('#task-fold')).trim(), 'Task');
      // A solution checked: the tallest state of the results.
      await p.evaluate((c) => {
        const el = document.querySelector('attnlab-exercise');
        el.setCode(c);
        el.check();
      }, solution);
      await p.waitForFunction(() => window.events.length > 0);
      await frame.waitForFunction(() => document.querySelectorAll('#results li.pass').length === 7);
      const height = await settled(frame);
      heights[width] = height;
      await p.screenshot({ path: new URL(`embed-compact-${width}.png`, artifacts).pathname, fullPage: true });
      const box = (sel) => frame.evaluate((s) => document.querySelector(s).getBoundingClientRect().toJSON(), sel);
      const [editor, results] = [await box('#editor'), await box('#results-panel')];
      const sizes = await frame.evaluate(() => ({ wide: document.documentElement.scrollWidth, width: innerWidth }));
      assert.ok(sizes.wide <= sizes.width, `${width}: wider than its frame: ${sizes.wide} > ${sizes.width}`);
      if (width === 1280) {
        assert.ok(
          results.left >= editor.right,
          `the results beside the editor: ${JSON.stringify({ editor, results })}`,
        );
        assert.ok(height < 1200, `1280 px: ${height} px tall, not well under two screens of 800`);
      } else {
        assert.ok(results.top >= editor.bottom, '390 px: one column');
        // Readable: no text under 12 px in the frame, and every line of the task within the frame's width.
        const small = await frame.evaluate(() =>
          [...document.querySelectorAll('button, p, li, h1, h2, h3, td, th, span')]
            .filter((el) => el.getClientRects().length && el.textContent.trim())
            .filter((el) => parseFloat(getComputedStyle(el).fontSize) < 12)
            .map((el) => `${el.localName}#${el.id}.${el.className}`),
        );
        assert.deepEqual(small, [], '390 px: text under 12 px');
      }
      // Unfolded, the task shows; axe finds nothing serious either way.
      for (const state of ['folded', 'unfolded']) {
        if (state === 'unfolded') {
          await frame.click('#task-fold');
          assert.equal(await frame.isVisible('#task'), true);
          assert.equal(await frame.getAttribute('#task-fold', 'aria-expanded'), 'true');
        }
        if (!(await frame.evaluate(() => Boolean(window.axe)))) await frame.evaluate(AXE);
        const serious = await frame.evaluate(async () =>
          (await window.axe.run(document, { resultTypes: ['violations'] })).violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map(
              (v) =>
                `${v.impact} ${v.id}: ${v.nodes
                  .slice(0, 4)
                  .map((n) => n.target.join(' '))
                  .join(' | ')}`,
            ),
        );
        assert.deepEqual(serious, [], `axe at ${width} px, ${state}`);
      }
      heights[`${width} unfolded`] = await settled(frame);
    } finally {
      await p.close();
    }
  }
  console.log(`compact embedded layout, heights after a Check (px): ${JSON.stringify(heights)}`);
});
