// Grades a batch: every submission in a sandbox of its own (a NodeSandbox: one child process, never
// reused for another student), `jobs` at a time, with a pool of children started ahead (each used
// once). Each finished submission is written at once (records/<key>.json, exercism/<key>/results.json,
// gradescope/<key>/results.json), so an interrupted run loses only what was in flight; a rerun reuses
// every record whose hash (the file's bytes, the pack's version and the grading options) still matches.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { grade } from '../core/grade.mjs';
import { render, sentence } from '../core/messages.mjs';
import { exercism, gradescope } from '../reporters/index.mjs';
import { createPool } from '../hosts/node/pool.mjs';
import { cachedCore } from '../core/ref-cache.mjs';
import { refStore } from '../hosts/node/ref-store.mjs';
import { writeAtomic } from '../hosts/node/write-atomic.mjs';
import { TRACKS } from '../tracks/index.mjs';
import { loadCore } from '../../wasm/index.mjs';
import { findSubmissions } from './inputs.mjs';
import { inShard } from './shard.mjs';
import { pointsOf, scoreOf, totalPoints } from './summary.mjs';
import { PACK_FILES } from '../core/pack-layout.mjs';

/** A report's score and total in the pack's points, and its tests' statuses (a history entry's). */
function pointsOfReport(report, spec) {
  const tests = Object.fromEntries(report.tests.map((t) => [t.id, t.status]));
  return { score: scoreOf(tests, pointsOf(spec)), total: totalPoints(spec), tests };
}

export const RECORD_VERSION = 2; // 2: reports carry their causes as data
/** Gradings of one student kept in their record's history. */
export const HISTORY_MAX = 50;

/** The pack's version: a hash of every file of its folder that grading reads (all but fixtures/, texts/ and READMEs). */
export function packVersion(exercise) {
  const h = createHash('sha256');
  const visit = (dir) => {
    for (const d of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const abs = join(dir, d.name),
        rel = relative(exercise.dir, abs);
      if (
        /** @type {string[]} */ ([PACK_FILES.fixtures, PACK_FILES.texts]).includes(rel) ||
        /(^|\/)README\.md$/.test(rel)
      )
        continue;
      if (d.isDirectory()) visit(abs);
      else if (d.isFile()) h.update(`${rel}\0`).update(readFileSync(abs)).update('\0');
    }
  };
  visit(exercise.dir);
  return h.digest('hex').slice(0, 12);
}

/** What a record's reuse depends on: the file's bytes, the pack's version and every option that changes a verdict or its words. */
export function submissionHash(bytes, { version, track, seed, lang, timeoutMs, deadlineMs }) {
  return createHash('sha256')
    .update(bytes)
    .update(JSON.stringify([RECORD_VERSION, version, track, seed, lang, timeoutMs ?? null, deadlineMs ?? null]))
    .digest('hex');
}

/**
 * A report for a submission that could not be graded (no file, a track the pack lacks): every test an
 * error saying why (`said`: a Sentence, its cause).
 */
function unGradedReport(exercise, { seed, lang }, said) {
  const spec = exercise.spec;
  const message = render(lang, said);
  return {
    exercise: spec.slug,
    seed: seed ?? spec.seed,
    lang,
    status: 'error',
    message,
    said,
    passed: 0,
    total: spec.tests.length,
    output: '',
    tests: spec.tests.map((t) => ({
      id: t.id,
      name: t.name[lang] || t.name.en,
      task_id: t.task_id,
      points: t.points ?? 1,
      status: 'error',
      message,
      said,
      cause: said,
      output: '',
      test_code: typeof t.test_code === 'string' ? t.test_code : t.test_code.js,
    })),
  };
}

/**
 * Warm pools per track (hosts/node/pool.mjs), at most `spare` waiting each, and never more than
 * `remaining` (track → submissions of that track not yet taken, in the whole batch) says will be used.
 */
class Pools {
  constructor(spare, remaining) {
    this.pools = Object.fromEntries(
      Object.keys(TRACKS).map((track) => [track, createPool({ track: TRACKS[track], size: spare })]),
    );
    for (const [track, left] of Object.entries(remaining)) this.pools[track]?.warm({ left });
  }

  take(track, remaining) {
    for (const [t, left] of Object.entries(remaining)) if (t !== track) this.pools[t]?.warm({ left });
    return this.pools[track].take({ left: remaining[track] ?? 0 });
  }

  /** A sandbox done with: back to its track's pool if its child never ran the submission (hosts/node/pool.mjs). */
  giveBack(track, sandbox) {
    return this.pools[track].giveBack(sandbox);
  }

  close() {
    return Promise.all(Object.values(this.pools).map((p) => p.close()));
  }
}

/**
 * What grades submissions in one thread: the WASM core, the pool, and what is written per submission.
 * `grade(item, remaining)` → the record written, or null when aborted meanwhile. The main thread has
 * one; with more than JOBS_PER_THREAD jobs, each worker thread (thread.mjs) has its own.
 */
export class Lanes {
  static async create({ exercise, out, options, jobs, remaining }) {
    // The single-threaded build: the batch's parallelism is its children, and a parent without the
    // threaded build's worker pool is lighter to fork a child from.
    // Its reference answers remembered (core/ref-cache.mjs): the expected values of a test are the
    // same for every student, so only the first submission computes them, and those of an earlier
    // run of the pack are read from disk (hosts/node/ref-store.mjs).
    const plain = await loadCore({ threads: 1 });
    const store = await refStore({ slug: exercise.spec.slug, core: plain });
    const core = cachedCore(plain, { store });
    return new Lanes({ exercise, out, options, core, store, pool: new Pools(jobs, remaining) });
  }

  constructor({ exercise, out, options, core, store = null, pool }) {
    this.exercise = exercise;
    this.out = out;
    this.options = options;
    this.core = core;
    this.store = store;
    this.pool = pool;
    this.active = new Set();
    this.aborted = false;
  }

  /** Ctrl+C: the sandboxes in flight are closed (their grading ends at once, starting no child), and the pools start nothing more. */
  abort() {
    this.aborted = true;
    for (const s of this.active) s.close();
    this.pool.close();
  }

  /** The pools closed, and what the reference computed this run kept for the next. */
  close() {
    return Promise.all([this.pool.close(), this.store?.save()]);
  }

  async grade({ s, hash, file, history = [] }, remaining) {
    const { exercise, options, out } = this,
      { lang, timeoutMs, deadlineMs } = options;
    const started = performance.now();
    let report,
      fault = false,
      peakRss = 0,
      cpuMs = 0;
    const source = s.bytes ? new TextDecoder().decode(s.bytes) : null;
    if (s.problem) report = unGradedReport(exercise, options, sentence(s.cause ?? 'batch.input', { why: s.problem }));
    else if (!exercise.tracks.includes(s.track)) {
      report = unGradedReport(
        exercise,
        options,
        sentence('batch.no_track', { track: s.track, tracks: exercise.tracks.join(', ') }),
      );
    } else {
      let sandbox = null;
      try {
        sandbox = await this.pool.take(s.track, remaining);
        this.active.add(sandbox);
        if (this.aborted) return null;
        report = await grade({
          exercise,
          source,
          track: TRACKS[s.track],
          sandbox,
          core: this.core,
          lang,
          seed: options.seed,
          timeoutMs,
          deadlineMs,
          onGraderError: () => {
            fault = true;
          },
        });
      } catch (e) {
        // A fault of the grader or the host (a child that cannot start): the row says so, and a rerun grades it again.
        fault = true;
        const why = String(e?.message ?? e).slice(0, 300);
        report = unGradedReport(exercise, options, sentence('batch.fault', { message: why }));
      } finally {
        if (sandbox) {
          this.active.delete(sandbox);
          await this.pool.giveBack(s.track, sandbox);
          peakRss = sandbox.peakRss;
          cpuMs = sandbox.cpuMs;
        }
      }
      if (this.aborted) return null; // closed under it: its verdicts are not the submission's
    }
    const record = {
      student: s.student,
      key: s.key,
      file: s.file,
      track: s.track ?? null,
      hash,
      pack_version: options.version,
      exercise: exercise.spec.slug,
      seed: options.seed,
      lang,
      fault,
      ms: Math.round(performance.now() - started),
      peak_rss: peakRss,
      cpu_ms: Math.round(cpuMs),
      notes: (s.notes ?? []).map((n) => n[lang] ?? n.en), // how the submission was taken (a notebook, files set aside)
      // Every grading of this student, oldest first (the last HISTORY_MAX): what changed and when.
      history: [
        ...history,
        {
          time: new Date().toISOString(),
          content: s.bytes ? createHash('sha256').update(s.bytes).digest('hex').slice(0, 16) : null,
          file: s.file,
          pack_version: options.version,
          ...pointsOfReport(report, exercise.spec), // in the pack's points, as summary.json's score
          status: report.status,
        },
      ].slice(-HISTORY_MAX),
      report,
      source,
    };
    const dir = (kind) => {
      const d = join(out, kind, s.key);
      mkdirSync(d, { recursive: true });
      return join(d, 'results.json');
    };
    writeAtomic(dir('exercism'), exercism(report) + '\n');
    writeAtomic(dir('gradescope'), gradescope(report) + '\n');
    writeAtomic(file, JSON.stringify(record) + '\n'); // last: a record means the results beside it are whole
    return record;
  }
}

/** Jobs one thread's event loop serves; past this, worker threads share the parent's side (grade(), the children's pipes). */
export const JOBS_PER_THREAD = 4;

/**
 * Grades `input` (a folder or a zip), or the `submissions` given (as inputs.mjs finds them), against `exercise` (a loaded pack) into `out`.
 * options: { jobs, threads (default ceil(jobs / JOBS_PER_THREAD)), force, shard: { index, count } | null, lang, seed, timeoutMs,
 *   deadlineMs, signal (AbortSignal), onStart({ total, reused, todo }), onDone({ record, done, total }) }.
 * → { records (every submission of this shard, in student order), version, aborted, skipped, total, inputs (counts
 *   for run.json: submissions, escaped_names, duplicates, refused, skipped), refusedFiles (their paths), submissions (all
 *   found, every shard's) }
 * @param {{ input?: string, submissions?: any[], exercise: any, out: string, jobs?: number, threads?: number, force?: boolean,
 *   shard?: { index: number, count: number } | null, lang?: import('../types').Lang, seed?: number, timeoutMs?: number,
 *   deadlineMs?: number, signal?: AbortSignal, onStart?: (o: any) => void, onDone?: (o: any) => void }} options
 */
export async function gradeBatch({
  input,
  submissions: given,
  exercise,
  out,
  jobs = 1,
  threads,
  force = false,
  shard = null,
  lang = 'ru',
  seed,
  timeoutMs,
  deadlineMs,
  signal,
  onStart,
  onDone,
}) {
  const version = packVersion(exercise);
  const inside = input && relative(resolve(input), resolve(out)).split(sep).join('/');
  const exclude = inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : null; // --out inside the input folder
  const found = given ? { submissions: given, skipped: [] } : findSubmissions(input, { exclude, exercise });
  const { submissions, skipped } = found;
  const mine = submissions.filter((s) => !shard || inShard(s.student, shard));
  for (const d of ['records', 'exercism', 'gradescope']) mkdirSync(join(out, d), { recursive: true });
  const options = { version, seed: seed ?? exercise.spec.seed, lang, timeoutMs, deadlineMs };

  const records = new Array(mine.length),
    todo = [];
  mine.forEach((s, i) => {
    // A submission that could not be taken (no code, several files) is keyed by what was found instead.
    const hash = submissionHash(s.bytes ?? Buffer.from(JSON.stringify([s.file, s.problem, s.cause])), {
      ...options,
      track: s.track ?? null,
    });
    const file = join(out, 'records', `${s.key}.json`);
    let old = null;
    try {
      if (existsSync(file)) old = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      /* unreadable: graded again */
    }
    // Keyed by student and content: another student's record of the same bytes (a key reused when the
    // names in the folder changed) is not theirs, nor is its history.
    if (old?.student !== s.student) old = null;
    if (!force && old && old.hash === hash && !old.fault) {
      if (old.file !== s.file) {
        old.file = s.file; // moved inside the input: the record says where it is now
        writeAtomic(file, JSON.stringify(old) + '\n');
      }
      records[i] = old;
      return;
    }
    todo.push({ s, i, hash, file, history: Array.isArray(old?.history) ? old.history : [] });
  });
  const total = mine.length,
    reused = total - todo.length;
  let done = reused;
  onStart?.({ total, reused, todo: todo.length });

  // The queue: `remaining` counts, per track, the submissions not yet handed out (what the pools may start children for).
  const remaining = {};
  for (const { s } of todo)
    if (s.track && exercise.tracks.includes(s.track)) remaining[s.track] = (remaining[s.track] ?? 0) + 1;
  let next = 0;
  const take = () => {
    const item = todo[next++];
    if (item.s.track in remaining) remaining[item.s.track]--;
    return item;
  };
  const finished = (i, record) => {
    records[i] = record;
    done++;
    onDone?.({ record, done, total });
  };
  jobs = Math.max(1, Math.min(jobs, todo.length));
  threads = Math.max(1, Math.min(threads ?? Math.ceil(jobs / JOBS_PER_THREAD), jobs));
  let aborted = false,
    stop;
  const onAbort = () => {
    aborted = true;
    stop?.();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (!todo.length) {
      /* everything reused */
    } else if (threads === 1) {
      const lanes = await Lanes.create({ exercise, out, options, jobs, remaining: { ...remaining } });
      stop = () => lanes.abort();
      if (aborted) stop();
      const lane = async () => {
        while (!aborted && next < todo.length) {
          const item = take();
          const record = await lanes.grade(item, { ...remaining });
          if (record) finished(item.i, record);
        }
      };
      try {
        await Promise.all(Array.from({ length: jobs }, lane));
      } finally {
        await lanes.close();
      }
    } else {
      const { runThreads } = await import('./thread.mjs');
      await runThreads({
        exercise,
        out,
        options,
        threads,
        jobs,
        take,
        remaining,
        finished,
        onStop: (f) => {
          stop = f;
          if (aborted) f();
        },
        more: () => !aborted && next < todo.length,
      });
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  const inputs = {
    submissions: submissions.length,
    escaped_names: found.escaped ?? 0,
    duplicates: found.duplicates ?? 0,
    refused: (found.refused?.length ?? 0) + submissions.filter((s) => s.refused).length,
    skipped: skipped.length,
  };
  const refusedFiles = [...(found.refused ?? []), ...submissions.filter((s) => s.refused).map((s) => s.file)];
  return {
    records: aborted ? records.filter(Boolean) : records,
    version,
    aborted,
    skipped,
    refusedFiles,
    total,
    inputs,
    submissions,
  };
}
