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
    // mastery_override: as Moodle does, a score under the manifest's mastery score would make lesson_status failed.
    window.lmsApi = new (Api.default ?? Api)({ logLevel: 5, mastery_override: true });
    if (saved) window.lmsApi.loadFromFlattenedJSON(saved, '');
    // An LMS whose session cannot start: Initialize answers "false", the error is 101.
    if (refuse) Object.assign(window.lmsApi, { LMSInitialize: () => 'false', Initialize: () => 'false', LMSGetLastError: () => '101', GetLastError: () => '101', LMSGetErrorString: () => 'General exception', GetErrorString: () => 'General exception' });
    // Every call the package makes, in order.
    window.calls = [];
    for (const m of ['LMSInitialize', 'LMSGetValue', 'LMSSetValue', 'LMSCommit', 'LMSFinish', 'Initialize', 'GetValue', 'SetValue', 'Commit', 'Terminate']) {
      const f = window.lmsApi[m];
      if (typeof f === 'function') window.lmsApi[m] = (...a) => (window.calls.push([m, ...a]), f.apply(window.lmsApi, a));
    }
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
  // Per version the default package, and one with the other attempt options (--score latest --failed-on-exit).
  for (const c of CASES)
    for (const options of [[], ['--score', 'latest', '--failed-on-exit']]) {
      const dir = join(tmp, options.length ? 'options' : 'default');
      const out = execFileSync(
        join(root, 'tools/package-scorm'),
        ['--exercise', 'sdpa', '--track', c.track, '--scorm', c.scorm, '--lang', 'en', ...options, '--out', dir],
        { encoding: 'utf8' },
      );
      const id = `sdpa-${c.track}-${c.scorm}${options.length ? '-options' : ''}`;
      execFileSync('python3', ['-m', 'zipfile', '-e', out.split(':')[0], join(tmp, id)]);
      packages[`${c.scorm}${options.length ? '-options' : ''}`] = id;
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

/**
 * Starts the player on `version` (with `saved` CMI; `refuse`: Initialize fails; `query`: the launch URL's;
 * `options`: the package built with the other attempt options) → { page, frame, requests }.
 */
async function open(c, saved = null, refuse = false, query = '', options = false) {
  const id = packages[`${c.scorm}${options ? '-options' : ''}`];
  const page = await b.context.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${lms.origin}/lms/player.html`);
  // As an LMS launches a SCO: a normal session for credit (scorm-again leaves 1.2's credit empty), and the
  // manifest's mastery score (1.2) in the student data (the package has none: see tools/scorm.mjs).
  const manifest = await readFile(join(tmp, id, 'imsmanifest.xml'), 'utf8');
  const mastery = /<adlcp:masteryscore>([^<]*)</.exec(manifest)?.[1];
  saved = {
    ...(c.scorm === '1.2'
      ? { 'cmi.core.credit': 'credit', 'cmi.core.lesson_mode': 'normal' }
      : { 'cmi.credit': 'credit', 'cmi.mode': 'normal' }),
    ...(mastery && { 'cmi.student_data.mastery_score': mastery }),
    ...saved,
  };
  await page.evaluate(([v, id, s, r, q]) => window.start(v, id, s, r, q), [c.scorm, id, saved, refuse, query]);
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

// The LMS's status and score elements of each version, and what the rules of an attempt expect of them
// (web/README.md, SCORM packages): incomplete until every test passes, then passed (2004: and completed).
const STATUS = {
  1.2: { keys: ['cmi.core.lesson_status'], incomplete: ['incomplete'], passed: ['passed'], failed: ['failed'] },
  2004: {
    keys: ['cmi.success_status', 'cmi.completion_status'],
    incomplete: ['unknown', 'incomplete'],
    passed: ['passed', 'completed'],
    failed: ['failed', 'incomplete'],
  },
};
const FINISH = { 1.2: 'LMSFinish', 2004: 'Terminate' };
const rawKey = (c) => (c.scorm === '1.2' ? 'cmi.core.score.raw' : 'cmi.score.raw');
const raw = (passed) => String(Math.round((10000 * passed) / 7) / 100);
/** The LMS's status values, its raw score and the code in suspend_data (decoded). */
const lmsState = async (page, c) => {
  const values = await page.evaluate(
    (ks) => ks.map((k) => window.value(k)),
    [...STATUS[c.scorm].keys, rawKey(c), 'cmi.suspend_data'],
  );
  return { status: values.slice(0, -2), raw: values.at(-2), code: values.at(-1) && decode(values.at(-1)) };
};
/** The LMS's data as kept for the next session (leave()), as `saved` for open(): flattened, with entry resume. */
const keptFor = (c, cmi, extra = {}) =>
  c.scorm === '1.2'
    ? {
        'cmi.suspend_data': cmi.suspend_data,
        'cmi.core.lesson_status': cmi.core.lesson_status,
        'cmi.core.score.raw': cmi.core.score.raw,
        'cmi.core.entry': 'resume',
        ...extra,
      }
    : {
        'cmi.suspend_data': cmi.suspend_data,
        'cmi.completion_status': cmi.completion_status,
        'cmi.success_status': cmi.success_status,
        'cmi.score.raw': cmi.score.raw,
        'cmi.score.scaled': cmi.score.scaled,
        'cmi.entry': 'resume',
        ...extra,
      };
const sources = async (c) => {
  const [starter, solution, partial, expected] = await Promise.all([
    read(`exercises/sdpa/starter.${c.ext}`),
    read(`exercises/sdpa/solution.${c.ext}`),
    read(`exercises/sdpa/fixtures/${c.partial}/submission.${c.ext}`),
    read(`exercises/sdpa/fixtures/${c.partial}/expected_results.json`),
  ]);
  // The fixture's passes as the Node grader counts them.
  return {
    starter,
    solution,
    partial,
    partialPassed: JSON.parse(expected).tests.filter((t) => t.status === 'pass').length,
  };
};

for (const c of CASES) {
  test(`SCORM ${c.scorm} (${c.track}): an attempt — incomplete until every test passes, then passed; the best score kept, a pass never taken back; resumed with the code and the result; no call after ${FINISH[c.scorm]}`, async () => {
    const { starter, solution, partial, partialPassed } = await sources(c);
    const st = STATUS[c.scorm];
    const { page, frame, requests } = await open(c);
    try {
      assert.equal(await frame().evaluate(() => document.documentElement.dataset.lms), 'connected');
      assert.deepEqual((await lmsState(page, c)).status, st.incomplete, 'first launch: incomplete');
      assert.equal(
        await page.evaluate((k) => window.value(k), c.scorm === '1.2' ? 'cmi.core.exit' : 'cmi.exit'),
        'suspend',
      );

      const rows = [];
      // [name, code, passes, the score the LMS then keeps, its status, what the note says]
      for (const [name, code, passed, kept, status, note] of [
        ['starter', starter, 0, 0, st.incomplete, /Result 0\/7 sent/],
        ['partial', partial, partialPassed, partialPassed, st.incomplete, new RegExp(`Result ${partialPassed}/7 sent`)],
        [
          'starter again',
          starter,
          0,
          partialPassed,
          st.incomplete,
          new RegExp(`keeps your best result, ${raw(partialPassed)} of 100`),
        ],
        ['solution', solution, 7, 7, st.passed, /Result 7\/7 sent/],
        ['partial after the pass', partial, partialPassed, 7, st.passed, /keeps your best result, 100 of 100/],
      ]) {
        assert.deepEqual(await checkCode(frame(), code), { passed, total: 7, ok: true, recorded: true }, name);
        const lms = await lmsState(page, c);
        assert.deepEqual([lms.status, lms.raw], [status, raw(kept)], name);
        assert.equal(lms.code, code, `${name}: suspend_data holds the code`);
        assert.match(await frame().textContent('#lms-note'), note, name);
        rows.push(`${name}: ${[...st.keys, rawKey(c)].map((k, i) => `${k}=${[...lms.status, lms.raw][i]}`).join(' ')}`);
      }
      console.log(`SCORM ${c.scorm} ${c.track}: ${rows.join('; ')}`);

      // Another computer: no local copy of the code; the LMS's suspend_data brings back the last code, and the
      // page says the result the LMS holds.
      await frame().evaluate(() => localStorage.clear());
      const kept = await page.evaluate(() => window.leave());
      const cmi = kept.cmi ?? kept;
      const sessionTime = c.scorm === '1.2' ? cmi.core.session_time : cmi.session_time;
      assert.match(
        sessionTime,
        c.scorm === '1.2' ? /^\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?$/ : /^P/,
        'session time set on leaving',
      );
      await page.close();
      const again = await open(c, keptFor(c, cmi));
      try {
        assert.equal(await again.frame().evaluate(() => window.attnlab.editor.value), partial);
        assert.match(await again.frame().textContent('#lms-note'), /restored.*holds your result: 100 of 100, passed/);
        assert.deepEqual(await checkCode(again.frame(), solution), { passed: 7, total: 7, ok: true, recorded: true });
        assert.deepEqual(await lmsState(again.page, c), { status: st.passed, raw: '100', code: solution });
        // The session ends (pagehide), and the page stays: typing (autosave), a Check and the page hidden call nothing more.
        await again.frame().evaluate(() => dispatchEvent(new Event('pagehide')));
        const finished = await again.page.evaluate(() => window.calls.length);
        assert.deepEqual(
          (await again.page.evaluate(() => window.calls)).at(-1),
          [FINISH[c.scorm], ''],
          'Terminate/LMSFinish last',
        );
        await again.frame().evaluate((code) => {
          window.attnlab.editor.value = code;
        }, starter);
        const checked = again
          .frame()
          .evaluate(
            () => new Promise((r) => addEventListener('attnlab:checked', (e) => r(e.detail.passed), { once: true })),
          );
        await again.frame().click('#check');
        assert.equal(await checked, 0);
        await again.frame().evaluate(() => {
          Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
          dispatchEvent(new Event('visibilitychange'));
          document.dispatchEvent(new Event('visibilitychange'));
        });
        await again.frame().waitForTimeout(2000); // past the autosave's 1.5 s
        assert.deepEqual(
          (await again.page.evaluate(() => window.calls)).slice(finished),
          [],
          `no call after ${FINISH[c.scorm]}`,
        );
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

  test(`SCORM ${c.scorm} (${c.track}): leaving without a pass stays incomplete (the LMS's mastery-score rule included); as package options, the latest score and failed on leaving`, async () => {
    const { starter, solution, partial, partialPassed } = await sources(c);
    const st = STATUS[c.scorm];
    const status = (cmi) =>
      c.scorm === '1.2' ? [cmi.core.lesson_status] : [cmi.success_status, cmi.completion_status];
    const score = (cmi) => (c.scorm === '1.2' ? cmi.core.score.raw : cmi.score.raw);
    const session = async (options, codes) => {
      const { page, frame } = await open(c, null, false, '', options);
      try {
        for (const code of codes) await checkCode(frame(), code);
        const kept = await page.evaluate(() => window.leave()); // LMSFinish/Terminate: the LMS's own rules run
        return kept.cmi ?? kept;
      } finally {
        await page.close();
      }
    };
    // The default package: a Check that does not pass, then leaving, leaves the attempt open.
    const open1 = await session(false, [partial]);
    assert.deepEqual([status(open1), score(open1)], [st.incomplete, raw(partialPassed)], 'default: incomplete');
    // --score latest: the last Check's score, the pass kept; --failed-on-exit: failed only when leaving unpassed.
    const latest = await session(true, [solution, starter]);
    assert.deepEqual([status(latest), score(latest)], [st.passed, '0'], 'latest score, still passed');
    const failed = await session(true, [partial]);
    assert.deepEqual([status(failed), score(failed)], [st.failed, raw(partialPassed)], 'failed on leaving');
  });

  test(`SCORM ${c.scorm} (${c.track}): review mode and no credit record nothing and say so; the code and the result are shown`, async () => {
    const { partial, solution } = await sources(c);
    const data = await resumedData(c, partial);
    for (const [extra, says] of [
      [
        c.scorm === '1.2' ? { 'cmi.core.lesson_mode': 'review' } : { 'cmi.mode': 'review' },
        /Review mode: nothing is recorded/,
      ],
      [
        c.scorm === '1.2' ? { 'cmi.core.credit': 'no-credit' } : { 'cmi.credit': 'no-credit' },
        /no credit: nothing is recorded/,
      ],
    ]) {
      const { page, frame } = await open(c, { ...data, ...extra });
      try {
        assert.equal(await frame().evaluate(() => document.documentElement.dataset.lmsRecording), 'no');
        assert.equal(await frame().evaluate(() => window.attnlab.editor.value), partial, 'the code shown');
        const note = await frame().textContent('#lms-note');
        assert.match(
          note,
          new RegExp(`holds your best result so far: ${raw(2).replace('.', '\\.')} of 100, not passed yet`),
          note,
        );
        assert.match(note, says);
        const before = await lmsState(page, c);
        assert.deepEqual(await checkCode(frame(), solution), { passed: 7, total: 7, ok: true, recorded: false });
        assert.match(await frame().textContent('#lms-note'), /Result 7\/7, not recorded\./);
        await frame().evaluate(() => dispatchEvent(new Event('pagehide')));
        assert.deepEqual(await lmsState(page, c), before, 'the LMS holds what it held');
        const calls = (await page.evaluate(() => window.calls)).map((x) => x[0]);
        assert.deepEqual(
          calls.filter((m) => /Set|Commit/.test(m)),
          [],
          `${JSON.stringify(extra)}: nothing set or committed`,
        );
        assert.equal(calls.at(-1), FINISH[c.scorm]);
      } finally {
        await page.close();
      }
    }
  });
}

/** A resumed attempt's saved CMI: `code` in suspend_data and 2/7 as the best score, not passed. */
async function resumedData(c, code) {
  const { encodeCode } = await import('../../web/src/scorm.js');
  const suspend = await encodeCode(code);
  return c.scorm === '1.2'
    ? {
        'cmi.suspend_data': suspend,
        'cmi.core.lesson_status': 'incomplete',
        'cmi.core.score.raw': raw(2),
        'cmi.core.entry': 'resume',
      }
    : {
        'cmi.suspend_data': suspend,
        'cmi.completion_status': 'incomplete',
        'cmi.success_status': 'unknown',
        'cmi.score.raw': raw(2),
        'cmi.entry': 'resume',
      };
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
    assert.deepEqual(await checkCode(frame(), long), { passed: 7, total: 7, ok: true, recorded: true });
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
    assert.deepEqual(await checkCode(frame(), solution), { passed: 7, total: 7, ok: true, recorded: true });
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

test('SCORM 1.2: a code whose whole is over 4096 characters is kept as its difference from the starter and restored; near the limit the student is told first', async () => {
  const c = CASES[0];
  const { encodeWithin, DIFF_PREFIX } = await import('../../web/src/scorm.js');
  const [starter, solution] = await Promise.all([
    read('exercises/sdpa/starter.en.py'),
    read('exercises/sdpa/solution.py'),
  ]);
  // A student who keeps the starter and adds the solution and a long note of their own (letters that
  // compress poorly), as long as it takes for the whole to be over 4096 characters and the diff under it.
  let x = 7;
  const note = (n) =>
    `# ${Array.from({ length: n }, () => String.fromCharCode(97 + ((x = (x * 1103515245 + 12345) % 2 ** 31) % 26))).join('')}\n`;
  const sized = async (test) => {
    for (let n = 100; n < 20000; n += 100) {
      const code = `${starter}\n${solution}\n${note(n)}`;
      const stored = await encodeWithin(code, 4096, starter);
      if (test(stored)) return { code, stored };
    }
    throw new Error('no such length');
  };
  const diffed = await sized((s) => s.startsWith(DIFF_PREFIX) && s.length < 0.85 * 4096);
  const nearly = await sized((s) => s.length > 0.9 * 4096 && s.length <= 4096);
  const { page, frame } = await open(c);
  let kept;
  try {
    assert.deepEqual(await checkCode(frame(), diffed.code), { passed: 7, total: 7, ok: true, recorded: true });
    const data = await page.evaluate(() => window.value('cmi.suspend_data'));
    assert.ok(data.startsWith(DIFF_PREFIX) && data.length <= 4096, `${data.length}: ${data.slice(0, 20)}`);
    assert.doesNotMatch(await frame().textContent('#lms-note'), /characters/);
    await checkCode(frame(), nearly.code);
    assert.match(
      await frame().textContent('#lms-note'),
      new RegExp(
        `takes ${(await page.evaluate(() => window.value('cmi.suspend_data'))).length} of the 4096 characters`,
      ),
    );
    await checkCode(frame(), diffed.code);
    await frame().evaluate(() => localStorage.clear());
    kept = await page.evaluate(() => window.leave());
  } finally {
    await page.close();
  }
  // Another computer: the code rebuilt from the diff and the package's starter.
  const again = await open(c, keptFor(c, kept.cmi ?? kept));
  try {
    assert.equal(await again.frame().evaluate(() => window.attnlab.editor.value), diffed.code);
  } finally {
    await again.page.close();
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
