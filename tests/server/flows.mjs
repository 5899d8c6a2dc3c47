// The course's flow, the same on every database (service.test.mjs on SQLite, postgres.test.mjs on
// PostgreSQL): a teacher deep-links sdpa/python; a student checks a wrong then a right solution and the
// platform receives 2/7 then 7/7 with the progress fields; a forged claim changes nothing; a reload
// restores the code; the teacher sees the class and overrides a score (sent by AGS with the reason);
// a regrade reports the diff; the gradebook CSV says what counts.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROLE } from './platform.mjs';
import { FIXTURE, deepLink, expectedPassed, launchItem, read, root, submitAndWait } from './helpers.mjs';
import { parseCsv } from '../js/csv.mjs';

const SDPA_TESTS = 7; // DESIGN.md: the seven graded tests of sdpa
const WRONG = 'py-no-scaling';

export async function courseFlow(stack) {
  const { url, platform } = stack;
  // A teacher places sdpa on the Python track: the line item's scoreMaximum is the pack's test count.
  const item = await deepLink(stack, { exercise: 'sdpa', track: 'python' });
  assert.equal(item.scoreMaximum, SDPA_TESTS);
  assert.deepEqual(item.custom, { exercise: 'sdpa', track: 'python' });
  assert.equal(item.url, `${url}/lti/launch`);
  const dl = platform.state.deepLinks.at(-1).payload;
  assert.equal(dl['https://purl.imsglobal.org/spec/lti-dl/claim/data'], 'opaque-dl-data', 'the settings data echoed');

  // A student: a wrong solution, then a right one.
  const alice = await launchItem(stack, item, 'alice');
  const before = platform.state.scores.length;
  const wrong = await submitAndWait(url, alice, read(join(FIXTURE(WRONG), 'submission.py')));
  assert.equal(wrong.passed, expectedPassed(WRONG));
  assert.equal(wrong.passed, 2);
  assert.equal(wrong.total, SDPA_TESTS);
  assert.equal(wrong.score_state, 'sent');
  const right = await submitAndWait(url, alice, read(join(root, 'exercises', 'sdpa', 'solution.py')));
  assert.equal(right.passed, SDPA_TESTS);
  const sent = platform.state.scores.slice(before);
  assert.equal(sent.length, 2, 'one score per submission');
  for (const [s, given] of [
    [sent[0], 2],
    [sent[1], SDPA_TESTS],
  ]) {
    assert.equal(s.lineitem, item.id);
    assert.equal(s.body.userId, 'alice');
    assert.equal(s.body.scoreGiven, given);
    assert.equal(s.body.scoreMaximum, SDPA_TESTS);
    assert.equal(s.body.activityProgress, 'Completed');
    assert.equal(s.body.gradingProgress, 'FullyGraded');
    assert.ok(!Number.isNaN(Date.parse(s.body.timestamp)) && s.body.timestamp.endsWith('Z'));
  }
  assert.ok(Date.parse(sent[0].body.timestamp) < Date.parse(sent[1].body.timestamp));
  // The report and its causes are stored: every test, with its status.
  assert.equal(wrong.report.tests.length, SDPA_TESTS);
  const causes = await stack.svc.db.all('SELECT test_id, status FROM causes WHERE submission_id = ? ORDER BY test_id', [
    wrong.id,
  ]);
  assert.deepEqual(
    causes.map((c) => [c.test_id, c.status]),
    wrong.report.tests.map((t) => [t.id, t.status]).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
  );

  // A forged claim: the page says 7/7 for wrong code; the body is refused, nothing is stored or sent.
  const n = platform.state.scores.length;
  const forged = await alice.browser.api(url, alice.token, '/api/submissions', {
    method: 'POST',
    json: { code: 'def causal_mask(T): pass', passed: 7, total: 7, score: 1 },
  });
  assert.equal(forged.status, 400);
  assert.match(forged.body.message, /unknown field "passed"/);
  assert.equal(platform.state.scores.length, n);

  // A reload (a new launch from the LMS) restores the latest code from the server.
  const again = await launchItem(stack, item, 'alice');
  const state = await again.browser.api(url, again.token, '/api/state');
  assert.equal(state.body.code, read(join(root, 'exercises', 'sdpa', 'solution.py')));
  assert.equal(state.body.history.length, 2);
  assert.equal(state.body.history[0].passed, SDPA_TESTS);

  // Another student cannot read alice's submission, nor the class.
  const bob = await launchItem(stack, item, 'bob');
  const peek = await bob.browser.api(url, bob.token, `/api/submissions/${wrong.id}`);
  assert.equal(peek.status, 404);
  assert.equal((await bob.browser.api(url, bob.token, '/api/class')).status, 403);
  assert.equal((await bob.browser.api(url, bob.token, `/api/students/${wrong.id}/submissions`)).status, 403);

  // The teacher: the class, alice's history, an override sent by AGS with its reason.
  const teacher = await launchItem(stack, item, 'teacher', { roles: [ROLE.instructor] });
  const view = await teacher.browser.api(url, teacher.token, '/api/class');
  assert.equal(view.status, 200);
  const row = view.body.students.find((s) => s.sub === 'alice');
  assert.equal(row.submissions, 2);
  assert.equal(row.latest.passed, SDPA_TESTS);
  const hist = await teacher.browser.api(url, teacher.token, `/api/students/${row.user}/submissions`);
  assert.deepEqual(
    hist.body.map((h) => h.passed),
    [2, SDPA_TESTS],
  );
  const teacherPeek = await teacher.browser.api(url, teacher.token, `/api/submissions/${wrong.id}`);
  assert.equal(teacherPeek.status, 200);
  const o = await teacher.browser.api(url, teacher.token, '/api/overrides', {
    method: 'POST',
    json: { user: row.user, score: 5, reason: 'late: −2' },
  });
  assert.equal(o.status, 200);
  assert.equal(o.body.score_state, 'sent');
  const last = platform.state.scores.at(-1).body;
  assert.equal(last.userId, 'alice');
  assert.equal(last.scoreGiven, 5);
  assert.equal(last.scoreMaximum, SDPA_TESTS);
  assert.equal(last.comment, 'late: −2');
  const badOverride = await teacher.browser.api(url, teacher.token, '/api/overrides', {
    method: 'POST',
    json: { user: row.user, score: 9, reason: 'x' },
  });
  assert.equal(badOverride.status, 400);
  assert.match(badOverride.body.message, /0 to 7/);
  // While the override stands, a later submission is stored and graded but does not replace the grade.
  const after = await submitAndWait(url, alice, read(join(FIXTURE(WRONG), 'submission.py')));
  assert.equal(after.score_state, 'overridden');
  assert.equal(platform.state.scores.at(-1).body.scoreGiven, 5);

  // Regrade: the pack is unchanged, so nobody changes; then a stored report made as an older pack would
  // have graded it (a test failed) is regraded back, and the diff names the student and the test.
  const same = await teacher.browser.api(url, teacher.token, '/api/regrade', { method: 'POST', json: {} });
  assert.equal(same.status, 200);
  assert.equal(same.body.changed.length, 0);
  const bobSub = await submitAndWait(url, bob, read(join(root, 'exercises', 'sdpa', 'solution.py')));
  const old = bobSub.report;
  old.tests.find((t) => t.id === 'batching').status = 'fail';
  old.passed = SDPA_TESTS - 1;
  await stack.svc.db.run("UPDATE submissions SET report = ?, passed = ?, pack_version = 'older' WHERE id = ?", [
    JSON.stringify(old),
    old.passed,
    bobSub.id,
  ]);
  const scoresBefore = platform.state.scores.length;
  const diff = await teacher.browser.api(url, teacher.token, '/api/regrade', { method: 'POST', json: {} });
  assert.deepEqual(diff.body.from.split(' ').sort(), [same.body.to, 'older'].sort());
  assert.equal(diff.body.changed.length, 1);
  assert.equal(diff.body.changed[0].before, SDPA_TESTS - 1);
  assert.equal(diff.body.changed[0].after, SDPA_TESTS);
  assert.deepEqual(diff.body.changed[0].tests, [{ id: 'batching', before: 'fail', after: 'pass' }]);
  assert.equal(platform.state.scores.length, scoresBefore + 1, 'the changed score is sent again');
  assert.equal(platform.state.scores.at(-1).body.userId, 'bob');

  // The gradebook: alice's override counts, bob's latest.
  const csv = await teacher.browser.api(url, teacher.token, '/api/gradebook.csv');
  assert.equal(csv.status, 200);
  const { rows } = parseCsv(csv.body);
  assert.deepEqual(rows[0], [
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
    rows.find((r) => r[0] === 'alice'),
    ['alice', 'alice', '5', '7', '3', 'yes', 'late: −2', '0', '0'],
    csv.body,
  );
  assert.deepEqual(
    rows.find((r) => r[0] === 'bob'),
    ['bob', 'bob', '7', '7', '1', 'no', '', '0', '0'],
    csv.body,
  );
  return { item, alice, bob, teacher, wrong };
}
