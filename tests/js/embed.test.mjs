// Who may frame embed mode (web/csp.mjs): the parent-origin a URL names, checked to the letter; the host's
// list of sources; tools/serve refusing a bad --embed-ancestors with a message (exit 2). The messages
// themselves are tested in the browser (tests/browser/embed.test.mjs).
// Run: node --test tests/js/embed.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { embedFrameAncestors, parseEmbedAncestors, parseOrigin, securityHeaders } from '../../web/csp.mjs';

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

test("embedFrameAncestors: `parent` is the named origin when valid; the host's other sources stay; nothing left → 'none'", () => {
  assert.equal(embedFrameAncestors('https://c.org'), 'https://c.org');
  assert.equal(embedFrameAncestors('https://c.org/'), "'none'");
  assert.equal(embedFrameAncestors(null), "'none'");
  assert.equal(embedFrameAncestors('https://c.org', ['parent', 'https://lms.org']), 'https://c.org https://lms.org');
  assert.equal(embedFrameAncestors('https://lms.org', ['parent', 'https://lms.org']), 'https://lms.org');
  assert.equal(embedFrameAncestors('bad', ['parent', "'self'"]), "'self'");
  assert.equal(embedFrameAncestors(null, ['*']), '*');
  assert.match(
    securityHeaders('/index.html', { frameAncestors: 'https://c.org' })['content-security-policy'],
    /; frame-ancestors https:\/\/c\.org$/,
  );
  assert.match(securityHeaders('/index.html')['content-security-policy'], /; frame-ancestors 'none'$/);
});

test("parseEmbedAncestors: origins, wildcards, schemes, 'self', * and parent; anything else named", () => {
  assert.deepEqual(
    parseEmbedAncestors(" parent  https://*.school.edu https://lms.org:8443 http://127.0.0.1:* https: 'self' * "),
    ['parent', 'https://*.school.edu', 'https://lms.org:8443', 'http://127.0.0.1:*', 'https:', "'self'", '*'],
  );
  for (const [bad, named] of [
    ['parent https://a.org/', 'https://a.org/'],
    ["'unsafe-inline'", "'unsafe-inline'"],
    ['https://a.org;', 'https://a.org;'],
    ['ftp://a.org', 'ftp://a.org'],
    ['parent,https://a.org', 'parent,https://a.org'],
  ]) {
    assert.throws(
      () => parseEmbedAncestors(bad),
      (e) => e.message.includes(`"${named}" is not an origin`),
      bad,
    );
  }
  assert.throws(() => parseEmbedAncestors('  '), /empty/);
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
