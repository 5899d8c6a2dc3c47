// The class as the LMS knows it (`grade-batch --roster FILE.csv`): the LMS's own export read (Canvas'
// gradebook export, Moodle's grades export or an assignment's grading worksheet; grader/batch/README.md
// names their columns), each submission matched to one LMS user by what its name carries (the id in
// Canvas' and Moodle's download names, an email, a login), never by a guess. Read with the one CSV
// reader (overrides.mjs parseCsv); a bad row is refused with the file's line.
import { readCsvFile } from './overrides.mjs';
import { lmsIdentity } from './summary.mjs';
import { capText, plainText } from '../wire/text.mjs';

export class RosterError extends Error {}

// The columns each export names (its header row, as the LMS writes it in English).
const CANVAS = { name: 'Student', id: 'ID', sisUser: 'SIS User ID', sisLogin: 'SIS Login ID', section: 'Section' };
const MOODLE = {
  identifier: 'Identifier',
  full: 'Full name',
  first: 'First name',
  last: 'Last name',
  email: 'Email address',
  idnumber: 'ID number',
  username: 'Username',
};
const DIGITS = /^\d+$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const PARTICIPANT = /^\S+(?: \S+)* (\d+)$/; // "Participant 4211" (the word in Moodle's language)

/**
 * The roster in `file` → { format: 'canvas' | 'moodle', file, people: [{ line, name, id?, participant?, email?,
 * login?, sis_user_id?, idnumber?, username?, section? }] }. Throws RosterError naming the line of the first bad row.
 */
export function readRoster(file, { lang = 'ru' } = {}) {
  const en = lang === 'en';
  const rows = readCsvFile(file, '--roster', RosterError, lang);
  const head = (rows[0] ?? []).map((h) => plainText(capText(h, 200)).trim());
  const at = (name) => head.indexOf(name);
  const format =
    at(CANVAS.name) === 0 && at(CANVAS.id) === 1 && at(CANVAS.section) > 1
      ? 'canvas'
      : at(MOODLE.email) >= 0 || at(MOODLE.identifier) >= 0
        ? 'moodle'
        : null;
  if (!format)
    throw new RosterError(
      en
        ? `${file}: the first row names neither Canvas' gradebook columns (Student, ID, …, Section) nor Moodle's (Email address, or Identifier)`
        : `${file}: первая строка не называет ни столбцы журнала Canvas (Student, ID, …, Section), ни столбцы Moodle (Email address или Identifier)`,
    );
  const people = [];
  const seen = new Map();
  const bad = (line, why) => new RosterError(`${file}, ${en ? 'line' : 'строка'} ${line}: ${why}`);
  rows.slice(1).forEach((r, k) => {
    const line = k + 2,
      cell = (name) => (at(name) >= 0 ? plainText(capText(r[at(name)] ?? '', 300)).trim() : '');
    let p;
    if (format === 'canvas') {
      // Canvas' export: a "Points Possible" row under the header, and on older exports a "Muted" row.
      if (r[0]?.includes('Points Possible') || r.every((c) => /^\s*(Muted|Manual Posting.*)?\s*$/i.test(c))) return;
      p = {
        line,
        name: cell(CANVAS.name),
        id: cell(CANVAS.id),
        sis_user_id: cell(CANVAS.sisUser),
        login: cell(CANVAS.sisLogin),
        section: cell(CANVAS.section),
      };
      if (!DIGITS.test(p.id))
        throw bad(
          line,
          en
            ? `ID must be the Canvas user id (digits), got "${p.id}"`
            : `ID должен быть номером пользователя Canvas (цифры), а не «${p.id}»`,
        );
    } else {
      const ident = cell(MOODLE.identifier);
      p = {
        line,
        name: cell(MOODLE.full) || [cell(MOODLE.first), cell(MOODLE.last)].filter(Boolean).join(' '),
        participant: ident ? (PARTICIPANT.exec(ident)?.[1] ?? null) : '',
        email: cell(MOODLE.email),
        idnumber: cell(MOODLE.idnumber),
        username: cell(MOODLE.username),
      };
      if (p.participant === null)
        throw bad(
          line,
          en
            ? `Identifier must be Moodle's "Participant <number>", got "${ident}"`
            : `Identifier должен быть «Участник <номер>» из Moodle, а не «${ident}»`,
        );
      if (!EMAIL.test(p.email))
        throw bad(
          line,
          en
            ? `Email address must be an email (the key Moodle's grade import identifies the user by), got "${p.email}"`
            : `Email address должен быть адресом почты (по нему импорт оценок Moodle находит пользователя), а не «${p.email}»`,
        );
    }
    if (!p.name) throw bad(line, en ? 'the student has no name' : 'у студента нет имени');
    // One LMS user per key: a second row with the same id, participant number or email is refused.
    for (const key of ['id', 'participant', 'email']) {
      const v = key === 'email' ? p[key]?.toLowerCase() : p[key];
      if (!v) continue;
      const first = seen.get(`${key}:${v}`);
      if (first)
        throw bad(
          line,
          en
            ? `${key === 'email' ? 'the email' : key === 'id' ? 'the ID' : 'the participant'} "${p[key]}" is on line ${first} too`
            : `${key === 'email' ? 'адрес' : key === 'id' ? 'ID' : 'участник'} «${p[key]}» есть и в строке ${first}`,
        );
      seen.set(`${key}:${v}`, line);
    }
    people.push(Object.fromEntries(Object.entries(p).filter(([, v]) => v !== '')));
  });
  return { format, file, people };
}

/**
 * The class's submissions (names as the input spelled them) matched to the roster: by the id the name carries
 * (Canvas' user id, Moodle's participant number: summary.mjs lmsIdentity), else a name that is a person's
 * email, SIS login, SIS user id, ID number or username, else the name part equal to one person's full name
 * when no one else in the roster or the class has it. Two submissions matched to one person are both left
 * unmatched (which one counts is the teacher's call). → { matched: Map(student → { person, by }),
 * unmatched: [student], conflicts: [{ person, students }], absent: [person] }
 */
export function matchRoster(students, roster) {
  const index = (pick, fold = (x) => x) => {
    const m = new Map();
    for (const p of roster.people) for (const v of pick(p)) if (v) m.set(fold(v), m.has(fold(v)) ? null : p);
    return m;
  };
  const lower = (x) => x.normalize('NFC').toLowerCase();
  const byId = index((p) => [roster.format === 'canvas' ? p.id : p.participant]);
  const byKey = index((p) => [p.email, p.login, p.sis_user_id, p.idnumber, p.username], lower);
  const byName = index((p) => [p.name], lower);
  const nameCount = new Map();
  for (const s of students) {
    const n = lower(lmsIdentity(s).name.trim());
    nameCount.set(n, (nameCount.get(n) ?? 0) + 1);
  }
  const found = new Map();
  for (const s of students) {
    const who = lmsIdentity(s),
      name = lower(who.name.trim());
    let hit = null;
    if (who.id && byId.get(who.id)) hit = { person: byId.get(who.id), by: 'id' };
    else if (byKey.get(lower(s)) || byKey.get(name))
      hit = { person: byKey.get(lower(s)) ?? byKey.get(name), by: 'key' };
    else if (byName.get(name) && nameCount.get(name) === 1) hit = { person: byName.get(name), by: 'name' };
    if (hit) found.set(s, hit);
  }
  const perPerson = new Map();
  for (const [s, { person }] of found) perPerson.set(person, [...(perPerson.get(person) ?? []), s]);
  const conflicts = [];
  for (const [person, list] of perPerson)
    if (list.length > 1) {
      conflicts.push({ person, students: list });
      for (const s of list) found.delete(s);
    }
  return {
    matched: found,
    unmatched: students.filter((s) => !found.has(s)),
    conflicts,
    absent: roster.people.filter((p) => !perPerson.has(p)),
  };
}

/** The key an LMS's import identifies a user by: Canvas' user id, Moodle's email. */
export const lmsKey = (format, person) => (format === 'canvas' ? person.id : person.email);

/**
 * The match written into summary.json: each matched row's `lms` (format, key, by — `id`, `key` or `name` —,
 * the person's name and ids from the roster), and `summary.roster` (the counts, the submissions matched to no
 * one, the conflicts, the people without a submission, each with the roster's line).
 */
export function applyRoster(summary, roster) {
  const match = matchRoster(
    summary.students.map((s) => s.student),
    roster,
  );
  const key = (p) => lmsKey(roster.format, p);
  for (const s of summary.students) {
    const m = match.matched.get(s.student);
    if (!m) continue;
    const { line, ...person } = m.person;
    s.lms = { format: roster.format, key: key(m.person), by: m.by, line, ...person };
  }
  summary.roster = {
    format: roster.format,
    people: roster.people.length,
    matched: match.matched.size,
    unmatched: match.unmatched,
    conflicts: match.conflicts.map((c) => ({
      name: c.person.name,
      key: key(c.person),
      line: c.person.line,
      students: c.students,
    })),
    absent: match.absent.map((p) => ({ name: p.name, key: key(p), line: p.line })),
  };
  return summary;
}
