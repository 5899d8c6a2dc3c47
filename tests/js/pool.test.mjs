// Grading at a judge's speed (grader/batch/README.md, Throughput):
// - the warm pool (grader/hosts/node/pool.mjs): each take is a sandbox of its own (its own child), the
//   pool keeps `size` waiting and never more than the takes still to come, and once closed it starts
//   nothing and leaves no child behind; a sandbox given back waits again only if it never loaded a
//   submission;
// - a closed sandbox answers at once and starts no child (what makes a batch's Ctrl+C prompt);
// - the reference cache (grader/core/ref-cache.mjs): every pack's solution and failing fixtures get the
//   same report with it as without, a second submission computes no reference value, an answer edited
//   in place does not change the next one, an error is thrown each time;
// - Ctrl+C of grade-batch (SIGINT to its process group, as a terminal sends it) with endless loops in
//   flight: it exits 130 within a bound, no process of its tree is left, the records kept are whole,
//   and the same command then grades exactly the rest.
// - V8's code cache of a guest bundle (grader/hosts/node/code-cache.mjs): made by a child asked for it,
//   read by the next one, a file V8 refuses costs nothing but the compile, the solution grades alike;
// - a fork server that ends before it is ready: its copies are spawned children, no server again.
// Run: node --test tests/js/pool.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  NodeSandbox,
  cachedCore,
  createPool,
  grade,
  listExercises,
  loadExercise,
  PoolClosed,
  TRACKS,
} from '../../grader/index.mjs';
import { loadCore } from '../../wasm/index.mjs';
import { fixtureSets, fixtureCases } from '../fixtures/cases.mjs';
import { SLOTS, forking } from '../../grader/hosts/node/zygote.mjs';
import { cli, treeRss } from './cli.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'attnlab-pool-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));
const alive = (pid) => existsSync(`/proc/${pid}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Waits (bounded) until none of `pids` is alive; → those still alive. */
async function gone(pids, ms = 5000) {
  for (const end = performance.now() + ms; performance.now() < end && pids.some(alive);) await sleep(50);
  return pids.filter(alive);
}

test('the warm pool: a child of its own per take, `size` waiting, none past the takes to come, nothing after close', async () => {
  const exercise = await loadExercise('sdpa');
  const core = await loadCore({ threads: 1 });
  for (const name of exercise.tracks) {
    const track = TRACKS[name];
    const pool = createPool({ track, size: 2 });
    pool.warm({ left: 1 });
    assert.equal(pool.waiting, 1, `${name}: one started for the one take to come`);
    const a = await pool.take({ left: 3 });
    assert.equal(pool.waiting, 2, `${name}: refilled to size`);
    const b = await pool.take({ left: 0 });
    assert.equal(pool.waiting, 1, `${name}: none started past the takes to come`);
    assert.ok((await a.started()) && (await b.started()), `${name}: both ready`);
    assert.notEqual(a.child.pid, b.child.pid, `${name}: two takes, two children`);
    const source = readFileSync(join(ROOT, 'exercises', 'sdpa', track.files.solution), 'utf8');
    const report = await grade({ exercise, source, track, sandbox: a, core, lang: 'en' });
    assert.equal(report.passed, report.total, `${name}: the solution graded in a pooled sandbox`);
    // Given back: the one that graded is closed; one that never loaded a submission (a JavaScript syntax
    // error stops on the trusted side) waits again, first in line, its child the same, billed nothing.
    const pids = [a.child.pid, b.child.pid];
    await pool.giveBack(a);
    assert.equal(pool.waiting, 1, `${name}: a used sandbox is not taken back`);
    // (Python's syntax errors are found by the guest's compiler: that sandbox ran it and is closed.)
    const syntax = await grade({ exercise, source: 'def f(:\n', track, sandbox: b, core, lang: 'en' });
    assert.equal(syntax.status, 'error', `${name}: a syntax error`);
    await pool.giveBack(b);
    if (name === 'js') {
      assert.equal(pool.waiting, 2, 'an untouched sandbox waits again');
      assert.equal(await pool.take({ left: 0 }), b, 'first in line');
      assert.equal(b.child.pid, pids[1], 'its child the same');
      await b.close();
      // its CPU time counted once it is closed (a fork server's copy starts at 0 and may use less than
      // one 10 ms tick of /proc's count; a child started from nothing paid Node's start)
      if (!b.child.proc.forked) assert.ok(b.cpuMs > 0, `its start billed: ${b.cpuMs}`);
      assert.equal(b.processes, 1);
    } else assert.equal(pool.waiting, 1, `${name}: the sandbox that compiled the submission is not taken back`);
    await pool.close();
    assert.equal(pool.waiting, 0);
    await assert.rejects(pool.take(), PoolClosed);
    pool.warm();
    assert.equal(pool.waiting, 0, `${name}: a closed pool starts nothing`);
    assert.deepEqual(await gone(pids), [], `${name}: every child ended`);
  }
});

test("fork server: a pool's sandboxes are copies of one ready server, each a process of its own, on both tracks", async (t) => {
  const on = forking();
  if (!on.on) return t.skip(`no fork server here: ${on.reason}`);
  const exercise = await loadExercise('sdpa');
  const core = await loadCore({ threads: 1 });
  const ppid = (pid) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  for (const name of exercise.tracks) {
    const track = TRACKS[name];
    const pool = createPool({ track, size: 1 });
    const takes = [];
    // More takes than one server has slots: the next server takes over.
    for (let i = 0; i < SLOTS + 2; i++) {
      const s = await pool.take({ left: SLOTS + 1 - i });
      assert.ok(await s.started(), `${name}: copy ${i} ready`);
      assert.equal(s.child.proc.forked, true, `${name}: copy ${i} is a fork server's`);
      takes.push({ s, pid: s.child.pid, parent: ppid(s.child.pid) });
    }
    assert.equal(new Set(takes.map((x) => x.pid)).size, takes.length, `${name}: a process per take`);
    const parents = [...new Set(takes.map((x) => x.parent))];
    assert.equal(parents.length, 2, `${name}: ${SLOTS} copies of the first server, then of the next`);
    // One copy's memory is its own: a global its submission set is not in the next copy.
    // (what the first sets, its own f sees: the probe can tell)
    const probe =
      name === 'js'
        ? 'function f() { return typeof globalThis.__left }'
        : 'import numpy as np\ndef f():\n    return str(getattr(np, "left", None))\n';
    const leak = name === 'js' ? `globalThis.__left = 1; ${probe}` : `${probe}np.left = 1\n`;
    const [a, b, c] = takes;
    assert.equal((await a.s.load(leak, { functions: ['f'] })).ok, true);
    assert.ok(['number', '1'].includes((await a.s.call('f', [])).value), `${name}: set in the first copy`);
    assert.equal((await b.s.load(probe, { functions: ['f'] })).ok, true);
    const seen = await b.s.call('f', []);
    assert.ok(
      seen.ok && ['undefined', 'None'].includes(seen.value),
      `${name}: the next copy sees nothing of the last (${JSON.stringify(seen.value)})`,
    );
    // A copy killed mid-call (an endless loop past its backstop, then a fresh copy for the retry) leaves
    // the server, and the copies after it, as they were.
    const loop = name === 'js' ? 'function f() { for (;;); }' : 'def f():\n    while True:\n        pass\n';
    assert.equal((await c.s.load(loop, { functions: ['f'] })).ok, true);
    const stuck = await c.s.call('f', [], { timeoutMs: 200 });
    assert.equal(stuck.kind, 'timeout', `${name}: the loop stopped`);
    const again = await c.s.call('f', [], { timeoutMs: 200, fresh: true });
    assert.equal(again.kind, 'timeout', `${name}: again in a fresh copy`);
    assert.equal(c.s.processes, 2);
    const source = readFileSync(join(ROOT, 'exercises', 'sdpa', track.files.solution), 'utf8');
    const d = takes[3].s;
    const report = await grade({ exercise, source, track, sandbox: d, core, lang: 'en' });
    assert.equal(report.passed, report.total, `${name}: the solution graded in a copy after them`);
    for (const x of takes) await pool.giveBack(x.s);
    await pool.close();
    assert.deepEqual(await gone(takes.map((x) => x.pid)), [], `${name}: every copy ended`);
    assert.deepEqual(await gone(parents.slice(0, 1)), [], `${name}: the full server ended after its last copy`);
  }
});

test("the track's warm-up leaves nothing a submission sees: a warmed server's copy, a spawned child that warmed while it waited and one asked at once see the same globals, on both tracks", async () => {
  const probe = {
    // (a value's text is capped: the globals whose names start in lower case, the built-ins mostly not)
    js: 'function f() { return Object.getOwnPropertyNames(globalThis).filter((n) => /^[a-z_]/.test(n)).sort().join(",") }',
    python: 'import numpy as np\ndef f():\n    return ",".join(sorted(globals())) + "|" + str(len(dir(np)))\n',
  };
  const names = ['a', 'm', 's', 'e'];
  for (const name of ['js', 'python']) {
    const track = TRACKS[name];
    const seen = [];
    for (const [how, forked, wait] of [
      ['a copy', true, 0],
      ['a spawned child, after a wait', false, 300],
      ['a spawned child, at once', false, 0],
    ]) {
      const s = await NodeSandbox.create({ track, forked });
      try {
        assert.ok(await s.started(), `${name}: ${how} ready`);
        await sleep(wait);
        assert.equal((await s.load(probe[name], { functions: ['f'] })).ok, true, `${name}: ${how} loads`);
        const r = await s.call('f', []);
        assert.ok(r.ok, `${name}: ${how}: ${r.message}`);
        for (const n of names) assert.ok(!r.value.split(/[,|]/).includes(n), `${name}: ${how} sees no ${n}`);
        seen.push(r.value);
      } finally {
        await s.close();
      }
    }
    assert.equal(new Set(seen).size, 1, `${name}: the same globals everywhere`);
  }
});

test('fork server: one that ends before it is ready leaves its copies to spawned children, and is not asked again', async (t) => {
  const on = forking();
  if (!on.on) return t.skip(`no fork server here: ${on.reason}`);
  const exercise = await loadExercise('sdpa');
  const core = await loadCore({ threads: 1 });
  const track = TRACKS.js;
  const source = readFileSync(join(ROOT, 'exercises', 'sdpa', track.files.solution), 'utf8');
  const children = (pid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const comm = (pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      return null;
    }
  };
  /** The Node process at or under `pid` (under bubblewrap: bwrap → its reaper → prlimit, which becomes node), or null. */
  const nodeUnder = (pid) => (comm(pid) === 'node' ? pid : (children(pid).map(nodeUnder).find(Boolean) ?? null));
  const before = new Set(children(process.pid));
  // A memory limit no other test uses: a server of its own, started by the first sandbox (synchronously,
  // in create()), whose Node process is killed while it starts, as the kernel's OOM killer might.
  const memoryMb = 333;
  const first = NodeSandbox.create({ track, forked: true, memoryMb });
  const second = NodeSandbox.create({ track, forked: true, memoryMb });
  const server = children(process.pid).filter((p) => !before.has(p));
  assert.equal(server.length, 1, 'one process started for both: the server');
  // Looked for without yielding to the event loop (a synchronous 1 ms wait), so that this process can
  // neither send the server its guest nor take its ready: killed before it is ready on any machine, where
  // a timer's wait let a fast server (or a slow test) get ready first.
  const tick = new Int32Array(new SharedArrayBuffer(4));
  let node = null;
  for (let i = 0; i < 10000 && !node; i++) {
    node = nodeUnder(server[0]);
    if (!node) Atomics.wait(tick, 0, 0, 1);
  }
  assert.ok(node, "the server's Node process");
  process.kill(node, 'SIGKILL');
  for (const s of await Promise.all([first, second])) {
    assert.ok(await s.started(), 'ready all the same');
    assert.notEqual(s.child.proc.forked, true, 'a spawned child, not a copy');
    const report = await grade({ exercise, source, track, sandbox: s, core, lang: 'en' });
    assert.equal(report.passed, report.total);
    await s.close();
  }
  const later = await NodeSandbox.create({ track, forked: true, memoryMb });
  assert.ok(await later.started());
  assert.notEqual(later.child.proc.forked, true, 'no server is started again for this track and limit');
  await later.close();
});

test("V8's code cache of the guest bundle: made once by a child asked for it, read by the next, refused harmlessly when it is not V8's", async () => {
  const exercise = await loadExercise('sdpa');
  const core = await loadCore({ threads: 1 });
  // A memory limit no other test uses: its cache file is this test's alone (the limit is in its name).
  const memoryMb = 444;
  const dir = join(ROOT, 'grader', 'dist', 'guest');
  for (const name of exercise.tracks) {
    const track = TRACKS[name];
    const mine = () => readdirSync(dir).filter((f) => f.startsWith(`${name}-`) && f.endsWith(`-${memoryMb}.v8cache`));
    for (const f of mine()) rmSync(join(dir, f));
    const source = readFileSync(join(ROOT, 'exercises', 'sdpa', track.files.solution), 'utf8');
    const run = async () => {
      const s = await NodeSandbox.create({ track, memoryMb });
      assert.ok(await s.started(), `${name}: ready`);
      const report = await grade({ exercise, source, track, sandbox: s, core, lang: 'en' });
      assert.equal(report.passed, report.total, `${name}: the solution graded`);
      const { cacheFor, cacheRejected } = s.child;
      await s.close();
      return { asked: cacheFor !== null, rejected: cacheRejected };
    };
    assert.deepEqual(await run(), { asked: true, rejected: false }, `${name}: the first child is asked to make it`);
    const made = mine();
    assert.equal(made.length, 1, `${name}: kept in the guests' folder`);
    assert.ok(readFileSync(join(dir, made[0])).length > 10000, `${name}: the bytecode of the bundle's functions`);
    assert.deepEqual(await run(), { asked: false, rejected: false }, `${name}: the next reads it, V8 takes it`);
    // Bytes V8 did not make (same size: the child reads only a file of the size the parent saw): refused.
    const size = readFileSync(join(dir, made[0])).length;
    writeFileSync(join(dir, made[0]), Buffer.alloc(size, 0x5a));
    assert.deepEqual(await run(), { asked: false, rejected: true }, `${name}: refused, compiled as without`);
    rmSync(join(dir, made[0]));
  }
});

test('a closed sandbox answers at once and starts no child', async () => {
  const s = await NodeSandbox.create({ track: TRACKS.js });
  const loaded = await s.load('export function softmax(x) { for (;;); }', { functions: ['softmax'] });
  assert.equal(loaded.ok, true);
  const pid = s.child.pid;
  const call = s.call('softmax', [1], { timeoutMs: 60000 });
  await sleep(200);
  await s.close();
  const res = await call;
  assert.equal(res.ok, false);
  const again = await s.call('softmax', [1], { timeoutMs: 1000, fresh: true });
  assert.equal(again.ok, false);
  assert.equal(again.kind, 'crash');
  assert.equal(s.processes, 1, 'no child started after close()');
  assert.deepEqual(await gone([pid]), []);
});

const withoutTime = (report) => JSON.stringify({ ...report, time_ms: undefined });

test('the reference cache: the same reports, no reference value computed twice, answers copied, errors not kept', async () => {
  const plain = await loadCore({ threads: 1 });
  const core = cachedCore(plain);
  for (const slug of listExercises()) {
    const exercise = await loadExercise(slug);
    const set = fixtureSets().find((s) => s.exercise === slug && s.name === slug);
    const failing = fixtureCases(set).cases.filter((c) => c.track.name === 'js' && c.aim.status !== 'pass');
    const subjects = [
      readFileSync(join(ROOT, 'exercises', slug, 'solution.js'), 'utf8'),
      ...failing.slice(0, 2).map((c) => c.source()),
    ];
    const run = async (source, withCore) => {
      const sandbox = await NodeSandbox.create({ track: TRACKS.js });
      try {
        return await grade({ exercise, source, track: TRACKS.js, sandbox, core: withCore, lang: 'en' });
      } finally {
        await sandbox.close();
      }
    };
    for (const source of subjects) {
      const alone = await run(source, plain);
      const first = await run(source, core);
      const misses = core.refCache.misses;
      const second = await run(source, core);
      assert.equal(withoutTime(first), withoutTime(alone), `${slug}: the same report with the cache`);
      assert.equal(withoutTime(second), withoutTime(alone), `${slug}: the same report from remembered answers`);
      assert.equal(core.refCache.misses, misses, `${slug}: the second grade computed no reference value`);
    }
  }
  assert.ok(core.refCache.hits > 0 && core.refCache.entries > 0 && core.refCache.bytes > 0);
  const x = { data: [1, 2, 3, 4], shape: [2, 2] };
  const s1 = core.softmax(x);
  s1.data[0] = 99;
  assert.deepEqual(core.softmax(x), plain.softmax(x), 'an answer edited in place changes nothing');
  assert.throws(() => core.softmax({ data: [1, 2, 3], shape: [2, 2] }), /3 values/);
  const misses = core.refCache.misses;
  assert.throws(() => core.softmax({ data: [1, 2, 3], shape: [2, 2] }), /3 values/);
  assert.equal(core.refCache.misses, misses + 1, 'an error is computed (and thrown) again, not remembered');
});

test('Ctrl+C of grade-batch with endless loops in flight: exit 130 promptly, no process left, records whole, the rerun grades the rest', async () => {
  const input = join(tmp, 'class');
  mkdirSync(input);
  const sandbox = join(ROOT, 'tests', 'fixtures', 'sandbox');
  // In student order: three quick ones first (kept), then endless loops on both tracks (in flight at the signal).
  for (let i = 0; i < 3; i++) copyFileSync(join(ROOT, 'exercises', 'sdpa', 'solution.js'), join(input, `a${i}.js`));
  for (let i = 0; i < 3; i++) {
    copyFileSync(join(sandbox, 'infinite-loop', 'submission.js'), join(input, `b${i}.js`));
    copyFileSync(join(sandbox, 'py-infinite-loop', 'submission.py'), join(input, `c${i}.py`));
  }
  const total = 9;
  const out = join(tmp, 'out');
  // Short limits (the same in both runs: they are part of a record's hash), so that the rerun grades the loops in seconds.
  const limits = ['--timeout-ms', '500', '--deadline-ms', '3000', '--jobs', '2'];
  const args = [
    join(ROOT, 'grader/cli.mjs'),
    'grade-batch',
    input,
    '--exercise',
    'sdpa',
    '--out',
    out,
    '--lang',
    'en',
    ...limits,
  ];
  // detached: a process group of its own, signalled as a terminal's Ctrl+C signals the foreground group.
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const closed = new Promise((r) => child.once('close', r));
  const records = () =>
    existsSync(join(out, 'records')) ? readdirSync(join(out, 'records')).filter((f) => f.endsWith('.json')) : [];
  for (const end = performance.now() + 120000; performance.now() < end && child.exitCode === null;) {
    if (records().length >= 3) break;
    await sleep(50);
  }
  await sleep(1000); // the loops are running now
  const tree = treeRss(child.pid).pids;
  assert.ok(tree.length >= 2, `grading children running at the signal (${tree.length} processes)`);
  const t0 = performance.now();
  process.kill(-child.pid, 'SIGINT');
  const code = await Promise.race([closed, sleep(10000).then(() => 'still running')]);
  const ms = performance.now() - t0;
  if (code === 'still running') process.kill(-child.pid, 'SIGKILL');
  assert.equal(code, 130, `exit code (${ms.toFixed(0)} ms): ${stderr}`);
  assert.ok(ms < 10000, `ended ${ms.toFixed(0)} ms after the signal`);
  assert.deepEqual(await gone(tree, 10000), [], 'no process of the batch is left');
  const kept = records();
  assert.match(stderr, new RegExp(`interrupted: ${kept.length} of ${total} graded and kept`));
  assert.ok(kept.length >= 3 && kept.length < total, `${kept.length} kept`);
  let cpuKept = 0;
  for (const f of kept) {
    const rec = JSON.parse(readFileSync(join(out, 'records', f), 'utf8'));
    assert.ok(existsSync(join(out, 'exercism', rec.key, 'results.json')), `${f}: its results beside it`);
    // ≥ 0: a short grade may read 0 on a fast machine (10 ms ticks); all of them together do not (below).
    assert.ok(rec.cpu_ms >= 0 && rec.cpu_ms < 60000, `${f}: its sandbox's CPU time (${rec.cpu_ms} ms)`);
    cpuKept += rec.cpu_ms;
    assert.ok(!rec.report.tests.some((t) => /closed/.test(t.message ?? '')), `${f}: no verdict of the interruption`);
  }
  assert.ok(cpuKept > 0, "the kept grades' CPU time is measured");
  // The rest, graded by the same command.
  const r = cli(...args.slice(1));
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(`grading ${total - kept.length} of ${total} submissions \\(${kept.length} already graded\\)`),
  );
  assert.equal(readdirSync(join(out, 'records')).length, total);
});

test(
  'a sandbox closed while its child still starts is closed at once after that start, each time (no process left holding it)',
  { timeout: 90_000 },
  async () => {
    // bubblewrap arms its die-with-parent only after its fork: a child killed in that moment once kept its
    // pipes open, and close() waited forever.
    for (let i = 0; i < 6; i++) {
      const sandbox = await NodeSandbox.create({ track: TRACKS.js });
      await sandbox.close();
      assert.equal(sandbox.closed, true);
    }
  },
);
