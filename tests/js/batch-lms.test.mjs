// grade-batch into the LMS (grader/batch/README.md, "Into the LMS"): --roster reads Canvas' gradebook export and
// Moodle's grades export or grading worksheet, matches each submission to one LMS user (never by a guess: the
// unmatched, the conflicting and the absent are listed), refuses a bad row with its line; the gradebooks
// gradebook-canvas.csv and gradebook-moodle.csv are read back by importers written here from Canvas' and
// Moodle's importers (canvas-lms lib/gradebook_importer.rb, Moodle grade/import/csv/classes/load_data.php)
// on top of tests/js/csv.mjs; points per test from the pack's spec and --scale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './cli.mjs';
import { parseCsv } from './csv.mjs';
import { matchRoster, readRoster, RosterError } from '../../grader/batch/roster.mjs';
import { applyScale, summarize } from '../../grader/batch/summary.mjs';
import { applyOverrides } from '../../grader/batch/overrides.mjs';
import { parseDue, parseLatePolicy } from '../../grader/batch/late.mjs';
import { readZip, writeZip } from '../../grader/batch/zip.mjs';
import { gradescope } from '../../grader/reporters/index.mjs';
import { packProblems, readPack } from '../../grader/index.mjs';

/** grade-batch on the first lesson's pack: the input, the output folder, then the options of the case. */
const gradeSdpa = (input, out, ...options) => cli('grade-batch', input, '--exercise', 'sdpa', '--out', out, ...options);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'attnlab-batch-lms-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));
const json = (file) => JSON.parse(readFileSync(file, 'utf8'));
const SOLUTION = readFileSync(join(ROOT, 'exercises/sdpa/solution.js'));
const STARTER = readFileSync(join(ROOT, 'exercises/sdpa/starter.js'));
const write = (file, lines) => (writeFileSync(file, lines.join('\r\n') + '\r\n'), file);

/**
 * Canvas' gradebook import as lib/gradebook_importer.rb reads a file: the header (Student, ID, then SIS Login ID,
 * or SIS User ID and SIS Login ID, and Section last), a "Points Possible" row, each student row identified by
 * its ID (the Canvas user id) among `users`, the assignment columns after the student columns (a title without
 * a numeric "(id)" creates an assignment with the Points Possible row's points); a score is blank, "-", or a
 * number (a decimal comma read as a point). → { assignments: [{ title, points }], grades: Map(id → [score]) }
 */
function canvasImport(text, users) {
  const rows = parseCsv(text).rows;
  const head = rows[0];
  assert.ok(head.length > 3 && head[0].includes('Student') && head[1].includes('ID'), 'Canvas: invalid header row');
  let cols = 3;
  if (/SIS\s+Login\s+ID/.test(head[2])) cols += 1;
  else if (/SIS\s+User\s+ID/.test(head[2]) && /SIS\s+Login\s+ID/.test(head[3]))
    cols += 2 + (/Integration\s+ID/.test(head[4]) ? 1 : 0);
  assert.ok(head[cols - 1].includes('Section'), 'Canvas: the last student column is Section');
  const titles = head.slice(cols);
  const assignments = titles.map((t) => ({ title: /^(.*)\s\((\d+)\)$/.exec(t)?.[1] ?? t, points: null }));
  const grades = new Map();
  for (const r of rows.slice(1)) {
    if (r[0].includes('Points Possible')) {
      assignments.forEach((a, i) => (a.points = Number(r[cols + i])));
      continue;
    }
    const id = String(parseInt(r[1], 10));
    assert.ok(users.has(id), `Canvas: the row of ${r[0]} names no user of the course (ID "${r[1]}")`);
    grades.set(
      id,
      r.slice(cols).map((v) => {
        v = v.trim();
        if (v === '' || v === '-') return null;
        assert.match(v, /^-?[0-9.,]+$/, `Canvas: "${v}" is not a score`);
        return Number(v.replace(',', '.'));
      }),
    );
  }
  return { assignments, grades };
}

/**
 * Moodle's CSV grade import as load_data.php reads a file (its reader drops a UTF-8 BOM): "Identify user by"
 * mapped from `column` to the users' email, every row's value non-empty and a user's (else the whole import is
 * aborted), each grade column mapped to an item: blank or "-" is no grade, else unformat_float's number.
 * → Map(email → { <header>: grade })
 */
function moodleImport(text, users, column = 'Email address') {
  const { rows } = parseCsv(text);
  const head = rows[0].map((h) => h.trim());
  const at = head.indexOf(column);
  assert.ok(at >= 0, `Moodle: no column ${column} to identify users by`);
  const out = new Map();
  for (const r of rows.slice(1)) {
    if (r.length <= 1) continue;
    const who = r[at].trim();
    assert.ok(who && users.has(who), `Moodle: user not found, the whole import is aborted ("${who}")`);
    const grades = {};
    head.forEach((h, i) => {
      if (i === at || !/\(/.test(h)) return; // the grade columns: "<title> (<slug>)"
      const v = r[i].trim();
      if (v === '' || v === '-') grades[h] = null;
      else {
        assert.match(v, /^-?\d+(\.\d+)?$/, `Moodle: bad grade "${v}"`);
        grades[h] = Number(v);
      }
    });
    out.set(who, grades);
  }
  return out;
}

const COLUMN = 'Causal self-attention (sdpa)';

test('Canvas: the gradebook export as roster, gradebook-canvas.csv read back by a Canvas-format importer, --scale', () => {
  const dir = join(tmp, 'canvas'),
    out = join(tmp, 'canvas-out');
  mkdirSync(dir);
  // Canvas' "Download submissions" names: <name>[_LATE]_<user id>_<submission id>_<file>.
  writeFileSync(join(dir, 'doejohn_1001_5001_attention.js'), SOLUTION);
  writeFileSync(join(dir, 'roejane_LATE_1002_5002_attention.js'), STARTER);
  writeFileSync(join(dir, 'stranger_9999_5003_attention.js'), SOLUTION);
  writeFileSync(join(dir, 'hacker_1004_5004_attention.js'), SOLUTION);
  const roster = write(join(tmp, 'canvas-roster.csv'), [
    '\uFEFFStudent,ID,SIS User ID,SIS Login ID,Section,Causal self-attention (sdpa),Current Score,Final Score',
    '    Points Possible,,,,,7,(read only),(read only)',
    '"Doe, John",1001,S1001,jdoe,Section A,,,',
    '"Roe, Jane",1002,S1002,jroe,Section A,,,',
    '"Poe, Ed",1003,S1003,epoe,Section B,,,',
    '"=HYPERLINK(""http://x"")<script>alert(1)</script>",1004,S1004,hx,Section B,,,',
    '"Student, Test",1099,,4f3a9c,Section A,,,',
  ]);
  const r = gradeSdpa(dir, out, '--lang', 'en', '--roster', roster, '--scale', '100');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /roster \(canvas\): 3 of 5 matched/);
  assert.match(r.stdout, /submissions matched to no one \(not in the gradebook\): stranger_9999_5003_attention/);
  assert.match(r.stdout, /in the roster without a submission: Poe, Ed, Student, Test/);
  const summary = json(join(out, 'summary.json'));
  assert.deepEqual(summary.roster.unmatched, ['stranger_9999_5003_attention']);
  assert.deepEqual(
    summary.roster.absent.map((a) => [a.name, a.key, a.line]),
    [
      ['Poe, Ed', '1003', 5],
      ['Student, Test', '1099', 7],
    ],
  );
  const john = summary.students.find((s) => s.student === 'doejohn_1001_5001_attention');
  assert.deepEqual(
    [john.lms.key, john.lms.by, john.lms.name, john.score, john.grade],
    ['1001', 'id', 'Doe, John', 7, 100],
  );
  assert.equal(summary.max, 100);
  // The gradebook as Canvas reads it: only the matched, by their Canvas id; the points possible is the scale.
  const text = readFileSync(join(out, 'gradebook-canvas.csv'), 'utf8');
  const { assignments, grades } = canvasImport(text, new Set(['1001', '1002', '1003', '1004', '1099']));
  assert.deepEqual(assignments, [{ title: COLUMN, points: 100 }]);
  assert.deepEqual(
    [...grades],
    [
      ['1004', [100]],
      ['1001', [100]],
      ['1002', [0]],
    ],
  );
  // A display name from the roster is defused in the CSV and escaped in the report.
  const rows = parseCsv(text).rows;
  assert.ok(
    rows.every((row) => row.every((c) => !/(^|[,;|]) *[=+\-@]/.test(c))),
    'no formula in gradebook-canvas.csv',
  );
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.ok(!html.includes('<script>alert(1)'), 'the roster name is escaped');
  assert.match(html, /<b class="lms">Doe, John<\/b> <small class="note">doejohn_1001_5001_attention<\/small>/);
  // The report's table: a search box, and per row the grade, the late mark, its CPU time and peak memory.
  assert.match(html, /<input id="search" type="search"/);
  const row = (name) => html.slice(html.indexOf(`${name}</small>`)).split('</tr>')[0];
  assert.match(
    row('roejane_LATE_1002_5002_attention'),
    /<td data-v="0">0<\/td><td>late<\/td><td data-v="\d+">\d+<\/td><td data-v="\d+">\d+<\/td>$/,
  );
  assert.match(row('doejohn_1001_5001_attention'), /<td data-v="100">100<\/td><td><\/td><td data-v="[1-9]\d*">/);
  // The summary's CSV carries the grade and Canvas' _LATE mark; the plain gradebook.csv keeps its form, with the grade.
  const sum = parseCsv(readFileSync(join(out, 'summary.csv'), 'utf8')).rows;
  assert.deepEqual(sum[0].slice(-3), ['grade', 'late', 'submitted']);
  assert.deepEqual(sum.find((row) => row[0] === 'roejane_LATE_1002_5002_attention').slice(-3), ['0', 'late', '']);
  assert.deepEqual(sum.find((row) => row[0] === 'doejohn_1001_5001_attention').slice(-3), ['100', '', '']);
  const gb = parseCsv(readFileSync(join(out, 'gradebook.csv'), 'utf8')).rows;
  assert.deepEqual(
    gb.find((row) => row[1] === '1001'),
    ['doejohn', '1001', '', 'doejohn_1001_5001_attention', '', '100'],
  );
});

test('Moodle: a grading worksheet (by participant number) and a grades export (by full name) as roster, read back by a Moodle-format importer', () => {
  const dir = join(tmp, 'moodle'),
    out = join(tmp, 'moodle-out');
  mkdirSync(dir);
  for (const [folder, code] of [
    ['John Doe_4211_assignsubmission_file_', SOLUTION],
    ['Ann Lee_4212_assignsubmission_file_', STARTER],
    ['Zed Who_4999_assignsubmission_file_', SOLUTION],
  ]) {
    mkdirSync(join(dir, folder));
    writeFileSync(join(dir, folder, 'attention.js'), code);
  }
  const worksheet = write(join(tmp, 'worksheet.csv'), [
    'Identifier,"Full name","Email address",Status,Grade,"Maximum Grade","Grade can be changed","Last modified (submission)","Last modified (grade)","Feedback comments"',
    '"Participant 4211","John Doe",jdoe@example.edu,"Submitted for grading",,100.00,Yes,"Tuesday, 2 December 2025, 11:00 PM",-,',
    '"Participant 4212","Ann Lee",alee@example.edu,"Submitted for grading",,100.00,Yes,"Tuesday, 2 December 2025, 10:00 PM",-,',
    '"Participant 4213","Bo Chen",bchen@example.edu,"No submission",,100.00,Yes,-,-,',
  ]);
  const run = (roster, ...more) => gradeSdpa(dir, out, '--lang', 'en', '--roster', roster, ...more);
  const r = run(worksheet, '--scale', '10');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /roster \(moodle\): 2 of 3 matched/);
  assert.match(r.stdout, /matched to no one \(not in the gradebook\): Zed Who_4999_assignsubmission_file_/);
  const users = new Set(['jdoe@example.edu', 'alee@example.edu', 'bchen@example.edu']);
  const grades = moodleImport(readFileSync(join(out, 'gradebook-moodle.csv'), 'utf8'), users);
  assert.deepEqual(Object.fromEntries(grades), {
    'alee@example.edu': { [COLUMN]: 0 },
    'jdoe@example.edu': { [COLUMN]: 10 },
  });
  const s = json(join(out, 'summary.json')).students.find((x) => x.student.startsWith('John Doe'));
  assert.deepEqual([s.lms.by, s.lms.participant, s.lms.key], ['id', '4211', 'jdoe@example.edu']);
  // Moodle's grades export has no participant numbers: a folder's name is matched to one full name.
  const exported = write(join(tmp, 'moodle-grades.csv'), [
    '"First name","Last name","ID number",Institution,Department,"Email address","Assignment: Attention (Real)","Last downloaded from this course"',
    'John,Doe,S1,,,jdoe@example.edu,-,1764800000',
    'Ann,Lee,S2,,,alee@example.edu,-,1764800000',
    'Bo,Chen,S3,,,bchen@example.edu,-,1764800000',
  ]);
  const r2 = run(exported);
  assert.equal(r2.status, 0, r2.stderr);
  const again = moodleImport(readFileSync(join(out, 'gradebook-moodle.csv'), 'utf8'), users);
  assert.deepEqual(Object.fromEntries(again), {
    'alee@example.edu': { [COLUMN]: 0 },
    'jdoe@example.edu': { [COLUMN]: 7 },
  });
  const rows = parseCsv(readFileSync(join(out, 'gradebook-moodle.csv'), 'utf8'));
  assert.ok(rows.bom, 'a UTF-8 BOM (Moodle drops it)');
  assert.deepEqual(rows.rows[0], ['Email address', 'ID number', 'Full name', COLUMN]);
  const ann = json(join(out, 'summary.json')).students.find((x) => x.student.startsWith('Ann Lee'));
  assert.deepEqual([ann.lms.by, ann.lms.idnumber], ['name', 'S2']);
  // Several exercises' runs in one Moodle gradebook, a column each; a student without a grade there is blank.
  const other = join(tmp, 'moodle-mha');
  mkdirSync(other);
  const lms = (email, name) => ({ format: 'moodle', key: email, email, name });
  writeFileSync(
    join(other, 'summary.json'),
    JSON.stringify({
      exercise: 'mha',
      title: { en: 'Multi-head attention' },
      students: [
        { student: 'jd', score: 4, grade: 4, lms: lms('jdoe@example.edu', 'John Doe') },
        { student: 'bc', score: 3, grade: 3, lms: lms('bchen@example.edu', 'Bo Chen') },
        { student: 'nobody', score: 5, grade: 5 },
      ],
    }),
  );
  const all = join(tmp, 'moodle-all.csv');
  const r3 = cli('grade-batch', 'gradebook', out, other, '--out', all, '--gradebook', 'moodle', '--lang', 'en');
  assert.equal(r3.status, 0, r3.stderr);
  const MHA = 'Multi-head attention (mha)';
  assert.deepEqual(Object.fromEntries(moodleImport(readFileSync(all, 'utf8'), users)), {
    'alee@example.edu': { [COLUMN]: 0, [MHA]: null },
    'bchen@example.edu': { [COLUMN]: null, [MHA]: 3 },
    'jdoe@example.edu': { [COLUMN]: 7, [MHA]: 4 },
  });
  const wrong = cli('grade-batch', 'gradebook', out, '--out', all, '--gradebook', 'canvas', '--lang', 'en');
  assert.equal(wrong.status, 2);
  assert.match(wrong.stderr, /no student of .* is matched to a canvas roster: grade them with --roster/);
  const misplaced = gradeSdpa(dir, out, '--gradebook', 'moodle', '--lang', 'en');
  assert.equal(misplaced.status, 2);
  assert.match(misplaced.stderr, /--gradebook is an option of grade-batch gradebook/);
});

test('a bad roster is refused before grading with the file and line, in both languages, exit 2', () => {
  const dir = join(tmp, 'empty-class');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.js'), SOLUTION);
  const bad = [
    [['Name,Mail', 'a,b'], /roster\.csv: the first row names neither Canvas' gradebook columns/],
    [
      ['Student,ID,SIS Login ID,Section', '"Doe, John",x12,jd,A'],
      /roster\.csv, line 2: ID must be the Canvas user id \(digits\), got "x12"/,
    ],
    [
      ['Student,ID,SIS Login ID,Section', '    Points Possible,,,', '"Doe, John",12,jd,A', '"Doe, Jon",12,jd2,A'],
      /line 4: the ID "12" is on line 3 too/,
    ],
    [['"Full name","Email address"', 'Ann Lee,not an email'], /line 2: Email address must be an email/],
    [
      ['Identifier,"Full name","Email address"', 'P4211,Ann Lee,a@x.y'],
      /line 2: Identifier must be Moodle's "Participant <number>", got "P4211"/,
    ],
    [['"Full name","Email address"', 'Ann Lee,A@x.y', 'Ann Li,a@x.y'], /line 3: the email "a@x.y" is on line 2 too/],
    [['"Full name","Email address"', ',a@x.y'], /line 2: the student has no name/],
  ];
  for (const [rows, re] of bad) {
    const file = write(join(tmp, 'roster.csv'), rows);
    const r = gradeSdpa(dir, join(tmp, 'never'), '--lang', 'en', '--roster', file);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, re);
    assert.ok(!/\n\s+at /.test(r.stderr), r.stderr);
    assert.throws(
      () => readRoster(file, { lang: 'ru' }),
      (e) => e instanceof RosterError && /строка|первая строка/.test(e.message),
    );
  }
  const missing = gradeSdpa(dir, join(tmp, 'never'), '--roster', join(tmp, 'nope.csv'));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /не прочитать --roster .*nope\.csv: ENOENT/);
  const scale = gradeSdpa(dir, join(tmp, 'never'), '--lang', 'en', '--scale', '0');
  assert.equal(scale.status, 2);
  assert.match(scale.stderr, /--scale must be an integer from 1 to 100000, got "0"/);
});

test('matching is never a guess: one id per person, two submissions for one person both left out, a shared name not matched', () => {
  const roster = {
    format: 'moodle',
    people: [
      { line: 2, name: 'Ann Lee', participant: '11', email: 'ann@x.y' },
      { line: 3, name: 'Bo Chen', participant: '12', email: 'bo@x.y' },
      { line: 4, name: 'Kim Park', email: 'kim1@x.y' },
      { line: 5, name: 'Kim Park', email: 'kim2@x.y' },
      { line: 6, name: 'Eve Roe', email: 'eve@x.y', username: 'eroe' },
    ],
  };
  const m = matchRoster(
    [
      'Ann Lee_11_assignsubmission_file_',
      'Ann Lee_11_assignsubmission_onlinetext_',
      'Bo Chen_12_assignsubmission_file_',
      'Kim Park_77_assignsubmission_file_',
      'eroe',
      'BO@x.y',
    ],
    roster,
  );
  assert.deepEqual(
    [...m.matched].map(([s, { person, by }]) => [s, person.email, by]),
    [['eroe', 'eve@x.y', 'key']],
  );
  assert.deepEqual(
    m.conflicts.map((c) => [c.person.email, c.students]),
    [
      ['ann@x.y', ['Ann Lee_11_assignsubmission_file_', 'Ann Lee_11_assignsubmission_onlinetext_']],
      ['bo@x.y', ['Bo Chen_12_assignsubmission_file_', 'BO@x.y']],
    ],
  );
  assert.ok(m.unmatched.includes('Kim Park_77_assignsubmission_file_'), 'two Kim Parks in the roster: no guess');
  assert.deepEqual(
    m.absent.map((p) => p.email),
    ['kim1@x.y', 'kim2@x.y'],
  );
});

test('points per test from the spec: score, total, overrides, --scale and Gradescope in points; a bad "points" is an author error', async () => {
  const spec = {
    slug: 'toy',
    title: { en: 'Toy', ru: 'Игрушка' },
    tests: [
      { id: 'a', name: { en: 'a', ru: 'a' }, points: 2.5 },
      { id: 'b', name: { en: 'b', ru: 'b' } },
      { id: 'c', name: { en: 'c', ru: 'c' }, points: 0.1 },
    ],
  };
  const record = (student, statuses) => ({
    student,
    key: student,
    file: `${student}.js`,
    track: 'js',
    lang: 'en',
    report: {
      status: statuses.every((x) => x === 'pass') ? 'pass' : 'fail',
      tests: spec.tests.map((t, i) => ({ id: t.id, name: t.name.en, status: statuses[i] })),
    },
  });
  const summary = summarize(
    [
      record('ann', ['pass', 'fail', 'pass']),
      record('ben', ['fail', 'pass', 'fail']),
      record('cat', ['pass', 'pass', 'pass']),
    ],
    { spec },
    { version: 'v' },
  );
  assert.equal(summary.total, 3.6);
  assert.deepEqual(
    summary.tests.map((t) => t.points),
    [2.5, 1, 0.1],
  );
  assert.deepEqual(
    summary.students.map((s) => [s.student, s.score, s.total]),
    [
      ['ann', 2.6, 3.6],
      ['ben', 1, 3.6],
      ['cat', 3.6, 3.6],
    ],
  );
  applyOverrides(summary, [
    { student: 'ben', test: 'a', score: 1, reason: 'x' },
    { student: 'cat', test: 'total', score: 3, reason: 'late' },
  ]);
  assert.deepEqual(
    summary.students.map((s) => s.score),
    [2.6, 3.5, 3],
  );
  applyScale(summary, 10);
  // 2.6 / 3.6 × 10 = 7.2222… → 7.22; 3.5 / 3.6 × 10 = 9.7222… → 9.72; 3 / 3.6 × 10 = 8.3333… → 8.33
  assert.deepEqual(
    summary.students.map((s) => s.grade),
    [7.22, 9.72, 8.33],
  );
  assert.equal(summary.max, 10);
  // Half up at the second decimal: 1 of 8 points on a scale of 1 is 0.125 → 0.13.
  const half = applyScale({ total: 8, students: [{ score: 1, total: 8 }] }, 1);
  assert.equal(half.students[0].grade, 0.13);
  // The pack's check: every bad value named with the file and the key, and nothing else.
  const pack = await readPack('sdpa');
  const withPoints = (points) => {
    const spec2 = structuredClone(pack.spec);
    spec2.tests[1].points = points;
    return packProblems({ ...pack, spec: spec2 });
  };
  for (const points of [0, -1, 'two', 1e6, 0.125, null])
    assert.deepEqual(withPoints(points), [
      'exercises/sdpa/spec.json: tests[1]: "points" must be a number of points above 0 and at most 1000, with at most 2 decimals',
    ]);
  assert.deepEqual(withPoints(0.29), [], '0.29 points is fine');
  // Gradescope's results.json: each test's max_score its points, the score their sum over the tests passed.
  const gs = JSON.parse(
    gradescope({
      lang: 'en',
      status: 'fail',
      passed: 2,
      total: 3,
      seed: 1,
      exercise: 'toy',
      tests: [
        { id: 'a', name: 'a', points: 2.5, status: 'pass', message: null, output: '' },
        { id: 'b', name: 'b', points: 1, status: 'fail', message: 'no', output: '' },
        { id: 'c', name: 'c', points: 0.1, status: 'pass', message: null, output: '' },
      ],
    }),
  );
  assert.deepEqual(
    gs.tests.map((t) => [t.score, t.max_score]),
    [
      [2.5, 2.5],
      [0, 1],
      [0.1, 0.1],
    ],
  );
  assert.equal(gs.score, 2.6);
});

test('late: --due and --late-policy parsed, the penalty on the gradebook grade only, the flag in summary.json and summary.csv', () => {
  assert.deepEqual(parseDue('2026-12-01T23:59+03:00'), {
    ms: Date.UTC(2026, 11, 1, 20, 59),
    offsetMin: 180,
    text: '2026-12-01T23:59+03:00',
  });
  assert.equal(parseDue('2026-12-01T23:59:30Z').ms, Date.UTC(2026, 11, 1, 23, 59, 30));
  assert.equal(parseDue('2026-12-01T23:59-0130').offsetMin, -90);
  for (const bad of ['2026-12-01T23:59', '2026-12-01', 'tomorrow', '2026-13-01T00:00Z'])
    assert.equal(parseDue(bad), null, bad);
  assert.deepEqual(parseLatePolicy('penalty:10%/day,cap:50%'), {
    pct: 10,
    per: 'day',
    perMs: 86400e3,
    cap: 50,
    graceMs: 0,
    text: 'penalty:10%/day,cap:50%',
  });
  assert.equal(parseLatePolicy('penalty:2.5%/hour, grace:15m').graceMs, 15 * 60e3);
  for (const bad of ['penalty:10', 'penalty:120%/day', 'cap:50', 'late:1', 'grace:5s', ''])
    assert.equal(parseLatePolicy(bad), null, bad);
  const usage = [
    [['--due', 'Friday'], /--due must be an ISO 8601 time with its zone .* got "Friday"/],
    [['--due', '2026-12-01T00:00Z', '--late-policy', 'penalty:10%'], /--late-policy must be penalty:P%\/day/],
    [['--late-policy', 'penalty:10%/day'], /--late-policy needs --due/],
  ];
  for (const [args, re] of usage) {
    const r = gradeSdpa(tmp, join(tmp, 'never'), '--lang', 'en', ...args);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, re);
  }
  // A class whose files were modified on time, 1.5 days after (two days begun: 20 %) and 9 days after (capped at 50 %).
  const dir = join(tmp, 'late'),
    out = join(tmp, 'late-out');
  mkdirSync(dir);
  const due = Date.UTC(2026, 11, 1, 20, 59);
  const files = [
    ['doejohn_1001_5001_attention.js', due - 3600e3],
    ['roejane_LATE_1002_5002_attention.js', due + 1.5 * 86400e3],
    ['poeed_1003_5003_attention.js', due + 9 * 86400e3],
  ];
  for (const [name, ms] of files) {
    writeFileSync(join(dir, name), SOLUTION);
    utimesSync(join(dir, name), ms / 1000, ms / 1000);
  }
  const roster = write(join(tmp, 'late-roster.csv'), [
    'Student,ID,SIS User ID,SIS Login ID,Section',
    '"Doe, John",1001,,jdoe,A',
    '"Roe, Jane",1002,,jroe,A',
    '"Poe, Ed",1003,,epoe,A',
  ]);
  const run = (...more) => gradeSdpa(dir, out, '--lang', 'en', '--roster', roster, '--scale', '10', ...more);
  const r = run('--due', '2026-12-01T23:59+03:00', '--late-policy', 'penalty:10%/day,cap:50%');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /late: 2 \(due 2026-12-01T20:59:00\.000Z\), 2 with a penalty \(penalty:10%\/day,cap:50%\)/);
  const summary = json(join(out, 'summary.json'));
  assert.equal(summary.due, '2026-12-01T20:59:00.000Z');
  assert.equal(summary.late_policy, 'penalty:10%/day,cap:50%');
  assert.deepEqual(
    summary.students.map((s) => [
      s.student.slice(0, 7),
      s.score,
      s.late,
      s.late_periods ?? 0,
      s.penalty ?? 0,
      s.grade,
      s.submitted,
    ]),
    [
      ['doejohn', 7, false, 0, 0, 10, new Date(due - 3600e3).toISOString()],
      ['poeed_1', 7, true, 9, 50, 5, new Date(due + 9 * 86400e3).toISOString()],
      ['roejane', 7, true, 2, 20, 8, new Date(due + 1.5 * 86400e3).toISOString()],
    ],
  );
  const { grades } = canvasImport(
    readFileSync(join(out, 'gradebook-canvas.csv'), 'utf8'),
    new Set(['1001', '1002', '1003']),
  );
  assert.deepEqual(Object.fromEntries(grades), { 1001: [10], 1002: [8], 1003: [5] });
  const csv = parseCsv(readFileSync(join(out, 'summary.csv'), 'utf8')).rows;
  const col = (name) => csv[0].indexOf(name);
  assert.deepEqual(
    csv.slice(1).map((row) => [row[col('score')], row[col('grade')], row[col('late')]]),
    [
      ['7', '10', ''],
      ['7', '5', 'late'],
      ['7', '8', 'late'],
    ],
  );
  // Without a due time no file time is read: Canvas' _LATE mark is the flag, and no penalty.
  const plain = run();
  assert.equal(plain.status, 0, plain.stderr);
  assert.deepEqual(
    json(join(out, 'summary.json')).students.map((s) => [s.late, s.grade, s.submitted]),
    [
      [false, 10, null],
      [false, 10, null],
      [true, 10, null],
    ],
  );
});

test("a zip entry's time: the extended timestamp (UTC) where the zip has one, else its zoneless MS-DOS time", () => {
  const dir = join(tmp, 'ziptime');
  mkdirSync(dir);
  const ms = Date.UTC(2026, 10, 30, 12, 34, 56);
  writeFileSync(join(dir, 'a.js'), 'x');
  utimesSync(join(dir, 'a.js'), ms / 1000, ms / 1000);
  const zip = join(tmp, 'ut.zip');
  assert.equal(spawnSync('zip', ['-qj', zip, join(dir, 'a.js')]).status, 0, 'Info-ZIP writes the UT field');
  assert.deepEqual(readZip(readFileSync(zip), zip)[0].mtime, { ms, naive: false });
  // writeZip writes only the MS-DOS fields, in the writer's local time: read back as fields, naive.
  const d = new Date(2026, 10, 30, 12, 34, 56);
  const plain = writeZip([{ path: 'a.js', data: 'x', date: d }]);
  assert.deepEqual(readZip(plain, 'plain.zip')[0].mtime, { ms: Date.UTC(2026, 10, 30, 12, 34, 56), naive: true });
});

test("late from a zip: an entry's zoneless MS-DOS time is read in the zone of --due", () => {
  const zip = join(tmp, 'late-class.zip'),
    out = join(tmp, 'late-zip-out');
  // Written on a machine in UTC+3 at 2026-12-02 10:00 local (07:00Z): 10 h past 23:59+03:00, one day begun.
  const local = new Date(2026, 11, 2, 10, 0, 0),
    early = new Date(2026, 11, 1, 23, 0, 0);
  writeFileSync(
    zip,
    writeZip([
      { path: 'class/late.js', data: SOLUTION, date: local },
      { path: 'class/early.js', data: SOLUTION, date: early },
    ]),
  );
  const r = gradeSdpa(zip, out, '--lang', 'en', '--due', '2026-12-01T23:59+03:00', '--late-policy', 'penalty:10%/day');
  assert.equal(r.status, 0, r.stderr);
  const rows = json(join(out, 'summary.json')).students.map((s) => [s.student, s.submitted, s.late, s.grade]);
  assert.deepEqual(rows, [
    ['early', '2026-12-01T20:00:00.000Z', false, 7],
    ['late', '2026-12-02T07:00:00.000Z', true, 6.3],
  ]);
});
