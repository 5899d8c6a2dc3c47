// The service on SQLite, in this process, against the platform simulator: every launch check (each
// rejection names its check and records nothing), the tool's keys, the course's flow (flows.mjs),
// CSRF, the cookie-less fallback, the size cap and the rate limit, a teacher of another course,
// health and readiness, and the failing LMS (a score retried).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROLE, nodeBrowser } from './platform.mjs';
import { courseFlow } from './flows.mjs';
import { deepLink, launchItem, read, root, startStack, submitAndWait, waitScored } from './helpers.mjs';

let stack;
before(async () => {
  stack = await startStack({ rate_per_minute: 8, max_code_bytes: 50_000 });
});
after(async () => stack?.close());

const counts = async () => {
  const db = stack.svc.db;
  const n = async (table) => Number((await db.get(`SELECT COUNT(*) AS n FROM ${table}`)).n);
  return {
    users: await n('users'),
    sessions: await n('sessions'),
    nonces: await n('nonces'),
    courses: await n('courses'),
    placements: await n('placements'),
  };
};

/** A launch with the platform's claims changed by `tamper` (platform.mjs idToken): its result. */
async function launchWith(
  tamper,
  { sub = 'mallory', custom = { exercise: 'sdpa', track: 'js' }, browser = nodeBrowser(), mangle } = {},
) {
  const hint = `h-${Math.random()}`;
  stack.platform.prepare(hint, { sub, custom, tamper });
  return browser.launch(stack.url, stack.platform, hint, { mangle });
}

test('the tool publishes its public key at /lti/jwks, and nothing private', async () => {
  const r = await fetch(`${stack.url}/lti/jwks`);
  const { keys } = await r.json();
  assert.equal(keys.length, 1);
  assert.equal(keys[0].kty, 'RSA');
  assert.equal(keys[0].alg, 'RS256');
  assert.ok(keys[0].kid && keys[0].n && keys[0].e);
  for (const k of ['d', 'p', 'q', 'dp', 'dq', 'qi']) assert.equal(keys[0][k], undefined, k);
});

test('a launch that fails a check is refused with a page naming it, and records nothing', async (t) => {
  const cases = [
    ['a bad signature', { key: 'other' }, 'signature'],
    ['a wrong aud', { aud: 'another-tool' }, 'aud'],
    ['an expired token', { clock: -3600, expiresIn: 60 }, 'exp'],
    ['a token issued in the future', { clock: 3600 }, 'iat'],
    ['an unknown deployment', { deployment: 'dep-unknown' }, 'deployment'],
    ['another issuer', { iss: 'https://evil.example' }, 'iss'],
    ['a wrong azp', { azp: 'someone-else' }, 'azp'],
    ['another nonce', { nonce: 'not-the-one' }, 'nonce'],
    ['a wrong LTI version', { version: '1.1' }, 'version'],
  ];
  for (const [what, tamper, check] of cases)
    await t.test(what, async () => {
      const before = await counts();
      const r = await launchWith(tamper);
      assert.equal(r.ok, false);
      assert.equal(r.status, 401);
      assert.equal(r.check, check);
      assert.match(r.html, /The launch from your course failed/);
      assert.match(r.html, new RegExp(`Failed check: ${check}\\.`));
      assert.match(r.html, /Nothing was recorded/);
      assert.deepEqual(await counts(), before);
    });
});

test('a replayed launch (the same id_token and state posted again) is refused: the nonce is single use', async () => {
  const b = nodeBrowser();
  const first = await launchWith({}, { sub: 'replayer', browser: b });
  assert.equal(first.ok, true);
  const before = await counts();
  const again = await b.post(first.form.action, first.form.fields);
  assert.equal(again.ok, false);
  assert.equal(again.check, 'nonce_replay');
  // The same id_token with a fresh login's state: the state's nonce differs.
  const fresh = await launchWith(
    {},
    { sub: 'replayer', browser: b, mangle: (f) => (f.id_token = first.form.fields.id_token) },
  );
  assert.equal(fresh.check, 'nonce');
  assert.deepEqual(await counts(), before);
});

test('a launch whose state is not this browser’s (the state cookie differs) is refused', async () => {
  const b = nodeBrowser();
  const r = await launchWith({}, { browser: b, mangle: () => b.jar.set('attnlab_state', 'someone-elses-state') });
  assert.equal(r.check, 'state');
  const unknown = await launchWith({ state: 'forged-state' });
  assert.equal(unknown.check, 'state');
});

test('where cookies are blocked the launch still works: the state is checked server-side, the session rides in the fragment', async () => {
  const b = nodeBrowser({ cookies: false });
  const r = await launchWith({}, { sub: 'incognito', browser: b });
  assert.equal(r.ok, true);
  assert.match(r.location, /\/lti\/session#s=/);
  const state = await b.api(stack.url, r.token, '/api/state');
  assert.equal(state.status, 200);
  assert.equal(state.body.exercise, 'sdpa');
  assert.equal(state.body.words.recorded, 'Recorded by your course: {passed} of {total}');
});

test('the failed-launch page speaks Russian to a Russian browser', async () => {
  const hint = 'ru-hint';
  stack.platform.prepare(hint, { sub: 'x', custom: { exercise: 'sdpa', track: 'js' }, tamper: { aud: 'x' } });
  const b = nodeBrowser();
  const login = await b.request(
    `${stack.url}/lti/login?${new URLSearchParams({ iss: stack.platform.issuer, login_hint: hint, target_link_uri: `${stack.url}/lti/launch` })}`,
  );
  const f = b.formOf(await (await b.request(login.headers.get('location'))).text());
  const res = await b.request(f.action, {
    method: 'POST',
    form: f.fields,
    headers: { 'accept-language': 'ru-RU,ru;q=0.9' },
  });
  const html = await res.text();
  assert.match(html, /Запуск из курса не удался/);
  assert.match(html, /id_token выдан другому инструменту/);
});

test('login initiation: an unregistered issuer and missing parameters get a page naming the check', async () => {
  const r = await fetch(
    `${stack.url}/lti/login?iss=https://nobody.example&login_hint=x&target_link_uri=${stack.url}/lti/launch`,
    { redirect: 'manual' },
  );
  assert.equal(r.status, 401);
  assert.equal(r.headers.get('x-attnlab-check'), 'iss');
  const m = await fetch(`${stack.url}/lti/login?iss=${stack.platform.issuer}`, { redirect: 'manual' });
  assert.equal(m.headers.get('x-attnlab-check'), 'login_params');
});

test('the course flow on SQLite: deep link, 2/7 then 7/7 by AGS, a forged claim, a reload, the class, an override, a regrade, the gradebook', async () => {
  await courseFlow(stack);
});

test('CSRF: a state change with the session cookie but without the session header is refused', async () => {
  const item = await deepLink(stack, { exercise: 'sdpa', track: 'js', hint: 'csrf-teacher' });
  const s = await launchItem(stack, item, 'csrf-student', { link: 'link-csrf' });
  assert.ok(s.browser.jar.has('attnlab_session'), 'the launch set the session cookie');
  const r = await s.browser.api(stack.url, null, '/api/submissions', { method: 'POST', json: { code: '1' } });
  assert.equal(r.status, 403);
  assert.equal(r.body.error, 'csrf');
  // A GET with the cookie alone reads (the gradebook link, a reload without the fragment).
  const st = await s.browser.api(stack.url, null, '/api/state');
  assert.equal(st.status, 200);
  assert.equal(st.body.track, 'js');
  assert.equal((await fetch(`${stack.url}/api/state`)).status, 401);
});

test('a submission over the size cap and a burst over the rate limit are refused with a message', async () => {
  const item = await deepLink(stack, { exercise: 'sdpa', track: 'js', hint: 'rate-teacher' });
  const s = await launchItem(stack, item, 'flooder', { link: 'link-rate' });
  const big = await s.browser.api(stack.url, s.token, '/api/submissions', {
    method: 'POST',
    json: { code: 'x'.repeat(60_000) },
  });
  assert.equal(big.status, 413);
  assert.match(big.body.message, /60000 bytes, more than the 50000/);
  const huge = await s.browser.api(stack.url, s.token, '/api/submissions', {
    method: 'POST',
    json: { code: 'x'.repeat(200_000) },
  });
  assert.equal(huge.status, 413);
  const notString = await s.browser.api(stack.url, s.token, '/api/submissions', { method: 'POST', json: { code: 42 } });
  assert.equal(notString.status, 400);
  const codes = [];
  for (let i = 0; i < 9; i++)
    codes.push(
      (await s.browser.api(stack.url, s.token, '/api/submissions', { method: 'POST', json: { code: `// ${i}` } }))
        .status,
    );
  assert.deepEqual(codes, [202, 202, 202, 202, 202, 202, 202, 202, 429]);
});

test('a teacher of another course sees none of this course’s submissions', async () => {
  const item = await deepLink(stack, { exercise: 'sdpa', track: 'js', hint: 'teacher-a' });
  const student = await launchItem(stack, item, 'carol', { link: 'link-a' });
  const sub = await submitAndWait(stack.url, student, read(join(root, 'exercises', 'sdpa', 'solution.js')));
  assert.equal(sub.passed, 7);
  const other = await launchItem(stack, item, 'teacher-b', {
    roles: [ROLE.instructor],
    link: 'link-b',
    context: { id: 'course-2', title: 'Another course' },
  });
  assert.equal((await other.browser.api(stack.url, other.token, `/api/submissions/${sub.id}`)).status, 404);
  const view = await other.browser.api(stack.url, other.token, '/api/class');
  assert.deepEqual(view.body.students, []);
});

test('an LMS that fails to take a score: the submission says so, and the score is sent when it answers again', async () => {
  const item = await deepLink(stack, { exercise: 'sdpa', track: 'js', hint: 'retry-teacher' });
  const s = await launchItem(stack, item, 'dave', { link: 'link-retry' });
  stack.platform.state.failScores = 1;
  const sub = await submitAndWait(stack.url, s, read(join(root, 'exercises', 'sdpa', 'solution.js')));
  assert.equal(sub.score_state, 'failed');
  assert.equal(await stack.svc.service.resendScores({ olderThanMs: -1 }), 1);
  const again = await waitScored(stack.url, s, sub.id);
  assert.equal(again.score_state, 'sent');
  assert.equal(stack.platform.state.scores.filter((x) => x.body.userId === 'dave').length, 1);
});

test('health, readiness, the launch page and the exercise page under /app/', async () => {
  assert.deepEqual(await (await fetch(`${stack.url}/health`)).json(), { ok: true });
  assert.deepEqual(await (await fetch(`${stack.url}/ready`)).json(), { ready: true });
  const page = await fetch(`${stack.url}/lti/session`);
  assert.equal(page.status, 200);
  const csp = page.headers.get('content-security-policy');
  assert.match(csp, new RegExp(`frame-ancestors 'self' ${stack.platform.url}`));
  assert.match(csp, /script-src 'self'/);
  const app = await fetch(`${stack.url}/app/index.html?embed=1&parent-origin=${encodeURIComponent(stack.url)}`);
  assert.equal(app.status, 200);
  assert.match(app.headers.get('content-security-policy'), new RegExp(`frame-ancestors ${stack.url}`));
  assert.equal((await fetch(`${stack.url}/app/../server/main.mjs`)).status, 404);
});

test('a link naming no known exercise is refused with a page naming it, and records nothing', async () => {
  const before = await counts();
  const r = await launchWith({}, { custom: { exercise: 'nope', track: 'js' } });
  assert.equal(r.status, 400);
  assert.equal(r.check, 'placement');
  assert.match(r.html, /names no known exercise and track \(&quot;nope&quot;, &quot;js&quot;\)/);
  assert.deepEqual(await counts(), before);
});

test('a long queue: the submission is stored and answered busy, and the page says the course records it later', async () => {
  const item = await deepLink(stack, { exercise: 'sdpa', track: 'js', hint: 'busy-teacher' });
  const s = await launchItem(stack, item, 'erin', { link: 'link-busy' });
  const saved = stack.config.busy_queue;
  stack.config.busy_queue = 0;
  try {
    const r = await s.browser.api(stack.url, s.token, '/api/submissions', {
      method: 'POST',
      json: { code: read(join(root, 'exercises', 'sdpa', 'solution.js')) },
    });
    assert.equal(r.status, 202);
    assert.equal(r.body.busy, true);
    assert.equal((await waitScored(stack.url, s, r.body.id)).passed, 7, 'graded all the same');
  } finally {
    stack.config.busy_queue = saved;
  }
  const words = (await s.browser.api(stack.url, s.token, '/api/state')).body.words;
  assert.equal(words.later, 'Your course is busy: it will record this check later.');
});

test('a submission the grader itself fails on is tried three times, then marked failed', async () => {
  const db = stack.svc.db;
  const item = await deepLink(stack, { exercise: 'sdpa', track: 'js', hint: 'fault-teacher' });
  await launchItem(stack, item, 'frank', { link: 'link-fault' });
  const any = await db.get(
    "SELECT p.id AS placement_id, u.id AS user_id FROM placements p, users u WHERE p.resource_link_id = 'link-fault' AND u.sub = 'frank'",
  );
  const row = await db.get(
    "INSERT INTO submissions (placement_id, user_id, exercise, track, code, lang, created_at, status) VALUES (?, ?, 'no-such-pack', 'js', '1', 'en', ?, 'grading') RETURNING id",
    [any.placement_id, any.user_id, Date.now()],
  );
  for (let i = 1; i <= 3; i++) {
    await stack.svc.service.gradeJob(row.id).catch(() => {});
    const r = await db.get('SELECT status, attempts FROM submissions WHERE id = ?', [row.id]);
    assert.equal(r.attempts, i);
    assert.equal(r.status, i < 3 ? 'queued' : 'failed');
    if (i < 3) await db.run("UPDATE submissions SET status = 'grading' WHERE id = ?", [row.id]); // as the queue would
  }
});

test('old logins, used nonces and expired sessions are pruned', async () => {
  const db = stack.svc.db;
  const old = Date.now() - 2 * 24 * 3600_000;
  await db.run("INSERT INTO oidc_states (state, nonce, platform_id, created_at) VALUES ('old-state', 'n', 1, ?)", [
    old,
  ]);
  await db.run("INSERT INTO nonces (platform_id, nonce, used_at) VALUES (1, 'old-nonce', ?)", [old]);
  await stack.svc.service.prune();
  assert.equal(await db.get("SELECT 1 AS x FROM oidc_states WHERE state = 'old-state'"), null);
  assert.equal(await db.get("SELECT 1 AS x FROM nonces WHERE nonce = 'old-nonce'"), null);
});
