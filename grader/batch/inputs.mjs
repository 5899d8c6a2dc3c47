// The submissions of a batch, from a folder or a zip of one (grader/batch/README.md, "Inputs"):
// - one file per student: `<student>.js|.py` at the top (the student is the file's name without its extension);
// - one folder per student (Gradescope's "Export Submissions", Moodle's and Canvas' downloads unpacked):
//   the folder's name is the student, and their submission is the one source file in it (at any depth),
//   or, when there are several, the one named as the track's submission (`submission.py`) or as the
//   exercise's solution or starter (`solution.py`, `starter.py`); otherwise the student's row says which files it found.
// A zip or folder that holds a single folder and nothing else is that folder's content (a zipped export).
// Skipped: hidden files and folders, `__MACOSX/`, and top-level files of other kinds (metadata, PDFs).
import { readFileSync, readdirSync, lstatSync } from 'node:fs';
import { basename } from 'node:path';
import { TRACKS, trackOfFile } from '../tracks/index.mjs';
import { readZip, ZipError } from './zip.mjs';
import { LIMITS } from '../limits.mjs';
import { nameText } from '../wire/text.mjs';
import { isNotebook, notebookCode } from './notebook.mjs';

export class InputError extends Error {}

export const MAX_SOURCE_BYTES = LIMITS.sourceBytes; // a source file larger than this is a row with an error, never read
const MAX_FILES = 100000,
  MAX_DEPTH = 8;

/**
 * Every file under `dir` as { path (with /, as text: names that are not UTF-8 escaped, see nameText), size,
 * mtime ({ ms, naive: false }: its modification time), read(cap) }, plus `refused` (paths of what is neither a file nor a folder: links, FIFOs, devices) and
 * `escaped` (how many names were not UTF-8 or held control characters). Names are read and opened as bytes,
 * so a name in any encoding is graded; no symbolic link is followed.
 */
function walk(dir) {
  const out = [],
    refused = [],
    stats = { escaped: 0 };
  const visit = (abs, rel, depth) => {
    if (depth > MAX_DEPTH) return;
    const list = readdirSync(abs, { withFileTypes: true, encoding: 'buffer' }).sort((a, b) =>
      Buffer.compare(a.name, b.name),
    );
    for (const d of list) {
      if (out.length >= MAX_FILES) throw new InputError(`${dir} holds more than ${MAX_FILES} files`);
      const a = Buffer.concat([abs, SLASH, d.name]),
        name = nameText(d.name);
      if (name.escaped) stats.escaped++;
      const r = rel ? `${rel}/${name.text}` : name.text;
      if (d.isDirectory()) visit(a, r, depth + 1);
      else if (d.isFile()) {
        const st = lstatSync(a);
        const size = st.size;
        out.push({
          path: r,
          size,
          mtime: { ms: Math.round(st.mtimeMs), naive: false },
          read: (cap) => {
            if (size > cap) throw new InputError(`${r} is ${size} bytes, more than ${cap}`);
            return readFileSync(a);
          },
        });
      } else refused.push(r);
    }
  };
  visit(Buffer.from(dir), '', 0);
  return { files: out, refused, escaped: stats.escaped };
}
const SLASH = Buffer.from('/');

/**
 * The files of `input` (a folder or a .zip), as walk() gives them: { files, refused, escaped, duplicates }.
 * Two zip entries with one name are both kept, the second and later ones with `copy` (2, 3 …) set.
 * Throws InputError for a path that is neither.
 */
export function inputFiles(input) {
  let st;
  try {
    st = lstatSync(input);
  } catch {
    throw new InputError(`no such file or folder: ${input}`);
  }
  if (st.isDirectory()) return { ...walk(input), duplicates: 0 };
  if (!st.isFile()) throw new InputError(`${input} is neither a folder nor a zip file`);
  let entries;
  try {
    entries = readZip(readFileSync(input), input);
  } catch (e) {
    if (e instanceof ZipError) throw new InputError(e.message);
    throw e;
  }
  const seen = new Map();
  let duplicates = 0;
  const files = entries
    .filter((e) => !e.dir)
    .map((e) => {
      const copy = (seen.get(e.path) ?? 0) + 1;
      seen.set(e.path, copy);
      if (copy > 1) duplicates++;
      return {
        path: e.path,
        size: e.size,
        mtime: e.mtime,
        ...(copy > 1 && { copy }),
        read: (cap) => {
          try {
            return e.read(cap);
          } catch (err) {
            throw new InputError(err.message);
          }
        },
      };
    });
  // Names shown escaped, each counted once as on a disk (a folder's name once, not per entry below it):
  // a backslash in a shown name is an escape, since a zip's own backslashes separate folders.
  const escaped = new Set();
  for (const e of entries.filter((x) => x.escaped)) {
    const parts = e.path.split('/');
    parts.forEach((p, k) => p.includes('\\') && escaped.add(parts.slice(0, k + 1).join('/')));
  }
  return { files, refused: [], escaped: escaped.size, duplicates };
}

const hidden = (path) => path.split('/').some((s) => s.startsWith('.') || s === '__MACOSX' || s === '');

/**
 * The submissions in `input`, sorted by student;
 * each { student, file (the path inside the input), track, bytes, mtime (the file's modification time: { ms, naive },
 * naive for a zip entry's zoneless MS-DOS time) } or, where none could be taken,
 * { student, file, problem: { en, ru }, cause (its key: `batch.too_big`, `batch.unreadable`, `batch.notebook`,
 * `batch.no_code`, `batch.duplicate`, `batch.ambiguous`), refused? (a file that was there but not read: over the cap,
 * not inflatable) };
 * `notes` ([{ en, ru }]) where the file was taken with something to say (a notebook's cells, files set aside).
 * `exercise`: the pack (loaded), whose functions and starters decide among a student's several files (pick()).
 * Also `skipped`: the paths of top-level files that are not source; `refused`: paths of entries not taken
 * (links, FIFOs, devices, names with ..); `escaped`: how many names were not UTF-8 (shown with \xNN);
 * `duplicates`: how many zip entries repeat an earlier entry's name (each is graded as a row of its own,
 * `<student> (2)`, or, inside a student's folder, makes the row an error naming them).
 * `exclude`: a folder inside the input to leave out (the batch's own --out, when it lies there).
 */
export function findSubmissions(input, { exclude = null, exercise = null } = {}) {
  const context = contextOf(exercise);
  const found = inputFiles(input);
  const refused = [...found.refused, ...found.files.filter((f) => f.path.split('/').includes('..')).map((f) => f.path)];
  let files = found.files.filter(
    (f) =>
      !hidden(f.path) && !f.path.split('/').includes('..') && !(exclude && (f.path + '/').startsWith(exclude + '/')),
  );
  // A single top folder with nothing beside it: its content.
  for (;;) {
    const tops = new Set(files.map((f) => f.path.split('/')[0]));
    if (tops.size !== 1 || files.some((f) => !f.path.includes('/'))) break;
    const [top] = tops;
    files = files.map((f) => ({ ...f, path: f.path.slice(top.length + 1) }));
  }
  const byStudent = new Map(),
    skipped = [];
  for (const f of files) {
    const parts = f.path.split('/');
    if (parts.length === 1) {
      if (!isSource(f.path)) {
        skipped.push(shownPath(f));
        continue;
      }
      const stem = basename(f.path).replace(/\.[^.]*$/, '');
      // A repeated zip entry is a row of its own: `alice (2)`.
      const student = f.copy ? `${stem} (${f.copy})` : stem;
      byStudent.set(`${student}\0${f.path}`, { student, files: [f], flat: true });
    } else {
      const entry = byStudent.get(parts[0]) ?? { student: parts[0], files: [] };
      entry.files.push(f);
      byStudent.set(parts[0], entry);
    }
  }
  const subs = [],
    stems = new Map();
  for (const e of byStudent.values()) stems.set(e.student, (stems.get(e.student) ?? 0) + 1);
  for (const { student, files: all, flat } of byStudent.values()) {
    let id = student;
    // Two flat files of one student (alice.js, alice.py) are two rows, told apart by the extension.
    if (flat && stems.get(student) > 1) id = shownPath(all[0]);
    subs.push({ id, ...pick(all, context) });
  }
  subs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    submissions: uniqueIds(subs),
    skipped,
    refused,
    escaped: found.escaped,
    duplicates: found.duplicates,
  };
}

/** A file's path as rows and messages show it: a repeated zip entry with its number, `alice.py (2)`. */
const shownPath = (f) => (f.copy ? `${f.path} (${f.copy})` : f.path);

/**
 * The one submission in folder `dir` (a platform's submission folder: Gradescope's, Exercism's), picked as
 * for a student's folder; `only`: the path of the file to take when the platform names it.
 */
export function submissionIn(dir, only = null, exercise = null) {
  return pick(
    inputFiles(dir).files.filter((f) => (only ? f.path === only.replace(/\\/g, '/') : !hidden(f.path))),
    contextOf(exercise),
  );
}

/** What pick() needs of a pack: its functions, and its starters' texts (trimmed). */
const contextOf = (exercise) => ({
  functions: exercise?.spec.functions ?? [],
  starters: new Set(Object.values(exercise?.files ?? {}).map((f) => String(f.starter ?? '').trim())),
});
const isSource = (path) => Boolean(trackOfFile(path)) || isNotebook(path);
const MiB = (n) => `${(n / (1 << 20)).toFixed(1)} MiB`;
// Files beside the submission that are its tests (test_attention.py, attention.test.js, attention_test.py).
const TESTLIKE = /^test_|[._-]test\.|_tests?\.[^.]+$|^tests?\.[^.]+$/i;

/**
 * One file read as a submission: { track, bytes, notes } (a notebook: its code cells, see notebook.mjs), or
 * { problem, refused } for a file over the cap or one that cannot be read.
 */
function load(f) {
  if (f.size > MAX_SOURCE_BYTES)
    return {
      refused: true,
      cause: 'batch.too_big',
      problem: {
        en: `the file is ${MiB(f.size)} (${f.size} bytes), over the cap of ${MiB(MAX_SOURCE_BYTES)} (${MAX_SOURCE_BYTES} bytes) a submission may have: it was not read`,
        ru: `файл занимает ${MiB(f.size)} (${f.size} байт), больше предела в ${MiB(MAX_SOURCE_BYTES)} (${MAX_SOURCE_BYTES} байт) на работу: он не прочитан`,
      },
    };
  let bytes;
  try {
    bytes = f.read(MAX_SOURCE_BYTES);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return {
      refused: true,
      cause: 'batch.unreadable',
      problem: { en: e.message, ru: `файл не прочитан: ${e.message}` },
    };
  }
  if (!isNotebook(f.path)) return { track: trackOfFile(f.path).name, bytes, notes: [] };
  try {
    const nb = notebookCode(bytes);
    return { track: nb.track, bytes: Buffer.from(nb.code), notes: nb.notes };
  } catch (e) {
    return {
      cause: 'batch.notebook',
      problem: { en: `${f.path}: ${e.message}`, ru: `${f.path}: не блокнот Jupyter (${e.message})` },
    };
  }
}

/** How many of `functions` the source defines at top level (0 for a file that does not parse). */
function defined(loaded, functions) {
  if (!loaded.bytes) return 0;
  const prepared = TRACKS[loaded.track].prepareSource(new TextDecoder().decode(loaded.bytes));
  const names = new Set(prepared.ok ? prepared.names : []);
  return functions.filter((f) => names.has(f)).length;
}

/**
 * The submission among a student's `files`: the one source file (or notebook); among several, the one that
 * defines most of the pack's `functions` (tests beside it set aside on a tie), else the one named as the
 * track's submission, solution or starter; the others are ignored with a note (the sandbox loads one file).
 */
function pick(files, { functions = [], starters = new Set() } = {}) {
  const sources = files.filter((f) => isSource(f.path));
  if (!sources.length) {
    const seen = files
      .map((f) => f.path)
      .slice(0, 5)
      .join(', ');
    return {
      file: files[0]?.path ?? '',
      cause: 'batch.no_code',
      problem: {
        en: `no .js, .py or .ipynb file found (found: ${seen || 'nothing'})`,
        ru: `нет файла .js, .py или .ipynb (есть: ${seen || 'ничего'})`,
      },
    };
  }
  const repeated = sources.filter((f) => f.copy).map((f) => f.path);
  if (repeated.length) {
    const list = [...new Set(repeated)].slice(0, 5).join(', ');
    return {
      file: repeated[0],
      cause: 'batch.duplicate',
      problem: {
        en: `the zip holds several entries with one name (${list}): which is the submission is ambiguous`,
        ru: `в zip несколько записей с одним именем (${list}): какая из них работа, неясно`,
      },
    };
  }
  const loaded = new Map();
  const get = (f) => loaded.get(f) ?? loaded.set(f, load(f)).get(f);
  let chosen = sources.length === 1 ? sources[0] : null;
  if (!chosen && functions.length) {
    const scored = sources.slice(0, 50).map((f) => ({ f, n: defined(get(f), functions) }));
    const best = Math.max(...scored.map((x) => x.n));
    let top = scored.filter((x) => x.n === best && best > 0);
    // On a tie, the tests beside the code, then the pack's starter left as it was, step aside.
    if (top.length > 1) top = top.filter((x) => !TESTLIKE.test(basename(x.f.path)));
    if (top.length > 1) top = top.filter((x) => !starters.has(new TextDecoder().decode(get(x.f).bytes).trim()));
    if (top.length === 1) chosen = top[0].f;
  }
  if (!chosen) {
    const preferred = Object.values(TRACKS).flatMap((t) => [t.files.submission, t.files.solution, t.files.starter]);
    for (const name of preferred) {
      const hits = sources.filter((f) => basename(f.path) === name);
      if (hits.length === 1) {
        chosen = hits[0];
        break;
      }
    }
  }
  if (!chosen) {
    const list = sources
      .map((f) => f.path)
      .slice(0, 5)
      .join(', ');
    const fns = functions.join(', ');
    return {
      file: sources[0].path,
      cause: 'batch.ambiguous',
      problem: {
        en: `several source files, and not one that alone defines the most of ${fns || 'the functions'} nor one named submission.js/.py: ${list}`,
        ru: `несколько файлов с кодом, и нет ни одного, который один определял бы больше всех из ${fns || 'функций'}, ни названного submission.js/.py: ${list}`,
      },
    };
  }
  const got = get(chosen);
  if (got.problem) return { file: shownPath(chosen), ...got };
  const others = sources.filter((f) => f !== chosen).map((f) => f.path);
  const notes = [...got.notes];
  if (others.length) {
    const list = others.slice(0, 5).join(', ') + (others.length > 5 ? ' …' : '');
    notes.push({
      en: `graded ${chosen.path}, which defines the exercise's functions; ignored beside it: ${list} (a submission is one file: the sandbox imports no other)`,
      ru: `проверен ${chosen.path}, где определены функции упражнения; рядом не учтены: ${list} (работа — один файл: песочница не импортирует другие)`,
    });
  }
  return {
    file: shownPath(chosen),
    track: got.track,
    bytes: got.bytes,
    mtime: chosen.mtime,
    ...(notes.length && { notes }),
  };
}

/**
 * Each submission's `key`: a name safe as a file name (letters, digits, . _ -; at most 80 characters), unique in the batch
 * (a clash gets ~2, ~3 …), used for its folder in --out; `student` stays as the input named it.
 */
function uniqueIds(subs) {
  const taken = new Set();
  return subs.map((s) => {
    const base =
      s.id
        .normalize('NFC')
        .replace(/[^\p{L}\p{N}._-]+/gu, '_')
        .replace(/^[._]+/, '')
        .slice(0, 80) || 'student';
    let key = base;
    for (let n = 2; taken.has(key.toLowerCase()); n++) key = `${base}~${n}`;
    taken.add(key.toLowerCase());
    const { id, ...rest } = s;
    return { student: id, key, ...rest };
  });
}
