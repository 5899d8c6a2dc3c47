// From the records of a batch (run.mjs) to what a teacher reads: the causes of each report counted by
// key, summary.json, summary.csv, the gradebook CSV (Canvas, Moodle) and the text summary printed at the end.

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

/** summary.json's content from the records (in student order). */
export function summarize(records, exercise, { version }) {
  const spec = exercise.spec;
  const students = records
    .map((r) => {
      const d = diagnosesOf(r.report);
      return {
        student: r.student,
        key: r.key,
        file: r.file,
        track: r.track,
        status: r.report.status,
        score: r.report.passed,
        total: r.report.total,
        tests: Object.fromEntries(r.report.tests.map((t) => [t.id, t.status])),
        diagnoses: d.keys,
        test_diagnoses: d.tests,
        said_in: d.said,
        pack_version: r.pack_version,
        hash: r.hash,
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
    tests: spec.tests.map((t) => ({ id: t.id, name: t.name[lang] || t.name.en })),
    students,
  };
}

/** A CSV cell: quoted when needed; a leading = + - @ (a spreadsheet formula) is defused with an apostrophe. */
export function csvCell(v) {
  let s = v === null || v === undefined ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
const csv = (rows) => rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';

/** summary.csv: student, file, track, score, total, status, each test's status, the diagnosis keys (space-separated). */
export function summaryCsv(summary) {
  const ids = summary.tests.map((t) => t.id);
  return csv([
    ['student', 'file', 'track', 'score', 'total', 'status', ...ids, 'diagnoses'],
    ...summary.students.map((s) => [
      s.student,
      s.file,
      s.track ?? '',
      s.score,
      s.total,
      s.status,
      ...ids.map((id) => s.tests[id] ?? ''),
      s.diagnoses.join(' '),
    ]),
  ]);
}

/**
 * The student's name and LMS id as the export spelled them: Canvas names files
 * `<name>[_LATE]_<user id>_<submission id>_<file>`, Moodle folders `<Full Name>_<participant id>_assignsubmission_file_`.
 */
export function lmsIdentity(student) {
  let m = /^(.+?)(?:_LATE)?_(\d+)_(\d+)_.+$/.exec(student);
  if (m) return { name: m[1], id: m[2] };
  m = /^(.+?)_(\d+)_assignsubmission_\w+$/.exec(student);
  if (m) return { name: m[1], id: m[2] };
  return { name: student, id: '' };
}

/**
 * The gradebook CSV, one row per student and one column per exercise (its points: the tests passed),
 * in the columns Canvas' gradebook import reads (Student, ID, SIS User ID, SIS Login ID, Section, then
 * one "<title> (<slug>)" column per exercise); Moodle's CSV import maps any of them (`SIS Login ID`:
 * the name the export used) to its users and each exercise column to a grade item.
 */
export function gradebookCsv(summaries) {
  const rows = new Map();
  for (const sum of summaries)
    for (const s of sum.students) {
      const who = lmsIdentity(s.student);
      const row = rows.get(s.student) ?? { who, scores: {} };
      row.scores[sum.exercise] = s.score;
      rows.set(s.student, row);
    }
  const cols = summaries.map((s) => ({ slug: s.exercise, head: `${s.title?.en ?? s.exercise} (${s.exercise})` }));
  const names = [...rows.keys()].sort();
  return csv([
    ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', ...cols.map((c) => c.head)],
    ...names.map((n) => {
      const r = rows.get(n);
      return [r.who.name, r.who.id, '', n, '', ...cols.map((c) => r.scores[c.slug] ?? '')];
    }),
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
export function textSummary(summary, records, { lang = 'ru', similar = [], regrade = null, paths = {} } = {}) {
  const en = lang === 'en';
  const n = summary.students.length,
    full = summary.students.filter((s) => s.status === 'pass').length;
  const mean = n ? summary.students.reduce((a, s) => a + s.score, 0) / n : 0;
  const total = summary.tests.length;
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
  if (similar.length)
    lines.push(en ? `similar pairs to look at: ${similar.length}` : `похожих пар для просмотра: ${similar.length}`);
  if (regrade)
    lines.push(
      en
        ? `regrade ${regrade.from} → ${regrade.to}: ${regrade.changed.length} score(s) changed`
        : `перепроверка ${regrade.from} → ${regrade.to}: изменилось оценок: ${regrade.changed.length}`,
    );
  for (const [what, p] of Object.entries(paths)) lines.push(`${what}: ${p}`);
  return lines.join('\n');
}
