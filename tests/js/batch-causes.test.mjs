// report.html's failing tests by cause (issue 32, item 5): a class with every packaging problem (a file over the
// cap, a notebook that does not parse, a folder without code, two files of which neither is the submission,
// repeated zip entries, a syntax error) and ordinary mistakes, graded as a zip in English and in Russian:
// - the report's tables (per test, per function) hold the counts of summary.json's test_diagnoses, counted here
//   on their own (the function of each test from spec.json's tasks), each packaging problem a row of its own,
//   named in the run's language, and the counts are the same in both runs;
// - causeCounts() on a summary made by hand: the packaging rows first, per function sums;
// - every student has a page in the report's data; a merge of two shards graded in English, written with
//   --lang ru, has the same pages as the Russian run (each test's message rendered again from its cause);
// - a page names at most 50 similar submissions (the rest counted), and no name ends the report's data early.
// Run: node --test tests/js/batch-causes.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './cli.mjs';
import { casesFor, writeClass } from '../fixtures/class.mjs';
import { causeCounts, PACKAGING } from '../../grader/batch/summary.mjs';
import { reportHtml } from '../../grader/batch/report.mjs';
import { writeZip } from '../../grader/batch/zip.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'attnlab-batch-causes-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));
const json = (file) => JSON.parse(readFileSync(file, 'utf8'));
const SPEC = json(join(ROOT, 'exercises/sdpa/spec.json'));

/** The class as a zip: fixtures, then each packaging problem; hal's folder holds one entry twice. */
function classZip() {
  const dir = join(tmp, 'class');
  writeClass(dir, casesFor('sdpa'), [
    'pass',
    'mask-added',
    'no-scaling',
    'py-no-scaling',
    'error-syntax',
    'starter',
    'sandbox-ansi-forgery',
  ]);
  const put = (path, data) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), data);
  };
  const py = readFileSync(join(ROOT, 'exercises/sdpa/solution.py'));
  put('dave.ipynb', '{"cells": [oops');
  put('frank.py', Buffer.alloc(1258291, 0x20));
  put('gus/readme.txt', 'hello');
  put('eve/a.py', py);
  put('eve/b.py', py);
  const files = [];
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.push({ path: relative(dir, p), data: readFileSync(p) });
    }
  };
  walk(dir);
  files.push({ path: 'hal/attention.py', data: py }, { path: 'hal/attention.py', data: py });
  const zip = join(tmp, 'class.zip');
  writeFileSync(zip, writeZip(files));
  return zip;
}

/** The report's cause tables: { per test: { key: { students, tests, by_test } }, per function: { key: { by_function } }, labels: { key: row head } }. */
function reportCounts(html) {
  const table = (id) => {
    const body = html.match(new RegExp(`<table id="${id}"[^>]*>(.*?)</table>`, 's'));
    assert.ok(body, `table #${id}`);
    const rows = {};
    for (const [, key, cls, head, cells] of body[1].matchAll(
      /<tr data-key="([^"]*)"( class="packaging")?><th scope="row">(.*?)<\/th>(.*?)<\/tr>/g,
    )) {
      const row = { packaging: Boolean(cls), head, by: {} };
      for (const [, attr, name, n] of cells.matchAll(/<td data-(col|test|function)="([^"]*)"[^>]*>(\d+)<\/td>/g)) {
        if (attr === 'col') row[name] = Number(n);
        else if (Number(n)) row.by[name] = Number(n);
      }
      rows[key] = row;
    }
    return rows;
  };
  return { tests: table('causes-test'), functions: table('causes-function') };
}

/** The same counts from summary.json alone: each student's test_diagnoses, each test's function from spec.json. */
function summaryCounts(summary) {
  const fnOf = new Map(SPEC.tests.map((t) => [t.id, SPEC.tasks.find((k) => k.id === t.task_id).function]));
  const rows = {};
  for (const s of summary.students) {
    const seen = new Set();
    for (const [id, keys] of Object.entries(s.test_diagnoses))
      for (const key of keys) {
        const r = (rows[key] ??= { students: 0, tests: 0, by_test: {}, by_function: {} });
        r.tests++;
        r.by_test[id] = (r.by_test[id] ?? 0) + 1;
        r.by_function[fnOf.get(id)] = (r.by_function[fnOf.get(id)] ?? 0) + 1;
        if (!seen.has(key)) r.students++;
        seen.add(key);
      }
  }
  return rows;
}

const reportData = (html) =>
  JSON.parse(html.match(/<script type="application\/json" id="report-data">(.*?)<\/script>/s)[1]);

test('the report counts failing tests by cause as summary.json does, packaging problems named, the same in Russian and English', () => {
  const zip = classZip();
  const runs = {};
  for (const lang of ['en', 'ru']) {
    const out = join(tmp, `out-${lang}`);
    const r = cli('grade-batch', zip, '--exercise', 'sdpa', '--out', out, '--lang', lang, '--jobs', '2');
    assert.equal(r.status, 0, r.stderr);
    const summary = json(join(out, 'summary.json')),
      html = readFileSync(join(out, 'report.html'), 'utf8');
    const got = reportCounts(html),
      want = summaryCounts(summary);
    assert.deepEqual(Object.keys(got.tests).sort(), Object.keys(want).sort(), `${lang}: one row per cause key`);
    for (const [key, w] of Object.entries(want)) {
      const t = got.tests[key],
        f = got.functions[key];
      assert.deepEqual([t.students, t.tests, t.by], [w.students, w.tests, w.by_test], `${lang} ${key} per test`);
      assert.deepEqual(
        [f.students, f.tests, f.by],
        [w.students, w.tests, w.by_function],
        `${lang} ${key} per function`,
      );
      assert.equal(t.packaging, PACKAGING.includes(key), `${lang} ${key}: a packaging row or not`);
    }
    runs[lang] = { out, summary, html, got };
  }
  // Each packaging problem is its own row: one student each, all seven tests.
  const rows = runs.en.got.tests;
  const problems = {
    'batch.too_big': ['file over the size cap', 'файл больше предела'],
    'batch.notebook': ['notebook that does not parse', 'блокнот не разбирается'],
    'batch.no_code': ['no code file', 'нет файла с кодом'],
    'batch.ambiguous': ['several files, none the submission', 'несколько файлов, работа неясна'],
    'batch.duplicate': ['repeated zip entries', 'повторы записей в zip'],
    'not_run.syntax': ['syntax error', 'синтаксическая ошибка'],
  };
  for (const [key, [en, ru]] of Object.entries(problems)) {
    assert.deepEqual([rows[key]?.students, rows[key]?.tests], [1, 7], `${key}: ${JSON.stringify(rows[key])}`);
    assert.equal(runs.en.got.tests[key].head, `${en} <code>${key}</code>`);
    assert.equal(runs.ru.got.tests[key].head, `${ru} <code>${key}</code>`);
  }
  assert.ok(!('batch.input' in rows), 'no problem left under the generic key');
  // The packaging rows come first, under their own heading, in both languages.
  for (const [lang, head] of [
    ['en', 'Packaging: the file could not be taken as code'],
    ['ru', 'Сдача: файл не удалось взять как код'],
  ]) {
    const t = runs[lang].html.match(/<table id="causes-test".*?<\/table>/s)[0];
    assert.ok(t.indexOf(head) >= 0 && t.indexOf(head) < t.indexOf('d.no_scaling'), `${lang}: ${head}`);
  }
  // The same counts, whatever the language.
  assert.deepEqual(runs.ru.got, {
    tests: Object.fromEntries(
      Object.entries(runs.en.got.tests).map(([k, r]) => [k, { ...r, head: runs.ru.got.tests[k].head }]),
    ),
    functions: Object.fromEntries(
      Object.entries(runs.en.got.functions).map(([k, r]) => [k, { ...r, head: runs.ru.got.functions[k].head }]),
    ),
  });
  assert.deepEqual(
    runs.ru.summary.students.map((s) => [s.student, s.test_diagnoses]),
    runs.en.summary.students.map((s) => [s.student, s.test_diagnoses]),
  );

  // A page per student: every row has one; the tests' messages are what the student's results say.
  for (const lang of ['en', 'ru']) {
    const { students } = reportData(runs[lang].html);
    assert.deepEqual(Object.keys(students).sort(), runs[lang].summary.students.map((s) => s.key).sort());
    const ns = students['no-scaling'];
    const results = json(join(runs[lang].out, 'exercism', 'no-scaling', 'results.json'));
    assert.deepEqual(
      ns.tests.map((t) => [t.status, t.message]),
      results.tests.map((t) => [t.status, t.message ?? '']),
    );
  }
  const frank = reportData(runs.ru.html).students.frank;
  assert.match(frank.tests[0].message, /больше предела в 1\.0 MiB/);

  // Shards graded in English, merged with --lang ru: the same pages as the Russian run (messages rendered again
  // from the causes), the same counts.
  const shards = [1, 2].map((i) => {
    const out = join(tmp, `shard-${i}`);
    const r = cli('grade-batch', zip, '--exercise', 'sdpa', '--out', out, '--lang', 'en', '--shard', `${i}/2`);
    assert.equal(r.status, 0, r.stderr);
    return out;
  });
  const merged = join(tmp, 'merged');
  const m = cli('grade-batch', 'merge', ...shards, '--out', merged, '--lang', 'ru');
  assert.equal(m.status, 0, m.stderr);
  const mergedHtml = readFileSync(join(merged, 'report.html'), 'utf8');
  assert.deepEqual(reportCounts(mergedHtml), runs.ru.got);
  const pages = (html) =>
    Object.fromEntries(
      Object.entries(reportData(html).students).map(([k, s]) => [
        k,
        { name: s.name, status: s.status, score: s.score, tests: s.tests, message: s.message, file: s.file },
      ]),
    );
  assert.deepEqual(pages(mergedHtml), pages(runs.ru.html));
  assert.match(mergedHtml, /<section id="student" hidden>/);
});

test('causeCounts(): packaging causes first in their order, then by failing tests; per function the sum of its tests', () => {
  const summary = {
    tests: [
      { id: 'a', function: 'f' },
      { id: 'b', function: 'f' },
      { id: 'c', function: 'g' },
    ],
    students: [
      { test_diagnoses: { a: ['values'], b: ['values'] } },
      { test_diagnoses: { a: ['batch.no_track'], b: ['batch.no_track'], c: ['batch.no_track'] } },
      { test_diagnoses: { a: ['not_run.syntax'], b: ['not_run.syntax'], c: ['not_run.syntax'] } },
      { test_diagnoses: { c: ['timeout'] } },
      { test_diagnoses: {} },
    ],
  };
  assert.deepEqual(causeCounts(summary), [
    {
      key: 'batch.no_track',
      packaging: true,
      students: 1,
      tests: 3,
      by_test: { a: 1, b: 1, c: 1 },
      by_function: { f: 2, g: 1 },
    },
    {
      key: 'not_run.syntax',
      packaging: true,
      students: 1,
      tests: 3,
      by_test: { a: 1, b: 1, c: 1 },
      by_function: { f: 2, g: 1 },
    },
    { key: 'values', packaging: false, students: 1, tests: 2, by_test: { a: 1, b: 1 }, by_function: { f: 2 } },
    { key: 'timeout', packaging: false, students: 1, tests: 1, by_test: { c: 1 }, by_function: { g: 1 } },
  ]);
});

test('a student page in the report data: at most 50 similar submissions named, the rest counted; no name ends the data early', () => {
  const tests = [{ id: 'a', name: 'A', function: 'f' }];
  const name = (i) => (i ? `s${i}` : '</script><script>alert(1)</script>\u001b[2J');
  const students = Array.from({ length: 60 }, (_, i) => ({
    student: name(i),
    key: `s${i}`,
    score: 1,
    total: 1,
    status: 'pass',
    tests: { a: 'pass' },
    diagnoses: [],
    test_diagnoses: {},
    history: [],
  }));
  const similar = [];
  for (let i = 0; i < 60; i++)
    for (let j = i + 1; j < 60; j++)
      similar.push({ a: name(i), b: name(j), kind: 'exact', score: 1, shared: 5, linesA: [], linesB: [] });
  const html = reportHtml({
    summary: { exercise: 'x', lang: 'en', tests, students, total: 1 },
    records: [],
    similar,
    clusters: [],
  });
  assert.equal(html.match(/<script/g).length, 2, 'the data and the script, nothing a name opened');
  const data = reportData(html);
  assert.equal(data.students.s0.name, '</script><script>alert(1)</script>\\x1b[2J');
  assert.deepEqual([data.students.s0.similar.length, data.students.s0.similarMore], [50, 9]);
  assert.deepEqual(data.students.s1.similar[0], {
    key: 's0',
    name: '</script><script>alert(1)</script>\\x1b[2J',
    head: 'exact copy, 100%, 5 shared fingerprints',
  });
});
