// A teacher's decisions over the grader's (`grade-batch --overrides FILE.csv`): a CSV file with the columns
// student, test, score, reason (a header row names them, in any order; `test` is a test id or `total`).
// A test's score is 1 (passed) or 0 (failed), a total one from 0 to the pack's total points. Every row is
// checked against the class and the pack before anything is graded: a student or test that is not there,
// a score out of range or a row without a reason is refused with the file's line named.
import { readFileSync } from 'node:fs';
import { capText, plainText } from '../wire/text.mjs';
import { scoreOf } from './summary.mjs';

export class OverrideError extends Error {}

/** CSV text (RFC 4180: quoted fields may hold commas, quotes doubled, CRLF or LF) → rows of fields; a BOM is dropped. */
export function parseCsv(text) {
  const rows = [];
  let row = [],
    field = '',
    quoted = false,
    i = text.startsWith('\uFEFF') ? 1 : 0;
  const end = () => {
    row.push(field);
    field = '';
  };
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') ((field += '"'), i++);
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') end();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      end();
      rows.push(row);
      row = [];
    } else field += c;
  }
  if (field || row.length) {
    end();
    rows.push(row);
  }
  return rows.filter((r) => r.some((x) => x.trim()));
}

/** A teacher's CSV file (`option`: the flag that named it) → its rows; one that cannot be read throws `Err` naming it. */
export function readCsvFile(file, option, Err, lang) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const why = e.code ?? e.message;
    throw new Err(lang === 'en' ? `cannot read ${option} ${file}: ${why}` : `не прочитать ${option} ${file}: ${why}`);
  }
  return parseCsv(text);
}

/**
 * The overrides in `file` checked against `students` (names), `tests` (ids) and `total` (the pack's points) →
 * [{ student, test, score, reason, line }]. Throws OverrideError naming the line of the first bad row.
 */
export function readOverrides(file, { students, tests, total = tests.length, lang = 'ru' }) {
  const en = lang === 'en';
  const rows = readCsvFile(file, '--overrides', OverrideError, lang);
  const head = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  const col = Object.fromEntries(['student', 'test', 'score', 'reason'].map((k) => [k, head.indexOf(k)]));
  const missing = Object.keys(col).filter((k) => col[k] < 0);
  if (missing.length)
    throw new OverrideError(
      en
        ? `${file}: the first row must name the columns student, test, score, reason (missing: ${missing.join(', ')})`
        : `${file}: первая строка должна называть столбцы student, test, score, reason (нет: ${missing.join(', ')})`,
    );
  const known = new Set(students),
    ids = new Set(tests);
  return rows.slice(1).map((r, k) => {
    const line = k + 2,
      cell = (name) => plainText(capText(r[col[name]] ?? '', 300)).trim();
    const o = {
      student: cell('student'),
      test: cell('test'),
      score: Number(cell('score')),
      reason: cell('reason'),
      line,
    };
    const bad = (why) => new OverrideError(`${file}, ${en ? 'line' : 'строка'} ${line}: ${why}`);
    if (!known.has(o.student))
      throw bad(en ? `no student "${o.student}" in this class` : `в группе нет студента «${o.student}»`);
    if (o.test !== 'total' && !ids.has(o.test))
      throw bad(
        en
          ? `no test "${o.test}" (the tests: ${tests.join(', ')}, or total)`
          : `нет теста «${o.test}» (тесты: ${tests.join(', ')} или total)`,
      );
    const max = o.test === 'total' ? total : 1;
    if (cell('score') === '' || !Number.isFinite(o.score) || o.score < 0 || o.score > max)
      throw bad(
        en
          ? `the score must be a number from 0 to ${max}, got "${cell('score')}"`
          : `балл должен быть числом от 0 до ${max}, а не «${cell('score')}»`,
      );
    if (!o.reason) throw bad(en ? 'a reason is required' : 'нужна причина');
    return o;
  });
}

/**
 * `overrides` applied to summary.json's rows (in file order; a total after the tests it follows wins): a test's
 * status becomes pass or fail and the score is recounted (in the pack's points), a total sets the score. Each row keeps what was
 * decided (`overrides`: test, score, reason, and the grader's own status or score as `was`).
 */
export function applyOverrides(summary, overrides) {
  const points = Object.fromEntries(summary.tests.map((t) => [t.id, t.points ?? 1]));
  const rows = new Map(summary.students.map((s) => [s.student, s]));
  for (const o of overrides) {
    const s = rows.get(o.student);
    s.overrides ??= [];
    if (o.test === 'total') {
      s.overrides.push({ test: 'total', score: o.score, reason: o.reason, was: s.score });
      s.score = o.score;
    } else {
      s.overrides.push({ test: o.test, score: o.score, reason: o.reason, was: s.tests[o.test] ?? null });
      s.tests[o.test] = o.score >= 1 ? 'pass' : 'fail';
      s.score = scoreOf(s.tests, points);
    }
  }
  return summary;
}
