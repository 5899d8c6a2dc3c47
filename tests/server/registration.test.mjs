// LTI Dynamic Registration against the platform simulator (platform.mjs: its OpenID configuration and
// registration endpoint, written from the LTI-DR 1.0 spec), on SQLite, in this process: an invitation
// from `tools/server platform invite`, the whole registration, then a deep link, a launch and a score
// sent with what was registered; every bad or hostile answer of the platform refused by name with
// nothing stored; invitations single use and expiring; a platform that names no deployment.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CLI, deepLink, launchItem, read, root, startStack, submitAndWait } from './helpers.mjs';
import { startPlatform } from './platform.mjs';
import { createInvite } from '../../server/registration.mjs';
import { openBrowser } from '../../tools/lib/chromium.mjs';

let stack;
before(async () => {
  stack = await startStack({}, { register: false });
});
after(async () => stack?.close());

const count = async (table) => Number((await stack.svc.db.get(`SELECT COUNT(*) AS n FROM ${table}`)).n);
const invite = async (opts) => `${stack.url}/lti/register/${await createInvite(stack.svc.db, opts)}`;
const SCORE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';

test('tools/server platform invite prints a registration URL under the public URL', () => {
  const r = spawnSync(
    process.execPath,
    [CLI, 'platform', 'invite', '--hours', '2', '--data', stack.data, '--public-url', 'https://attnlab.example.org'],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^https:\/\/attnlab\.example\.org\/lti\/register\/[\w-]{20,}\n/);
  assert.match(r.stdout, /within 2 h/);
  const bad = spawnSync(process.execPath, [CLI, 'platform', 'invite', '--hours', 'soon', '--data', stack.data], {
    encoding: 'utf8',
  });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--hours needs a number of hours/);
  assert.doesNotMatch(bad.stderr, /\n\s+at /); // no stack trace
});

test('an LMS registers the tool with an invitation; its launches, deep links and scores then work', async () => {
  const { platform } = stack;
  const url = await invite();
  const r = await platform.dynamicRegister(url);
  assert.equal(r.status, 200, r.html);
  assert.equal(r.check, null);
  assert.match(
    r.html,
    /<p id="registered">attnlab is registered with simulated-lms \(127\.0\.0\.1:\d+\) \(client id attnlab-client\)\.<\/p>/,
  );
  assert.match(r.html, /Deployment dep-1: launches from it are accepted\./);
  assert.match(r.html, /<script src="\/lti\/registered\.js"><\/script>/);
  // The registration token reached both of the platform's endpoints as a bearer token.
  assert.deepEqual(platform.state.dr.configReads.at(-1), { bearer: r.token });
  const [reg] = platform.state.dr.registrations;
  assert.equal(reg.bearer, r.token);
  assert.equal(reg.body.initiate_login_uri, `${stack.url}/lti/login`);
  assert.deepEqual(reg.body.redirect_uris, [`${stack.url}/lti/launch`]);
  assert.equal(reg.body.jwks_uri, `${stack.url}/lti/jwks`);
  assert.equal(reg.body.scope, SCORE);
  const tool = reg.body['https://purl.imsglobal.org/spec/lti-tool-configuration'];
  assert.equal(tool.domain, new URL(stack.url).host);
  assert.deepEqual(
    tool.messages.map((m) => m.type),
    ['LtiDeepLinkingRequest'],
  );
  // Stored as `platform add` stores one.
  const row = await stack.svc.db.get('SELECT * FROM platforms WHERE issuer = ?', [platform.issuer]);
  assert.equal(row.client_id, 'attnlab-client');
  assert.equal(row.auth_login_url, `${platform.url}/auth`);
  assert.equal(row.auth_token_url, `${platform.url}/token`);
  assert.equal(row.jwks_url, `${platform.url}/jwks`);
  assert.equal(row.frame_origin, platform.url);
  assert.equal(Number(row.deployments_open), 0);
  const deps = await stack.svc.db.all('SELECT deployment_id FROM deployments WHERE platform_id = ?', [row.id]);
  assert.deepEqual(
    deps.map((d) => d.deployment_id),
    ['dep-1'],
  );
  // The closing message the page posts to the LMS that opened it.
  const js = await (await fetch(`${stack.url}/lti/registered.js`)).text();
  assert.match(js, /postMessage\(\{ subject: 'org\.imsglobal\.lti\.close' \}, '\*'\)/);
  // The invitation is spent.
  const again = await platform.dynamicRegister(url);
  assert.equal(again.status, 403);
  assert.equal(again.check, 'invite_used');
  // What was registered works: a teacher places sdpa, a student's right solution reaches the gradebook.
  const item = await deepLink(stack, { exercise: 'sdpa', track: 'python' });
  assert.equal(item.scoreMaximum, 7);
  const student = await launchItem(stack, item, 'dyn-student');
  const sub = await submitAndWait(stack.url, student, read(join(root, 'exercises', 'sdpa', 'solution.py')));
  assert.equal(sub.passed, 7);
  assert.equal(sub.score_state, 'sent');
  const score = platform.state.scores.find((s) => s.body.userId === 'dyn-student');
  assert.equal(score.body.scoreGiven, 7);
  assert.equal(score.body.scoreMaximum, 7);
});

test('an invitation that is unknown or expired is refused, and the platform is not even asked', async () => {
  const reads = stack.platform.state.dr.configReads.length;
  const unknown = await stack.platform.dynamicRegister(`${stack.url}/lti/register/not-an-invitation`);
  assert.equal(unknown.status, 403);
  assert.equal(unknown.check, 'invite_unknown');
  assert.match(unknown.html, /The registration with your LMS failed/);
  assert.match(unknown.html, /invitation is unknown/);
  assert.match(unknown.html, /Nothing was stored here/);
  const expired = await stack.platform.dynamicRegister(await invite({ hours: -1 }));
  assert.equal(expired.check, 'invite_expired');
  assert.equal(stack.platform.state.dr.configReads.length, reads);
});

test('every bad or hostile answer of a platform is refused by name, and nothing is stored', async (t) => {
  const other = await startPlatform({ clientId: 'hostile-client' });
  t.after(() => other.close());
  const dr = other.state.dr;
  const big = 'x'.repeat(100_000);
  const configs = [
    [
      'the configuration answers 500',
      () => ({ raw: { status: 500, body: 'oops' } }),
      'config_fetch',
      /answered 500: oops/,
    ],
    ['the configuration is not JSON', () => ({ raw: { body: '<html>' } }), 'config_fetch', /not JSON: &lt;html&gt;/],
    ['the configuration is a JSON array', () => ({ raw: { body: '[1]' } }), 'config_fetch', /not a JSON object/],
    [
      'the configuration is 100 KB',
      () => ({ raw: { body: `{"a":"${big}"}` } }),
      'config_fetch',
      /larger than 65536 bytes/,
    ],
    [
      'the configuration redirects',
      () => ({ raw: { status: 302, location: 'http://169.254.169.254/' } }),
      'config_fetch',
      /answered 302 \(a redirect, not followed\)/,
    ],
    ['the configuration never answers', () => ({ hang: true }), 'config_fetch', /no answer in 1500 ms/],
    [
      'another issuer',
      (c) => ({ ...c, issuer: 'https://evil.example' }),
      'issuer',
      /https:\/\/evil\.example is not where/,
    ],
    [
      'an issuer with markup',
      (c) => ({ ...c, issuer: '<script>alert(1)</script>' }),
      'issuer',
      /issuer: not a URL: &lt;script&gt;alert\(1\)&lt;\/script&gt;/,
    ],
    ['an issuer that is a number', (c) => ({ ...c, issuer: 42 }), 'issuer', /issuer: needs a URL, got 42/],
    [
      'no registration endpoint',
      ({ registration_endpoint, ...c }) => c,
      'config',
      /registration_endpoint: needs a URL, got undefined/,
    ],
    [
      'a javascript: JWKS URL',
      (c) => ({ ...c, jwks_uri: 'javascript:alert(1)' }),
      'config',
      /jwks_uri: needs https, got javascript:alert\(1\)/,
    ],
    [
      'a plain-http token URL',
      (c) => ({ ...c, token_endpoint: 'http://lms.example.org/token' }),
      'config',
      /token_endpoint: needs https/,
    ],
    [
      'no private_key_jwt',
      (c) => ({ ...c, token_endpoint_auth_methods_supported: ['client_secret_basic'] }),
      'config',
      /token_endpoint_auth_methods_supported: needs a list with private_key_jwt/,
    ],
    [
      'no RS256',
      (c) => ({ ...c, id_token_signing_alg_values_supported: 'RS256' }),
      'config',
      /id_token_signing_alg_values_supported: needs a list with RS256/,
    ],
    [
      'no LTI platform configuration',
      (c) => ({ ...c, 'https://purl.imsglobal.org/spec/lti-platform-configuration': null }),
      'config',
      /lti-platform-configuration: missing/,
    ],
    ['no AGS score scope', (c) => ({ ...c, scopes_supported: ['openid'] }), 'scope', /grade passback/],
  ];
  const answers = [
    [
      'the registration answers 400',
      () => ({ raw: { status: 400, body: '{"error":"invalid_client_metadata"}' } }),
      'registration',
      /answered 400: \{&quot;error&quot;/,
    ],
    ['the registration answers a string', () => ({ raw: { body: '"ok"' } }), 'registration', /not a JSON object/],
    [
      'no client_id',
      ({ client_id, ...a }) => a,
      'client_id',
      /client_id: needs 1 to 255 printable characters, got undefined/,
    ],
    ['a client_id that is an object', (a) => ({ ...a, client_id: { id: 1 } }), 'client_id', /got \{&quot;id&quot;:1\}/],
    ['a client_id of 300 characters', (a) => ({ ...a, client_id: 'c'.repeat(300) }), 'client_id', /needs 1 to 255/],
    ['a client_id with a newline', (a) => ({ ...a, client_id: 'a\nb' }), 'client_id', /needs 1 to 255 printable/],
    [
      'a deployment_id that is a number',
      (a) => ({ ...a, 'https://purl.imsglobal.org/spec/lti-tool-configuration': { deployment_id: 7 } }),
      'deployment',
      /deployment_id: needs 1 to 255 printable characters, got 7/,
    ],
    [
      'a tool configuration that is a list',
      (a) => ({ ...a, 'https://purl.imsglobal.org/spec/lti-tool-configuration': [] }),
      'registration',
      /lti-tool-configuration: needs an object/,
    ],
    ['a scope that is a list', (a) => ({ ...a, scope: [SCORE] }), 'registration', /scope: needs a string/],
  ];
  const url = await invite();
  for (const [what, change, check, reason] of [
    ...configs.map(([w, c, k, r]) => [w, { config: c }, k, r]),
    ...answers.map(([w, a, k, r]) => [w, { answer: a }, k, r]),
  ])
    await t.test(what, async () => {
      // 1.5 s for the platform that never answers (the service reads it per request); the default (10 s)
      // for the others, whose answers a busy machine may slow
      stack.config.platform_timeout_ms = reason.source.includes('no answer') ? 1500 : 10_000;
      dr.config = change.config ?? ((c) => c);
      dr.answer = change.answer ?? ((a) => a);
      const before = [await count('platforms'), await count('deployments')];
      const r = await other.dynamicRegister(url);
      assert.equal(r.check, check, r.html);
      assert.equal(r.status, 502);
      assert.match(r.html, reason);
      assert.match(r.html, /Nothing was stored here/);
      assert.doesNotMatch(r.html, /<script>alert/);
      assert.deepEqual([await count('platforms'), await count('deployments')], before);
    });
  await t.test('the registration request itself: no openid_configuration, or one not on https', async () => {
    for (const query of [{}, { openid_configuration: 'http://lms.example.org/.well-known/openid-configuration' }]) {
      const r = await other.dynamicRegister(url, { query });
      assert.equal(r.check, 'openid_configuration');
    }
  });
  await t.test('after all that, the same invitation still registers the platform', async () => {
    dr.config = (c) => c;
    dr.answer = (a) => a;
    const r = await other.dynamicRegister(url);
    assert.equal(r.status, 200, r.html);
    assert.ok(await stack.svc.db.get('SELECT 1 AS ok FROM platforms WHERE client_id = ?', ['hostile-client']));
  });
});

test('a platform that names no deployment and grants no score scope: registered, launches from its deployments accepted, and the page says grades will not flow', async () => {
  const lms = await startPlatform({ clientId: 'canvas-like', deployment: 'dep-7' });
  try {
    lms.state.dr.deployment = null;
    lms.state.dr.answer = (a) => ({ ...a, scope: 'openid' });
    const r = await lms.dynamicRegister(await invite());
    assert.equal(r.status, 200, r.html);
    assert.match(r.html, /gave no deployment id/);
    assert.match(r.html, /<p id="warning">The platform did not grant the grade \(AGS score\) scope/);
    const row = await stack.svc.db.get('SELECT * FROM platforms WHERE client_id = ?', ['canvas-like']);
    assert.equal(Number(row.deployments_open), 1);
    const lmsStack = { ...stack, platform: lms };
    const item = await deepLink(lmsStack, { exercise: 'sdpa', track: 'js' });
    const { token, browser } = await launchItem(lmsStack, item, 'open-deployment-student');
    const state = await browser.api(stack.url, token, '/api/state');
    assert.equal(state.status, 200);
    assert.equal(state.body.exercise, 'sdpa');
    const list = spawnSync(process.execPath, [CLI, 'platform', 'list', '--data', stack.data], { encoding: 'utf8' });
    assert.match(list.stdout, /client canvas-like\tdeployments any its launches name/);
  } finally {
    await lms.close();
  }
});

test('the failed registration page speaks Russian to a Russian browser', async () => {
  const res = await fetch(`${stack.url}/lti/register/nope?openid_configuration=x`, {
    headers: { 'accept-language': 'ru-RU,ru;q=0.9' },
  });
  const html = await res.text();
  assert.equal(res.status, 403);
  assert.match(html, /Регистрация в системе курса не удалась/);
  assert.match(html, /Приглашение в этой ссылке регистрации неизвестно/);
  assert.match(html, /Здесь ничего не сохранено/);
});

test('in Chromium: the LMS frames the registration URL and the tool closes it with org.imsglobal.lti.close', async () => {
  const lms = await startPlatform({ clientId: 'framed-client' });
  const browser = await openBrowser();
  try {
    const page = await (await browser.newContext()).newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e));
    await page.goto(`${lms.url}/admin/register?url=${encodeURIComponent(await invite())}`);
    await page.waitForFunction(() => globalThis.received.length > 0, null, { timeout: 60_000 });
    assert.deepEqual(await page.evaluate(() => globalThis.received), [
      { data: { subject: 'org.imsglobal.lti.close' }, fromTool: true },
    ]);
    assert.equal(await page.locator('#reg').count(), 0); // the LMS closed the frame
    assert.ok(await stack.svc.db.get('SELECT 1 AS ok FROM platforms WHERE client_id = ?', ['framed-client']));
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await lms.close();
  }
});
