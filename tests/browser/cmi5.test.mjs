// A cmi5 package (tools/package-scorm --cmi5) launched as a cmi5 LMS launches an AU: the LMS here is a
// small LRS in this file that does what the cmi5 specification (github.com/AICC/CMI-5_Spec_Current)
// asks of an LMS — a one-time fetch URL for the token, LMS.LaunchData with a context template, the
// state API, a statements endpoint that checks the token — and records what the page sends. Every
// statement is then checked against the specification's rules for AUs (sections 7.1, 9.3-9.7): verbs and
// their order, one passed/failed per session, passed and completed once per registration, no judgement
// outside launchMode Normal, masteryScore, categories, result properties, durations, context template —
// and each against xAPI 1.0.3's statement rules with Learning Locker's validator
// (@learninglocker/xapi-validation). An LRS on another origin (another port, CORS) is allowed by the
// page's CSP for that launch only, in the package and in the served page.
// Run: node --test tests/browser/cmi5.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import xapiValidation from '@learninglocker/xapi-validation';
import { launch, otherOrigin, slowSolution } from '../../tools/lib/chromium.mjs';

const validateStatement = xapiValidation.default;

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (p) => readFile(join(root, p), 'utf8');
const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
};
// The specification's identifiers (sections 9.3, 9.6).
const VERB = (v) => `http://adlnet.gov/expapi/verbs/${v}`;
const CMI5 = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
const MOVEON = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
const SESSION = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
const MASTERY = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore';
const ACTIVITY = 'urn:attnlab:au:sdpa:js';
const ACTOR = {
  objectType: 'Agent',
  name: 'Student',
  account: { homePage: 'https://lms.example.org', name: 'student-1' },
};
const PUBLISHER = { id: 'urn:attnlab:au:sdpa:js', objectType: 'Activity' }; // the AU id from cmi5.xml (9.6.2.3)

let b, tmp, lms, remote, elsewhere, id;
const lrs = {
  tokens: new Map(),
  fetched: new Set(),
  fetches: [],
  preferences: null, // cmi5LearnerPreferences (one learner here)
  launchData: new Map(),
  state: new Map(),
  statements: [],
  rejected: [],
};

const decodeCode = (s) => inflateRawSync(Buffer.from(s.slice('attnlab1:'.length), 'base64')).toString('utf8');
const json = (body, status = 200) => ({ body: JSON.stringify(body), type: 'application/json', status });

/** The LMS and its LRS on one origin (the page's CSP lets it talk to its own origin only). */
function respond(path, req) {
  if (path.startsWith('/lms/content/')) {
    const file = normalize(join(tmp, path.slice('/lms/content/'.length)));
    return (
      file.startsWith(tmp + sep) &&
      readFile(file).then((body) => ({ body, type: MIME[extname(file)] ?? 'application/octet-stream' }))
    );
  }
  if (path === '/lms/return.html')
    return { body: '<!doctype html><title>course</title><p>The course.', type: MIME['.html'] };
  if (path.startsWith('/lms/fetch/') && req.method === 'POST') {
    // 8.2: one token per session, once
    const session = path.slice('/lms/fetch/'.length);
    lrs.fetches.push(session);
    if (lrs.fetched.has(session))
      return json({ 'error-code': '1', 'error-text': 'The authorization token has already been returned.' });
    lrs.fetched.add(session);
    const token = Buffer.from(`session-${session}:secret`).toString('base64');
    lrs.tokens.set(token, session);
    return json({ 'auth-token': token });
  }
  if (!path.startsWith('/lms/xapi/')) return null;
  const token = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!lrs.tokens.has(token) || !req.headers['x-experience-api-version']) return json({ error: 'unauthorized' }, 401);
  if (path === '/lms/xapi/activities/state') {
    const q = req.query;
    const key = JSON.stringify([
      q.get('stateId'),
      q.get('activityId'),
      JSON.parse(q.get('agent')),
      q.get('registration'),
    ]);
    if (q.get('stateId') === 'LMS.LaunchData')
      return req.method === 'GET' ? json(lrs.launchData.get(q.get('registration'))) : json({ error: 'read only' }, 403);
    if (req.method === 'PUT')
      return (lrs.state.set(key, JSON.parse(req.body)), { body: '', type: 'text/plain', status: 204 });
    return lrs.state.has(key) ? json(lrs.state.get(key)) : json({ error: 'no document' }, 404);
  }
  if (path === '/lms/xapi/agents/profile' && req.method === 'GET') {
    if (req.query.get('profileId') !== 'cmi5LearnerPreferences' || !req.query.get('agent')) return json({}, 400);
    return lrs.preferences ? json(lrs.preferences) : json({ error: 'no profile' }, 404);
  }
  if (path === '/lms/xapi/statements' && req.method === 'POST') {
    const list = [].concat(JSON.parse(req.body));
    for (const s of list) lrs.statements.push({ session: lrs.tokens.get(token), s });
    return json(list.map((s) => s.id));
  }
  return null;
}

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'attnlab-cmi5-'));
  const out = execFileSync(
    join(root, 'tools/package-scorm'),
    ['--exercise', 'sdpa', '--track', 'js', '--cmi5', '--lang', 'en', '--out', tmp],
    { encoding: 'utf8' },
  );
  id = 'sdpa-js-cmi5';
  execFileSync('python3', ['-m', 'zipfile', '-e', out.split(':')[0], join(tmp, id)]);
  lms = await otherOrigin(respond);
  // The same LRS and fetch URL on another origin, answering CORS for the page's origins (the LMS's, and
  // the served page's), and a third origin that answers anyone: the page must not reach it.
  const cors = (origin) => ({
    'access-control-allow-origin': origin ?? '*',
    'access-control-allow-methods': 'GET, PUT, POST',
    'access-control-allow-headers': 'authorization, content-type, x-experience-api-version',
    vary: 'origin',
  });
  remote = await otherOrigin(async (path, req) => {
    if (path.startsWith('/lms/content/')) return null;
    if (req.method === 'OPTIONS')
      return { status: 204, body: '', type: 'text/plain', headers: cors(req.headers.origin) };
    const r = await respond(path, req);
    return r && { ...r, headers: cors(req.headers.origin) };
  });
  elsewhere = await otherOrigin((path, req) => {
    elsewhere.reached = (elsewhere.reached ?? 0) + 1;
    return req.method === 'OPTIONS'
      ? { status: 204, body: '', type: 'text/plain', headers: cors() }
      : { body: 'reached', type: 'text/plain', headers: cors() };
  });
  b = await launch();
});

after(async () => {
  await b?.close();
  await lms?.close();
  await remote?.close();
  await elsewhere?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the pages');
});

let sessions = 0;
/**
 * The LMS launches the AU: LaunchData for `registration` (a context template with a session id), then the page
 * with the five parameters (and `extra` ones, which the page must ignore).
 */
async function start(
  registration,
  { launchMode = 'Normal', masteryScore, fetchSession, extra = {}, returnURL, lrsOrigin = lms.origin, page: at } = {},
) {
  const session = fetchSession ?? `s${++sessions}`;
  lrs.launchData.set(registration, {
    contextTemplate: { contextActivities: { grouping: [PUBLISHER] }, extensions: { [SESSION]: `session-${session}` } },
    launchMode,
    moveOn: 'Passed',
    ...(masteryScore !== undefined && { masteryScore }),
    ...(returnURL && { returnURL }),
  });
  const q = new URLSearchParams({
    endpoint: `${lrsOrigin}/lms/xapi/`,
    fetch: `${lrsOrigin}/lms/fetch/${session}`,
    actor: JSON.stringify(ACTOR),
    registration,
    activityId: ACTIVITY,
    ...extra,
  });
  const page = await b.context.newPage();
  await page.goto(`${at ?? `${lms.origin}/lms/content/${id}/index.html`}?${q}`);
  await page.waitForFunction(
    () => document.documentElement.dataset.lms && document.documentElement.dataset.ready === 'core',
  );
  return { page, session };
}

async function checkCode(page, code) {
  await page.evaluate((c) => {
    window.attnlab.editor.value = c;
  }, code);
  const done = page.evaluate(
    () => new Promise((r) => addEventListener('attnlab:lms', (e) => r(e.detail), { once: true })),
  );
  await page.click('#check');
  return done;
}

/** Closes the page (pagehide) and waits until its terminated statement has arrived. */
async function leave({ page, session }) {
  await page.close({ runBeforeUnload: true });
  for (
    let i = 0;
    i < 1200 && !lrs.statements.some((x) => x.session === session && x.s.verb.id === VERB('terminated'));
    i++
  )
    await new Promise((r) => setTimeout(r, 25));
  return lrs.statements.filter((x) => x.session === session).map((x) => x.s);
}

/** The specification's rules for what an AU sends, for one session's statements. */
function checkSession(list, { registration, session, masteryScore }) {
  const verbs = list.map((s) => s.verb.id.split('/').pop());
  assert.equal(verbs[0], 'initialized', 'initialized first (9.3)');
  assert.equal(verbs.at(-1), 'terminated', 'terminated last (9.3)');
  assert.ok(
    verbs.filter((v) => v === 'passed' || v === 'failed').length <= 1,
    `one of passed/failed per session: ${verbs}`,
  );
  for (const [i, s] of list.entries()) {
    const v = verbs[i],
      defined = v !== 'scored';
    assert.deepEqual(
      validateStatement(s).map((w) => `${w.constructor.name} at ${w.path.join('.')}`),
      [],
      `${v}: a valid xAPI 1.0.3 statement`,
    );
    const cats = (s.context.contextActivities.category ?? []).map((c) => c.id);
    assert.match(s.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(s.actor, ACTOR);
    assert.equal(s.object.id, ACTIVITY, '9.4');
    assert.equal(s.context.registration, registration, '9.6.1');
    assert.equal(s.context.extensions[SESSION], `session-${session}`, '9.6.3.1');
    assert.deepEqual(s.context.contextActivities.grouping, [PUBLISHER], 'the context template (9.6.2)');
    assert.equal(cats.includes(CMI5), defined, `${v}: the cmi5 category only on cmi5 defined statements (9.6.2.1)`);
    const judged = s.result && ('success' in s.result || 'completion' in s.result);
    assert.equal(cats.includes(MOVEON), defined && Boolean(judged), `${v}: the moveOn category (9.6.2.2)`);
    if (i) assert.ok(s.timestamp > list[i - 1].timestamp, 'ordered by timestamp (9.7)');
    if (defined && !['passed', 'failed'].includes(v))
      assert.equal(s.result?.score, undefined, `${v}: no score (9.5.1)`);
    if (['passed', 'failed', 'completed', 'terminated'].includes(v))
      assert.match(s.result.duration, /^PT\d+(\.\d+)?S$/, `${v}: duration (9.5.4)`);
    if (v === 'passed') assert.ok(s.result.success === true && s.result.score.scaled >= (masteryScore ?? 1), '9.3.4');
    if (v === 'failed') assert.ok(s.result.success === false && s.result.score.scaled < (masteryScore ?? 1), '9.3.5');
    if (v === 'completed') assert.equal(s.result.completion, true, '9.5.3');
    if (['passed', 'failed'].includes(v)) assert.equal(s.context.extensions[MASTERY], masteryScore, '9.6.3.2');
    if (v === 'scored') {
      const { scaled, raw, min, max } = s.result.score;
      assert.ok(
        Number.isInteger(raw) && min === 0 && max === 7 && scaled === Math.round((10000 * raw) / 7) / 10000,
        JSON.stringify(s.result),
      );
    }
  }
  return verbs;
}

test('cmi5: initialized, a scored statement per Check, passed and completed once per registration, terminated; the code comes back in the next session', async () => {
  const [starter, solution] = await Promise.all([
    read('exercises/sdpa/starter.js'),
    read('exercises/sdpa/solution.js'),
  ]);
  const registration = '6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f01';
  const one = await start(registration);
  assert.equal(await one.page.evaluate(() => document.documentElement.dataset.lms), 'connected');
  assert.deepEqual(await checkCode(one.page, starter), { passed: 0, total: 7, ok: true });
  assert.deepEqual(await checkCode(one.page, solution), { passed: 7, total: 7, ok: true });
  assert.deepEqual(await checkCode(one.page, solution), { passed: 7, total: 7, ok: true });
  await one.page.evaluate(() => localStorage.clear()); // the next session is on another computer
  const first = await leave(one);
  assert.deepEqual(checkSession(first, { registration, session: one.session }), [
    'initialized',
    'scored',
    'scored',
    'passed',
    'completed',
    'scored',
    'terminated',
  ]);
  assert.deepEqual(
    first.filter((s) => s.verb.id === VERB('scored')).map((s) => s.result.score.raw),
    [0, 7, 7],
  );
  const state = [...lrs.state.values()].at(-1);
  assert.equal(decodeCode(state.code), solution);
  assert.deepEqual([state.passed, state.completed], [true, true]);

  const two = await start(registration);
  assert.equal(
    await two.page.evaluate(() => window.attnlab.editor.value),
    solution,
    'the code from the state document',
  );
  assert.match(await two.page.textContent('#lms-note'), /restored/);
  assert.deepEqual(await checkCode(two.page, solution), { passed: 7, total: 7, ok: true });
  assert.deepEqual(
    checkSession(await leave(two), { registration, session: two.session }),
    ['initialized', 'scored', 'terminated'],
    'no second passed or completed in the registration',
  );
});

test('cmi5: a session that checked but never reached the mastery score says failed on leaving; masteryScore from LaunchData decides passed', async () => {
  const [starter, partial] = await Promise.all([
    read('exercises/sdpa/starter.js'),
    read('exercises/sdpa/fixtures/no-scaling/submission.js'),
  ]);
  const failing = await start('6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f02');
  await checkCode(failing.page, starter);
  await checkCode(failing.page, partial); // 2/7 < every test
  const failed = await leave(failing);
  assert.deepEqual(
    checkSession(failed, { registration: '6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f02', session: failing.session }),
    ['initialized', 'scored', 'scored', 'failed', 'terminated'],
  );
  assert.equal(failed.find((s) => s.verb.id === VERB('failed')).result.score.raw, 2, "the last Check's score");

  const lenient = await start('6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f03', { masteryScore: 0.25 });
  await checkCode(lenient.page, partial); // 2/7 = 0.2857 ≥ 0.25
  assert.deepEqual(
    checkSession(await leave(lenient), {
      registration: '6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f03',
      session: lenient.session,
      masteryScore: 0.25,
    }),
    ['initialized', 'scored', 'passed', 'completed', 'terminated'],
  );
});

test('cmi5: Browse mode judges nothing; a fetch URL used twice is refused and said', async () => {
  const solution = await read('exercises/sdpa/solution.js');
  const browse = await start('6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f04', { launchMode: 'Browse' });
  await checkCode(browse.page, solution);
  assert.deepEqual(
    checkSession(await leave(browse), {
      registration: '6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f04',
      session: browse.session,
    }),
    ['initialized', 'scored', 'terminated'],
  );

  const again = await start('6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f05', { fetchSession: browse.session });
  try {
    assert.equal(await again.page.evaluate(() => document.documentElement.dataset.lms), 'failed');
    assert.match(
      await again.page.textContent('#lms-note'),
      /did not connect \(fetch: 1 The authorization token has already been returned\.\)/,
    );
  } finally {
    await again.page.close();
  }
});

test("cmi5: the launch URL's ?timeout= and ?flavour= are ignored: a slow but correct solution gets the grader's own score, no passed", async () => {
  const registration = '6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f06';
  const slow = await start(registration, { extra: { timeout: '600000', flavour: 'baseline' } });
  assert.notEqual(await slow.page.evaluate(() => window.attnlab.state.core.flavour), 'baseline');
  const got = await checkCode(slow.page, slowSolution(await read('exercises/sdpa/solution.js')));
  assert.ok(got.passed < 7, JSON.stringify(got)); // causal_mask's first call runs out of the grader's own limit
  const verbs = checkSession(await leave(slow), { registration, session: slow.session });
  assert.deepEqual(verbs, ['initialized', 'scored', 'failed', 'terminated']);
});

test('cmi5: a reload within the launch never fetches the token again nor sends a second initialized or terminated; Exit terminates once and goes to returnURL', async () => {
  const solution = await read('exercises/sdpa/solution.js');
  const partial = await read('exercises/sdpa/fixtures/no-scaling/submission.js');
  const returnURL = `${lms.origin}/lms/return.html`;
  // A reload: the session ended with the page (the browser cannot tell a reload from leaving), the
  // token is not asked for again, and the reloaded page says so and records nothing.
  const registration = '6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f07';
  const one = await start(registration, { returnURL });
  assert.ok(await one.page.isVisible('#lms-exit'), 'an Exit control when the LMS gives a returnURL');
  await checkCode(one.page, partial);
  await one.page.reload();
  await one.page.waitForFunction(() => document.documentElement.dataset.lms === 'ended');
  assert.match(await one.page.textContent('#lms-note'), /This session has ended/);
  await one.page.evaluate(() => {
    window.attnlab.check();
  });
  await one.page.waitForFunction(() => document.querySelectorAll('#results li.fail, #results li.pass').length === 7);
  assert.deepEqual(
    checkSession(await leave(one), { registration, session: one.session }),
    ['initialized', 'scored', 'failed', 'terminated'],
    'one session: nothing after terminated',
  );
  assert.deepEqual(
    lrs.fetches.filter((x) => x === one.session),
    [one.session],
    'the fetch URL asked once',
  );

  // Exit: terminated once, then the course's returnURL; back to the page, nothing more is sent.
  const reg2 = '6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f08';
  const two = await start(reg2, { returnURL });
  await checkCode(two.page, solution);
  await Promise.all([two.page.waitForURL(returnURL), two.page.click('#lms-exit')]);
  await two.page.goBack();
  await two.page.waitForFunction(() => document.documentElement.dataset.lms === 'ended');
  assert.deepEqual(checkSession(await leave(two), { registration: reg2, session: two.session }), [
    'initialized',
    'scored',
    'passed',
    'completed',
    'terminated',
  ]);
  // Without a returnURL there is no Exit control.
  const three = await start('6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f09');
  assert.equal(await three.page.$('#lms-exit'), null);
  await leave(three);
});

test("cmi5: the learner's language preference (cmi5LearnerPreferences) decides the page's language", async () => {
  try {
    for (const [languagePreference, lang, check] of [
      ['ru-RU, en-US', 'ru', 'Проверить'],
      ['fr-FR,en-GB', 'en', 'Check'],
    ]) {
      lrs.preferences = { languagePreference, audioPreference: 'on' };
      const s = await start(`6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f1${lang === 'ru' ? 0 : 1}`);
      assert.equal(await s.page.evaluate(() => document.documentElement.lang), lang, languagePreference);
      assert.equal((await s.page.textContent('#check')).trim(), check);
      await leave(s);
    }
  } finally {
    lrs.preferences = null;
  }
});

/** What the page at `page` reaches of `url` (fetch from its own realm, as cmi5.js does), and what its CSP said. */
async function tryReach(page, url) {
  return page.evaluate(async (u) => {
    const violations = [];
    addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective));
    const got = await fetch(u).then(
      (r) => r.text(),
      () => 'blocked',
    );
    await new Promise((r) => setTimeout(r, 50));
    return { got, violations: [...new Set(violations)] }; // the served page has two policies (header, <meta>)
  }, url);
}

test("cmi5: an LRS on another origin is allowed for its launch only (the package's <meta> and the served page's header): statements sent, a third origin still blocked", async () => {
  const solution = await read('exercises/sdpa/solution.js');
  for (const [where, at, registration] of [
    ['the package', undefined, '6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f20'],
    ['the served page', `${b.url}index.html`, '6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f21'],
  ]) {
    // Code the student keeps on the page's own origin (the page itself, or another LRS's launch) is not
    // this launch's: it is neither shown nor sent to the LRS it names.
    const own = await b.context.newPage();
    await own.goto(at ? `${b.url}icon.svg` : `${lms.origin}/lms/return.html`);
    await own.evaluate(() => localStorage.setItem('attnlab:sdpa:code', '// the page’s own code, kept here'));
    await own.close();
    const s = await start(registration, { lrsOrigin: remote.origin, page: at });
    assert.doesNotMatch(await s.page.evaluate(() => window.attnlab.editor.value), /kept here/, where);
    assert.equal(await s.page.evaluate(() => document.documentElement.dataset.lms), 'connected', where);
    assert.deepEqual(await checkCode(s.page, solution), { passed: 7, total: 7, ok: true }, where);
    const reached = elsewhere.reached ?? 0;
    assert.deepEqual(
      await tryReach(s.page, `${elsewhere.origin}/anything`),
      { got: 'blocked', violations: ['connect-src'] },
      `${where}: a third origin`,
    );
    assert.equal(elsewhere.reached ?? 0, reached, `${where}: no request left the page for the third origin`);
    assert.deepEqual(
      checkSession(await leave(s), { registration, session: s.session }),
      ['initialized', 'scored', 'passed', 'completed', 'terminated'],
      `${where}: every statement reached the LRS on ${remote.origin}`,
    );
    for (const doc of lrs.state.values()) assert.doesNotMatch(decodeCode(doc.code), /kept here/, where);
  }
  // Without a launch, the page reaches no other origin, not even the LRS.
  const page = await b.context.newPage();
  try {
    await page.goto(`${lms.origin}/lms/content/${id}/index.html`);
    assert.deepEqual(await tryReach(page, `${remote.origin}/lms/xapi/about`), {
      got: 'blocked',
      violations: ['connect-src'],
    });
  } finally {
    await page.close();
  }
});
