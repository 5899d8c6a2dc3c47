// The sandbox's attack fixtures (tests/fixtures/sandbox/, graded against sdpa): each one graded by the CLI in a child
// process, as a real submission is, JOBS (ATTACK_JOBS, default 2) at a time, while the resident memory of each
// process tree (the CLI and every descendant) is sampled every 20 ms. This is the load phase's grading of the
// sandbox set (tests/stress/fixtures.test.mjs grades the other sets): `tools/test` runs it beside the Node
// suites and then two CPU hogs, `tools/test --stress` beside the hogs. Every attack must give:
//   exit 0 or 1 (a hang guard kills a run after 240 s: time is printed, not judged); on stdout exactly its
//   committed expected_results.json (the Exercism v3 report a quiet machine gives, listing the seven tests by
//   name); a peak tree RSS under 1.5 GB; stdout under 2 MB, valid UTF-8, every string well-formed UTF-16; no
//   stack frame or host path in it; no process left behind; and the fixture's aims (aims.json, checked by
//   aimProblems of tests/fixtures/cases.mjs, as both fixture suites do).
// The ANSI fixture is also graded with --format text (a pipe, so not a terminal): no control character
// from the student, one ✓ line per passed test, the real summary as the last line and nowhere else.
// A load that fails (attack-toplevel-await, error-syntax, py-error-syntax) still gives Gradescope a row per test.
// Each fixture prints one line (exit, seconds, peak MB, stdout bytes, verdict) as a diagnostic; the
// last test prints them all as one table.
// Run: node --test tests/stress/attacks.test.mjs (two CPU hogs beside it: tools/test --stress).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureSets, fixtureCases, aimProblems } from '../fixtures/cases.mjs';
import { loadExercise } from '../../grader/hosts/node/exercise.mjs';
import { treeRss } from '../js/cli.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SET = fixtureSets().find((s) => s.name === 'sandbox');
const exercise = await loadExercise(SET.exercise);
const LIMIT = { treeRssBytes: 1.5e9, stdoutBytes: 2e6 };
// The harness's own safety net (not a pass mark): a run past these is killed, with its whole tree, so
// that an attack that still works cannot take the machine down. The time is a hang guard far above
// anything a loaded machine needs (the grader bills CPU time; its wall backstop is 10× that): how long
// a run took is printed in the table, never judged.
const KILL = { seconds: 240, treeRssBytes: 6e9 };
const SAMPLE_MS = 20;
const JOBS = Number(process.env.ATTACK_JOBS) || 2;
const KEEP_STDOUT = 16 * 2 ** 20; // bytes of stdout kept for parsing (the rest is only counted)

const spec = JSON.parse(readFileSync(join(ROOT, 'exercises', SET.exercise, 'spec.json'), 'utf8'));
const TEST_IDS = spec.tests.map((t) => t.id);
const TEST_NAMES = spec.tests.map((t) => t.name.en);
const { aims, cases } = fixtureCases(SET);
const attacks = cases.map((c) => c.name);
const caseOf = (name) => cases.find((c) => c.name === name);
const submission = (name) => caseOf(name).file;
const SDPA_FIXTURES = join(ROOT, 'exercises', 'sdpa', 'fixtures');

// What a report must never show: host paths and stack frames. A frame of the student's own file
// (`at softmax (submission.js:12:5)`) is the student's and may stay; any other frame may not.
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const HOST_LEAKS = [
  /file:\/\//,
  new RegExp(escapeRe(ROOT.replace(/\/$/, ''))),
  /\/work\//,
  /node:internal/,
  /\bat (?:new |async )?\S+ \((?!submission\.js:\d+:\d+\))/,
  /\.mjs:\d+/,
];
// Control characters a terminal acts on: C0 other than tab and newline, DEL, C1, and the ones that
// reorder text (bidi embeddings, overrides, isolates).
const CONTROL = /[\x00-\x08\x0B-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069]/;
const SUMMARY = /^(\d+) of (\d+) tests passed \(seed \d+\)$/;

/**
 * Runs `node grader/cli.mjs grade <file> ...args` in its own process group and samples its tree's RSS.
 * → { code, signal, seconds, peakBytes, stdout (text of the kept bytes), stdoutBytes, truncated,
 *     utf8 (stdout is valid UTF-8), stderr, killed (why the harness killed it, or null), leftover
 *     (processes of its group still alive after it exited) }
 */
export function runCli(file, args = []) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(ROOT, 'grader', 'cli.mjs'), 'grade', file, ...args], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [],
      err = [];
    let kept = 0,
      stdoutBytes = 0,
      stderr = '',
      peakBytes = 0,
      killed = null,
      exit = null,
      pids = [child.pid];
    child.stdout.on('data', (d) => {
      stdoutBytes += d.length;
      if (kept < KEEP_STDOUT) {
        out.push(d.subarray(0, KEEP_STDOUT - kept));
        kept += Math.min(d.length, KEEP_STDOUT - kept);
      }
    });
    child.stderr.on('data', (d) => {
      if (err.length < 64) err.push(d);
    });
    const killAll = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* group gone */
      }
      for (const p of pids)
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          /* gone */
        }
    };
    const kill = (why) => {
      killed ??= why;
      killAll();
    };
    const sample = () => {
      const tree = treeRss(child.pid);
      pids = tree.pids;
      peakBytes = Math.max(peakBytes, tree.bytes);
      if (tree.bytes > KILL.treeRssBytes) kill(`tree RSS over ${KILL.treeRssBytes / 1e9} GB`);
    };
    const poll = setInterval(sample, SAMPLE_MS);
    const deadline = setTimeout(() => kill(`still running after ${KILL.seconds} s`), KILL.seconds * 1000);
    child.on('exit', (code, signal) => {
      exit = { code, signal, seconds: (performance.now() - started) / 1000 };
      clearInterval(poll);
      clearTimeout(deadline);
      setTimeout(killAll, 2000).unref(); // a descendant that keeps the pipes open is not waited for long
    });
    child.on('close', () => {
      let leftover = false;
      try {
        process.kill(-child.pid, 0);
        leftover = true;
      } catch {
        /* the group is empty: good */
      }
      if (leftover) killAll();
      const buf = Buffer.concat(out);
      let utf8 = true;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(buf);
      } catch {
        utf8 = false;
      }
      stderr = Buffer.concat(err).toString('utf8');
      resolve({
        ...exit,
        peakBytes,
        stdout: buf.toString('utf8'),
        stdoutBytes,
        truncated: stdoutBytes > kept,
        utf8,
        stderr,
        killed,
        leftover,
      });
    });
  });
}

/** Every string in a parsed JSON value (keys excluded). */
const strings = (v, acc = []) => {
  if (typeof v === 'string') acc.push(v);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, acc);
  return acc;
};
const mb = (bytes) => Math.round(bytes / 1e6);
// A bit of text for a message: cut, quoted, control characters and lone surrogates escaped.
const clip = (s, n = 100) =>
  JSON.stringify(s.length > n ? `${s.slice(0, n)}…` : s).replace(
    /[\x7f-\x9f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
const around = (s, at, n = 40) => s.slice(Math.max(0, at - n), at + n);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with one JSON run, against the common limits and the fixture's aim: a list of sentences. */
function problems(name, r, aim) {
  const p = [];
  if (r.killed) p.push(`killed by the harness: ${r.killed}`);
  else if (r.code !== 0 && r.code !== 1)
    p.push(
      `exit ${r.code ?? r.signal}, expected 0 or 1; stderr: ${clip(r.stderr.trim().split('\n').slice(-3).join(' | '), 300)}`,
    );
  if (r.peakBytes > LIMIT.treeRssBytes)
    p.push(`peak tree RSS ${mb(r.peakBytes)} MB, limit ${mb(LIMIT.treeRssBytes)} MB`);
  if (r.stdoutBytes > LIMIT.stdoutBytes) p.push(`stdout ${r.stdoutBytes} bytes, limit ${LIMIT.stdoutBytes}`);
  if (r.leftover) p.push('processes of the grader were still running after it exited');
  if (r.truncated) {
    p.push(`stdout over ${KEEP_STDOUT / 2 ** 20} MiB: not parsed`);
    return p;
  }
  if (!r.utf8) p.push('stdout is not valid UTF-8');
  for (const re of HOST_LEAKS)
    if (re.test(r.stdout)) p.push(`stdout shows ${re}: …${clip(around(r.stdout, r.stdout.search(re), 60), 120)}`);
  let report;
  try {
    report = JSON.parse(r.stdout);
  } catch {
    p.push(r.stdout.length ? `stdout is not JSON: ${clip(r.stdout)}` : 'no report on stdout');
    return p;
  }
  if (report.version !== 3 || !['pass', 'fail', 'error'].includes(report.status) || !Array.isArray(report.tests)) {
    p.push(`not an Exercism v3 report: ${clip(JSON.stringify({ ...report, tests: undefined }))}`);
    return p;
  }
  const names = report.tests.map((t) => t.name);
  if (names.join('\n') !== TEST_NAMES.join('\n'))
    p.push(`tests listed: ${JSON.stringify(names)}, expected all seven in order`);
  const texts = strings(report);
  const bad = texts.find((s) => !s.isWellFormed());
  if (bad !== undefined)
    p.push(
      `a string with a lone surrogate (not valid for strict JSON parsers): …${clip(around(bad, bad.search(LONE_SURROGATE), 8))}`,
    );
  // verdicts: the aim, checked by the fixture suites' one checker on the report read back with ids
  const asReport = {
    ...report,
    lang: 'en',
    tests: report.tests.map((t, i) => ({ ...t, id: TEST_IDS[TEST_NAMES.indexOf(t.name)] ?? `#${i}` })),
  };
  p.push(
    ...aimProblems(name, aim, asReport, {
      lang: 'en',
      messages: exercise.messages,
      track: caseOf(name).track,
      causes: false, // Exercism's results: the diagnosis in the message only
    }),
  );
  return p;
}

/** One line of the table: exit, time, peak tree RSS, stdout size, and what the report said (or `said`). */
function row(name, r, said) {
  if (said === undefined) {
    try {
      const rep = JSON.parse(r.stdout);
      const passed = rep.tests.filter((t) => t.status === 'pass').length;
      const first = rep.tests.find((t) => t.status !== 'pass');
      said = `${rep.status} ${passed}/${rep.tests.length}${first ? `; ${first.name}: ${clip(first.message ?? '', 70)}` : ''}${rep.message ? `; note ${clip(rep.message, 50)}` : ''}`;
    } catch {
      const stderr = r.stderr.trim().split('\n');
      said = r.killed
        ? `killed: ${r.killed}`
        : r.truncated
          ? `stdout over ${KEEP_STDOUT / 2 ** 20} MiB, not parsed`
          : `no JSON report${r.stderr ? `; stderr ${clip(stderr.find((l) => /Error|FATAL|fatal/.test(l)) ?? stderr.at(-1), 90)}` : ''}`;
    }
  }
  const exit = r.killed ? 'killed' : String(r.code ?? r.signal);
  return columns(
    name,
    `exit ${exit}`,
    `${r.seconds.toFixed(1)} s`,
    `${mb(r.peakBytes)} MB`,
    `${r.stdoutBytes} B`,
    said,
  );
}
const columns = (name, exit, time, peak, bytes, said) =>
  `${name.padEnd(34)} ${exit.padEnd(12)} ${time.padStart(6)} ${peak.padStart(8)} ${bytes.padStart(11)}  ${said}`;

const table = [];

test('every attack fixture has an aim', () => {
  assert.ok(attacks.length > 0, 'no tests/fixtures/sandbox/* folders');
  assert.deepEqual(
    attacks.filter((n) => !aims[n]),
    [],
  );
});

// Every attack's JSON run, started JOBS at a time as soon as the file loads; each test awaits its own.
const settle = []; // settle[i](run): hands attack i's run to its promise below
const jsonRuns = new Map(attacks.map((name, i) => [name, new Promise((r) => (settle[i] = r))]));
let next = 0;
const startNext = () => {
  if (next >= attacks.length) return;
  const i = next++;
  const run = runCli(submission(attacks[i]), ['--format', 'json', '--lang', 'en', '--exercise', SET.exercise]);
  settle[i](run);
  run.then(startNext);
};
for (let k = 0; k < JOBS; k++) startNext();

for (const name of attacks) {
  test(`attack ${name}: a bounded report in Node, its snapshot on a busy machine`, async (t) => {
    const r = await jsonRuns.get(name);
    table.push(row(name, r));
    t.diagnostic(table.at(-1));
    assert.deepEqual(
      problems(name, r, aims[name] ?? {}),
      [],
      `${name}: ${aims[name] ? '' : 'no aim; '}see the list above`,
    );
    if (!r.truncated)
      assert.equal(
        r.stdout,
        readFileSync(caseOf(name).expectedFile, 'utf8'),
        `${name}: results differ from expected_results.json`,
      );
  });
}

test('ansi-forgery in --format text: no control character, one ✓ per passed test, the real summary last', async (t) => {
  const file = submission('ansi-forgery');
  const json = await runCli(file, ['--format', 'json', '--lang', 'en', '--exercise', SET.exercise]);
  const text = await runCli(file, ['--format', 'text', '--lang', 'en', '--exercise', SET.exercise]);
  const passed = JSON.parse(json.stdout).tests.filter((x) => x.status === 'pass').length;
  const lines = text.stdout.trimEnd().split('\n');
  table.push(row('ansi-forgery --format text', text, `${lines.length} lines, last ${clip(lines.at(-1), 60)}`));
  t.diagnostic(table.at(-1));
  const p = [];
  if (text.killed || (text.code !== 0 && text.code !== 1))
    p.push(`exit ${text.code ?? text.signal} ${text.killed ?? ''}`);
  if (text.stdoutBytes > LIMIT.stdoutBytes) p.push(`text report of ${text.stdoutBytes} bytes`);
  const at = text.stdout.search(CONTROL);
  if (at >= 0) p.push(`a control character: …${clip(around(text.stdout, at, 30))}`);
  const ticks = lines.filter((l) => l.startsWith('✓')).length;
  if (ticks !== passed) p.push(`${ticks} lines start with ✓, but ${passed} tests passed (JSON report)`);
  const last = SUMMARY.exec(lines.at(-1));
  if (!last) p.push(`the last line is not the summary: ${clip(lines.at(-1))}`);
  else if (+last[1] !== passed || +last[2] !== TEST_IDS.length)
    p.push(`the summary says ${last[1]} of ${last[2]}, the JSON report ${passed} of ${TEST_IDS.length}`);
  const summaries = lines.filter((l) => /^\S*\d+ of \d+ tests passed/.test(l)).length;
  if (summaries !== 1) p.push(`${summaries} lines read like the summary`);
  assert.deepEqual(p, []);
});

test('a load that fails (module-only syntax, a syntax error) in --format gradescope: a row for every test', async () => {
  for (const file of [
    submission('toplevel-await'),
    join(SDPA_FIXTURES, 'error-syntax', 'submission.js'),
    join(SDPA_FIXTURES, 'py-error-syntax', 'submission.py'),
  ]) {
    const r = await runCli(file, ['--format', 'gradescope', '--lang', 'en', '--exercise', SET.exercise]);
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(
      doc.tests.map((x) => x.name),
      TEST_NAMES,
      file,
    );
    assert.equal(doc.score, 0, file);
  }
});

test('table of the attack runs', (t) => {
  for (const line of [columns('fixture', 'exit', 'time', 'peak RSS', 'stdout', 'report'), ...table]) t.diagnostic(line);
});
