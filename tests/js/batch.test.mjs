// grade-batch (grader/batch/README.md) through the CLI, on a generated class of fixture submissions
// (JavaScript and Python, hostile ones from tests/fixtures/sandbox mixed in, each with a verdict that
// does not depend on time), a Moodle-style folder per student, one without code, and a non-source file:
// - every submission gets an Exercism results.json equal to its fixture's expected_results.json (the
//   fixture graded alone) and a Gradescope results.json that agrees with it; summary.csv has the same
//   statuses and the aim's diagnosis key;
// - a run killed half-way and started again grades only what was not done; at --jobs 1, 2 and twice the
//   cores, and in two threads, every submission gets the same statuses;
// - shards 1/3, 2/3, 3/3 merged give the same summary.csv and gradebook as one run; a zip gives the same;
// - similarity flags a renamed copy and not the starter; a regrade against a previous pack version is listed;
// - bad arguments and inputs are refused with a message and exit code 2.
// (Exercism's bin/run.sh and Gradescope's autograder, in their images' layouts: tests/js/platforms.test.mjs.)
// Run: node --test tests/js/batch.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './cli.mjs';
import { parseCsv } from './csv.mjs';
import { casesFor, writeClass } from '../fixtures/class.mjs';
import { similarPairs } from '../../grader/batch/similarity.mjs';
import { readZip } from '../../grader/batch/zip.mjs';
import { gradeBatch } from '../../grader/batch/run.mjs';
import { loadExercise } from '../../grader/hosts/node/exercise.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'attnlab-batch-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));

const NAMES = [
  'pass',
  'py-pass',
  'mask-added',
  'k-v-from-wq',
  'error-syntax',
  'dot-batch',
  'no-scaling',
  'softmax-no-max',
  'py-no-scaling',
  'py-mask-inverted',
  'py-error-syntax',
  'py-swapped-return',
  'starter',
  // hostile (the sandbox's attacks whose verdicts need no clock: not the loops, floods or huge values a
  // loaded machine may time out on, which are the benchmark's)
  'sandbox-forge-wire',
  'sandbox-ansi-forgery',
  'sandbox-cheat-globals',
  'sandbox-stack-leak',
  'sandbox-surrogates',
  'sandbox-realm-escape',
  'sandbox-py-forge-wire',
  'sandbox-py-ansi-forgery',
];
const cases = casesFor('sdpa');
const input = join(tmp, 'class');
const students = writeClass(input, cases, NAMES);
// A folder per student (Moodle's layout), code below a subfolder; a folder with no code; a file that is not code.
mkdirSync(join(input, 'Ann Lee_4211_assignsubmission_file_', 'work'), { recursive: true });
writeFileSync(
  join(input, 'Ann Lee_4211_assignsubmission_file_', 'work', 'attention.js'),
  readFileSync(cases.get('pass').file),
);
writeFileSync(join(input, 'Ann Lee_4211_assignsubmission_file_', 'notes.txt'), 'not code');
mkdirSync(join(input, 'nocode'));
writeFileSync(join(input, 'nocode', 'answer.pdf'), '%PDF-1.4');
writeFileSync(join(input, 'submission_metadata.yml'), 'a: 1\n');
const ALL = [...students.map((s) => s.student), 'Ann Lee_4211_assignsubmission_file_', 'nocode'].sort();

// A generous limit per call: these fixtures' verdicts need no clock, and a loaded machine must not make one time out.
const SLOW_OK = ['--timeout-ms', '10000'];
const batch = (...args) => cli('grade-batch', ...args, ...SLOW_OK);
const readCsv = (file) => parseCsv(readFileSync(file, 'utf8')).rows;
const json = (file) => JSON.parse(readFileSync(file, 'utf8'));

const full = join(tmp, 'full');
// This run at twice the cores; the resumed one below at 1 then 2, the shards at 2: all must give the same summary.
test('one run: every submission graded as alone, both result formats, summary with statuses and diagnoses', () => {
  const r = batch(
    input,
    '--exercise',
    'sdpa',
    '--out',
    full,
    '--lang',
    'en',
    '--jobs',
    String(2 * availableParallelism()),
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`grading ${ALL.length} of ${ALL.length} submissions`));
  assert.match(r.stderr, /skipped \(not \.js or \.py\): submission_metadata\.yml/);
  assert.match(r.stdout, new RegExp(`sdpa: ${ALL.length} submissions`));
  const summary = json(join(full, 'summary.json'));
  assert.deepEqual(
    summary.students.map((s) => s.student),
    ALL,
  );
  const rows = readCsv(join(full, 'summary.csv'));
  const head = rows[0],
    byStudent = new Map(rows.slice(1).map((r) => [r[0], r]));
  const ids = summary.tests.map((t) => t.id);
  assert.deepEqual(head, [
    'student',
    'file',
    'track',
    'score',
    'total',
    'status',
    ...ids,
    'diagnoses',
    'grade',
    'late',
    'submitted',
  ]);
  const diag = head.indexOf('diagnoses');
  for (const { student, case: c } of students) {
    const key = summary.students.find((s) => s.student === student).key;
    const exercism = readFileSync(join(full, 'exercism', key, 'results.json'), 'utf8');
    assert.equal(
      exercism,
      readFileSync(c.expectedFile, 'utf8'),
      `${student}: its results.json differs from the fixture graded alone`,
    );
    const expected = JSON.parse(exercism),
      gs = json(join(full, 'gradescope', key, 'results.json'));
    assert.equal(gs.tests.length, expected.tests.length);
    assert.equal(gs.score, expected.tests.filter((t) => t.status === 'pass').length, student);
    gs.tests.forEach((t, i) => {
      assert.equal(t.status, expected.tests[i].status === 'pass' ? 'passed' : 'failed');
      assert.equal(t.max_score, 1);
    });
    const row = byStudent.get(student);
    assert.equal(row[5], expected.status, `${student}: status in summary.csv`);
    assert.deepEqual(
      row.slice(6, 6 + ids.length),
      expected.tests.map((t) => t.status),
      `${student}: test statuses in summary.csv`,
    );
    if (c.aim.diagnosis)
      assert.ok(
        [c.aim.diagnosis].flat().some((k) => row[diag].split(' ').includes(k)),
        `${student}: diagnoses "${row[diag]}" lack ${c.aim.diagnosis}`,
      );
  }
  assert.deepEqual(byStudent.get('Ann Lee_4211_assignsubmission_file_').slice(1, 6), [
    'Ann Lee_4211_assignsubmission_file_/work/attention.js',
    'js',
    '7',
    '7',
    'pass',
  ]);
  const nocode = byStudent.get('nocode');
  assert.deepEqual(nocode.slice(3, 6), ['0', '7', 'error']);
  assert.match(
    json(join(full, 'exercism', 'nocode', 'results.json')).message,
    /no \.js, \.py or \.ipynb file found \(found: nocode\/answer\.pdf\)/,
  );
  // The gradebook: Moodle's folder name gives the name and participant id.
  const gb = readCsv(join(full, 'gradebook.csv'));
  assert.deepEqual(gb[0], ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', 'Causal self-attention (sdpa)']);
  assert.deepEqual(
    gb.find((r) => r[0] === 'Ann Lee'),
    ['Ann Lee', '4211', '', 'Ann Lee_4211_assignsubmission_file_', '', '7'],
  );
  // The report: one file, nothing fetched, student text escaped.
  const html = readFileSync(join(full, 'report.html'), 'utf8');
  assert.ok(!/<(?:link|img|iframe)\b|src=|href=["']?http/i.test(html), 'report.html must load nothing');
  assert.equal((html.match(/<svg /g) || []).length >= 3, true);
  assert.ok(!html.includes('\u001b'), 'no control character of the ANSI forgery');
});

test('a run killed half-way and started again grades only what was not done', async () => {
  const out = join(tmp, 'resume');
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'grader/cli.mjs'),
      'grade-batch',
      input,
      '--exercise',
      'sdpa',
      '--out',
      out,
      '--lang',
      'en',
      '--jobs',
      '1',
      ...SLOW_OK,
    ],
    { stdio: 'ignore' },
  );
  const records = () =>
    existsSync(join(out, 'records')) ? readdirSync(join(out, 'records')).filter((f) => f.endsWith('.json')) : [];
  while (records().length < 5 && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
  child.kill('SIGKILL');
  await new Promise((r) => child.once('close', r));
  const kept = records();
  assert.ok(kept.length >= 5 && kept.length < ALL.length, `killed after ${kept.length} records`);
  const mtimes = Object.fromEntries(kept.map((f) => [f, statSync(join(out, 'records', f)).mtimeMs]));
  const r = batch(input, '--exercise', 'sdpa', '--out', out, '--lang', 'en', '--jobs', '2');
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(`grading ${ALL.length - kept.length} of ${ALL.length} submissions \\(${kept.length} already graded\\)`),
  );
  for (const f of kept) assert.equal(statSync(join(out, 'records', f)).mtimeMs, mtimes[f], `${f} was graded again`);
  assert.equal(readFileSync(join(out, 'summary.csv'), 'utf8'), readFileSync(join(full, 'summary.csv'), 'utf8'));
  // Nothing to do on a third run (--force, which grades everything again, is tried on a shard below).
  assert.match(
    batch(input, '--exercise', 'sdpa', '--out', out, '--lang', 'en').stderr,
    new RegExp(`grading 0 of ${ALL.length} submissions`),
  );
});

test('Ctrl+C: the submissions in flight are dropped, the finished ones kept and counted, exit code 130', async () => {
  const out = join(tmp, 'sigint');
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'grader/cli.mjs'),
      'grade-batch',
      input,
      '--exercise',
      'sdpa',
      '--out',
      out,
      '--lang',
      'en',
      '--jobs',
      '2',
      ...SLOW_OK,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const records = () =>
    existsSync(join(out, 'records')) ? readdirSync(join(out, 'records')).filter((f) => f.endsWith('.json')) : [];
  while (records().length < 3 && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
  child.kill('SIGINT');
  const code = await new Promise((r) => child.once('close', r));
  assert.equal(code, 130, stderr);
  const kept = records().length;
  assert.match(stderr, new RegExp(`interrupted: ${kept} of ${ALL.length} graded and kept`));
  assert.ok(kept < ALL.length);
  for (const f of records()) {
    const rec = json(join(out, 'records', f));
    assert.ok(
      existsSync(join(out, 'exercism', rec.key, 'results.json')) &&
        existsSync(join(out, 'gradescope', rec.key, 'results.json')),
      `${f}: results beside its record`,
    );
    assert.ok(
      !rec.report.tests.some((t) => /closed/.test(t.message ?? '')),
      `${f}: a verdict of the interruption was kept`,
    );
  }
  assert.ok(!existsSync(join(out, 'summary.csv')), 'no summary of a part of the class');
});

test('shards 1/3, 2/3, 3/3 merged equal one run, graded in two threads too; a zip of the folder equals the folder', async () => {
  const parts = [1, 2, 3].map((i) => join(tmp, `shard${i}`));
  const sizes = parts.map((out, i) => {
    const r = batch(input, '--exercise', 'sdpa', '--out', out, '--lang', 'en', '--jobs', '2', '--shard', `${i + 1}/3`);
    assert.equal(r.status, 0, r.stderr);
    return json(join(out, 'summary.json')).students.length;
  });
  assert.equal(
    sizes.reduce((a, b) => a + b),
    ALL.length,
    `shard sizes ${sizes}`,
  );
  assert.ok(
    sizes.every((n) => n > 0),
    `every shard has work: ${sizes}`,
  );
  const merged = join(tmp, 'merged');
  const r = cli('grade-batch', 'merge', ...parts, '--out', merged, '--lang', 'en');
  assert.equal(r.status, 0, r.stderr);
  for (const f of ['summary.csv', 'gradebook.csv'])
    assert.equal(readFileSync(join(merged, f), 'utf8'), readFileSync(join(full, f), 'utf8'), f);
  for (const s of json(join(full, 'summary.json')).students) {
    assert.equal(
      readFileSync(join(merged, 'exercism', s.key, 'results.json'), 'utf8'),
      readFileSync(join(full, 'exercism', s.key, 'results.json'), 'utf8'),
    );
  }
  // The parent's side over two worker threads (what --jobs past JOBS_PER_THREAD does) grades shard 2 the same.
  const threaded = join(tmp, 'threads');
  const r2 = await gradeBatch({
    input,
    exercise: await loadExercise('sdpa'),
    out: threaded,
    jobs: 2,
    threads: 2,
    lang: 'en',
    timeoutMs: 10000,
    shard: { index: 2, count: 3 },
  });
  assert.equal(r2.records.length, sizes[1]);
  for (const rec of r2.records) {
    assert.equal(
      readFileSync(join(threaded, 'exercism', rec.key, 'results.json'), 'utf8'),
      readFileSync(join(parts[1], 'exercism', rec.key, 'results.json'), 'utf8'),
      rec.student,
    );
  }
  // The same class as a zip (made by Info-ZIP, not by our writer), inside one top folder as an export is.
  const zip = join(tmp, 'class.zip');
  const z = spawnSync('zip', ['-qr', zip, 'class'], { cwd: tmp });
  assert.equal(z.status, 0, 'zip must be installed');
  assert.ok(readZip(readFileSync(zip)).some((e) => e.path === 'class/pass.js'));
  const fromZip = join(tmp, 'zip');
  const rz = batch(zip, '--exercise', 'sdpa', '--out', fromZip, '--lang', 'en', '--shard', '1/3');
  assert.equal(rz.status, 0, rz.stderr);
  assert.equal(readFileSync(join(fromZip, 'summary.csv'), 'utf8'), readFileSync(join(parts[0], 'summary.csv'), 'utf8'));
  // Graded again only with --force.
  assert.match(
    batch(zip, '--exercise', 'sdpa', '--out', fromZip, '--lang', 'en', '--shard', '1/3').stderr,
    new RegExp(`grading 0 of ${sizes[0]} submissions`),
  );
  assert.match(
    batch(zip, '--exercise', 'sdpa', '--out', fromZip, '--lang', 'en', '--shard', '1/3', '--jobs', '2', '--force')
      .stderr,
    new RegExp(`grading ${sizes[0]} of ${sizes[0]} submissions`),
  );
  assert.equal(readFileSync(join(fromZip, 'summary.csv'), 'utf8'), readFileSync(join(parts[0], 'summary.csv'), 'utf8'));
});

test('shards carry a manifest: merge refuses a missing shard or another class, --allow-partial merges and says what is missing', () => {
  const parts = [1, 2, 3].map((i) => join(tmp, `shard${i}`));
  const runs = parts.map((d) => json(join(d, 'run.json')));
  assert.deepEqual(
    runs.map((r) => r.shard),
    ['1/3', '2/3', '3/3'],
  );
  const whole = json(join(full, 'run.json'));
  assert.equal(whole.shard, '1/1');
  for (const r of runs) assert.equal(r.class_hash, whole.class_hash, 'every shard names the same class');
  assert.equal(runs[0].inputs.submissions, ALL.length, 'each shard counts the whole class');
  // One missing: refused, naming it; exit code 2.
  const out = join(tmp, 'merged-partial');
  const r = cli('grade-batch', 'merge', parts[0], parts[2], '--out', out, '--lang', 'en');
  assert.equal(r.status, 2, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(`shard 2/3 of the class ${whole.class_hash} missing: merge them all, or pass --allow-partial`),
  );
  assert.ok(!existsSync(join(out, 'summary.json')));
  // With --allow-partial: merged, and what is missing said on stderr and in run.json.
  const rp = cli('grade-batch', 'merge', parts[0], parts[2], '--out', out, '--lang', 'en', '--allow-partial');
  assert.equal(rp.status, 0, rp.stderr);
  assert.match(
    rp.stderr,
    new RegExp(
      `merged with --allow-partial: shard 2/3 of the class ${whole.class_hash} missing \\(the class has ${ALL.length} submissions\\)`,
    ),
  );
  const merged = json(join(out, 'run.json'));
  assert.deepEqual(merged.missing_shards, ['2/3']);
  assert.equal(merged.shard, null);
  assert.equal(
    json(join(out, 'summary.json')).students.length,
    ALL.length - json(join(parts[1], 'summary.json')).students.length,
  );
  // A shard of another class (another input) in place of 2/3: refused, naming that folder.
  const otherIn = join(tmp, 'other-class'),
    otherOut = join(tmp, 'other-shard');
  mkdirSync(otherIn, { recursive: true });
  writeFileSync(join(otherIn, 'zed.js'), readFileSync(cases.get('pass').file));
  assert.equal(batch(otherIn, '--exercise', 'sdpa', '--out', otherOut, '--lang', 'en', '--shard', '2/3').status, 0);
  const rf = cli(
    'grade-batch',
    'merge',
    parts[0],
    otherOut,
    parts[2],
    '--out',
    join(tmp, 'merged-foreign'),
    '--lang',
    'en',
  );
  assert.equal(rf.status, 2);
  assert.match(
    rf.stderr,
    new RegExp(
      `${otherOut.replace(/[/.]/g, '\\$&')} is a shard of another class \\(class hash \\w+, not ${whole.class_hash}`,
    ),
  );
  assert.match(rf.stderr, /shard 2\/3 of the class \w+ missing/);
  // A shard given twice is refused whatever the flags; --allow-partial belongs to merge only.
  const rd = cli(
    'grade-batch',
    'merge',
    parts[0],
    parts[0],
    '--out',
    join(tmp, 'merged-twice'),
    '--lang',
    'en',
    '--allow-partial',
  );
  assert.equal(rd.status, 2);
  assert.match(rd.stderr, /shard 1\/3 is given twice/);
  const ro = cli(
    'grade-batch',
    input,
    '--exercise',
    'sdpa',
    '--out',
    join(tmp, 'x'),
    '--allow-partial',
    '--lang',
    'en',
  );
  assert.equal(ro.status, 2);
  assert.match(ro.stderr, /--allow-partial is an option of grade-batch merge/);
});

test('regrade diff: a previous run of another pack version is listed by whose score changed and in which test', () => {
  const out = join(tmp, 'regrade');
  cpSync(full, out, { recursive: true });
  const prev = json(join(out, 'summary.json'));
  const pass = prev.students.find((s) => s.student === 'pass');
  pass.tests.batching = 'fail';
  pass.score = 6;
  prev.pack_version = 'oldversion00';
  writeFileSync(join(out, 'summary.json'), JSON.stringify(prev));
  writeFileSync(join(out, 'run.json'), JSON.stringify({ exercise: 'sdpa', pack_version: 'oldversion00' }));
  const r = batch(input, '--exercise', 'sdpa', '--out', out, '--lang', 'en');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /regrade oldversion00 → \w+: 1 score\(s\) changed/);
  const diff = json(join(out, 'summary.json')).regrade;
  assert.deepEqual(diff.changed, [
    { student: 'pass', key: 'pass', before: 6, after: 7, tests: [{ id: 'batching', before: 'fail', after: 'pass' }] },
  ]);
  assert.match(readFileSync(join(out, 'report.html'), 'utf8'), /oldversion00[\s\S]*batching: fail → pass/);
});

test('similarity: a renamed and re-commented copy is flagged, the starter and unrelated code are not', () => {
  const solution = readFileSync(join(ROOT, 'exercises/sdpa/solution.js'), 'utf8');
  const starter = readFileSync(join(ROOT, 'exercises/sdpa/starter.js'), 'utf8');
  const renamed = solution
    .replace(/\bscores\b/g, 'sc')
    .replace(/\bweights\b/g, 'w')
    .replace(/\/\/[^\n]*/g, '// mine');
  const other = readFileSync(cases.get('pass-loops').file, 'utf8');
  const subs = [
    { student: 'a', track: 'js', source: solution },
    { student: 'b', track: 'js', source: renamed },
    { student: 'c', track: 'js', source: other },
    { student: 'd', track: 'js', source: starter },
    { student: 'e', track: 'js', source: starter },
  ];
  const pairs = similarPairs(subs, { js: starter });
  assert.deepEqual(
    pairs.map((p) => `${p.a}-${p.b}`),
    ['a-b'],
  );
  assert.equal(pairs[0].score, 1);
});

test('bad arguments and inputs: a message naming what was wrong, exit code 2', () => {
  const sdpaRun = join(tmp, 'sdpa-run');
  mkdirSync(sdpaRun, { recursive: true });
  writeFileSync(join(sdpaRun, 'run.json'), JSON.stringify({ exercise: 'sdpa', pack_version: 'abc' }));
  const cases2 = [
    [
      ['grade-batch', join(tmp, 'nope'), '--exercise', 'sdpa', '--out', join(tmp, 'x')],
      /no such file or folder: .*nope/,
    ],
    [
      ['grade-batch', input, '--exercise', 'sdpa', '--out', join(tmp, 'x'), '--shard', '4/3', '--lang', 'en'],
      /--shard must be I\/N with 1 ≤ I ≤ N, got "4\/3"/,
    ],
    [['grade-batch', input, '--exercise', 'nope', '--out', join(tmp, 'x'), '--lang', 'en'], /unknown exercise "nope"/],
    [['grade-batch', input, '--out', join(tmp, 'x'), '--lang', 'en'], /grade-batch needs --exercise/],
    [
      ['grade-batch', input, '--exercise', 'mha', '--out', sdpaRun, '--lang', 'en'],
      /holds a run of the exercise "sdpa", not "mha"/,
    ],
    [
      ['grade-batch', join(ROOT, 'package.json'), '--exercise', 'sdpa', '--out', join(tmp, 'x')],
      /is not a zip archive/,
    ],
    [['grade-batch', 'merge', input, '--out', join(tmp, 'y'), '--lang', 'en'], /is not a finished grade-batch output/],
    [
      ['grade-batch', input, '--exercise', 'sdpa', '--out', join(input, 'pass.js'), '--lang', 'en'],
      /cannot create the --out folder .*pass\.js: EEXIST/,
    ],
    [
      ['grade-batch', input, '--exercise', 'sdpa', '--out', join(tmp, 'x'), '--jobs', '0', '--lang', 'en'],
      /--jobs must be an integer from 1 to 1024, got "0"/,
    ],
  ];
  for (const [args, re] of cases2) {
    const r = cli(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, re);
    assert.ok(!/\n\s+at /.test(r.stderr), `no stack trace: ${r.stderr}`);
  }
});

test('progress: a bar redrawn in place on a terminal (done/total, rate, ETA, not passed), one line per submission otherwise', async () => {
  const { progress } = await import('../../grader/batch/index.mjs');
  const record = (key, status) => ({ key, ms: 5, report: { status, passed: status === 'pass' ? 7 : 3, total: 7 } });
  const lines = (tty) => {
    let text = '';
    const p = progress(
      {
        isTTY: tty,
        write: (s) => {
          text += s;
        },
      },
      { lang: 'en' },
    );
    p.onStart({ total: 3, reused: 1, todo: 2 });
    p.onDone({ record: record('a', 'fail'), done: 2, total: 3 });
    p.onDone({ record: record('b', 'pass'), done: 3, total: 3 });
    return text;
  };
  const tty = lines(true);
  assert.match(tty, /^grading 2 of 3 submissions \(1 already graded\)\n/);
  assert.match(tty, /\r\[#{30}\] 3\/3 {2}[\d.]+\/s {2}ETA 0:00 {2}not passed 1\x1b\[K\n$/);
  assert.equal(
    lines(false),
    'grading 2 of 3 submissions (1 already graded)\n2/3 a 3/7 fail 5 ms\n3/3 b 7/7 pass 5 ms\n',
  );
});

test('gradebook: one column per exercise over several runs, LMS ids from Canvas and Moodle names, formulas defused', async () => {
  const { csvCell, lmsIdentity } = await import('../../grader/batch/summary.mjs');
  assert.deepEqual(lmsIdentity('doejohn_12345_67890_attention'), { name: 'doejohn', id: '12345', late: false });
  assert.deepEqual(lmsIdentity('doejohn_LATE_12345_67890_attention'), { name: 'doejohn', id: '12345', late: true });
  assert.deepEqual(lmsIdentity('Ann Lee_4211_assignsubmission_file_'), { name: 'Ann Lee', id: '4211', late: false });
  assert.deepEqual(lmsIdentity('alice'), { name: 'alice', id: '', late: false });
  assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvCell('-1+2'), `"'-1+2"`);
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell(7), '7');
  // A second exercise's run (its summary, as grade-batch writes it) beside the sdpa one.
  const other = join(tmp, 'other-run');
  mkdirSync(other, { recursive: true });
  const sdpa = json(join(full, 'summary.json'));
  writeFileSync(
    join(other, 'summary.json'),
    JSON.stringify({
      exercise: 'mha',
      title: { en: 'Multi-head attention' },
      students: [
        { student: 'pass', score: 5 },
        { student: 'zoe', score: 7 },
      ],
    }),
  );
  const file = join(tmp, 'gradebook-all.csv');
  const r = cli('grade-batch', 'gradebook', full, other, '--out', file);
  assert.equal(r.status, 0, r.stderr);
  const rows = readCsv(file);
  assert.deepEqual(rows[0].slice(5), ['Causal self-attention (sdpa)', 'Multi-head attention (mha)']);
  assert.deepEqual(rows.find((x) => x[3] === 'pass').slice(5), ['7', '5']);
  assert.deepEqual(rows.find((x) => x[3] === 'zoe').slice(5), ['', '7']);
  assert.equal(rows.length, 1 + sdpa.students.length + 1);
});

test('zip input: names with .. and hidden entries are ignored, a file that inflates past its cap is refused, not read', async () => {
  const { findSubmissions, MAX_SOURCE_BYTES } = await import('../../grader/batch/inputs.mjs');
  const dir = join(tmp, 'zips');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src', 'big.py'), Buffer.alloc(2 * MAX_SOURCE_BYTES, 0x20)); // deflates to a few KiB
  writeFileSync(join(dir, 'src', 'ok.js'), readFileSync(cases.get('pass').file));
  const zip = join(dir, 'bomb.zip');
  assert.equal(spawnSync('zip', ['-qj', zip, join(dir, 'src', 'big.py'), join(dir, 'src', 'ok.js')]).status, 0);
  // The central directory says big.py is 100 bytes: the reader must stop inflating at its cap anyway.
  const buf = readFileSync(zip);
  const cen = buf.indexOf(Buffer.from('PK\x01\x02', 'latin1'));
  assert.equal(buf.toString('latin1', cen + 46, cen + 52), 'big.py');
  buf.writeUInt32LE(100, cen + 24);
  writeFileSync(zip, buf);
  const { submissions } = findSubmissions(zip);
  const big = submissions.find((x) => x.student === 'big');
  assert.equal(big.bytes, undefined);
  assert.match(big.problem.en, new RegExp(`cannot be inflated \\(more than ${MAX_SOURCE_BYTES} bytes\\)`));
  assert.ok(submissions.find((x) => x.student === 'ok').bytes.equals(readFileSync(cases.get('pass').file)));
  // Entries named with .. or hidden ones are never taken (and nothing is ever extracted to disk).
  const { writeZip } = await import('../../grader/batch/zip.mjs');
  const evil = join(dir, 'evil.zip');
  writeFileSync(
    evil,
    writeZip([
      { path: '../../evil.js', data: 'x' },
      { path: 'a/../../b.js', data: 'x' },
      { path: '.hidden.js', data: 'x' },
      { path: '__MACOSX/c.js', data: 'x' },
      { path: 'carol.js', data: 'x' },
    ]),
  );
  assert.deepEqual(
    findSubmissions(evil).submissions.map((x) => x.student),
    ['carol'],
  );
});
