// Who may frame embed mode (web/csp.mjs): the parent-origin a URL names, checked to the letter; the host's
// list of sources and how an origin matches it; the URL parameters embed mode and packages may read
// (web/src/mode.js); tools/serve refusing a bad --embed-ancestors with a message (exit 2). The messages
// themselves are tested in the browser (tests/browser/embed.test.mjs). And a cmi5 launch's origins in
// the page's connect-src (web/page-policy.mjs; in chromium: tests/browser/cmi5.test.mjs).
// Run: node --test tests/js/embed.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import {
  embedFrameAncestors,
  launchConnectSources,
  originAllowed,
  PAGE_META_CSP,
  pageMetaCsp,
  parseEmbedAncestors,
  parseOrigin,
  securityHeaders,
  STATIC_META_CSP,
} from '../../web/csp.mjs';
import { URL_PARAMS, pageParams } from '../../web/src/mode.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test('parseOrigin: only an http(s) origin exactly as location.origin writes it', () => {
  for (const ok of ['https://course.example.org', 'http://127.0.0.1:8080', 'https://xn--80ak6aa92e.com'])
    assert.equal(parseOrigin(ok), ok);
  for (const bad of [
    'https://course.example.org/',
    'https://a.org/x',
    'HTTPS://A.ORG',
    'https://a.org:443',
    'file:///x',
    'null',
    'javascript:alert(1)',
    'https://a.org?x',
    'https://user@a.org',
    "https://a.org 'unsafe-inline'",
    '',
    null,
    undefined,
    42,
    `https://${'a'.repeat(300)}.org`,
  ]) {
    assert.equal(parseOrigin(bad), null, String(bad));
  }
});

test("originAllowed: a parent origin against the host's sources, as CSP matches them", () => {
  const allowed = (o, list, self) => originAllowed(o, list, self);
  const list = ['https://lms.example.org', 'https://*.school.edu', 'http://127.0.0.1:8080', 'http://localhost:*'];
  for (const ok of [
    'https://lms.example.org',
    'https://a.school.edu',
    'https://x.y.school.edu',
    'http://127.0.0.1:8080',
    'http://localhost:3000',
    'http://localhost',
  ])
    assert.equal(allowed(ok, list), true, ok);
  for (const no of [
    'http://lms.example.org', // another scheme
    'https://lms.example.org:8443', // another port
    'https://school.edu', // *. is subdomains only
    'https://evilschool.edu',
    'https://school.edu.evil.org',
    'http://127.0.0.1:8081', // another port of the same host: another origin
    'http://127.0.0.1',
    'https://lms.example.org/', // not an origin
    'null',
    null,
  ])
    assert.equal(allowed(no, list), false, String(no));
  assert.equal(allowed('https://lms.example.org:443', ['https://lms.example.org']), false, "not parseOrigin's form");
  assert.equal(allowed('https://lms.example.org', ['https://lms.example.org:443']), true, 'the default port');
  assert.equal(allowed('https://LMS.example.org', ['https://lms.example.org']), false);
  assert.equal(allowed('https://lms.example.org', ['https://LMS.Example.org']), true, 'hosts compare in lower case');
  assert.equal(allowed('https://any.org', ['*']), true);
  assert.equal(allowed('https://any.org', ['https:']), true);
  assert.equal(allowed('http://any.org', ['https:']), false);
  assert.equal(allowed('http://127.0.0.1:5', ["'self'"], 'http://127.0.0.1:5'), true);
  assert.equal(allowed('http://127.0.0.1:6', ["'self'"], 'http://127.0.0.1:5'), false);
  assert.equal(allowed('https://a.org', []), false, 'an empty list allows nobody');
  assert.equal(allowed('https://a.org', ['parent']), false, 'parent is no source');
  assert.equal(allowed('https://a.org', null), false);
});

test("embedFrameAncestors: the host's sources when they allow the named parent; no list, a bad or unlisted parent → 'none'", () => {
  const list = ['https://c.org', 'https://*.lms.org'];
  assert.equal(embedFrameAncestors('https://c.org'), "'none'", 'no list: embed mode off');
  assert.equal(embedFrameAncestors('https://c.org', []), "'none'");
  assert.equal(embedFrameAncestors('https://c.org', list), 'https://c.org https://*.lms.org');
  assert.equal(embedFrameAncestors('https://a.lms.org', list), 'https://c.org https://*.lms.org');
  assert.equal(embedFrameAncestors('https://evil.org', list), "'none'", 'a page naming itself is not in the list');
  assert.equal(embedFrameAncestors('https://c.org/', list), "'none'");
  assert.equal(embedFrameAncestors(null, list), "'none'");
  assert.equal(embedFrameAncestors('https://any.org', ['*']), '*');
  assert.match(
    securityHeaders('/index.html', { frameAncestors: 'https://c.org' })['content-security-policy'],
    /; frame-ancestors https:\/\/c\.org$/,
  );
  assert.match(securityHeaders('/index.html')['content-security-policy'], /; frame-ancestors 'none'$/);
});

test("parseEmbedAncestors: origins, wildcards, schemes, 'self' and *; parent refused; anything else named", () => {
  assert.deepEqual(
    parseEmbedAncestors(" https://*.school.edu https://lms.org:8443 http://127.0.0.1:* https: 'self' * "),
    ['https://*.school.edu', 'https://lms.org:8443', 'http://127.0.0.1:*', 'https:', "'self'", '*'],
  );
  for (const [bad, named] of [
    ['https://a.org/', 'https://a.org/'],
    ["'unsafe-inline'", "'unsafe-inline'"],
    ['https://a.org;', 'https://a.org;'],
    ['ftp://a.org', 'ftp://a.org'],
    ['https://a.org,https://b.org', 'https://a.org,https://b.org'],
  ]) {
    assert.throws(
      () => parseEmbedAncestors(bad),
      (e) => e.message.includes(`"${named}" is not an origin`),
      bad,
    );
  }
  assert.throws(() => parseEmbedAncestors('parent https://lms.org'), /"parent" is no longer a source/);
  assert.throws(() => parseEmbedAncestors('  '), /empty/);
});

test("pageParams: the page itself reads every parameter; embed mode and packages only what to show and the course's settings", () => {
  const q =
    '?exercise=sdpa&track=python&lang=en&theme=dark&solution=always&timeout=600000&flavour=baseline&backend=wasm&threads=2&scaleMax=16&memoryMax=16&nosw';
  const page = pageParams(q, { embed: false });
  for (const k of Object.keys(URL_PARAMS)) assert.ok(page.has(k), k);
  // Every parameter main.js reads is classified (a new one must say whether embed mode may read it).
  const main = readFileSync(`${ROOT}web/src/main.js`, 'utf8');
  const read = new Set([...main.matchAll(/params\.(?:get|has)\('([^']+)'\)/g)].map((m) => m[1]));
  assert.deepEqual(
    [...read].filter((k) => !(k in URL_PARAMS)),
    [],
    'unclassified parameters in main.js',
  );
  assert.deepEqual(
    Object.entries(URL_PARAMS)
      .filter(([, who]) => who === 'show')
      .map(([k]) => k),
    ['exercise', 'track', 'lang', 'theme'],
  );
  assert.deepEqual(
    Object.entries(URL_PARAMS)
      .filter(([, who]) => who === 'course')
      .map(([k]) => k),
    ['solution'],
  );
  for (const mode of [
    { embed: true, parentOrigin: 'https://c.org' },
    { embed: true, pkg: { scorm: '1.2' } },
  ]) {
    const p = pageParams(q, mode);
    assert.deepEqual([...p.keys()], ['exercise', 'track', 'lang', 'theme', 'solution'], JSON.stringify(mode));
    for (const k of ['timeout', 'flavour', 'backend', 'threads', 'scaleMax', 'memoryMax', 'nosw'])
      assert.equal(p.has(k), false, k);
  }
});

test('tools/serve --embed-ancestors with a bad source: exit 2, the source named, no stack trace', () => {
  const r = spawnSync(`${ROOT}tools/serve`, ['--port', '0', '--embed-ancestors', 'https://lms.org/path'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60000,
  });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /--embed-ancestors: embed ancestors: "https:\/\/lms\.org\/path" is not an origin/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});

const launch = (endpoint, fetch) =>
  new URLSearchParams({ endpoint, fetch, actor: '{}', registration: 'r', activityId: 'urn:a:b' }).toString();

test("launchConnectSources: exactly the origins of a cmi5 launch's endpoint and fetch URL, or none", () => {
  assert.deepEqual(launchConnectSources(launch('https://lrs.org:8443/xapi/', 'https://lms.org/fetch/1?x=1')), [
    'https://lrs.org:8443',
    'https://lms.org',
  ]);
  assert.deepEqual(launchConnectSources(launch('https://lms.org/xapi', 'https://lms.org/fetch')), ['https://lms.org']);
  assert.deepEqual(launchConnectSources('?endpoint=https://lrs.org/'), [], 'no fetch: no launch');
  assert.deepEqual(launchConnectSources(''), []);
  for (const [endpoint, fetch] of [
    ['javascript:alert(1)', 'https://lms.org/f'],
    ['https://lrs.org/', 'data:text/plain,x'],
    ['https://user:pw@lrs.org/', 'https://lms.org/f'],
    ["https://lrs.org 'unsafe-eval'/", 'https://lms.org/f'],
    ['lrs.org', 'https://lms.org/f'],
    [`https://lrs.org/${'a'.repeat(2000)}`, 'https://lms.org/f'],
  ])
    assert.deepEqual(launchConnectSources(launch(endpoint, fetch)), [], `${endpoint} ${fetch}`);
  // a URL whose text tries to add a source: the origin is all that is kept
  assert.deepEqual(launchConnectSources(launch("https://lrs.org/;script-src * 'unsafe-eval'", 'https://lms.org/f')), [
    'https://lrs.org',
    'https://lms.org',
  ]);
});

const directives = (policy) => policy.split('; ').map((d) => d.split(' ')[0]);
test("the page's policy: header and <meta> with a launch's origins in connect-src; index.html's static <meta> has every other directive", () => {
  const connect = ['https://lrs.org', 'https://lms.org'];
  assert.match(pageMetaCsp(connect), /(^|; )connect-src 'self' https:\/\/lrs\.org https:\/\/lms\.org(;|$)/);
  assert.match(
    securityHeaders('/index.html', { connect })['content-security-policy'],
    /connect-src 'self' https:\/\/lrs\.org https:\/\/lms\.org;.*frame-ancestors 'none'$/,
  );
  assert.match(securityHeaders('/index.html')['content-security-policy'], /connect-src 'self';/);
  // The static <meta> and page-csp.js's together: each directive of the page's policy, nothing looser.
  const full = directives(PAGE_META_CSP);
  const stat = directives(STATIC_META_CSP);
  assert.deepEqual(
    full.filter((d) => !stat.includes(d)),
    ['default-src', 'connect-src'],
  );
  for (const d of PAGE_META_CSP.split('; ').filter((x) => !/^(default|connect)-src /.test(x)))
    assert.ok(STATIC_META_CSP.split('; ').includes(d), d);
  for (const d of ['font-src', 'media-src', 'manifest-src', 'frame-src', 'child-src'])
    assert.match(STATIC_META_CSP, new RegExp(`${d} 'self'`), `${d}: default-src's part, spelled out`);
});
