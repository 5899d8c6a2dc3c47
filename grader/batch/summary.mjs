// From the records of a batch (run.mjs) to what a teacher reads: the causes of each report counted by
// key, summary.json, summary.csv, the gradebook CSV (Canvas, Moodle) and the text summary printed at the end.
import { plainText, visible } from '../wire/text.mjs';

/**
 * The diagnosis keys of a report: per test not passed, the key of its cause (grade.mjs: the diagnosis
 * the grader named, else what went wrong: `values`, `shape`, `timeout`, `error` …; the same whatever
 * the language of the report or the track's spelling). → { tests: { id: [key] }, keys: [sorted,
 * unique], said: { key: [ids of the tests whose message says it in full, not by reference] } }
 * @param {import('../types').Report} report
 */
export function diagnosesOf(report) {
  const tests = {},
    said = {};
  for (const t of report.tests) {
    if (t.status === 'pass') continue;
    const key = t.cause?.key ?? 'other';
    tests[t.id] = [key];
    if (!t.same_as) (said[key] ??= []).push(t.id);
  }
  return { tests, keys: [...new Set(Object.values(tests).flat())].sort(), said };
}

/** A sum of points, free of binary fractions' noise (0.1 + 0.2 is 0.3). */
export const roundPoints = (x) => Math.round(x * 1e6) / 1e6;
/** Each test's points (spec.json `points`, default 1) → { id: points }. */
export const pointsOf = (spec) => Object.fromEntries(spec.tests.map((t) => [t.id, t.points ?? 1]));
/** The pack's total points. */
export const totalPoints = (spec) => roundPoints(Object.values(pointsOf(spec)).reduce((a, b) => a + b, 0));
/** The points of the tests passed, of { id: status }. */
export const scoreOf = (tests, points) =>
  roundPoints(Object.entries(tests).reduce((a, [id, st]) => a + (st === 'pass' ? (points[id] ?? 1) : 0), 0));

/** summary.json's content from the records (in student order): score and total in the pack's points. */
export function summarize(records, exercise, { version }) {
  const spec = exercise.spec;
  const points = pointsOf(spec),
    total = totalPoints(spec);
  const students = records
    .map((r) => {
      const d = diagnosesOf(r.report);
      const tests = Object.fromEntries(r.report.tests.map((t) => [t.id, t.status]));
      return {
        student: r.student,
        key: r.key,
        file: r.file,
        track: r.track,
        status: r.report.status,
        score: scoreOf(tests, points),
        total,
        tests,
        diagnoses: d.keys,
        test_diagnoses: d.tests,
        said_in: d.said,
        pack_version: r.pack_version,
        hash: r.hash,
        ...(r.notes?.length && { notes: r.notes }),
        content: r.history?.at(-1)?.content ?? null,
        history: r.history ?? [],
      };
    })
    .sort((a, b) => (a.student < b.student ? -1 : a.student > b.student ? 1 : 0));
  const lang = records[0]?.lang ?? 'ru';
  return {
    exercise: spec.slug,
    title: spec.title,
    pack_version: version,
    seed: records[0]?.seed ?? spec.seed,
    lang,
    total,
    tests: spec.tests.map((t) => ({
      id: t.id,
      name: t.name[lang] || t.name.en,
      points: points[t.id],
      function: spec.tasks?.find((k) => k.id === t.task_id)?.function ?? null,
    })),
    students,
  };
}

/**
 * A CSV cell: a number as it is; any other value is text, made plain (wire/text.mjs plainText: no control or
 * bidi character, no tab or line break), quoted, and defused where a spreadsheet could read a formula: a
 * `= + - @` at the start or after any separator a spreadsheet may split on (`,` `;` `|`, spaces between)
 * gets an apostrophe before it (`a;=1+1` → `a;'=1+1`: Excel in a locale whose list separator is `;` splits there).
 */
export function csvCell(v) {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (v === null || v === undefined) return '';
  const s = plainText(v).replace(FORMULA, "$1'$2");
  return `"${s.replace(/"/g, '""')}"`;
}
const FORMULA = /((?:^|[,;|]) *)([=+\-@])/g;
/** A CSV file: rows of cells, CRLF line ends, and a UTF-8 byte order mark (so that Excel reads it as UTF-8). */
const csv = (rows) => '\uFEFF' + rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';

/**
 * summary.csv: student, file, track, score, total, status, each test's status, the diagnosis keys (space-separated),
 * the grade, `late` where late, the submission's time.
 */
export function summaryCsv(summary) {
  const ids = summary.tests.map((t) => t.id);
  return csv([
    ['student', 'file', 'track', 'score', 'total', 'status', ...ids, 'diagnoses', 'grade', 'late', 'submitted'],
    ...summary.students.map((s) => [
      s.student,
      s.file,
      s.track ?? '',
      s.score,
      s.total,
      s.status,
      ...ids.map((id) => s.tests[id] ?? ''),
      s.diagnoses.join(' '),
      s.grade ?? s.score,
      s.late ? 'late' : '',
      s.submitted ?? '',
    ]),
  ]);
}

/**
 * The student's name, LMS id and lateness as the export spelled them: Canvas names files
 * `<name>[_LATE]_<user id>_<submission id>_<file>`, Moodle folders `<Full Name>_<participant id>_assignsubmission_file_`.
 * → { name, id, late } (read by splitting at `_`, in one pass: no pattern that backtracks over a long name).
 */
export function lmsIdentity(student) {
  const parts = String(student).split('_'),
    n = parts.length,
    digits = (x) => x.length > 0 && DIGITS.test(x);
  // wordy[k]: parts k… joined with `_` are word characters only (Moodle's `file_`); something follows part k - 1.
  const wordy = new Array(n + 1).fill(true);
  for (let k = n - 1; k >= 0; k--) wordy[k] = wordy[k + 1] && WORD.test(parts[k]);
  const more = (k) => n - k > 1 || (n - k === 1 && parts[k] !== '');
  for (let j = 1; j + 1 < n; j++) {
    if (!digits(parts[j]) || (j === 1 && parts[0] === '')) continue; // the name is not empty
    if (digits(parts[j + 1]) && more(j + 2)) {
      const late = j > 1 && parts[j - 1] === 'LATE' && (j > 2 || parts[0] !== '');
      return { name: parts.slice(0, late ? j - 1 : j).join('_'), id: parts[j], late };
    }
    if (parts[j + 1] === 'assignsubmission' && more(j + 2) && wordy[j + 2])
      return { name: parts.slice(0, j).join('_'), id: parts[j], late: false };
  }
  return { name: String(student), id: '', late: false };
}
const DIGITS = /^\d+$/,
  WORD = /^\w*$/;

/**
 * Each row's `grade`, what a gradebook gets: the score (in the pack's points, overrides applied) scaled to
 * `scale` (the LMS's maximum) and rounded half up to 2 decimals, or the score itself without a scale.
 * `summary.max` is the gradebook's maximum (`scale`, else the pack's total points).
 */
export function applyScale(summary, scale = null) {
  summary.max = scale ?? summary.total;
  for (const s of summary.students) s.grade = scale ? round2((s.score * scale) / s.total) : s.score;
  return summary;
}
/** Half up to 2 decimals (what Canvas' gradebook shows; Moodle's grade items default to 2 decimals). */
export const round2 = (x) => Math.round(x * 100 + 1e-9) / 100;

const exerciseColumns = (summaries) =>
  summaries.map((s) => ({ slug: s.exercise, head: `${s.title?.en ?? s.exercise} (${s.exercise})`, max: s.max }));

/**
 * The gradebook CSV, one row per student and one column per exercise (its grade: the points, scaled with
 * --scale), in the columns Canvas' gradebook import reads (Student, ID, SIS User ID, SIS Login ID, Section,
 * then one "<title> (<slug>)" column per exercise); Moodle's CSV import maps any of them (`SIS Login ID`:
 * the name the export used) to its users and each exercise column to a grade item.
 */
export function gradebookCsv(summaries) {
  const rows = new Map();
  for (const sum of summaries)
    for (const s of sum.students) {
      const who = lmsIdentity(s.student);
      const row = rows.get(s.student) ?? { who, scores: {} };
      row.scores[sum.exercise] = s.grade ?? s.score;
      rows.set(s.student, row);
    }
  const cols = exerciseColumns(summaries);
  const names = [...rows.keys()].sort();
  return csv([
    ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', ...cols.map((c) => c.head)],
    ...names.map((n) => {
      const r = rows.get(n);
      return [r.who.name, r.who.id, '', n, '', ...cols.map((c) => r.scores[c.slug] ?? '')];
    }),
  ]);
}

/**
 * The gradebook in the form `format`'s import reads (grader/batch/README.md, column by column), from the rows
 * matched to a roster of that LMS (`lms`, roster.mjs): only those, since a row the LMS cannot identify fails
 * Moodle's whole import. Canvas: Student, ID (the Canvas user id, what the import matches first), SIS User ID,
 * SIS Login ID, Section, the exercise columns, and under the header the "Points Possible" row (each column's
 * maximum, for an assignment the import creates). Moodle: Email address (the user key to map "Identify user
 * by" to), ID number, Full name, the exercise columns. Numbers with a `.` decimal point.
 */
export function lmsGradebookCsv(summaries, format) {
  const rows = new Map();
  for (const sum of summaries)
    for (const s of sum.students) {
      if (s.lms?.format !== format) continue;
      const row = rows.get(s.lms.key) ?? { lms: s.lms, scores: {} };
      row.scores[sum.exercise] = s.grade ?? s.score;
      rows.set(s.lms.key, row);
    }
  const cols = exerciseColumns(summaries);
  const list = [...rows.values()].sort((a, b) => (a.lms.name < b.lms.name ? -1 : a.lms.name > b.lms.name ? 1 : 0));
  const scores = (r) => cols.map((c) => r.scores[c.slug] ?? '');
  if (format === 'canvas')
    return csv([
      ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', ...cols.map((c) => c.head)],
      ['Points Possible', '', '', '', '', ...cols.map((c) => c.max ?? '')],
      ...list.map((r) => [
        r.lms.name,
        r.lms.id,
        r.lms.sis_user_id ?? '',
        r.lms.login ?? '',
        r.lms.section ?? '',
        ...scores(r),
      ]),
    ]);
  return csv([
    ['Email address', 'ID number', 'Full name', ...cols.map((c) => c.head)],
    ...list.map((r) => [r.lms.email, r.lms.idnumber ?? '', r.lms.name, ...scores(r)]),
  ]);
}

/** Students whose score or test statuses differ between two summaries (the previous run's pack version and this one's). */
export function regradeDiff(before, after) {
  const old = new Map(before.students.map((s) => [s.student, s]));
  const changed = [];
  for (const s of after.students) {
    const o = old.get(s.student);
    if (!o) continue;
    const tests = Object.keys({ ...o.tests, ...s.tests })
      .filter((id) => o.tests[id] !== s.tests[id])
      .map((id) => ({ id, before: o.tests[id] ?? null, after: s.tests[id] ?? null }));
    if (tests.length || o.score !== s.score)
      changed.push({ student: s.student, key: s.key, before: o.score, after: s.score, tests });
  }
  return { from: before.pack_version, to: after.pack_version, changed };
}

/**
 * What changed since the last run written in the same --out (its summary.json, read before this one is
 * written): per student `new`, `resubmitted` (their file's content changed), `regraded` (the same file, another
 * score or test status: a pack or option change), `removed` (no longer in the input). → [{ student, change,
 * before, after }] or null when there was no last run.
 */
export function changesSince(last, summary) {
  if (!Array.isArray(last?.students)) return null;
  const before = new Map(last.students.map((s) => [s.student, s]));
  const changes = [];
  for (const s of summary.students) {
    const o = before.get(s.student);
    before.delete(s.student);
    const entry = (change) => changes.push({ student: s.student, change, before: o?.score ?? null, after: s.score });
    if (!o) entry('new');
    else if (o.content && s.content && o.content !== s.content) entry('resubmitted');
    else if (o.score !== s.score || JSON.stringify(o.tests) !== JSON.stringify(s.tests)) entry('regraded');
  }
  for (const o of before.values())
    changes.push({ student: o.student, change: 'removed', before: o.score, after: null });
  return changes;
}

/**
 * The causes of a submission that could not be taken as code (packaging), each its own key: a file over the cap,
 * unreadable, a notebook that does not parse, no code file, repeated zip entries, several files none of which
 * is the submission, a language the pack has no track for, a syntax error (`batch.input`: a record written
 * before these had keys of their own).
 */
export const PACKAGING = [
  'batch.too_big',
  'batch.unreadable',
  'batch.notebook',
  'batch.no_code',
  'batch.duplicate',
  'batch.ambiguous',
  'batch.no_track',
  'not_run.syntax',
  'batch.input',
];

/**
 * The failing tests counted by the key of their cause (summary.json's `test_diagnoses`), per test and per
 * function (the test's task's function, spec.json `tasks`): [{ key, packaging, students (how many carry it),
 * tests (failing tests in all), by_test: { id: n }, by_function: { fn: n } }], the packaging causes first (in
 * PACKAGING's order), then the others by how many failing tests carry them. The same whatever --lang.
 */
export function causeCounts(summary) {
  const fnOf = new Map(summary.tests.map((t) => [t.id, t.function ?? t.id]));
  const rows = new Map();
  for (const s of summary.students) {
    const mine = new Set();
    for (const [id, keys] of Object.entries(s.test_diagnoses ?? {}))
      for (const key of keys) {
        const r = rows.get(key) ?? {
          key,
          packaging: PACKAGING.includes(key),
          students: 0,
          tests: 0,
          by_test: {},
          by_function: {},
        };
        rows.set(key, r);
        r.tests++;
        r.by_test[id] = (r.by_test[id] ?? 0) + 1;
        const fn = fnOf.get(id) ?? id;
        r.by_function[fn] = (r.by_function[fn] ?? 0) + 1;
        if (!mine.has(key)) r.students++;
        mine.add(key);
      }
  }
  const rank = (r) => (r.packaging ? PACKAGING.indexOf(r.key) : PACKAGING.length);
  return [...rows.values()].sort(
    (a, b) => rank(a) - rank(b) || b.tests - a.tests || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}

/** Per test: how many passed, of how many graded. */
export function passRates(summary) {
  return summary.tests.map((t) => {
    const n = summary.students.length,
      passed = summary.students.filter((s) => s.tests[t.id] === 'pass').length;
    return { ...t, passed, n, rate: n ? passed / n : 0 };
  });
}

/**
 * Diagnosis keys by how many students' submissions carry them, most common first, each with one example
 * message (of those that say it in full, the shortest: the least of a student's own text in it; no name attached).
 */
export function commonDiagnoses(summary, records, limit = 10) {
  const byStudent = new Map(records.map((r) => [r.student, r]));
  const counts = new Map();
  for (const s of summary.students)
    for (const k of s.diagnoses) {
      const c = counts.get(k) ?? { key: k, count: 0, example: null };
      c.count++;
      for (const id of s.said_in?.[k] ?? []) {
        const test = byStudent.get(s.student)?.report.tests.find((t) => t.id === id);
        if (test && (!c.example || (test.message || '').length < c.example.message.length))
          c.example = { test: test.name, message: test.message || '' };
      }
      counts.set(k, c);
    }
  return [...counts.values()].sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1)).slice(0, limit);
}

/** The short text printed at the end of a run. */
export function textSummary(
  summary,
  records,
  { lang = 'ru', similar = [], clusters = [], regrade = null, paths = {} } = {},
) {
  const en = lang === 'en';
  const n = summary.students.length,
    full = summary.students.filter((s) => s.status === 'pass').length;
  const mean = n ? summary.students.reduce((a, s) => a + s.score, 0) / n : 0;
  const total = summary.total ?? summary.tests.length;
  const lines = [
    en
      ? `${summary.exercise}: ${n} submissions, ${full} with every test passed, mean ${mean.toFixed(1)} of ${total}`
      : `${summary.exercise}: работ ${n}; все тесты прошли: ${full}; в среднем ${mean.toFixed(1)} из ${total}`,
  ];
  const rates = passRates(summary)
    .sort((a, b) => a.rate - b.rate)
    .slice(0, 3);
  if (n)
    lines.push(
      (en ? 'hardest tests: ' : 'труднее всего: ') +
        rates.map((r) => `${r.id} ${Math.round(100 * r.rate)}%`).join(', '),
    );
  const common = commonDiagnoses(summary, records, 3);
  if (common.length)
    lines.push(
      (en ? 'most common diagnoses: ' : 'частые причины: ') + common.map((c) => `${c.key} (${c.count})`).join(', '),
    );
  if (similar.length) {
    const copies = clusters.filter((c) => c.kind !== 'similar').length;
    lines.push(
      en
        ? `similar pairs to look at: ${similar.length}, in ${clusters.length} cluster(s), ${copies} of exact or near-exact copies`
        : `похожих пар для просмотра: ${similar.length}; групп: ${clusters.length}, из них точных или почти точных копий: ${copies}`,
    );
  }
  const changes = summary.changes ?? [];
  if (changes.length) {
    const n = (c) => changes.filter((x) => x.change === c).length;
    lines.push(
      en
        ? `since the last run: ${n('new')} new, ${n('resubmitted')} resubmitted, ${n('regraded')} regraded, ${n('removed')} removed`
        : `с прошлой проверки: новых ${n('new')}, сданы заново ${n('resubmitted')}, перепроверены ${n('regraded')}, убраны ${n('removed')}`,
    );
  }
  const late = summary.students.filter((s) => s.late);
  if (late.length || summary.due) {
    const fined = late.filter((s) => s.penalty).length;
    lines.push(
      en
        ? `late: ${late.length}${summary.due ? ` (due ${summary.due})` : ''}${summary.late_policy ? `, ${fined} with a penalty (${summary.late_policy})` : ''}`
        : `поздних работ: ${late.length}${summary.due ? ` (срок ${summary.due})` : ''}${summary.late_policy ? `, со штрафом ${fined} (${summary.late_policy})` : ''}`,
    );
  }
  const r = summary.roster;
  if (r) {
    const few = (list) => visible(list.slice(0, 10).join(', ')) + (list.length > 10 ? ' …' : '');
    lines.push(
      en
        ? `roster (${r.format}): ${r.matched} of ${r.people} matched`
        : `список группы (${r.format}): сопоставлено ${r.matched} из ${r.people}`,
    );
    if (r.unmatched.length)
      lines.push(
        (en
          ? `submissions matched to no one (not in the gradebook): `
          : `работы без студента из списка (их нет в журнале): `) + few(r.unmatched),
      );
    if (r.conflicts.length)
      lines.push(
        (en
          ? 'several submissions for one student (none in the gradebook): '
          : 'несколько работ одного студента (ни одной нет в журнале): ') +
          few(r.conflicts.map((c) => `${c.name}: ${c.students.join(' + ')}`)),
      );
    if (r.absent.length)
      lines.push(
        (en ? 'in the roster without a submission: ' : 'в списке, но без работы: ') + few(r.absent.map((a) => a.name)),
      );
  }
  if (regrade)
    lines.push(
      en
        ? `regrade ${regrade.from} → ${regrade.to}: ${regrade.changed.length} score(s) changed`
        : `перепроверка ${regrade.from} → ${regrade.to}: изменилось оценок: ${regrade.changed.length}`,
    );
  for (const [what, p] of Object.entries(paths)) lines.push(`${what}: ${p}`);
  return lines.join('\n');
}
