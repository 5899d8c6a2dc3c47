// End to end in Chromium (playwright-core, Debian's chromium; tools/lib/chromium.mjs): the platform
// simulator's course page frames the tool, the tool's launch page frames the exercise page in embed
// mode. A teacher deep-links sdpa/python with the picker; a student checks a wrong then a right
// solution in the page and sees what the course recorded (the platform received 2/7 then 7/7); a
// `checked` dispatched from the console with 7/7 over wrong code records the server's 2/7; a reload
// restores the code; the teacher overrides a score in the class table and regrades. On SQLite, and on a
// throwaway PostgreSQL when Debian's is installed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openBrowser } from '../../tools/lib/chromium.mjs';
import { ensureBuilt } from '../../web/server.mjs';
import { FIXTURE, havePostgres, read, root, startPostgres, startStack } from './helpers.mjs';
import { ROLE } from './platform.mjs';

const WRONG = read(join(FIXTURE('py-no-scaling'), 'submission.py'));
const RIGHT = read(join(root, 'exercises', 'sdpa', 'solution.py'));
const cleanup = [];
after(async () => {
  for (const f of cleanup.reverse()) await f();
});

/** The frame whose URL matches `re`, once it exists. */
async function frameOf(page, re) {
  for (let i = 0; i < 600; i++) {
    const f = page.frames().find((x) => re.test(x.url()));
    if (f) return f;
    await page.waitForTimeout(100);
  }
  throw new Error(`no frame ${re}: ${page.frames().map((f) => f.url())}`);
}

/** The LMS course page for a prepared launch: { session, exercise } frames, the exercise's core loaded. */
async function openCourse(page, platform, hint) {
  await page.goto(`${platform.url}/course/${hint}`);
  const session = await frameOf(page, /\/lti\/session/);
  const exercise = await frameOf(page, /\/app\/index\.html\?embed=1/);
  await exercise.waitForFunction(() => document.documentElement.dataset.ready === 'core', null, { timeout: 120_000 });
  return { session, exercise };
}

/** Sets the editor's code and clicks Check in the exercise frame; waits for the launch page to say what was recorded. */
async function checkAndWait(session, exercise, code, text) {
  await exercise.evaluate((c) => {
    window.attnlab.editor.value = c;
  }, code);
  await exercise.click('#check');
  await recorded(session, text);
}

/** Waits (long: a busy machine grades slowly, and no test judges speed) for the launch page to say `text`; on a timeout, says what it said. */
async function recorded(session, text) {
  try {
    await session.waitForFunction((t) => document.getElementById('status').textContent === t, text, {
      timeout: 420_000,
    });
  } catch (e) {
    const said = await session.evaluate(() => document.getElementById('status').textContent).catch(() => '?');
    throw new Error(`the launch page never said "${text}"; it says "${said}"`, { cause: e });
  }
}

/** The flow, a failure carrying what the service warned of (its causes are in the service's log). */
async function flow(stack) {
  try {
    await flowOf(stack);
  } catch (e) {
    const warned = stack.warnings().slice(-5);
    if (warned.length) e.message += `\nthe service warned:\n${warned.join('\n')}`;
    throw e;
  }
}

async function flowOf(stack) {
  const { platform } = stack;
  const browser = await openBrowser();
  cleanup.push(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1300, height: 1000 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));

  // The teacher places sdpa on the Python track with the picker.
  platform.prepare('e2e-teacher-dl', { sub: 'teacher', roles: [ROLE.instructor], type: 'LtiDeepLinkingRequest' });
  await page.goto(`${platform.url}/course/e2e-teacher-dl`);
  const picker = await frameOf(page, /\/lti\/session/);
  await picker.waitForSelector('#pick-exercise');
  await picker.selectOption('#pick-exercise', 'sdpa');
  await picker.selectOption('#pick-track', 'python');
  await picker.click('form button[type=submit]');
  await page.frameLocator('#tool').locator('#placed').waitFor();
  const item = [...platform.state.lineitems.values()].at(-1);
  assert.equal(item.scoreMaximum, 7);
  assert.deepEqual(item.custom, { exercise: 'sdpa', track: 'python' });

  // The student: wrong, then right, each checked in the page.
  platform.prepare('e2e-alice', { sub: 'alice', custom: item.custom, lineitem: item.id });
  const { session, exercise } = await openCourse(page, platform, 'e2e-alice');
  const n0 = platform.state.scores.length;
  await checkAndWait(session, exercise, WRONG, 'Recorded by your course: 2 of 7');
  await checkAndWait(session, exercise, RIGHT, 'Recorded by your course: 7 of 7');
  assert.deepEqual(
    platform.state.scores
      .slice(n0)
      .map((s) => [
        s.body.userId,
        s.body.scoreGiven,
        s.body.scoreMaximum,
        s.body.activityProgress,
        s.body.gradingProgress,
      ]),
    [
      ['alice', 2, 7, 'Completed', 'FullyGraded'],
      ['alice', 7, 7, 'Completed', 'FullyGraded'],
    ],
  );

  // A `checked` dispatched from the console claims 7/7 over wrong code: the course records the server's 2/7.
  await exercise.evaluate((c) => {
    window.attnlab.editor.value = c;
  }, WRONG);
  await exercise.evaluate(() =>
    dispatchEvent(new CustomEvent('attnlab:checked', { detail: { passed: 7, total: 7, tests: [] } })),
  );
  await recorded(session, 'Recorded by your course: 2 of 7');
  assert.equal(platform.state.scores.at(-1).body.scoreGiven, 2);
  assert.ok(
    !platform.state.scores.slice(n0 + 2).some((s) => s.body.scoreGiven === 7),
    'the claim never reaches the LMS',
  );

  // A reload (a new launch) restores the latest code from the server.
  platform.prepare('e2e-alice-2', { sub: 'alice', custom: item.custom, lineitem: item.id });
  const again = await openCourse(page, platform, 'e2e-alice-2');
  await again.exercise.waitForFunction((c) => window.attnlab.editor.value === c, WRONG, { timeout: 30_000 });

  // The teacher: the class table, an override with a reason, a regrade.
  platform.prepare('e2e-teacher', { sub: 'teacher', roles: [ROLE.instructor], custom: item.custom, lineitem: item.id });
  const t = await openCourse(page, platform, 'e2e-teacher');
  await t.session.waitForSelector('#teacher table');
  const row = t.session.locator('#teacher tr', { hasText: 'alice' });
  await row.locator('input[type=number]').fill('6');
  await row.locator('input[type=text]').fill('extension granted');
  const before = platform.state.scores.length;
  await row.locator('button', { hasText: 'Override' }).click();
  await t.session.waitForFunction(() => /6 \(extension granted\)/.test(document.getElementById('teacher').textContent));
  assert.equal(platform.state.scores.length, before + 1);
  assert.deepEqual(
    [platform.state.scores.at(-1).body.scoreGiven, platform.state.scores.at(-1).body.comment],
    [6, 'extension granted'],
  );
  await t.session.click('#teacher button:has-text("Regrade everyone")');
  await t.session.waitForFunction(
    () => /Regraded 1: 0 changed\./.test(document.getElementById('regrade')?.textContent ?? ''),
    null,
    {
      timeout: 420_000,
    },
  );
  assert.deepEqual(errors, []);
  await context.close();
}

test('end to end in Chromium on SQLite', async () => {
  await ensureBuilt({ quiet: true });
  const stack = await startStack();
  cleanup.push(() => stack.close());
  await flow(stack);
});

test(
  'end to end in Chromium on PostgreSQL',
  { skip: havePostgres() ? false : 'Debian postgresql 15 is not installed' },
  async () => {
    const pg = await startPostgres();
    cleanup.push(() => pg.stop());
    const stack = await startStack({ database: pg.url });
    cleanup.push(() => stack.close());
    await flow(stack);
  },
);
