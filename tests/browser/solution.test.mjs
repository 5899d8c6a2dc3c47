// The reference solution after a pass (issue 35 item 3; web/src/solution.js): hidden before a pass (and not
// fetched), offered after a Check that passes every test on that track, shown read-only beside the editor at
// 1280 px and on the Results tab on a phone, the pass kept over a reload; per track (a pass on JavaScript
// offers no Python solution); the course's ?solution=never and ?solution=always (also in embed mode), a bad
// value named; axe clean with it open, light and dark. Screenshots: tests/artifacts/solution-<w>-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { launch, open, check, setCode, otherOrigin } from '../../tools/lib/chromium.mjs';
import { listExercises } from '../../grader/index.mjs';

const root = new URL('../../', import.meta.url);
const artifacts = new URL('tests/artifacts/', root);
const read = (p) => readFile(new URL(p, root), 'utf8');
const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const COURSE = 'https://course.example.org';
const SIZES = [
  [1280, 800],
  [390, 844],
];
let b, page, files, course; // course: a course page on another origin, with <attnlab-exercise solution="always">

before(async () => {
  await mkdir(artifacts, { recursive: true });
  files = {
    js: await read('exercises/sdpa/solution.js'),
    python: await read('exercises/sdpa/solution.py'),
    failing: await read('exercises/sdpa/fixtures/no-scaling/submission.js'),
  };
  let A = null; // the exercise's origin, known once it is served
  course = await otherOrigin((path) =>
    path === '/lesson.html'
      ? {
          type: 'text/html',
          body: `<!doctype html><meta charset="utf-8"><title>lesson</title><script type="module" src="${A}/embed.js"></script>
<attnlab-exercise exercise="sdpa" track="python" solution="always"></attnlab-exercise>`,
        }
      : null,
  );
  b = await launch({ embedAncestors: `${COURSE} ${course.origin}` });
  A = new URL(b.url).origin;
  page = b.page;
  await page.emulateMedia({ reducedMotion: 'reduce' }); // axe judges the page at rest
});

after(async () => {
  await b?.close();
  await course?.close();
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the page');
});

const shot = (name) => page.screenshot({ path: new URL(`solution-${name}.png`, artifacts).pathname });
const fetched = () => b.served.filter((r) => r.path.startsWith('/solutions/')).map((r) => r.path);

/** A first visit at this size: nothing kept (no code, no pass). */
async function fresh([width, height], query = '') {
  await page.setViewportSize({ width, height });
  await page.goto(`${b.url}?nosw`);
  await page.evaluate(() => localStorage.clear());
  b.served.length = 0;
  await open(page, `${b.url}?nosw${query}`);
}

/** Clicks Solution (the toolbar's button) and resolves once the file is in the read-only view. */
async function openSolution(trigger = '#solution') {
  const shown = page.evaluate(
    () => new Promise((r) => addEventListener('attnlab:solution', (e) => r(e.detail.path), { once: true })),
  );
  await page.click(trigger);
  return shown;
}

/** The read-only view's text (its document: CodeMirror draws only the lines near the viewport), once its first line is drawn. */
const viewerText = () =>
  page.evaluate(() => {
    const first = document.querySelector('#solution-code .cm-line')?.textContent ?? '';
    const doc = window.attnlab.state.solution?.viewer?.view.state.doc.toString() ?? null;
    return doc && doc.startsWith(first) && first ? doc : `drawn: ${first}`;
  });

async function switchTo(track) {
  const done = page.evaluate(
    (tr) => new Promise((r) => addEventListener('attnlab:track', (e) => e.detail.track === tr && r(), { once: true })),
    track,
  );
  await page.click(`#tracks button[data-track=${track}]`);
  await done;
}

async function axeSerious(state) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(AXE);
  const found = await page.evaluate(async () =>
    (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    })),
  );
  assert.deepEqual(
    found
      .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'scrollable-region-focusable')
      .map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 4).join(' | ')}`),
    [],
    `axe, ${state}`,
  );
}

/** The box of an element, and whether it is on screen (inside the viewport, not hidden). */
const box = (sel) =>
  page.evaluate((s) => {
    const el = document.querySelector(s);
    const r = el.getBoundingClientRect();
    return {
      left: r.left,
      right: r.right,
      top: r.top,
      bottom: r.bottom,
      width: r.width,
      onScreen: r.width > 0 && r.height > 0 && r.top < innerHeight && r.bottom > 0 && r.left < innerWidth,
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  }, sel);

test('the build: every solution a file of its own in web/dist/solutions/, its lines in no bundle or chunk', async () => {
  const dist = new URL('web/dist/', root);
  const walk = async (dir) =>
    (await readdir(dir, { withFileTypes: true })).flatMap((e) => (e.isDirectory() ? [] : [new URL(e.name, dir)]));
  const served = [];
  for (const dir of [dist, new URL('chunks/', dist), new URL('wasm/', dist)])
    if (existsSync(dir)) served.push(...(await walk(dir)).filter((u) => /\.(js|mjs|html|css|json)$/.test(u.pathname)));
  const bundled = (await Promise.all(served.map((u) => readFile(u, 'utf8')))).join('\n');
  // What the packs' chunks may hold (starters — a later pack's has the earlier ones' functions ready-made —,
  // texts, hints, messages, specs, suites): a solution's line found there is no evidence; one found nowhere
  // else must not be in the page's files.
  const chunkText = (
    await Promise.all(
      listExercises().flatMap((slug) =>
        [
          'starter.js',
          'starter.en.js',
          'starter.py',
          'starter.en.py',
          'hints.json',
          'messages.json',
          'spec.json',
          'suite.mjs',
        ]
          .concat(['ru', 'en'].flatMap((l) => [`texts/task.${l}.md`, `texts/task.${l}.py.md`]))
          .map((f) => read(`exercises/${slug}/${f}`).catch(() => '')),
      ),
    )
  ).join('\n');
  for (const slug of listExercises()) {
    for (const file of ['solution.js', 'solution.py']) {
      const text = await read(`exercises/${slug}/${file}`);
      assert.equal(await readFile(new URL(`solutions/${slug}/${file}`, dist), 'utf8'), text, `${slug}/${file} in dist`);
      const own = text
        .split('\n')
        .map((l) => l.trim())
        // ASCII lines without quotes or backslashes: a bundle holds them as they are (esbuild escapes the rest)
        .filter((l) => l.length >= 20 && /^[ !#%&(-[\]-_a-~]+$/.test(l) && !chunkText.includes(l));
      assert.ok(own.length >= 3, `${slug}/${file}: ${own.length} lines of its own to look for`);
      assert.deepEqual(
        own.filter((l) => bundled.includes(l)),
        [],
        `${slug}/${file}: lines in the page's bundle or chunks`,
      );
    }
  }
});

for (const size of SIZES) {
  const w = size[0];
  test(`${w} px: hidden before a pass, offered after one, read-only beside the code, kept over a reload`, async () => {
    await fresh(size);
    assert.equal(await page.isVisible('#solution'), false, 'no Solution button on a first visit');
    assert.equal(await page.isVisible('#solution-panel'), false);
    await setCode(page, files.failing);
    const failed = await check(page);
    assert.ok(failed.passed < failed.total, 'the no-scaling fixture fails a test');
    assert.equal(await page.isVisible('#solution'), false, 'a failing Check offers no solution');
    assert.deepEqual(fetched(), [], 'no solution file fetched before a pass');

    await setCode(page, files.js);
    assert.deepEqual(await check(page), { passed: 7, total: 7 });
    assert.ok(await page.isVisible('#solution'), 'the Solution button after a pass');
    if (w >= 1024)
      assert.equal(
        await page.$$eval('.toolbar > button:not([hidden])', (bs) => new Set(bs.map((x) => x.offsetTop)).size),
        1,
        'the toolbar stays one row with it',
      );
    assert.equal(await page.getAttribute('#solution', 'aria-expanded'), 'false');
    assert.match(await page.textContent('#cheer'), /сравнить свой код с эталонным решением/);
    assert.deepEqual(fetched(), [], 'offered, not yet fetched');
    await setCode(page, '// my own code, kept\n' + files.js);

    assert.equal(await openSolution(), 'solutions/sdpa/solution.js');
    assert.equal(await page.getAttribute('#solution', 'aria-expanded'), 'true');
    assert.equal(await viewerText(), files.js, 'the pack’s solution.js, whole');
    assert.deepEqual(fetched(), ['/solutions/sdpa/solution.js']);
    assert.equal(await page.textContent('#solution-h'), 'Эталонное решение (JavaScript)');
    const head = await box('#solution-h');
    assert.ok(head.onScreen, 'opened at its heading');
    if (w < 1024) {
      // …not under a phone's sticky tabs and toolbar
      const covered = await page.evaluate(() =>
        Math.max(...[...document.querySelectorAll('#tabs, .bar')].map((e) => e.getBoundingClientRect().bottom)),
      );
      assert.ok(head.top >= covered, `the heading (${head.top}) below the sticky bars (${covered})`);
    }
    await shot(`${w}-open`);
    // Read-only: typing into it changes nothing; the student's code is untouched.
    await page.click('#solution-code .cm-content');
    await page.keyboard.type('xyz');
    assert.equal(await viewerText(), files.js);
    assert.equal(await page.getAttribute('#solution-code .cm-content', 'aria-readonly'), 'true');
    assert.match(await page.evaluate(() => window.attnlab.editor.value), /^\/\/ my own code, kept\n/);

    const sol = await box('#solution-panel');
    assert.ok(sol.onScreen, `the solution is in view (${JSON.stringify(sol)})`);
    assert.ok(sol.overflow <= 0, `no horizontal scroll of the page (${sol.overflow} px)`);
    // Its lines wrap: nothing scrolls sideways inside the view.
    assert.ok(
      await page.evaluate(() => {
        const s = document.querySelector('#solution-code .cm-scroller');
        return s.scrollWidth <= s.clientWidth;
      }),
      'the solution’s long lines wrap',
    );
    if (w >= 1024) {
      // Side by side: the solution in the left column, the editor on the right, both on screen.
      const ed = await box('#editor');
      assert.ok(ed.onScreen, 'the editor is in view beside it');
      assert.ok(sol.right <= ed.left, `the solution (…${sol.right}) left of the editor (${ed.left}…)`);
      assert.ok(sol.width >= 400, `the solution's column is ${sol.width} px wide`);
    } else {
      // A phone: on the Results tab, the toolbar (with Solution) held under the tabs; Code shows the editor.
      assert.equal(await page.getAttribute('#tab-results', 'aria-selected'), 'true');
      assert.ok(await page.isVisible('#solution'));
    }
    await axeSerious(`${w} px, the solution open`);

    // The pass outlives a reload: offered at once, nothing fetched until it is opened.
    b.served.length = 0;
    await open(page, `${b.url}?nosw`);
    assert.ok(await page.isVisible('#solution'), 'offered after a reload');
    assert.equal(await page.isVisible('#solution-panel'), false, 'closed until asked for');
    assert.deepEqual(fetched(), []);
    assert.equal(await openSolution(), 'solutions/sdpa/solution.js');
    // A second press closes it.
    await page.click('#solution');
    assert.equal(await page.isVisible('#solution-panel'), false);
    assert.equal(await page.getAttribute('#solution', 'aria-expanded'), 'false');
  });
}

test('per track: a pass on JavaScript offers no Python solution; a pass on Python offers solution.py', async () => {
  await fresh(SIZES[0], '&lang=en');
  await setCode(page, files.js);
  assert.deepEqual(await check(page), { passed: 7, total: 7 });
  assert.ok(await page.isVisible('#solution'));
  assert.equal(await page.textContent('#solution'), 'Solution');
  await switchTo('python');
  assert.equal(await page.isVisible('#solution'), false, 'not passed on Python yet');
  await setCode(page, files.python);
  assert.deepEqual(await check(page), { passed: 7, total: 7 });
  assert.match(await page.textContent('#cheer'), /compare your code with the reference solution/);
  // The congratulation's own link opens it too.
  assert.equal(await openSolution('#cheer .show-solution'), 'solutions/sdpa/solution.py');
  assert.equal(await viewerText(), files.python);
  assert.equal(await page.textContent('#solution-h'), 'Reference solution (Python)');
  assert.equal(
    await page.getAttribute('#solution-code .cm-content', 'aria-label'),
    'Reference solution, Python, read-only',
  );
  // Back on JavaScript (passed there): offered, closed, and its own file when opened.
  await switchTo('js');
  assert.ok(await page.isVisible('#solution'));
  assert.equal(await page.isVisible('#solution-panel'), false);
  assert.equal(await openSolution(), 'solutions/sdpa/solution.js');
  assert.equal(await viewerText(), files.js);
  // Dark mode: the read-only view is dark too.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  assert.equal(
    await page.evaluate(() => getComputedStyle(document.querySelector('#solution-code .cm-editor')).backgroundColor),
    'rgb(27, 31, 36)',
  );
  await axeSerious('the solution open, dark, English');
  await shot('1280-dark-en');
  await page.emulateMedia({ colorScheme: 'light' });
});

for (const size of SIZES) {
  const w = size[0];
  test(`${w} px: ?solution=always offers it before any Check, on both tracks`, async () => {
    await fresh(size, '&solution=always&track=python');
    assert.ok(await page.isVisible('#solution'), 'offered on a first visit');
    assert.equal(await openSolution(), 'solutions/sdpa/solution.py');
    assert.equal(await viewerText(), files.python);
    await shot(`${w}-always-python`);
    await switchTo('js');
    assert.ok(await page.isVisible('#solution'));
    assert.equal(await openSolution(), 'solutions/sdpa/solution.js');
    await axeSerious(`${w} px, always`);
  });
}

test('a solution that cannot be fetched says so in the page’s language; pressing Solution again retries', async () => {
  await fresh(SIZES[0], '&solution=always');
  await page.route('**/solutions/**', (r) => r.abort());
  await page.click('#solution');
  await page.waitForFunction(() =>
    /Не удалось загрузить решение/.test(document.getElementById('solution-status').textContent),
  );
  assert.equal(await page.isVisible('#solution-status'), true);
  await page.unroute('**/solutions/**');
  await page.click('#solution'); // closes
  assert.equal(await openSolution(), 'solutions/sdpa/solution.js');
  assert.equal(await viewerText(), files.js);
  assert.equal(await page.textContent('#solution-status'), '');
  // The language switch relabels the open view.
  await page.click('#lang');
  assert.equal(
    await page.getAttribute('#solution-code .cm-content', 'aria-label'),
    'Reference solution, JavaScript, read-only',
  );
  assert.equal(await page.textContent('#solution-h'), 'Reference solution (JavaScript)');
  await page.click('#lang');
});

test('?solution=never: not offered even after a pass, on both tracks; nothing fetched', async () => {
  await fresh(SIZES[1], '&solution=never');
  for (const track of ['js', 'python']) {
    if (track === 'python') await switchTo('python');
    await setCode(page, files[track]);
    assert.deepEqual(await check(page), { passed: 7, total: 7 });
    assert.equal(await page.isVisible('#solution'), false, track);
    assert.equal(await page.$('#cheer .show-solution'), null, track);
  }
  // The passes are kept: the same student without the setting is offered the solution.
  await open(page, `${b.url}?nosw&track=python`);
  assert.ok(await page.isVisible('#solution'));
  assert.deepEqual(fetched(), []);
});

test('a ?solution= that is no setting is named, and the pack’s own (after a pass) holds', async () => {
  await fresh(SIZES[0], '&solution=sometimes&lang=en');
  assert.ok(await page.isVisible('#notice'));
  assert.match(await page.textContent('#notice'), /\?solution=sometimes is not a setting .*after-pass/);
  assert.equal(await page.isVisible('#solution'), false);
  await page.click('#lang');
  assert.match(await page.textContent('#notice'), /Параметр \?solution=sometimes не распознан/);
});

test('embed mode: the course’s ?solution= is read (always, never); hidden before a pass by default', async () => {
  const embed = `?embed=1&parent-origin=${encodeURIComponent(COURSE)}&exercise=sdpa&track=js`;
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto(`${b.url}?nosw`);
  await page.evaluate(() => localStorage.clear());
  await open(page, `${b.url}${embed}`);
  assert.equal(await page.isVisible('#solution'), false);
  await open(page, `${b.url}${embed}&solution=always`);
  assert.ok(await page.isVisible('#solution'));
  assert.equal(await openSolution(), 'solutions/sdpa/solution.js');
  await shot('embed-always');
  await open(page, `${b.url}${embed}&solution=never`);
  await setCode(page, files.js);
  assert.deepEqual(await check(page), { passed: 7, total: 7 });
  assert.equal(await page.isVisible('#solution'), false);
});

test('<attnlab-exercise solution="always">: the course page’s setting reaches the framed exercise', async () => {
  await page.setViewportSize({ width: 1000, height: 900 });
  await page.goto(`${course.origin}/lesson.html`);
  const frame = await (await page.waitForSelector('attnlab-exercise iframe')).contentFrame();
  await frame.waitForFunction(() => /^core/.test(document.documentElement.dataset.ready ?? ''));
  assert.equal(new URL(frame.url()).searchParams.get('solution'), 'always');
  assert.ok(await frame.isVisible('#solution'), 'offered before any Check');
  await frame.click('#solution');
  await frame.waitForFunction(() => window.attnlab.state.solution?.viewer?.view.state.doc.length > 0);
  assert.equal(
    await frame.evaluate(() => window.attnlab.state.solution.viewer.view.state.doc.toString()),
    files.python,
  );
});

// Last: it leaves a service worker in this browser context.
test('the service worker precaches no solution; one opened online opens offline', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${b.url}?nosw`);
  await page.evaluate(() => localStorage.clear());
  b.served.length = 0;
  await open(page, `${b.url}?solution=always`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null); // installed: every asset precached
  assert.ok(
    b.served.some((r) => r.path.startsWith('/chunks/')),
    'the precache fetched the chunks',
  );
  assert.deepEqual(fetched(), [], 'and no solution');
  assert.equal(await openSolution(), 'solutions/sdpa/solution.js');
  assert.deepEqual(fetched(), ['/solutions/sdpa/solution.js']);
  await b.context.setOffline(true);
  const before = b.served.length;
  try {
    await open(page, `${b.url}?solution=always`);
    assert.equal(await openSolution(), 'solutions/sdpa/solution.js');
    assert.equal(await viewerText(), files.js);
    // Python's, never opened, is not there: said so.
    await open(page, `${b.url}?solution=always&track=python`);
    await page.click('#solution');
    await page.waitForFunction(() =>
      /Не удалось загрузить решение/.test(document.getElementById('solution-status').textContent),
    );
    assert.deepEqual(
      b.served.slice(before).filter((r) => r.path !== '/sw.js'),
      [],
      'nothing reached the server while offline',
    );
  } finally {
    await b.context.setOffline(false);
    await page.evaluate(async () => {
      for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
    });
  }
});
