// SCORM packages (tools/package-scorm) against a real LMS-side runtime: scorm-again's SCORM 1.2 and
// 2004 APIs in a player page, the package unzipped (by Python's zipfile, not our writer) and served
// under it as an LMS would. Per version: launch, Check the starter, a known-partial fixture and the
// solution, reading the LMS's values back after each (score, status, suspend_data decoded here with
// zlib); relaunch with the data kept and find the code restored; nothing requested outside the
// package (the 1.2 one served with .wasm as application/octet-stream, as an LMS that does not know it).
// SCORM 1.2: a solution too long for suspend_data is said so; no LMS, or one refusing Initialize: the page
// works as usual.
// Run: node --test tests/browser/scorm.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { launch, otherOrigin, slowSolution } from '../../tools/lib/chromium.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (p) => readFile(join(root, p), 'utf8');
const artifacts = join(root, 'tests/artifacts');
const PREFIX = 'attnlab1:'; // web/README.md, SCORM packages: suspend_data = prefix + base64(deflate-raw(UTF-8 code))
const decode = (s) =>
  s.startsWith(PREFIX)
    ? inflateRawSync(Buffer.from(s.slice(PREFIX.length), 'base64')).toString('utf8')
    : `(not attnlab's: ${s.slice(0, 40)})`;

// Two packages: both tracks, both versions.
const CASES = [
  {
    scorm: '1.2',
    track: 'python',
    ext: 'py',
    partial: 'py-no-scaling',
    api: 'API',
    ctor: 'Scorm12API',
    lib: 'scorm12.min.js',
  },
  {
    scorm: '2004',
    track: 'js',
    ext: 'js',
    partial: 'no-scaling',
    api: 'API_1484_11',
    ctor: 'Scorm2004API',
    lib: 'scorm2004.min.js',
  },
];
const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
};

let b, tmp, lms;
const packages = {};

/** The LMS: /lms/player.html (below), /lms/lib/<file> (scorm-again's scripts), /lms/content/<id>/… (a package). */
const lmsServer = () =>
  otherOrigin(async (path) => {
    if (path === '/lms/player.html') return { body: playerPage, type: MIME['.html'] };
    let file = null;
    if (path.startsWith('/lms/lib/'))
      file = join(root, 'node_modules/scorm-again/dist', path.slice('/lms/lib/'.length));
    else if (path.startsWith('/lms/content/')) file = normalize(join(tmp, path.slice('/lms/content/'.length)));
    if (!file || (!file.startsWith(tmp + sep) && !file.startsWith(root))) return null;
    // An LMS that does not know .wasm (the 1.2 package's): the page must not need application/wasm.
    const type = extname(file) === '.wasm' && path.includes('-1.2/') ? 'application/octet-stream' : MIME[extname(file)];
    return { body: await readFile(file), type: type ?? 'application/octet-stream' };
  });

// The player: window.start(version, packageId, saved) makes the API (with `saved`, flattened CMI from a
// previous session, loaded first, as an LMS does on a resumed attempt) and frames the package;
// window.leave() removes the frame (the page finishes) and returns the CMI as the LMS would keep it.
const playerPage = `<!doctype html><meta charset="utf-8"><title>LMS player</title>
<script src="/lms/lib/scorm12.min.js"></script><script src="/lms/lib/scorm2004.min.js"></script>
<script>
  window.start = (v, id, saved, refuse, query = '') => {
    const Api = v === '1.2' ? Scorm12API : Scorm2004API;
    window.lmsApi = new (Api.default ?? Api)({ logLevel: 5 });
    if (saved) window.lmsApi.loadFromFlattenedJSON(saved, '');
    // An LMS whose session cannot start: Initialize answers "false", the error is 101.
    if (refuse) Object.assign(window.lmsApi, { LMSInitialize: () => 'false', Initialize: () => 'false', LMSGetLastError: () => '101', GetLastError: () => '101', LMSGetErrorString: () => 'General exception', GetErrorString: () => 'General exception' });
    window[v === '1.2' ? 'API' : 'API_1484_11'] = window.lmsApi;
    const f = document.createElement('iframe');
    f.name = 'sco'; f.src = '/lms/content/' + id + '/index.html' + query; f.style.cssText = 'width:900px;height:900px;border:0';
    document.body.append(f);
  };
  window.leave = () => {
    document.querySelector('iframe').remove();
    return window.lmsApi.renderCMIToJSONObject();
  };
  window.value = (k) => {
    const r = window.lmsApi.renderCMIToJSONObject();
    return k.split('.').slice(1).reduce((o, p) => o?.[p], r.cmi ?? r);
  };
</script><body></body>`;

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'attnlab-scorm-'));
  for (const c of CASES) {
    const out = execFileSync(
      join(root, 'tools/package-scorm'),
      ['--exercise', 'sdpa', '--track', c.track, '--scorm', c.scorm, '--lang', 'en', '--out', tmp],
      { encoding: 'utf8' },
    );
    const zip = out.split(':')[0];
    const id = `sdpa-${c.track}-${c.scorm}`;
    execFileSync('python3', ['-m', 'zipfile', '-e', zip, join(tmp, id)]);
    packages[c.scorm] = id;
  }
  lms = await lmsServer();
  b = await launch();
});

after(async () => {
  await b?.close();
  await lms?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the pages');
});

/** Starts the player on `version` (with `saved` CMI; `refuse`: Initialize fails; `query`: the launch URL's) → { page, frame, requests }. */
async function open(c, saved = null, refuse = false, query = '') {
  const page = await b.context.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${lms.origin}/lms/player.html`);
  await page.evaluate(
    ([v, id, s, r, q]) => window.start(v, id, s, r, q),
    [c.scorm, packages[c.scorm], saved, refuse, query],
  );
  await page.waitForFunction(() => window.frames.sco);
  const frame = () => page.frame({ name: 'sco' });
  await page.waitForFunction(() => {
    const d = window.frames.sco?.document?.documentElement?.dataset;
    return d && d.ready === 'core' && d.lms && d.track;
  });
  return { page, frame, requests };
}

/** Sets the code and clicks Check; resolves once the LMS has been told (the page's attnlab:lms event). */
async function checkCode(frame, code) {
  if (code !== null)
    await frame.evaluate((c) => {
      window.attnlab.editor.value = c;
    }, code);
  const done = frame.evaluate(
    () => new Promise((r) => addEventListener('attnlab:lms', (e) => r(e.detail), { once: true })),
  );
  await frame.click('#check');
  return done;
}

for (const c of CASES) {
  test(`SCORM ${c.scorm} (${c.track}): score, status and code in the LMS after each Check; relaunch restores the code`, async () => {
    const [starter, solution, partial, expected] = await Promise.all([
      read(`exercises/sdpa/starter.${c.ext}`),
      read(`exercises/sdpa/solution.${c.ext}`),
      read(`exercises/sdpa/fixtures/${c.partial}/submission.${c.ext}`),
      read(`exercises/sdpa/fixtures/${c.partial}/expected_results.json`),
    ]);
    // The fixture's passes as the Node grader counts them.
    const partialPassed = JSON.parse(expected).tests.filter((t) => t.status === 'pass').length;
    const v12 = c.scorm === '1.2';
    const keys = v12
      ? ['cmi.core.score.raw', 'cmi.core.score.min', 'cmi.core.score.max', 'cmi.core.lesson_status']
      : [
          'cmi.score.scaled',
          'cmi.score.raw',
          'cmi.score.min',
          'cmi.score.max',
          'cmi.success_status',
          'cmi.completion_status',
        ];
    const { page, frame, requests } = await open(c);
    const lmsValues = () => page.evaluate((ks) => ks.map((k) => window.value(k)), [...keys, 'cmi.suspend_data']);
    try {
      assert.equal(await frame().evaluate(() => document.documentElement.dataset.lms), 'connected');
      assert.equal(
        await page.evaluate((k) => window.value(k), v12 ? 'cmi.core.lesson_status' : 'cmi.completion_status'),
        'incomplete',
        'first launch: incomplete',
      );
      assert.equal(await page.evaluate((k) => window.value(k), v12 ? 'cmi.core.exit' : 'cmi.exit'), 'suspend');

      const rows = [];
      for (const [name, code, passed] of [
        ['starter', starter, 0],
        ['partial', partial, partialPassed],
        ['solution', solution, 7],
      ]) {
        assert.deepEqual(await checkCode(frame(), code), { passed, total: 7, ok: true }, name);
        const values = await lmsValues();
        const raw = String(Math.round((10000 * passed) / 7) / 100);
        const want = v12
          ? [raw, '0', '100', passed === 7 ? 'passed' : 'failed']
          : [
              String(Math.round((10000 * passed) / 7) / 10000),
              raw,
              '0',
              '100',
              passed === 7 ? 'passed' : 'failed',
              passed === 7 ? 'completed' : 'incomplete',
            ];
        assert.deepEqual(values.slice(0, -1), want, `${name}: ${keys.join(', ')}`);
        assert.equal(decode(values.at(-1)), code, `${name}: suspend_data holds the code`);
        assert.ok(values.at(-1).length <= (v12 ? 4096 : 64000));
        assert.match(await frame().textContent('#lms-note'), new RegExp(`Result ${passed}/7 sent`));
        rows.push({ name, values });
      }
      console.log(
        `SCORM ${c.scorm} ${c.track}: ${rows.map((r) => `${r.name}: ${keys.map((k, i) => `${k}=${r.values[i]}`).join(' ')} suspend_data=${r.values.at(-1).length} chars`).join('; ')}`,
      );

      // Another computer: no local copy of the code; the LMS's suspend_data brings the solution back.
      await frame().evaluate(() => localStorage.clear());
      const kept = await page.evaluate(() => window.leave());
      const cmi = kept.cmi ?? kept;
      const sessionTime = v12 ? cmi.core.session_time : cmi.session_time;
      assert.match(sessionTime, v12 ? /^\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?$/ : /^P/, 'session time set on leaving');
      const saved = v12
        ? {
            'cmi.suspend_data': cmi.suspend_data,
            'cmi.core.lesson_status': cmi.core.lesson_status,
            'cmi.core.entry': 'resume',
          }
        : {
            'cmi.suspend_data': cmi.suspend_data,
            'cmi.completion_status': cmi.completion_status,
            'cmi.success_status': cmi.success_status,
            'cmi.entry': 'resume',
          };
      await page.close();
      const again = await open(c, saved);
      try {
        assert.equal(await again.frame().evaluate(() => window.attnlab.editor.value), solution);
        assert.match(await again.frame().textContent('#lms-note'), /restored/);
        assert.deepEqual(await checkCode(again.frame(), null), { passed: 7, total: 7, ok: true });
        requests.push(...again.requests);
      } finally {
        await again.page.close();
      }
      // Everything the package loaded came from the package (the player and scorm-again are the LMS's).
      const outside = requests.filter(
        (u) =>
          !u.startsWith(`${lms.origin}/lms/content/${packages[c.scorm]}/`) &&
          !/\/lms\/(player\.html|lib\/scorm(12|2004)\.min\.js)$/.test(u),
      );
      assert.deepEqual(outside, []);
    } finally {
      if (!page.isClosed()) await page.close();
    }
  });
}

test('SCORM 1.2: a solution too long for suspend_data (4096 characters compressed) is said so, and the score still goes', async () => {
  const c = CASES[0];
  const solution = await read('exercises/sdpa/solution.py');
  // Random letters compress poorly: ~6000 of them are well over 4096 characters once deflated and in base64.
  let x = 2017;
  const noise = Array.from({ length: 6000 }, () =>
    String.fromCharCode(97 + ((x = (x * 1103515245 + 12345) % 2 ** 31) % 26)),
  ).join('');
  const long = `${solution}\n# ${noise}\n`;
  const { page, frame } = await open(c);
  try {
    assert.deepEqual(await checkCode(frame(), long), { passed: 7, total: 7, ok: true });
    assert.deepEqual(
      await page.evaluate(() => [
        window.value('cmi.core.score.raw'),
        window.value('cmi.core.lesson_status'),
        window.value('cmi.suspend_data'),
      ]),
      ['100', 'passed', ''],
    );
    assert.match(
      await frame().textContent('#lms-note'),
      /^Result 7\/7 sent.* does not fit in the course's storage: \d+ characters compressed, the limit is 4096/,
    );
    // Still so once the page has stored the code again after more typing; shortened, it fits again and is kept.
    const stored = await frame().evaluate(() => Number(document.documentElement.dataset.lmsStored));
    await frame().evaluate((c) => {
      window.attnlab.editor.value = c;
    }, `${long}# more\n`);
    await frame().waitForFunction((n) => Number(document.documentElement.dataset.lmsStored) > n, stored);
    assert.match(await frame().textContent('#lms-note'), /^Result 7\/7 sent.* does not fit/);
    assert.deepEqual(await checkCode(frame(), solution), { passed: 7, total: 7, ok: true });
    assert.equal(decode(await page.evaluate(() => window.value('cmi.suspend_data'))), solution);
    assert.doesNotMatch(await frame().textContent('#lms-note'), /does not fit/);
    await checkCode(frame(), long);
    await mkdir(artifacts, { recursive: true });
    await frame().locator('#lms-note').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, 'scorm-too-long.png') });
  } finally {
    await page.close();
  }
});

test("a package ignores its launch URL's ?timeout= and ?flavour=: a slow but correct solution gets the grader's own score", async () => {
  // An LMS shows the learner the launch URL; a score must not depend on it.
  const { page, frame } = await open(CASES[1], null, false, '?timeout=600000&flavour=baseline');
  try {
    assert.notEqual(await frame().evaluate(() => window.attnlab.state.core.flavour), 'baseline');
    const got = await checkCode(frame(), slowSolution(await read('exercises/sdpa/solution.js')));
    assert.ok(got.passed < 7, JSON.stringify(got)); // causal_mask's first call runs out of the grader's own limit
    assert.notEqual(await page.evaluate(() => window.value('cmi.score.raw')), '100');
  } finally {
    await page.close();
  }
});

test("without an LMS the package's page works as usual (and ignores ?timeout=1)", async () => {
  const page = await b.context.newPage();
  try {
    await page.goto(`${lms.origin}/lms/content/${packages['2004']}/index.html?timeout=1&flavour=baseline`);
    await page.waitForFunction(
      () =>
        document.documentElement.dataset.ready === 'core' &&
        document.documentElement.dataset.lms &&
        document.documentElement.dataset.track,
    );
    assert.equal(await page.evaluate(() => document.documentElement.dataset.lms), 'none');
    await page.evaluate(
      (c) => {
        window.attnlab.editor.value = c;
      },
      await read('exercises/sdpa/solution.js'),
    );
    const done = page.evaluate(
      () =>
        new Promise((r) =>
          addEventListener('attnlab:checked', (e) => r([e.detail.passed, e.detail.total]), { once: true }),
        ),
    );
    await page.click('#check');
    assert.deepEqual(await done, [7, 7]);
    assert.equal(await page.$('#lms-note'), null);
  } finally {
    await page.close();
  }
});

test("an LMS that refuses Initialize: the page says so, with the LMS's error, and grades as usual", async () => {
  const { page, frame } = await open(CASES[1], null, true);
  try {
    assert.equal(await frame().evaluate(() => document.documentElement.dataset.lms), 'failed');
    assert.match(await frame().textContent('#lms-note'), /did not connect \(101 General exception\)/);
    await frame().evaluate(
      (c) => {
        window.attnlab.editor.value = c;
      },
      await read('exercises/sdpa/solution.js'),
    );
    const done = frame().evaluate(
      () =>
        new Promise((r) =>
          addEventListener('attnlab:checked', (e) => r([e.detail.passed, e.detail.total]), { once: true }),
        ),
    );
    await frame().click('#check');
    assert.deepEqual(await done, [7, 7]);
    assert.equal(await page.evaluate(() => window.value('cmi.score.raw')), '', 'nothing reached the LMS');
  } finally {
    await page.close();
  }
});
