// Load, and a restart that loses nothing: `tools/server`'s process (node server/cli.mjs) on SQLite, 50
// simulated students submitting 200 times in all, concurrently; the server is killed (SIGKILL) in the
// middle and started again on the same data folder. Every submission is graded once with the verdict
// its fixture expects, and scored once by AGS — a score whose request was in flight at the kill (its
// row said `sending`) may arrive twice, with the same timestamp, which AGS takes as the same score. The
// p50/p95 latency from submit to score and the throughput are printed, never judged.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { startPlatform } from './platform.mjs';
import {
  CLI,
  FIXTURE,
  deepLink,
  expectedPassed,
  freePort,
  launchItem,
  read,
  root,
  sleep,
  spawnCli,
  tempDir,
} from './helpers.mjs';

const STUDENTS = 50,
  EACH = 4; // 200 submissions
const WRONG = 'no-scaling';
const cleanup = [];
after(async () => {
  for (const f of cleanup.reverse()) await f();
});

test(`${STUDENTS} students submit ${STUDENTS * EACH} times concurrently; the server is killed and restarted in the middle; each is graded and scored once`, async () => {
  const data = tempDir('load');
  cleanup.push(() => rmSync(data, { recursive: true, force: true }));
  const platform = await startPlatform();
  cleanup.push(() => platform.close());
  const reg = platform.registration();
  const add = spawnSync(
    process.execPath,
    [
      CLI,
      'platform',
      'add',
      '--data',
      data,
      '--issuer',
      reg.issuer,
      '--client-id',
      reg.client_id,
      '--auth-login-url',
      reg.auth_login_url,
      '--auth-token-url',
      reg.auth_token_url,
      '--jwks-url',
      reg.jwks_url,
      '--deployment',
      reg.deployments[0],
    ],
    { encoding: 'utf8' },
  );
  assert.equal(add.status, 0, add.stderr);
  assert.match(add.stdout, /platform 1 registered/);
  const port = await freePort();
  const args = ['--port', String(port), '--data', data, '--workers', '2'];
  let server = spawnCli(args);
  cleanup.push(() => server.child.kill('SIGKILL'));
  // Its logs are JSON lines (pino): the start says where it serves and on what.
  const started = JSON.parse(await server.waitFor(/attnlab service started/));
  assert.equal(started.msg, 'attnlab service started');
  assert.deepEqual([started.database, started.queue, started.workers], ['sqlite', 'table', 2]);
  const url = `http://127.0.0.1:${port}`;
  platform.register(url);
  const stack = { url, platform };

  const item = await deepLink(stack, { exercise: 'sdpa', track: 'js' });
  const students = [];
  for (let i = 0; i < STUDENTS; i++) students.push(await launchItem(stack, item, `student-${i}`));
  const codes = {
    wrong: read(join(FIXTURE(WRONG), 'submission.js')),
    right: read(join(root, 'exercises', 'sdpa', 'solution.js')),
  };
  const expected = { wrong: expectedPassed(WRONG), right: 7 };

  // Every student submits EACH times (wrong, right, wrong, right), all students at once.
  const submitted = new Map(); // id → { kind, at, student }
  const t0 = Date.now();
  await Promise.all(
    students.map(async (s, i) => {
      for (let k = 0; k < EACH; k++) {
        const kind = k % 2 ? 'right' : 'wrong';
        const r = await s.browser.api(url, s.token, '/api/submissions', {
          method: 'POST',
          json: { code: codes[kind] },
        });
        assert.equal(r.status, 202, JSON.stringify(r.body));
        submitted.set(r.body.id, { kind, at: Date.now(), student: `student-${i}` });
      }
    }),
  );
  assert.equal(submitted.size, STUDENTS * EACH);

  // Kill the server once a fifth of the scores arrived: some graded, some in flight, most queued.
  while (platform.state.scores.length < (STUDENTS * EACH) / 5) await sleep(50);
  server.child.kill('SIGKILL');
  await server.exited;
  const db = new Database(join(data, 'attnlab.db'), { readonly: true });
  const atKill = Object.fromEntries(
    db
      .prepare('SELECT status, COUNT(*) AS n FROM submissions GROUP BY status')
      .all()
      .map((r) => [r.status, r.n]),
  );
  const sending = new Set(
    db
      .prepare("SELECT id FROM submissions WHERE score_state = 'sending'")
      .all()
      .map((r) => r.id),
  );
  db.close();
  assert.ok((atKill.queued ?? 0) > 0, `some still queued at the kill: ${JSON.stringify(atKill)}`);
  assert.equal(
    Object.values(atKill).reduce((a, b) => a + b, 0),
    STUDENTS * EACH,
    'every submission stored before it was answered',
  );

  server = spawnCli(args);
  await server.waitFor(/attnlab service started/);
  // Wait until every submission is graded and its score sent.
  for (;;) {
    const d = new Database(join(data, 'attnlab.db'), { readonly: true });
    const left = d
      .prepare("SELECT COUNT(*) AS n FROM submissions WHERE status <> 'graded' OR score_state <> 'sent'")
      .get().n;
    d.close();
    if (left === 0) break;
    await sleep(250);
  }
  const wall = (Date.now() - t0) / 1000;
  const d = new Database(join(data, 'attnlab.db'), { readonly: true });
  const rows = d.prepare('SELECT s.*, u.sub FROM submissions s JOIN users u ON u.id = s.user_id').all();
  d.close();
  assert.equal(rows.length, STUDENTS * EACH);
  for (const r of rows) {
    const s = submitted.get(r.id);
    assert.equal(r.passed, expected[s.kind], `submission ${r.id} (${s.kind})`);
    assert.equal(r.sub, s.student);
    assert.ok(r.attempts === 1 || r.attempts === 2, `attempts ${r.attempts}`);
  }
  // Scores: exactly one per submission (two identical ones only for a request in flight at the kill).
  const key = (userId, timestamp) => `${userId} ${timestamp}`;
  const received = new Map();
  for (const sc of platform.state.scores) {
    const k = key(sc.body.userId, sc.body.timestamp);
    received.set(k, [...(received.get(k) ?? []), sc]);
  }
  const latencies = [];
  for (const r of rows) {
    const got = received.get(key(r.sub, new Date(r.created_at).toISOString())) ?? [];
    // Two submissions of one student in the same millisecond would share a key: count them together.
    const same = rows.filter((x) => x.sub === r.sub && x.created_at === r.created_at);
    const allowed = same.length + same.filter((x) => sending.has(x.id)).length;
    assert.ok(got.length >= same.length && got.length <= allowed, `submission ${r.id}: ${got.length} scores`);
    assert.ok(got.every((g) => g.body.scoreGiven === r.passed && g.body.scoreMaximum === 7));
    latencies.push(got[0].at - submitted.get(r.id).at);
  }
  const duplicates = platform.state.scores.length - rows.length;
  assert.ok(duplicates <= sending.size, `${duplicates} duplicates, ${sending.size} in flight at the kill`);
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  console.log(
    `load: ${rows.length} submissions by ${STUDENTS} students, 2 grading workers, killed at ${JSON.stringify(atKill)} ` +
      `(${sending.size} score requests in flight, ${duplicates} sent twice); all graded and scored in ${wall.toFixed(1)} s ` +
      `(${(rows.length / wall).toFixed(1)} submissions/s); submit→score latency p50 ${(pct(50) / 1000).toFixed(1)} s, p95 ${(pct(95) / 1000).toFixed(1)} s, max ${(pct(100) / 1000).toFixed(1)} s`,
  );
  // Every line it logged is JSON, and each graded submission was logged.
  for (const line of server.lines) assert.doesNotThrow(() => JSON.parse(line), line);
  server.child.kill('SIGTERM');
  await server.exited;
});
