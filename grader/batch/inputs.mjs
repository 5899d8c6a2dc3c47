// The submissions of a batch, from a folder or a zip of one (grader/batch/README.md, "Inputs"):
// - one file per student: `<student>.js|.py` at the top (the student is the file's name without its extension);
// - one folder per student (Gradescope's "Export Submissions", Moodle's and Canvas' downloads unpacked):
//   the folder's name is the student, and their submission is the one source file in it (at any depth),
//   or, when there are several, the one named as the track's submission (`submission.py`) or as the
//   exercise's solution or starter (`solution.py`, `starter.py`); otherwise the student's row says which files it found.
// A zip or folder that holds a single folder and nothing else is that folder's content (a zipped export).
// Skipped: hidden files and folders, `__MACOSX/`, and top-level files of other kinds (metadata, PDFs).
import { readFileSync, readdirSync, lstatSync } from 'node:fs';
import { join, basename } from 'node:path';
import { TRACKS, trackOfFile } from '../tracks/index.mjs';
import { readZip, ZipError } from './zip.mjs';
import { LIMITS } from '../limits.mjs';

export class InputError extends Error {}

export const MAX_SOURCE_BYTES = LIMITS.sourceBytes; // a source file larger than this is a row with an error, never read
const MAX_FILES = 100000,
  MAX_DEPTH = 8;

/** Every file under `dir` as { path (with /), size, read(cap) }; no symbolic link is followed. */
function walk(dir) {
  const out = [];
  const visit = (abs, rel, depth) => {
    if (depth > MAX_DEPTH) return;
    for (const d of readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length >= MAX_FILES) throw new InputError(`${dir} holds more than ${MAX_FILES} files`);
      const a = join(abs, d.name),
        r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) visit(a, r, depth + 1);
      else if (d.isFile()) {
        const size = lstatSync(a).size;
        out.push({
          path: r,
          size,
          read: (cap) => {
            if (size > cap) throw new InputError(`${r} is ${size} bytes, more than ${cap}`);
            return readFileSync(a);
          },
        });
      }
    }
  };
  visit(dir, '', 0);
  return out;
}

/** The files of `input` (a folder or a .zip), as walk() gives them. Throws InputError for a path that is neither. */
export function inputFiles(input) {
  let st;
  try {
    st = lstatSync(input);
  } catch {
    throw new InputError(`no such file or folder: ${input}`);
  }
  if (st.isDirectory()) return walk(input);
  if (!st.isFile()) throw new InputError(`${input} is neither a folder nor a zip file`);
  let entries;
  try {
    entries = readZip(readFileSync(input), input);
  } catch (e) {
    if (e instanceof ZipError) throw new InputError(e.message);
    throw e;
  }
  return entries
    .filter((e) => !e.dir)
    .map((e) => ({
      path: e.path,
      size: e.size,
      read: (cap) => {
        try {
          return e.read(cap);
        } catch (err) {
          throw new InputError(err.message);
        }
      },
    }));
}

const hidden = (path) => path.split('/').some((s) => s.startsWith('.') || s === '__MACOSX' || s === '');

/**
 * The submissions in `input`, sorted by student;
 * each { student, file (the path inside the input), track, bytes } or, where none could be taken,
 * { student, file, problem: { en, ru } }. Also `skipped`: the paths of top-level files that are not source.
 * `exclude`: a folder inside the input to leave out (the batch's own --out, when it lies there).
 */
export function findSubmissions(input, { exclude = null } = {}) {
  let files = inputFiles(input).filter(
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
      if (!trackOfFile(f.path)) {
        skipped.push(f.path);
        continue;
      }
      const stem = basename(f.path).replace(/\.[^.]*$/, '');
      byStudent.set(`${stem}\0${f.path}`, { student: stem, files: [f], flat: true });
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
    if (flat && stems.get(student) > 1) id = basename(all[0].path);
    subs.push({ id, ...pick(all) });
  }
  subs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { submissions: uniqueIds(subs), skipped };
}

/**
 * The one submission in folder `dir` (a platform's submission folder: Gradescope's, Exercism's), picked as
 * for a student's folder; `only`: the path of the file to take when the platform names it.
 */
export function submissionIn(dir, only = null) {
  return pick(inputFiles(dir).filter((f) => (only ? f.path === only.replace(/\\/g, '/') : !hidden(f.path))));
}

function pick(files) {
  const sources = files.filter((f) => trackOfFile(f.path));
  if (!sources.length) {
    const seen = files
      .map((f) => f.path)
      .slice(0, 5)
      .join(', ');
    return {
      file: files[0]?.path ?? '',
      problem: {
        en: `no .js or .py file found (found: ${seen || 'nothing'})`,
        ru: `нет файла .js или .py (есть: ${seen || 'ничего'})`,
      },
    };
  }
  let chosen = sources.length === 1 ? sources[0] : null;
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
    return {
      file: sources[0].path,
      problem: {
        en: `several source files and none named submission.js/.py: ${list}`,
        ru: `несколько файлов с кодом, и ни один не называется submission.js/.py: ${list}`,
      },
    };
  }
  if (chosen.size > MAX_SOURCE_BYTES) {
    return {
      file: chosen.path,
      problem: {
        en: `the file is ${chosen.size} bytes, more than ${MAX_SOURCE_BYTES}`,
        ru: `файл занимает ${chosen.size} байт, больше ${MAX_SOURCE_BYTES}`,
      },
    };
  }
  try {
    return { file: chosen.path, track: trackOfFile(chosen.path).name, bytes: chosen.read(MAX_SOURCE_BYTES) };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return { file: chosen.path, problem: { en: e.message, ru: `файл не прочитан: ${e.message}` } };
  }
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
