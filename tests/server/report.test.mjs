// The class report from the database (GET /api/report.html: grade-batch's report.html over each
// student's latest graded submission), on SQLite: for a teacher, with its students, their scores and the
// diagnoses, its inline script and style allowed by their hashes and nothing else; refused to a student.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ROLE } from './platform.mjs';
import { FIXTURE, deepLink, launchItem, read, root, startStack, submitAndWait } from './helpers.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => stack?.close());

test('a teacher gets the class report from the database; a student does not', async () => {
  const { url } = stack;
  const item = await deepLink(stack, { exercise: 'sdpa', track: 'python' });
  const ann = await launchItem(stack, item, 'ann');
  const ben = await launchItem(stack, item, 'ben');
  await submitAndWait(url, ann, read(join(root, 'exercises', 'sdpa', 'solution.py')));
  const wrong = await submitAndWait(url, ben, read(join(FIXTURE('py-no-scaling'), 'submission.py')));
  const teacher = await launchItem(stack, item, 'teach', { roles: [ROLE.instructor] });

  const refused = await ann.browser.api(url, ann.token, '/api/report.html');
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error, 'instructor_only');

  const res = await fetch(`${url}/api/report.html`, { headers: { 'x-attnlab-session': teacher.token } });
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /<html lang="en">/);
  assert.match(html, /ann \(ann\)/);
  assert.match(html, /ben \(ben\)/);
  assert.match(html, /2 submissions/);
  const causes = wrong.report.tests.filter((t) => t.cause).map((t) => t.cause.key);
  assert.ok(causes.length > 0, 'the wrong solution has a named cause');
  for (const key of new Set(causes)) assert.ok(html.includes(key), `the diagnosis ${key} is in the report`);
  // Only the report's own inline script and style may run: their hashes, nothing else.
  const csp = res.headers.get('content-security-policy');
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)[1];
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)[1];
  const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  assert.match(csp, new RegExp(`script-src ${hash(script).replace(/[+/]/g, '\\$&')};`));
  assert.match(csp, new RegExp(`style-src ${hash(style).replace(/[+/]/g, '\\$&')};`));
  assert.match(csp, /default-src 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline/);
});
