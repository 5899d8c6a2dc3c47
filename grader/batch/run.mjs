// Grades a batch: every submission in a sandbox of its own (a NodeSandbox: one child process, never
// reused for another student), `jobs` at a time, with a pool of children started ahead (each used
// once). Each finished submission is written at once (records/<key>.json, exercism/<key>/results.json,
// gradescope/<key>/results.json), so an interrupted run loses only what was in flight; a rerun reuses
// every record whose hash (the file's bytes, the pack's version and the grading options) still matches.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { grade } from '../core/grade.mjs';
import { exercism, gradescope } from '../reporters/index.mjs';
import { NodeSandbox } from '../node/sandbox.mjs';
import { TRACKS } from '../tracks/index.mjs';
import { loadCore } from '../../wasm/index.mjs';
import { findSubmissions } from './inputs.mjs';
import { inShard } from './shard.mjs';

export const RECORD_VERSION = 1;

/** The pack's version: a hash of every file of its folder that grading reads (all but fixtures/, texts/ and READMEs). */
export function packVersion(exercise) {
  const h = createHash('sha256');
  const visit = (dir) => {
    for (const d of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const abs = join(dir, d.name), rel = relative(exercise.dir, abs);
      if (['fixtures', 'texts'].includes(rel) || /(^|\/)README\.md$/.test(rel)) continue;
      if (d.isDirectory()) visit(abs);
      else if (d.isFile()) h.update(`${rel}\0`).update(readFileSync(abs)).update('\0');
    }
  };
  visit(exercise.dir);
  return h.digest('hex').slice(0, 12);
}

/** What a record's reuse depends on: the file's bytes, the pack's version and every option that changes a verdict or its words. */
export function submissionHash(bytes, { version, track, seed, lang, timeoutMs, deadlineMs }) {
  return createHash('sha256').update(bytes).update(JSON.stringify([RECORD_VERSION, version, track, seed, lang, timeoutMs ?? null, deadlineMs ?? null])).digest('hex');
}

/** Written whole or not at all: a kill between two writes leaves the old file or none, never half of one. */
export function writeAtomic(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** A report for a submission that could not be graded (no file, a track the pack lacks): every test an error saying why. */
function unGradedReport(exercise, { seed, lang }, message) {
  const spec = exercise.spec;
  return {
    exercise: spec.slug, seed: seed ?? spec.seed, lang, status: 'error', message, passed: 0, total: spec.tests.length, output: '',
    tests: spec.tests.map((t) => ({ id: t.id, name: t.name[lang] || t.name.en, task_id: t.task_id, status: 'error', message, output: '', test_code: typeof t.test_code === 'string' ? t.test_code : t.test_code.js })),
  };
}

/** Pre-started sandboxes per track, each handed out once; at most `spare` waiting per track, and never more than will be used. */
class Pool {
  constructor(spare, remaining) {
    this.spare = spare;
    this.remaining = remaining; // track name → submissions of that track not yet started
    this.ready = new Map(Object.keys(remaining).map((t) => [t, []]));
    for (const t of Object.keys(remaining)) this.#fill(t);
  }

  #fill(track) {
    const q = this.ready.get(track);
    while (q.length < Math.min(this.spare, this.remaining[track])) {
      const s = NodeSandbox.create({ track: TRACKS[track] });
      s.catch(() => {});
      q.push(s);
    }
  }

  take(track) {
    this.remaining[track]--;
    const s = this.ready.get(track).shift() ?? NodeSandbox.create({ track: TRACKS[track] });
    this.#fill(track);
    return s;
  }

  async close() {
    for (const q of this.ready.values()) for (const s of q.splice(0)) await s.then((x) => x.close(), () => {});
  }
}

/**
 * Grades `input` (a folder or a zip), or the `submissions` given (as inputs.mjs finds them), against `exercise` (a loaded pack) into `out`.
 * options: { jobs, force, shard: { index, count } | null, lang, seed, timeoutMs, deadlineMs, signal (AbortSignal),
 *   onStart({ total, reused, todo }), onDone({ record, done, total }) }.
 * → { records (every submission of this shard, in student order), version, aborted, skipped }
 */
export async function gradeBatch({ input, submissions: given, exercise, out, jobs = 1, force = false, shard = null, lang = 'ru', seed, timeoutMs, deadlineMs, signal, onStart, onDone }) {
  const version = packVersion(exercise);
  const { submissions, skipped } = given ? { submissions: given, skipped: [] } : findSubmissions(input);
  const mine = submissions.filter((s) => !shard || inShard(s.student, shard));
  for (const d of ['records', 'exercism', 'gradescope']) mkdirSync(join(out, d), { recursive: true });
  const options = { version, seed: seed ?? exercise.spec.seed, lang, timeoutMs, deadlineMs };

  const records = new Array(mine.length), todo = [];
  mine.forEach((s, i) => {
    // A submission that could not be taken (no code, several files) is keyed by what was found instead.
    const hash = submissionHash(s.bytes ?? Buffer.from(JSON.stringify([s.file, s.problem])), { ...options, track: s.track ?? null });
    const file = join(out, 'records', `${s.key}.json`);
    if (!force && existsSync(file)) {
      try {
        const old = JSON.parse(readFileSync(file, 'utf8'));
        if (old.hash === hash && !old.fault) { records[i] = old; return; }
      } catch { /* unreadable: graded again */ }
    }
    todo.push({ s, i, hash, file });
  });
  const total = mine.length, reused = total - todo.length;
  let done = reused;
  onStart?.({ total, reused, todo: todo.length });

  const remaining = {};
  for (const { s } of todo) if (s.track && exercise.tracks.includes(s.track)) remaining[s.track] = (remaining[s.track] ?? 0) + 1;
  const pool = new Pool(jobs, remaining);
  const core = await loadCore();
  const active = new Set();
  let aborted = false;
  const onAbort = () => { aborted = true; for (const s of active) s.close(); };
  signal?.addEventListener('abort', onAbort, { once: true });

  const gradeOne = async ({ s, i, hash, file }) => {
    const started = performance.now();
    let report, fault = false, peakRss = 0;
    const source = s.bytes ? new TextDecoder().decode(s.bytes) : null;
    if (s.problem) report = unGradedReport(exercise, options, s.problem[lang] ?? s.problem.en);
    else if (!exercise.tracks.includes(s.track)) {
      report = unGradedReport(exercise, options, lang === 'en' ? `this exercise has no ${s.track} track (it has ${exercise.tracks.join(', ')})` : `у этого упражнения нет варианта на ${s.track} (есть: ${exercise.tracks.join(', ')})`);
    } else {
      let sandbox = null;
      try {
        sandbox = await pool.take(s.track);
        active.add(sandbox);
        if (aborted) return;
        report = await grade({
          exercise, source, track: TRACKS[s.track], sandbox, core, lang, seed: options.seed, timeoutMs, deadlineMs,
          onGraderError: () => { fault = true; },
        });
      } catch (e) {
        // A fault of the grader or the host (a child that cannot start): the row says so, and a rerun grades it again.
        fault = true;
        report = unGradedReport(exercise, options, `grader fault: ${String(e?.message ?? e).slice(0, 300)}`);
      } finally {
        if (sandbox) {
          active.delete(sandbox);
          await sandbox.close();
          peakRss = sandbox.peakRss;
        }
      }
      if (aborted) return; // closed under it: its verdicts are not the submission's
    }
    const record = {
      student: s.student, key: s.key, file: s.file, track: s.track ?? null, hash, pack_version: version, exercise: exercise.spec.slug,
      seed: options.seed, lang, fault, ms: Math.round(performance.now() - started), peak_rss: peakRss, report, source,
    };
    const dir = (kind) => { const d = join(out, kind, s.key); mkdirSync(d, { recursive: true }); return join(d, 'results.json'); };
    writeAtomic(dir('exercism'), exercism(report) + '\n');
    writeAtomic(dir('gradescope'), gradescope(report) + '\n');
    writeAtomic(file, JSON.stringify(record) + '\n'); // last: a record means the results beside it are whole
    records[i] = record;
    done++;
    onDone?.({ record, done, total });
  };

  let next = 0;
  const worker = async () => { while (!aborted && next < todo.length) await gradeOne(todo[next++]); };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, todo.length)) }, worker));
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await pool.close();
  }
  return { records: aborted ? records.filter(Boolean) : records, version, aborted, skipped, total };
}
