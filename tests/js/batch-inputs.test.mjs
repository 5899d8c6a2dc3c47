// grade-batch's inputs as a hostile or careless class hands them in (issue 28, item 6):
// - the similarity tokenizer does bounded work per character on 1 MiB adversarial sources (a counter of
//   the characters it examines, not the clock), and the other text functions of grader/batch/ finish on them;
// - a class of a few hundred submissions with names in any bytes (Latin-1, CP1251, ESC/BEL, U+202E, tabs
//   and newlines, formulas, quotes), a FIFO, links, a file over the cap and Moodle folders, as a folder and
//   as a zip with repeated entries, grades completely: one row each, names shown escaped, counts in run.json;
// - summary.csv and gradebook.csv: a UTF-8 BOM, every text field quoted, nothing a spreadsheet reads as a
//   formula after any separator, no control or bidi character (read with an RFC 4180 parser of our own);
// - a resumed record is keyed by student and content: two students with the same bytes keep their own names.
// Run: node --test tests/js/batch-inputs.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './cli.mjs';
import { parseCsv } from './csv.mjs';
import { tokens, fingerprints, similarPairs } from '../../grader/batch/similarity.mjs';
import { csvCell, lmsIdentity } from '../../grader/batch/summary.mjs';
import { nameText, plainText } from '../../grader/wire/text.mjs';
import { writeZip } from '../../grader/batch/zip.mjs';
import { MAX_SOURCE_BYTES } from '../../grader/batch/inputs.mjs';
import { notebookCode } from '../../grader/batch/notebook.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'attnlab-batch-inputs-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));
const json = (file) => JSON.parse(readFileSync(file, 'utf8'));
const SOLUTION = readFileSync(join(ROOT, 'exercises/sdpa/solution.js'));
const MiB = 1 << 20;

// A deterministic generator (mulberry32) for the random mixes.
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const repeatTo = (unit, n) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
// What makes a scanner go back over text: openers never closed, escapes before every closer, closers inside
// other constructs (the reported case: many `/*` inside a regex literal), and random mixes of all of them.
const UNITS = ['/*', '/[/*]/', '`', '"\\', "'", '"""', "'''", '#', '//', '\\', '/*`"\'#', 'a"', '"a\n', '`${', '1.'];
function adversarial(n, seed) {
  const out = [],
    r = rng(seed);
  let len = 0;
  while (len < n) {
    const u = UNITS[Math.floor(r() * UNITS.length)].repeat(1 + Math.floor(r() * 64));
    out.push(u);
    len += u.length;
  }
  return out.join('').slice(0, n);
}

test('the similarity tokenizer examines each character a bounded number of times on 1 MiB adversarial sources', () => {
  const inputs = [...UNITS.map((u) => [JSON.stringify(u), (n) => repeatTo(u, n)]), ['mix 1', (n) => adversarial(n, 1)]];
  inputs.push(['mix 2', (n) => adversarial(n, 2)]);
  for (const track of ['js', 'python'])
    for (const [what, make] of inputs) {
      const steps = (n) => {
        const meter = { steps: 0 };
        tokens(make(n), track, meter);
        return meter.steps;
      };
      const big = steps(MiB),
        quarter = steps(MiB / 4);
      // Bounded per character (the lexicon has at most 2 comment and 4 string openers tried per token).
      assert.ok(big <= 8 * MiB, `${track} ${what}: ${big} steps for ${MiB} characters`);
      // And linear: four times the text, four times the work (a quadratic scan would be sixteen times).
      assert.ok(big <= 4.5 * quarter, `${track} ${what}: ${quarter} → ${big} steps for 4× the text`);
    }
  // The whole similarity pass over three such files finishes, fingerprints and all.
  const subs = [1, 2, 3].map((k) => ({ student: `s${k}`, track: 'js', source: adversarial(MiB, k) }));
  const meter = { steps: 0 };
  for (const s of subs) fingerprints(s.source, s.track, meter);
  assert.ok(meter.steps <= 3 * 8 * MiB, `${meter.steps} steps`);
  assert.ok(Array.isArray(similarPairs(subs)));
});

test('the tokenizer still reads code as before: comments dropped, names one token, strings and lines kept', () => {
  const t = (src, track) => tokens(src, track).map((x) => `${x.t}@${x.line}`);
  assert.deepEqual(t('const a = np.matmul(x, "s\\"t") // c\n/* x\n y */ let `a\nb` 3.5e2', 'js'), [
    ...['const@1', 'V@1', '=@1', 'V@1', '.@1', 'matmul@1', '(@1', 'V@1', ',@1', 'S@1', ')@1'],
    ...['let@3', 'S@3', 'N@4'],
  ]);
  assert.deepEqual(t('def f(x):\n  """doc\n  """\n  return x # hi\n', 'python'), [
    ...['def@1', 'V@1', '(@1', 'V@1', ')@1', ':@1', 'S@2', 'return@4', 'V@4'],
  ]);
  // Unclosed: a block comment or a multi-line string to the end, a one-line string to the end of its line.
  assert.deepEqual(t('a /* b\nc', 'js'), ['V@1']);
  assert.deepEqual(t('a "b\nc', 'js'), ['V@1', 'S@1', 'V@2']);
  assert.deepEqual(t("x = '''a\nb", 'python'), ['V@1', '=@1', 'S@1']);
});

test('names as bytes and cells for spreadsheets: one sanitiser, bounded on 1 MiB names', () => {
  assert.deepEqual(nameText(Buffer.from('caf\xe9.py', 'latin1')), { text: 'caf\\xe9.py', escaped: true });
  assert.deepEqual(nameText(Buffer.from('Анна Ли.py')), { text: 'Анна Ли.py', escaped: false });
  assert.deepEqual(nameText(Buffer.from([0xed, 0xa0, 0x80, 0xc0, 0xaf])), {
    text: '\\xed\\xa0\\x80\\xc0\\xaf', // a surrogate and an overlong slash are not UTF-8
    escaped: true,
  });
  assert.deepEqual(nameText(Buffer.from('a\x1b[31m\x07\u202eb\tc\nd')), {
    text: 'a\\x1b[31m\\x07\\u202eb\\tc\\nd',
    escaped: true,
  });
  assert.equal(plainText('a\x1b[31m\x07\u202eb\tc\nd\u2066'), 'a[31mb c d');
  assert.equal(csvCell('a;=1+1;'), `"a;'=1+1;"`);
  assert.equal(csvCell('x, @SUM(A1)|-2'), `"x, '@SUM(A1)|'-2"`);
  assert.equal(csvCell('=A1'), `"'=A1"`);
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell(3), '3');
  assert.equal(csvCell(''), '""');
  // On 1 MiB of what could make a pattern backtrack, each finishes (and keeps its meaning).
  const long = [repeatTo('a_', MiB), repeatTo('a_1_assignsubmission_', MiB) + '-', repeatTo('; ', MiB) + 'x'];
  for (const s of long) {
    assert.equal(lmsIdentity(s).id, '');
    assert.ok(csvCell(s).length >= s.length);
    assert.equal(nameText(Buffer.from(s)).escaped, false);
  }
  assert.deepEqual(lmsIdentity(repeatTo('_1', MiB)), { name: '_1', id: '1', late: false });
  assert.equal(nameText(Buffer.alloc(MiB, 0xff)).text.length, 4 * MiB);
});

// The class: names in every encoding and with every trick, most submissions tiny files that fail fast
// (a syntax error, found in the parent), a few real ones; as a folder and then as a zip.
const BAD = 'function causal_mask(\n';
const KINDS = [
  // [name bytes(i), the name as shown, escaped?]
  (i) => [Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(`_${i}`)]), `caf\\xe9_${i}`, true],
  (i) => [
    Buffer.concat([Buffer.from([0xc8, 0xe2, 0xe0, 0xed]), Buffer.from(`_${i}`)]),
    `\\xc8\\xe2\\xe0\\xed_${i}`,
    true,
  ],
  (i) => [Buffer.from(`x\x1b[31m\x07_${i}`), `x\\x1b[31m\\x07_${i}`, true],
  (i) => [Buffer.from(`evil\u202Etxt_${i}`), `evil\\u202etxt_${i}`, true],
  (i) => [Buffer.from(`a\nb\tc_${i}`), `a\\nb\\tc_${i}`, true],
  (i) => [Buffer.from(`=1+1_${i}`), `=1+1_${i}`, false],
  (i) => [Buffer.from(`a;=1+1;_${i}`), `a;=1+1;_${i}`, false],
  (i) => [Buffer.from(`@SUM(A1)_${i}`), `@SUM(A1)_${i}`, false],
  (i) => [Buffer.from(`-2+3_${i}`), `-2+3_${i}`, false],
  (i) => [Buffer.from(`+cmd|' calc'!A0_${i}`), `+cmd|' calc'!A0_${i}`, false],
  (i) => [Buffer.from(`"quoted", name_${i}`), `"quoted", name_${i}`, false],
  (i) => [Buffer.from(`Иван Петров 注意 😀_${i}`), `Иван Петров 注意 😀_${i}`, false],
  (i) => [Buffer.concat([Buffer.alloc(150, 0xff), Buffer.from(`_${i}`)]), `${'\\xff'.repeat(150)}_${i}`, true],
];
const FLAT = 200;

function classFiles() {
  const files = [],
    expected = new Map(); // student → { escaped, pass }
  for (let i = 0; i < FLAT; i++) {
    const [bytes, shown, escaped] = KINDS[i % KINDS.length](i);
    const real = i % 60 === 0; // a few real submissions among the failures
    const py = !real && i % 50 === 7;
    files.push({
      path: Buffer.concat([bytes, Buffer.from(py ? '.py' : '.js')]),
      data: real ? SOLUTION : py ? 'def (\n' : BAD,
    });
    expected.set(shown, { escaped, pass: real });
  }
  // Moodle folders whose names are not UTF-8, the code below a subfolder, a text file beside it.
  for (let k = 0; k < 6; k++) {
    const folder = Buffer.concat([
      Buffer.from('Ann'),
      Buffer.from([0xe9]),
      Buffer.from(` Lee_42${k}_assignsubmission_file_`),
    ]);
    files.push({ path: Buffer.concat([folder, Buffer.from('/hw3/src/attention.js')]), data: SOLUTION });
    files.push({ path: Buffer.concat([folder, Buffer.from('/readme.txt')]), data: 'hi' });
    expected.set(`Ann\\xe9 Lee_42${k}_assignsubmission_file_`, { escaped: true, pass: true, id: `42${k}` });
  }
  // Over the cap: a row that says so, counted as refused.
  files.push({ path: Buffer.from('huge.js'), data: Buffer.alloc(MAX_SOURCE_BYTES + 1, 0x20) });
  expected.set('huge', { escaped: false, pass: false, refused: true });
  return { files, expected };
}

function checkCsv(file, what) {
  const text = readFileSync(file, 'utf8');
  const { bom, rows, quoted } = parseCsv(text);
  assert.ok(bom, `${what}: starts with a UTF-8 BOM`);
  assert.ok(
    !/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]/.test(text.slice(1)),
    `${what}: a control or bidi character`,
  );
  rows.forEach((row, r) =>
    row.forEach((cell, c) => {
      assert.ok(
        quoted[r][c] || /^-?\d+(\.\d+)?$/.test(cell) || cell === '',
        `${what} row ${r} col ${c}: text not quoted: ${cell}`,
      );
      assert.ok(!/(^|[,;|]) *[=+\-@]/.test(cell), `${what} row ${r}: a formula a spreadsheet would read: ${cell}`);
    }),
  );
  return rows;
}

function checkRun(out, r, expected, { duplicates, refused, escapedExtra = 0 }) {
  assert.equal(r.status, 0, r.stderr);
  assert.ok(!/\n\s+at /.test(r.stderr), `no stack trace: ${r.stderr.slice(-2000)}`);
  const summary = json(join(out, 'summary.json'));
  const names = summary.students.map((s) => s.student);
  for (const [name, e] of expected) {
    const s = summary.students.find((x) => x.student === name);
    assert.ok(s, `${JSON.stringify(name)} has no row (rows: ${names.length})`);
    if (e.pass) assert.equal(s.status, 'pass', name);
    else assert.equal(s.score, 0, name);
  }
  const run = json(join(out, 'run.json'));
  assert.equal(run.shard, '1/1');
  assert.match(run.class_hash, /^[0-9a-f]{16}$/);
  assert.deepEqual(run.inputs, {
    submissions: summary.students.length,
    escaped_names: [...expected.values()].filter((e) => e.escaped).length + escapedExtra,
    duplicates,
    refused,
    skipped: 0,
  });
  const summaryRows = checkCsv(join(out, 'summary.csv'), 'summary.csv');
  assert.equal(summaryRows.length, 1 + summary.students.length);
  const gb = checkCsv(join(out, 'gradebook.csv'), 'gradebook.csv');
  for (const e of expected.values())
    if (e.id) assert.deepEqual(gb.find((row) => row[1] === e.id)?.slice(0, 2), ['Ann\\xe9 Lee', e.id]);
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.ok(!/[\x07\x1b\u202e]/.test(html), 'report.html: a raw control character');
  return summary;
}

test('a class of a few hundred hostile names, links, a FIFO and a file over the cap grades completely, as a folder and as a zip', () => {
  const { files, expected } = classFiles();
  const dir = Buffer.from(join(tmp, 'hostile'));
  for (const f of files) {
    const p = Buffer.concat([dir, Buffer.from('/'), f.path]);
    mkdirSync(p.subarray(0, p.lastIndexOf(0x2f)), { recursive: true });
    writeFileSync(p, f.data);
  }
  // What is not a regular file: refused, named on stderr, counted; never opened.
  assert.equal(spawnSync('mkfifo', [join(tmp, 'hostile', 'fifo.js')]).status, 0);
  symlinkSync('/dev/zero', join(tmp, 'hostile', 'zero.js'));
  symlinkSync('/etc', join(tmp, 'hostile', 'etc'));
  const out = join(tmp, 'hostile-out');
  const r = cli('grade-batch', join(tmp, 'hostile'), '--exercise', 'sdpa', '--out', out, '--lang', 'en', '--jobs', '2');
  checkRun(out, r, expected, { duplicates: 0, refused: 4 });
  assert.match(r.stderr, /files refused: 4 \(run\.json\)/);
  assert.match(r.stderr, /refused: etc, fifo\.js, zero\.js, huge\.js/);
  assert.match(r.stderr, /the file is 1048577 bytes, more than 1048576|huge/);

  // The same as a zip written as Windows does (names in its code page, no UTF-8 flag), plus two entries
  // of one name at the top (both graded, the second as "dup (2)") and two inside a student's folder (reported).
  const zip = join(tmp, 'hostile.zip');
  writeFileSync(
    zip,
    writeZip([
      ...files,
      { path: 'dup.js', data: SOLUTION },
      { path: 'dup.js', data: BAD },
      { path: 'Bob_7_assignsubmission_file_/a.js', data: SOLUTION },
      { path: 'Bob_7_assignsubmission_file_/a.js', data: BAD },
    ]),
  );
  const zout = join(tmp, 'hostile-zip-out');
  const rz = cli('grade-batch', zip, '--exercise', 'sdpa', '--out', zout, '--lang', 'en', '--jobs', '2');
  const zexpected = new Map([
    ...expected,
    ['dup', { pass: true }],
    ['dup (2)', { pass: false }],
    ['Bob_7_assignsubmission_file_', { pass: false }],
  ]);
  const summary = checkRun(zout, rz, zexpected, { duplicates: 2, refused: 1 });
  assert.equal(summary.students.length, FLAT + 6 + 1 + 3);
  const bob = json(join(zout, 'exercism', 'Bob_7_assignsubmission_file_', 'results.json'));
  assert.match(bob.message, /the zip holds several entries with one name \(Bob_7_assignsubmission_file_\/a\.js\)/);
});

test('a resumed record is keyed by student and content: two students with the same bytes keep their own names', () => {
  const dir = join(tmp, 'resume-names'),
    out = join(tmp, 'resume-names-out');
  mkdirSync(dir);
  writeFileSync(join(dir, 'x_y.js'), SOLUTION);
  const run = () => cli('grade-batch', dir, '--exercise', 'sdpa', '--out', out, '--lang', 'en');
  assert.equal(run().status, 0);
  writeFileSync(join(dir, 'x y.js'), SOLUTION); // its key would be x_y, which the first run gave to x_y
  const r = run();
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(
    json(join(out, 'summary.json')).students.map((s) => [s.student, s.file, s.score]),
    [
      ['x y', 'x y.js', 7],
      ['x_y', 'x_y.js', 7],
    ],
  );
  const gb = parseCsv(readFileSync(join(out, 'gradebook.csv'), 'utf8')).rows;
  assert.deepEqual(
    gb.slice(1).map((row) => row[0]),
    ['x y', 'x_y'],
  );
  assert.match(run().stderr, /grading 0 of 2 submissions/);
});

test('submissions as they come: a notebook, a folder with tests and a starter beside the code, a file over the cap', () => {
  const dir = join(tmp, 'as-they-come'),
    out = join(tmp, 'as-they-come-out');
  const py = readFileSync(join(ROOT, 'exercises/sdpa/solution.py'), 'utf8');
  const pyStarter = readFileSync(join(ROOT, 'exercises/sdpa/starter.py'), 'utf8');
  const put = (path, data) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), data);
  };
  // A notebook (nbformat 4): a markdown cell, a cell of shell and magic lines, a %%timeit cell, the code, a call.
  const cells = [
    { cell_type: 'markdown', source: ['# HW 3\n'] },
    { cell_type: 'code', source: ['!pip install numpy\n', '%matplotlib inline\n', 'import numpy as np\n'] },
    { cell_type: 'code', source: ['%%timeit\n', 'np.zeros(3)\n'] },
    { cell_type: 'code', source: py.split('\n').map((l) => `${l}\n`) },
    { cell_type: 'code', source: 'print(causal_mask(3))' },
  ];
  put('carol/hw3.ipynb', JSON.stringify({ nbformat: 4, metadata: { kernelspec: { language: 'python' } }, cells }));
  put('dave.ipynb', '{"cells": [oops');
  // Moodle's folder: the code in hw3/src/ with its tests beside it.
  put('Ann Lee_1_assignsubmission_file_/hw3/src/attention.py', py);
  put(
    'Ann Lee_1_assignsubmission_file_/hw3/src/test_attention.py',
    'from attention import *\n\ndef test_softmax():\n    assert softmax\n',
  );
  // A .js beside the pack's starter .py left as it was.
  put('Bob_2_assignsubmission_file_/attention.js', SOLUTION);
  put('Bob_2_assignsubmission_file_/attention.py', pyStarter);
  // Two files that both define every function: which one is meant cannot be told.
  put('eve/a.py', py);
  put('eve/b.py', py);
  // 1.2 MB: refused, the message says the cap.
  put('frank.py', Buffer.alloc(1258291, 0x20));
  const r = cli('grade-batch', dir, '--exercise', 'sdpa', '--out', out, '--lang', 'en', '--jobs', '2');
  assert.equal(r.status, 0, r.stderr);
  const rows = new Map(json(join(out, 'summary.json')).students.map((s) => [s.student, s]));
  const carol = rows.get('carol');
  assert.deepEqual([carol.file, carol.track, carol.score], ['carol/hw3.ipynb', 'python', 7]);
  assert.deepEqual(carol.notes, [
    'a notebook: its 3 code cell(s) graded as one Python file',
    'dropped from the notebook: 1 %% cell(s), 2 magic or shell line(s) (% and !), which are no Python',
  ]);
  assert.match(
    json(join(out, 'exercism', 'dave', 'results.json')).message,
    /dave\.ipynb: not a notebook: its JSON does not parse/,
  );
  const ann = rows.get('Ann Lee_1_assignsubmission_file_');
  assert.deepEqual([ann.file, ann.score], ['Ann Lee_1_assignsubmission_file_/hw3/src/attention.py', 7]);
  assert.match(ann.notes[0], /ignored beside it: .*test_attention\.py \(a submission is one file/);
  const bob = rows.get('Bob_2_assignsubmission_file_');
  assert.deepEqual([bob.file, bob.track, bob.score], ['Bob_2_assignsubmission_file_/attention.js', 'js', 7]);
  assert.match(
    json(join(out, 'exercism', 'eve', 'results.json')).message,
    /several source files, and not one that alone defines the most of causal_mask, softmax/,
  );
  assert.equal(
    json(join(out, 'exercism', 'frank', 'results.json')).message,
    'the file is 1.2 MiB (1258291 bytes), over the cap of 1.0 MiB (1048576 bytes) a submission may have: it was not read',
  );
  assert.equal(json(join(out, 'run.json')).inputs.refused, 1);
  // The notes are in the report, escaped, under the student's name.
  assert.match(readFileSync(join(out, 'report.html'), 'utf8'), /<small class="note">a notebook: its 3 code cell\(s\)/);
});

test('history: every grading kept per student, what changed since the last run in summary.json, the report and the text summary', () => {
  const dir = join(tmp, 'history'),
    out = join(tmp, 'history-out');
  mkdirSync(dir);
  const starter = readFileSync(join(ROOT, 'exercises/sdpa/starter.js'));
  writeFileSync(join(dir, 'ann.js'), starter);
  writeFileSync(join(dir, 'ben.js'), SOLUTION);
  writeFileSync(join(dir, 'cat.js'), SOLUTION);
  const run = () => cli('grade-batch', dir, '--exercise', 'sdpa', '--out', out, '--lang', 'en');
  const first = run();
  assert.equal(first.status, 0, first.stderr);
  assert.equal(json(join(out, 'summary.json')).changes, undefined, 'no last run: no changes');
  // Ann resubmits the solution, Dan hands in late, Cat's file is gone.
  writeFileSync(join(dir, 'ann.js'), SOLUTION);
  writeFileSync(join(dir, 'dan.js'), SOLUTION);
  rmSync(join(dir, 'cat.js'));
  const second = run();
  assert.equal(second.status, 0, second.stderr);
  assert.match(second.stdout, /since the last run: 1 new, 1 resubmitted, 0 regraded, 1 removed/);
  const summary = json(join(out, 'summary.json'));
  assert.deepEqual(summary.changes, [
    { student: 'ann', change: 'resubmitted', before: 0, after: 7 },
    { student: 'dan', change: 'new', before: null, after: 7 },
    { student: 'cat', change: 'removed', before: 7, after: null },
  ]);
  const ann = summary.students.find((s) => s.student === 'ann');
  assert.deepEqual(
    ann.history.map((h) => [h.score, h.status, h.file]),
    [
      [0, 'fail', 'ann.js'],
      [7, 'pass', 'ann.js'],
    ],
  );
  assert.notEqual(ann.history[0].content, ann.history[1].content);
  assert.ok(ann.history.every((h) => !Number.isNaN(Date.parse(h.time)) && h.tests.softmax));
  assert.equal(summary.students.find((s) => s.student === 'ben').history.length, 1, 'reused, not graded again');
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.match(html, /<table id="changes">.*<td>ann<\/td><td>resubmitted<\/td><td>0 → 7<\/td>/s);
  assert.match(html, /graded 2 times; scores 0 → 7/);
  // A third run with nothing changed: no change listed.
  assert.deepEqual(json(join(out, 'summary.json')).changes.length, 3);
  run();
  assert.deepEqual(json(join(out, 'summary.json')).changes, []);
});

test('overrides: a teacher decision per test or total, shown as such in summary.json, the CSVs and the report; a bad row refused with its line', () => {
  const dir = join(tmp, 'overrides'),
    out = join(tmp, 'overrides-out');
  mkdirSync(dir);
  writeFileSync(join(dir, 'ann.js'), readFileSync(join(ROOT, 'exercises/sdpa/starter.js')));
  writeFileSync(join(dir, 'ben.js'), SOLUTION);
  const file = join(tmp, 'overrides.csv');
  const run = (rows) => {
    writeFileSync(file, rows.join('\r\n') + '\r\n');
    return cli('grade-batch', dir, '--exercise', 'sdpa', '--out', out, '--lang', 'en', '--overrides', file);
  };
  // Refused, each with its line: an unknown student, an unknown test, a score out of range, no reason.
  const bad = [
    [['student,test,score,reason', 'zed,softmax,1,x'], /overrides\.csv, line 2: no student "zed" in this class/],
    [['reason,score,test,student', 'x,1,nope,ann'], /line 2: no test "nope" \(the tests: causal_mask, softmax/],
    [['student,test,score,reason', 'ann,total,9,x'], /line 2: the score must be a number from 0 to 7, got "9"/],
    [['student,test,score,reason', 'ann,softmax,1,'], /line 2: a reason is required/],
    [
      ['who,test,score'],
      /the first row must name the columns student, test, score, reason \(missing: student, reason\)/,
    ],
  ];
  for (const [rows, re] of bad) {
    const r = run(rows);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, re);
    assert.ok(!/\n\s+at /.test(r.stderr));
  }
  const r = run([
    'student,test,score,reason',
    'ann,softmax,1,"regraded by hand: the ""max"" trick, a test bug"',
    'ben,total,5,=1+1 copied (see cluster 1)',
  ]);
  assert.equal(r.status, 0, r.stderr);
  const rows = new Map(json(join(out, 'summary.json')).students.map((s) => [s.student, s]));
  const ann = rows.get('ann'),
    ben = rows.get('ben');
  assert.equal(ann.tests.softmax, 'pass');
  assert.equal(ann.score, Object.values(ann.tests).filter((t) => t === 'pass').length);
  assert.deepEqual(ann.overrides, [
    { test: 'softmax', score: 1, reason: 'regraded by hand: the "max" trick, a test bug', was: 'fail' },
  ]);
  assert.deepEqual([ben.score, ben.overrides[0].was], [5, 7]);
  const gb = checkCsv(join(out, 'gradebook.csv'), 'gradebook.csv');
  assert.equal(gb.find((row) => row[0] === 'ben')[5], '5');
  assert.equal(checkCsv(join(out, 'summary.csv'), 'summary.csv').find((row) => row[0] === 'ann')[3], String(ann.score));
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.match(
    html,
    /overridden by the teacher: softmax fail → 1 \(regraded by hand: the &quot;max&quot; trick, a test bug\)/,
  );
  assert.match(html, /overridden by the teacher: total 7 → 5 \(=1\+1 copied \(see cluster 1\)\)/);
});

test("a notebook's track is the one that reads its language, by Jupyter's file extension or the language's name; another language is refused", () => {
  const nb = (metadata) =>
    Buffer.from(JSON.stringify({ nbformat: 4, metadata, cells: [{ cell_type: 'code', source: ['x = 1'] }] }));
  const js = notebookCode(nb({ kernelspec: { language: 'javascript' } }));
  assert.equal(js.track, 'js');
  assert.equal(js.notes[0].en, 'a notebook: its 1 code cell(s) graded as one JavaScript file');
  assert.equal(notebookCode(nb({ language_info: { name: 'deno', file_extension: '.js' } })).track, 'js');
  assert.equal(notebookCode(nb({ language_info: { name: 'python', file_extension: '.py' } })).track, 'python');
  assert.equal(notebookCode(nb({})).track, 'python', "a notebook that names no language is IPython's");
  assert.throws(
    () => notebookCode(nb({ kernelspec: { language: 'R' } })),
    /a notebook in r, which no track reads \(JavaScript, Python\)/,
  );
});
