#!/usr/bin/env node
// attnlab grader CLI.
//   node grader/cli.mjs list
//   node grader/cli.mjs grade <submission> [--exercise SLUG] [--track js|python] [--format text|json|gradescope]
//                             [--seed N] [--lang ru|en] [--timeout-ms N] [--deadline-ms N]
//                             [--backend auto|simd|wasm|webgpu] [--verbose]
//   node grader/cli.mjs grade-batch <folder|zip> --exercise SLUG --out DIR [--jobs N] [--force] [--shard I/N]
//                                   [--lang ru|en] [--seed N] [--timeout-ms N] [--deadline-ms N]
//   node grader/cli.mjs grade-batch merge <out dirs…> --out DIR [--lang ru|en]
//   node grader/cli.mjs grade-batch gradebook <out dirs…> --out FILE.csv
// grade-batch: grader/batch/README.md (each submission in its own child, resume, summary, report, shards).
// The track (the submission's language): --track, else the file's extension (.py: python, else js).
// The exercise: --exercise, else the pack the file lives in (exercises/<slug>/…), else the one pack
// whose functions the submission defines. --backend picks the float32 fast path for large hidden
// cases (expected values of every other check come from the double reference): auto = WASM SIMD
// (the single-threaded build, as grade-batch loads it: one case gains nothing from worker threads,
// whose start a cold grade would pay), else plain WASM. WebGPU only when asked for: starting a GPU device costs more than a whole run.
// Exit code: 0 every test passed; 1 graded with a failure or an error (a syntax error included);
// 2 the grader could not be invoked (bad arguments, missing file, a broken exercise pack).
import { readFileSync, realpathSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { availableParallelism } from 'node:os';
import { BACKEND_NAMES } from '../wasm/index.mjs';
import { EXERCISES, listExercises, loadExercise, readPack, PackError, TRACKS, TRACK_NAMES, DEFAULT_TRACK, trackOfFile, parseShard,
  grade, reporters, NodeSandbox, runBatch, mergeBatch, gradebookOf, BatchError, InputError } from './index.mjs';
// The rest is imported once the arguments are known to be good, with the sandbox's child process and
// the WASM core starting first so that they boot while the grader's own modules load.

const USAGE = `usage: node grader/cli.mjs list
       node grader/cli.mjs grade <submission.js|.py> [--exercise SLUG] [--track js|python] [--format text|json|gradescope]
                                [--seed N] [--lang ru|en] [--timeout-ms N] [--deadline-ms N]
                                [--backend auto|simd|wasm|webgpu] [--verbose]
       node grader/cli.mjs grade-batch <folder|zip> --exercise SLUG --out DIR [--jobs N] [--force] [--shard I/N]
                                [--lang ru|en] [--seed N] [--timeout-ms N] [--deadline-ms N]
       node grader/cli.mjs grade-batch merge <out dirs…> --out DIR [--lang ru|en]
       node grader/cli.mjs grade-batch gradebook <out dirs…> --out FILE.csv`;

class UsageError extends Error {}

const int = (name, s, min, max) => {
  if (s === undefined) return undefined;
  if (!/^\d+$/.test(s) || +s < min || +s > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${s}"`);
  return +s;
};

/** grade-batch's arguments (grader/batch/README.md). */
function batchOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv, allowPositionals: true, strict: true,
      options: {
        exercise: { type: 'string' }, out: { type: 'string' }, jobs: { type: 'string' }, force: { type: 'boolean', default: false },
        shard: { type: 'string' }, lang: { type: 'string', default: 'ru' }, seed: { type: 'string' }, 'timeout-ms': { type: 'string' },
        'deadline-ms': { type: 'string' },
      },
    });
  } catch (e) { throw new UsageError(e.message); }
  const { values: v, positionals: p } = parsed;
  if (!['ru', 'en'].includes(v.lang)) throw new UsageError(`--lang must be ru or en, got "${v.lang}"`);
  if (!v.out) throw new UsageError('grade-batch needs --out <folder>');
  if (p[0] === 'merge' || p[0] === 'gradebook') {
    if (p.length < 2) throw new UsageError(`grade-batch ${p[0]} needs at least one output folder`);
    const extra = Object.keys(v).filter((k) => !['out', 'lang', 'force'].includes(k) && v[k] !== undefined);
    if (extra.length) throw new UsageError(`grade-batch ${p[0]} takes only --out and --lang, got --${extra[0]}`);
    return { command: `batch-${p[0]}`, dirs: p.slice(1), out: v.out, lang: v.lang };
  }
  if (p.length !== 1) throw new UsageError(p.length ? `unexpected argument "${p[1]}"` : 'grade-batch needs a folder or a zip of submissions');
  if (!v.exercise) throw new UsageError(`grade-batch needs --exercise (one of ${listExercises().join(', ')})`);
  const shard = v.shard === undefined ? null : parseShard(v.shard);
  if (shard === null && v.shard !== undefined) throw new UsageError(`--shard must be I/N with 1 ≤ I ≤ N, got "${v.shard}"`);
  return {
    command: 'grade-batch', input: p[0], exercise: v.exercise, out: v.out, force: v.force, shard, lang: v.lang,
    jobs: int('jobs', v.jobs, 1, 1024) ?? availableParallelism(), seed: int('seed', v.seed, 0, 2 ** 32 - 1),
    timeoutMs: int('timeout-ms', v['timeout-ms'], 10, 600000), deadlineMs: int('deadline-ms', v['deadline-ms'], 100, 3600000),
  };
}

function options(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv, allowPositionals: true, strict: true,
      options: {
        exercise: { type: 'string' }, track: { type: 'string' }, format: { type: 'string', default: 'text' },
        seed: { type: 'string' }, lang: { type: 'string', default: 'ru' }, 'timeout-ms': { type: 'string' },
        'deadline-ms': { type: 'string' }, backend: { type: 'string', default: 'auto' },
        verbose: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) { throw new UsageError(e.message); }
  const { values: v, positionals: p } = parsed;
  if (v.help) return { help: true };
  if (p[0] === 'list') {
    if (p.length > 1) throw new UsageError(`unexpected argument "${p[1]}"`);
    return { command: 'list' };
  }
  if (p[0] !== 'grade') throw new UsageError(p[0] ? `unknown command "${p[0]}"` : 'missing command');
  if (p.length !== 2) throw new UsageError(p.length < 2 ? 'missing <submission> file' : `unexpected argument "${p[2]}"`);
  if (!['text', 'json', 'gradescope'].includes(v.format)) throw new UsageError(`--format must be text, json or gradescope, got "${v.format}"`);
  if (!['ru', 'en'].includes(v.lang)) throw new UsageError(`--lang must be ru or en, got "${v.lang}"`);
  if (!BACKEND_NAMES.includes(v.backend)) throw new UsageError(`--backend must be auto, simd, wasm or webgpu, got "${v.backend}"`);
  if (v.track !== undefined && !TRACK_NAMES.includes(v.track)) throw new UsageError(`--track must be ${TRACK_NAMES.join(' or ')}, got "${v.track}"`);
  return {
    command: 'grade', file: p[1], exercise: v.exercise, format: v.format, lang: v.lang, backend: v.backend,
    track: v.track ? TRACKS[v.track] : trackOfFile(p[1]) ?? DEFAULT_TRACK,
    seed: int('seed', v.seed, 0, 2 ** 32 - 1), timeoutMs: int('timeout-ms', v['timeout-ms'], 10, 600000),
    deadlineMs: int('deadline-ms', v['deadline-ms'], 100, 3600000), verbose: v.verbose,
  };
}

/** The exercise a submission is for, when --exercise does not say: see the header. */
async function inferExercise(file, source, track) {
  const slugs = listExercises();
  const inside = relative(realpathSync(EXERCISES), realpathSync(file)).split(sep);
  if (inside.length > 1 && slugs.includes(inside[0])) return inside[0];
  if (slugs.length === 1) return slugs[0];
  const prepared = track.prepareSource(source);
  // A file that does not parse still says what it defines (its syntax error is then the grader's to report).
  const names = new Set(prepared.ok ? prepared.names : [...source.matchAll(/^\s*(?:export\s+)?(?:async\s+)?(?:function\s*\*?\s*|(?:const|let|var)\s+|def\s+)([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]));
  const scored = [];
  for (const slug of slugs) {
    const { spec } = await readPack(slug);
    const hits = (spec?.functions ?? []).filter((f) => names.has(f)).length;
    if (hits) scored.push({ slug, hits, all: hits === spec.functions.length });
  }
  const best = scored.filter((s) => s.all);
  if (best.length === 1) return best[0].slug;
  const top = Math.max(0, ...scored.map((s) => s.hits)), leaders = scored.filter((s) => s.hits === top);
  if (!best.length && leaders.length === 1) return leaders[0].slug;
  throw new UsageError(`cannot tell which exercise ${file} is for (${leaders.length ? `it could be ${leaders.map((s) => s.slug).join(' or ')}` : 'it defines none of their functions'}); say --exercise ${slugs.join('|')}`);
}

async function list() {
  const rows = [];
  for (const slug of listExercises()) {
    const { spec } = await loadExercise(slug);
    rows.push([slug, spec.title.en, spec.functions.join(', '), `${spec.tests.length} tests`]);
  }
  const width = (i) => Math.max(...rows.map((r) => r[i].length));
  for (const r of rows) console.log(r.map((c, i) => (i < r.length - 1 ? c.padEnd(width(i)) : c)).join('  '));
  return 0;
}

/** grade-batch and its merge and gradebook: grader/batch/. Its own refusals (an input that is not a folder or zip, an --out of another exercise) are usage errors. */
async function batch(opts) {
  try {
    if (opts.command === 'batch-merge') return await mergeBatch(opts);
    if (opts.command === 'batch-gradebook') return gradebookOf(opts);
    return await runBatch(opts);
  } catch (e) {
    if (e instanceof BatchError || e instanceof InputError) throw new UsageError(e.message);
    throw e;
  }
}

async function main(argv) {
  let opts, source, exercise, sandboxReady;
  try {
    opts = argv[0] === 'grade-batch' && !argv.includes('--help') && !argv.includes('-h') ? batchOptions(argv.slice(1)) : options(argv);
    if (opts.help) { console.log(USAGE); return 0; }
    if (opts.command.startsWith('batch-') || opts.command === 'grade-batch') return await batch(opts);
    if (opts.command === 'list') return await list();
    try { source = readFileSync(opts.file, 'utf8'); } catch (e) {
      throw new UsageError(e.code === 'ENOENT' ? `no such file: ${opts.file}` : `cannot read ${opts.file}: ${e.message}`);
    }
    // The sandbox's child starts now (its realm boots while the pack loads); closed if the pack cannot.
    sandboxReady = NodeSandbox.create({ track: opts.track });
    exercise = await loadExercise(opts.exercise ?? (await inferExercise(opts.file, source, opts.track)));
  } catch (e) {
    await sandboxReady?.then((s) => s.close(), () => {});
    if (e instanceof PackError) { console.error(`attnlab: exercise pack error:\n${e.message}`); return 2; }
    if (!(e instanceof UsageError)) throw e;
    console.error(`attnlab: ${e.message}\n${USAGE}`);
    return 2;
  }
  const coreReady = import('../wasm/index.mjs').then((m) => m.loadCore({ threads: 1 }));
  const [core, sandbox] = await Promise.all([coreReady, sandboxReady]);
  let fast;
  try {
    if (opts.backend === 'webgpu' || (opts.backend === 'wasm' && core.flavour !== 'baseline')) {
      const { chooseBackend } = await import('../wasm/webgpu/backend.mjs');
      try { fast = await chooseBackend({ backend: opts.backend }); } catch (e) {
        console.error(`attnlab: --backend ${opts.backend} is not available here: ${e.message}`);
        return 2;
      }
    }
    const report = await grade({
      exercise, source, track: opts.track, sandbox, core, fast, lang: opts.lang, seed: opts.seed, timeoutMs: opts.timeoutMs, deadlineMs: opts.deadlineMs,
      onGraderError: (e) => console.error(`attnlab: grader fault: ${e && e.stack ? e.stack : e}`),
    });
    const out = opts.format === 'json' ? reporters.exercism(report)
      : opts.format === 'gradescope' ? reporters.gradescope(report)
      : reporters.text(report, { color: process.stdout.isTTY && !process.env.NO_COLOR, verbose: opts.verbose });
    process.stdout.write(out + '\n');
    return report.status === 'pass' ? 0 : 1;
  } finally {
    fast?.destroy();
    await sandbox.close();
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (e) => {
  console.error(`attnlab: internal error: ${e && e.stack ? e.stack : e}`);
  process.exitCode = 2;
});
