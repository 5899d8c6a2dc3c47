// Embed mode (web/README.md, "Embedding"): the page on one origin (A, web/server.mjs), framed by a course
// page on another (B), with a third origin (C) framed beside it that tries the same API. Every message
// both ways; messages from C, and malformed ones from B, change nothing and get no answer; who may
// frame which page (frame-ancestors), as headers and in the browser.
// Run: node --test tests/browser/embed.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { launch, otherOrigin } from '../../tools/lib/chromium.mjs';
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

let b, page, A, B, C, starter, solution;

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

const received = () => page.evaluate(() => window.received);
const fromExercise = async (type) => (await received()).filter((m) => m.fromExercise && m.data?.type === type);
const waitFor = (type, n = 1) =>
  page.waitForFunction(([t, k]) => window.received.filter((m) => m.data?.type === t).length >= k, [type, n]);
const toExercise = (msg) => page.evaluate((m) => window.toExercise(m), msg);
const exerciseFrame = () => page.frame({ name: 'attnlab' });
/** Asks for the code; resolves with the answer (messages from one window arrive in order, so whatever was sent before is handled). */
async function getCode() {
  const n = (await fromExercise('attnlab:code')).length;
  await toExercise({ type: 'attnlab:get-code' });
  await waitFor('attnlab:code', n + 1);
  return (await fromExercise('attnlab:code'))[n].data.code;
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
async function checkViaApi() {
  const n = (await fromExercise('attnlab:checked')).length;
  await toExercise({ type: 'attnlab:check' });
  await waitFor('attnlab:checked', n + 1);
  return (await fromExercise('attnlab:checked'))[n].data;
}

before(async () => {
  [starter, solution] = await Promise.all([
    read('exercises/sdpa/starter.en.js') /* lang=en: the starter's English twin */,
    read('exercises/sdpa/solution.js'),
  ]);
  b = await launch();
  page = b.page;
  A = new URL(b.url).origin;
  C = await htmlServer({ '/c.html': thirdPage });
  const embed = `${A}/?embed=1&exercise=sdpa&track=js&lang=en&timeout=3000&parent-origin=`;
  const pages = {};
  B = await htmlServer(pages);
  Object.assign(pages, {
    '/course.html': parentPage(embed + encodeURIComponent(B.origin), C.origin),
    // The normal page, and embed mode naming another parent: both must stay unframed.
    '/normal.html': `<!doctype html><iframe name="n" src="${A}/?lang=en"></iframe>`,
    '/other.html': `<!doctype html><iframe name="n" src="${embed}${encodeURIComponent(C.origin)}"></iframe>`,
    '/lesson.html': lessonPage(A),
    '/isolated-lesson.html': lessonPage(A),
  });
  await mkdir(artifacts, { recursive: true });
  await page.goto(`${B.origin}/course.html`);
  await waitFor('attnlab:ready');
});

after(async () => {
  await b?.close();
  await B?.close();
  await C?.close();
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the pages');
});

test("ready: the exercise and track, from the exercise's origin; the frame is sized to its content", async () => {
  const [ready] = await fromExercise('attnlab:ready');
  assert.equal(ready.origin, A);
  assert.deepEqual(ready.data, { type: 'attnlab:ready', exercise: 'sdpa', track: 'js' });
  // Only the exercise: no picker, no language switch, no badge; the task, editor and buttons are there.
  const frame = exerciseFrame();
  for (const sel of ['#exercise', '#lang', '#backend']) assert.equal(await frame.isVisible(sel), false, sel);
  for (const sel of ['#task', '#editor', '#check', '#run', '.panes'])
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

test('frame-ancestors: embed mode names its parent; the normal page and a bad parent-origin say none', async () => {
  const csp = async (query, server = b.server) =>
    (await fetch(`${server.url}${query}`)).headers.get('content-security-policy').match(/frame-ancestors ([^;]*)/)[1];
  assert.equal(await csp(''), "'none'");
  assert.equal(await csp('?lang=en&parent-origin=http://127.0.0.1:1'), "'none'", 'not embed mode');
  assert.equal(await csp(`?embed=1&parent-origin=${encodeURIComponent(B.origin)}`), B.origin);
  assert.equal(await csp('index.html?embed=1&parent-origin=https://lms.example.org'), 'https://lms.example.org');
  for (const bad of [
    '',
    'javascript:alert(1)',
    'https://lms.example.org/',
    'https://lms.example.org/x',
    "https://a.org 'unsafe-inline'",
    'null',
    'https://a.org;script-src *',
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
  // The host's own list: `parent` plus a fixed LMS; `*`.
  const s = await startServer({ embedAncestors: 'parent https://*.lms.example.org' });
  const all = await startServer({ embedAncestors: '*' });
  try {
    assert.equal(
      await csp(`?embed=1&parent-origin=${encodeURIComponent(B.origin)}`, s),
      `${B.origin} https://*.lms.example.org`,
    );
    assert.equal(await csp('?embed=1', s), 'https://*.lms.example.org');
    assert.equal(await csp('?embed=1', all), '*');
    assert.equal(await csp('', all), "'none'");
  } finally {
    await s.close();
    await all.close();
  }
  assert.throws(
    () => startServer({ embedAncestors: 'parent https://ok.org/path' }),
    /"https:\/\/ok\.org\/path" is not an origin/,
  );
});

test('in the browser: the normal page, and embed mode naming another parent, are not framed', async () => {
  for (const path of ['/normal.html', '/other.html']) {
    const p = await b.context.newPage();
    try {
      await p.goto(`${B.origin}${path}`); // waits for the frame's load too
      // A blocked frame holds the browser's error page, never the exercise.
      const frame = p.frame({ name: 'n' });
      const loaded = await frame.evaluate(() => Boolean(document.getElementById('editor'))).catch(() => false);
      assert.equal(loaded, false, `${path}: the frame shows the exercise (${frame.url()})`);
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
