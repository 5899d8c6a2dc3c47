// A placement's late policy (server/late.mjs), on SQLite against the platform simulator: the arithmetic
// (a started day counts, the cap, the rounding), the policies the API refuses with a message naming the
// field, only a teacher sets one; a submission after the due time is flagged late in every view and the
// score the LMS receives by AGS is less the penalty with a comment saying why; moving the due time sends
// the changed score again; the gradebook's columns.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROLE } from './platform.mjs';
import { deepLink, launchItem, read, root, startStack, submitAndWait } from './helpers.mjs';
import { parseCsv } from '../js/csv.mjs';
import { PolicyError, lateScore, parsePolicy, policyOf } from '../../server/late.mjs';
import { t } from '../../server/messages.mjs';
import { openBrowser } from '../../tools/lib/chromium.mjs';

const DAY = 24 * 3600_000;
const RIGHT = read(join(root, 'exercises', 'sdpa', 'solution.js'));

test('the arithmetic: on time, a started day counts, the cap, rounding to 0.01', () => {
  const p = { due_at: 1_000 * DAY, late_per_day: 10, late_cap: 25 };
  assert.deepEqual(lateScore(p, 1_000 * DAY - 1, 7), { late_ms: 0, days: 0, penalty: 0, score: 7 });
  assert.deepEqual(lateScore(p, 1_000 * DAY, 7), { late_ms: 0, days: 0, penalty: 0, score: 7 });
  assert.deepEqual(lateScore(p, 1_000 * DAY + 1, 7), { late_ms: 1, days: 1, penalty: 10, score: 6.3 });
  assert.deepEqual(lateScore(p, 1_001 * DAY + 1, 7).days, 2);
  assert.deepEqual(lateScore(p, 1_010 * DAY, 7), { late_ms: 10 * DAY, days: 10, penalty: 25, score: 5.25 });
  assert.equal(lateScore({ ...p, late_per_day: 3.3 }, 1_000 * DAY + 1, 5).score, 4.84); // 5 × 0.967 = 4.835
  assert.equal(lateScore(p, 1_010 * DAY, null).score, null); // not graded yet
  assert.deepEqual(lateScore({ due_at: null }, 5_000 * DAY, 3), { late_ms: 0, days: 0, penalty: 0, score: 3 });
  assert.equal(t('en', 'late.comment', { days: 1, penalty: 10 }), 'Late by 1 day: −10%.');
  assert.equal(t('ru', 'late.comment', { days: 3, penalty: 25 }), 'Опоздание на 3 дня: −25%.');
});

test('a policy from the API: defaults, and every bad field named', () => {
  assert.deepEqual(parsePolicy({ due: '2026-03-01T23:59:00+03:00' }), {
    due_at: Date.parse('2026-03-01T20:59:00Z'),
    late_per_day: 10,
    late_cap: 100,
  });
  assert.deepEqual(parsePolicy({ due: null }), { due_at: null, late_per_day: null, late_cap: null });
  assert.equal(policyOf({ due_at: null }), null);
  const bad = [
    [{ due: '2026-03-01T23:59' }, 'late_due', 'due'], // no zone: whose 23:59?
    [{ due: 'tomorrow' }, 'late_due', 'due'],
    [{ due: 1700000000000 }, 'late_due', 'due'],
    [{ due: '2026-03-01T23:59:00Z', per_day: 101 }, 'late_percent', 'per_day'],
    [{ due: '2026-03-01T23:59:00Z', per_day: '10' }, 'late_percent', 'per_day'],
    [{ due: '2026-03-01T23:59:00Z', cap: -1 }, 'late_percent', 'cap'],
    [{ due: '2026-03-01T23:59:00Z', cap: Number.NaN }, 'late_percent', 'cap'],
  ];
  for (const [body, key, field] of bad)
    assert.throws(
      () => parsePolicy(body),
      (e) => e instanceof PolicyError && e.key === key && e.params.field === field,
      JSON.stringify(body),
    );
});

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => stack?.close());

test('a late submission: flagged, the LMS gets the score less the penalty with a comment, and a moved due time sends it again', async () => {
  const { url, platform } = stack;
  const item = await deepLink(stack, { exercise: 'sdpa', track: 'js' });
  const teacher = await launchItem(stack, item, 'late-teacher', { roles: [ROLE.instructor] });
  const student = await launchItem(stack, item, 'late-student');
  const setPolicy = (who, json) => who.browser.api(url, who.token, '/api/late-policy', { method: 'POST', json });

  // Only a teacher sets it, and a bad one is refused with a sentence naming the field.
  const byStudent = await setPolicy(student, { due: new Date().toISOString() });
  assert.equal(byStudent.status, 403);
  assert.equal(byStudent.body.error, 'instructor_only');
  const noZone = await setPolicy(teacher, { due: '2026-03-01T23:59' });
  assert.equal(noZone.status, 400);
  assert.equal(noZone.body.error, 'late_due');
  assert.match(noZone.body.message, /needs an ISO 8601 time with its zone .*got "2026-03-01T23:59"/);
  const tooMuch = await setPolicy(teacher, { due: new Date().toISOString(), per_day: 150 });
  assert.equal(tooMuch.body.error, 'late_percent');
  assert.match(tooMuch.body.message, /"per_day" needs a number from 0 to 100 \(a percentage\); got 150/);
  const extra = await setPolicy(teacher, { due: null, penalty: 5 });
  assert.equal(extra.status, 400);
  assert.match(extra.body.message, /unknown field "penalty"/);

  // Due 2.5 days ago: 3 started days late, 10% a day, at most 25%.
  const due = new Date(Date.now() - 2.5 * DAY).toISOString();
  const set = await setPolicy(teacher, { due, per_day: 10, cap: 25 });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  assert.deepEqual(set.body, { late_policy: { due, per_day: 10, cap: 25 }, resent: 0 });
  const state = await student.browser.api(url, student.token, '/api/state');
  assert.deepEqual(state.body.late_policy, { due, per_day: 10, cap: 25 });

  const n0 = platform.state.scores.length;
  const sub = await submitAndWait(url, student, RIGHT);
  assert.equal(sub.passed, 7);
  assert.deepEqual([sub.late_days, sub.penalty, sub.score, sub.score_state], [3, 25, 5.25, 'sent']);
  const sent = platform.state.scores.slice(n0);
  assert.equal(sent.length, 1);
  assert.deepEqual(
    [sent[0].body.userId, sent[0].body.scoreGiven, sent[0].body.scoreMaximum, sent[0].body.comment],
    ['late-student', 5.25, 7, 'Late by 3 days: −25%.'],
  );
  assert.equal(sent[0].body.timestamp, new Date(sub.created_at).toISOString());

  // The teacher's views flag it.
  const cls = await teacher.browser.api(url, teacher.token, '/api/class');
  const row = cls.body.students.find((s) => s.sub === 'late-student');
  assert.deepEqual([row.latest.late_days, row.latest.penalty, row.latest.score], [3, 25, 5.25]);
  const csv = parseCsv((await teacher.browser.api(url, teacher.token, '/api/gradebook.csv')).body).rows;
  assert.deepEqual(csv[0], [
    'user_id',
    'name',
    'score',
    'max',
    'submissions',
    'overridden',
    'reason',
    'late_days',
    'penalty',
  ]);
  assert.deepEqual(
    csv.find((r) => r[0] === 'late-student'),
    ['late-student', 'late-student', '5.25', '7', '1', 'no', '', '3', '25'],
  );

  // An extension: the due time moved to tomorrow sends the full score again; clearing it changes nothing more.
  const moved = await setPolicy(teacher, { due: new Date(Date.now() + DAY).toISOString(), per_day: 10, cap: 25 });
  assert.equal(moved.body.resent, 1);
  const again = platform.state.scores.at(-1).body;
  assert.deepEqual([again.userId, again.scoreGiven, again.comment], ['late-student', 7, undefined]);
  const after = await student.browser.api(url, student.token, `/api/submissions/${sub.id}`);
  assert.deepEqual([after.body.late_days, after.body.penalty, after.body.score], [0, 0, 7]);
  const cleared = await setPolicy(teacher, { due: null });
  assert.deepEqual(cleared.body, { late_policy: null, resent: 0 });
  assert.equal(platform.state.scores.length, n0 + 2);
});

test('in Chromium: the teacher sets the policy in the launch page, which shows it to the class', async () => {
  const { url, platform } = stack;
  const item = await deepLink(stack, { exercise: 'sdpa', track: 'js' });
  const browser = await openBrowser();
  let due;
  try {
    const page = await (await browser.newContext({ viewport: { width: 1300, height: 1000 } })).newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e));
    platform.prepare('late-ui-teacher', {
      sub: 'late-ui-teacher',
      roles: [ROLE.instructor],
      custom: item.custom,
      lineitem: item.id,
      link: 'link-ui',
    });
    await page.goto(`${platform.url}/course/late-ui-teacher`);
    const session = page.frameLocator('#tool');
    await session.locator('#late-policy').waitFor({ timeout: 120_000 });
    await session.locator('#late-due').fill('2031-05-20T18:30');
    await session.locator('#late-per-day').fill('5');
    await session.locator('#late-cap').fill('50');
    await session.locator('#late-policy button[type=submit]').click();
    await session.locator('#late-saved', { hasText: 'Saved; scores sent again: 0.' }).waitFor();
    due = await session.locator('#late-due').evaluate(() => new Date('2031-05-20T18:30').getTime()); // the browser's zone
    const row = await stack.svc.db.get(
      'SELECT due_at, late_per_day, late_cap FROM placements WHERE resource_link_id = ?',
      ['link-ui'],
    );
    assert.deepEqual([Number(row.due_at), row.late_per_day, row.late_cap], [due, 5, 50]);
    assert.match(await session.locator('#due').textContent(), /^Due .+; late: −5% a day, at most −50%\.$/);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
  const state = await launchItem(stack, item, 'late-ui-student', { link: 'link-ui' });
  const seen = await state.browser.api(url, state.token, '/api/state');
  assert.deepEqual(seen.body.late_policy, { due: new Date(due).toISOString(), per_day: 5, cap: 50 });
});
