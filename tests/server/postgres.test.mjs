// The service on a real PostgreSQL (a throwaway cluster: initdb and pg_ctl on 127.0.0.1, stopped after):
// the same migrations (run twice: the second start applies none), the course's flow (flows.mjs), and a
// second process — `tools/server worker` — taking grading jobs from the same pg-boss queue.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { courseFlow } from './flows.mjs';
import {
  deepLink,
  havePostgres,
  launchItem,
  read,
  root,
  sleep,
  spawnCli,
  startPostgres,
  startStack,
  waitScored,
} from './helpers.mjs';
import { openDb, MIGRATIONS } from '../../server/db.mjs';

const skip = havePostgres() ? false : 'Debian postgresql 15 is not installed (tools/setup installs it)';
let pg, stack;
before(async () => {
  if (skip) return;
  pg = await startPostgres();
  stack = await startStack({ database: pg.url, workers: 1 });
});
after(async () => {
  await stack?.close();
  await pg?.stop();
});

test('migrations on PostgreSQL: applied once, a second open applies none', { skip }, async () => {
  const db = await openDb({ url: pg.url });
  const rows = await db.all('SELECT version FROM schema_migrations ORDER BY version');
  assert.deepEqual(
    rows.map((r) => r.version),
    MIGRATIONS.map((_, i) => i + 1),
  );
  await db.close();
});

test('the course flow on PostgreSQL', { skip }, async () => {
  await courseFlow(stack);
});

test('a worker process on the same PostgreSQL shares the queue', { skip }, async () => {
  const worker = spawnCli(['worker', '--database', pg.url, '--data', stack.data, '--workers', '1']);
  try {
    await worker.waitFor(/attnlab worker started/);
    const item = await deepLink(stack, { exercise: 'sdpa', track: 'js', hint: 'pg-teacher' });
    const students = [];
    for (let i = 0; i < 4; i++) students.push(await launchItem(stack, item, `pg-student-${i}`, { link: 'link-pg' }));
    const code = read(join(root, 'exercises', 'sdpa', 'solution.js'));
    const ids = [];
    for (let k = 0; k < 4; k++)
      for (const s of students) {
        const r = await s.browser.api(stack.url, s.token, '/api/submissions', {
          method: 'POST',
          json: { code: `${code}\n// ${k}` },
        });
        assert.equal(r.status, 202);
        ids.push([s, r.body.id]);
      }
    for (const [s, id] of ids) assert.equal((await waitScored(stack.url, s, id, { timeoutMs: 300_000 })).passed, 7);
    const by = await stack.svc.db.all(
      `SELECT graded_by, COUNT(*) AS n FROM submissions WHERE id IN (${ids.map(() => '?').join(',')}) GROUP BY graded_by`,
      ids.map(([, id]) => id),
    );
    const workerPid = worker.child.pid;
    assert.ok(
      by.some((r) => r.graded_by.endsWith(`:${workerPid}`)),
      `the worker graded some: ${JSON.stringify(by)}`,
    );
    assert.ok(
      by.some((r) => r.graded_by.endsWith(`:${process.pid}`)),
      `the server graded some: ${JSON.stringify(by)}`,
    );
    const attempts = await stack.svc.db.all(
      `SELECT attempts FROM submissions WHERE id IN (${ids.map(() => '?').join(',')})`,
      ids.map(([, id]) => id),
    );
    assert.ok(
      attempts.every((a) => a.attempts === 1),
      'each graded once',
    );
    const scores = stack.platform.state.scores.filter((s) => s.body.userId.startsWith('pg-student-'));
    assert.equal(scores.length, ids.length, 'each scored once');
  } finally {
    worker.child.kill('SIGTERM');
    await Promise.race([worker.exited, sleep(35_000)]);
    worker.child.kill('SIGKILL');
  }
});
