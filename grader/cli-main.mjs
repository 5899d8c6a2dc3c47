// attnlab grader CLI.
//   node grader/cli.mjs --help [--lang ru|en]   (the usage lines, every option, exit codes, examples: cli-text.mjs)
// grade-batch: grader/batch/README.md (each submission in its own child, resume, summary, report, shards).
// The track (the submission's language): --track, else the file's extension (.py: python, else js), by
// tracks/table.mjs's trackFor, the rule cli.mjs guesses by too; only that track's code is loaded.
// The exercise: --exercise, else the pack the file lives in (exercises/<slug>/…), else the one pack
// whose functions the submission defines. --backend picks the float32 fast path for large hidden
// cases (expected values of every other check come from the double reference): auto = WASM SIMD
// (the single-threaded build, as grade-batch loads it: one case gains nothing from worker threads,
// whose start a cold grade would pay), else plain WASM. WebGPU only when asked for: starting a GPU device costs more than a whole run.
// Exit code: 0 every test passed; 1 graded with a failure or an error (a syntax error included);
// 2 the grader could not be invoked (bad arguments, missing file, a broken exercise pack).
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { availableParallelism } from 'node:os';
import { BACKEND_NAMES } from '../wasm/index.mjs';
import { EXERCISES, listExercises, loadExercise, readPack } from './hosts/node/exercise.mjs';
import { PackError } from './core/pack.mjs';
import { hintsFor, failingFunction, perFunction } from './core/hints.mjs';
import { catalog, loadTrack } from './tracks/catalog.mjs';
import { cliLang, cliSay, closest, helpText, GRADE_OPTIONS } from './cli-text.mjs';
import { isolation } from './hosts/node/spawn.mjs';
import { LIMITS } from './limits.mjs';
// The rest is imported once the arguments are known to be good, with the sandbox's child process and
// the WASM core starting first so that they boot while the grader's own modules load.

/**
 * The progress of a text report on a terminal: one status line on stderr, rewritten as each test
 * finishes ("checked 3 of 7: softmax — passed; checking 4 of 7…") and erased before the report is
 * printed, so a long test (an endless loop being timed out) is never a silent wait. Nothing when stderr
 * is not a terminal or the format is JSON: a pipe or a file gets the report alone.
 */
function progressLine(opts, total, statusWord) {
  if (opts.format !== 'text' || !process.stderr.isTTY) return null;
  const show = (line) => process.stderr.write(`\r\x1b[2K${line}`);
  show(cliSay(opts.lang, 'running', { n: 1, total }));
  return {
    test(entry, { index }) {
      const done = index + 1;
      const line = cliSay(opts.lang, 'progress', {
        done,
        total,
        id: entry.id,
        status: statusWord(`status.${entry.status}`),
      });
      show(done < total ? `${line}; ${cliSay(opts.lang, 'running', { n: done + 1, total })}` : line);
    },
    clear: () => show(''),
  };
}

/** A usage error: a sentence of cli-text.mjs by key (said in --lang), or `text` as it is (grade-batch's own refusals). */
class UsageError extends Error {
  constructor(key, params = {}, text = null) {
    super(text ?? key);
    this.key = text === null ? key : null;
    this.params = params;
  }
  say(lang) {
    if (!this.key) return this.message;
    const params = Object.fromEntries(
      Object.entries(this.params).map(([k, v]) => [
        k,
        v?.key ? cliSay(lang, v.key, { ...v, slugs: v.slugs?.join(cliSay(lang, 'or')) }) : v,
      ]),
    );
    const text = cliSay(lang, this.key, params);
    return params.suggestion ? `${text}; ${cliSay(lang, 'did_you_mean', params)}` : text;
  }
}

const int = (name, s, min, max) => {
  if (s === undefined) return undefined;
  if (!/^\d+$/.test(s) || +s < min || +s > max)
    throw new UsageError('int', { option: `--${name}`, min, max, value: s });
  return +s;
};
const oneOf = (name, value, allowed, lang) => {
  if (!allowed.includes(value))
    throw new UsageError('bad_value', {
      option: `--${name}`,
      value,
      allowed: `${allowed.slice(0, -1).join(', ')}${cliSay(lang, 'or')}${allowed.at(-1)}`,
      suggestion: closest(value, allowed),
    });
};

/**
 * `--seed -5` as `--seed=-5`: parseArgs takes a value that starts with '-' for an option, and would say
 * that --seed has no value; a negative number after an option that takes one is its value, which
 * the option's own check then refuses with its range (none of the CLI's takes a negative number).
 */
function negativeValues(argv, options) {
  const args = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') return [...args, ...argv.slice(i)];
    const name = /^--([^=]+)$/.exec(argv[i])?.[1];
    if (name && options[name]?.type === 'string' && /^-\d/.test(argv[i + 1] ?? ''))
      args.push(`${argv[i]}=${argv[++i]}`);
    else args.push(argv[i]);
  }
  return args;
}

/** node:util's parseArgs, its refusals turned into usage errors in --lang; an unknown option or command gets the closest known one. */
function parse(argv, options) {
  try {
    return parseArgs({ args: negativeValues(argv, options), allowPositionals: true, strict: true, options });
  } catch (e) {
    const option = /'(-[^'\s=]*)/.exec(e.message)?.[1] ?? '';
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const known = Object.entries(options).flatMap(([k, o]) => [`--${k}`, ...(o.short ? [`-${o.short}`] : [])]);
      throw new UsageError('unknown_option', { option, suggestion: closest(option, known) });
    }
    if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      throw new UsageError(options[option.replace(/^-+/, '')]?.type === 'boolean' ? 'no_value' : 'missing_value', {
        option,
      });
    }
    throw new UsageError(null, {}, e.message);
  }
}

const BATCH_OPTIONS = {
  exercise: { type: 'string' },
  out: { type: 'string' },
  jobs: { type: 'string' },
  force: { type: 'boolean', default: false },
  shard: { type: 'string' },
  'allow-partial': { type: 'boolean' },
  overrides: { type: 'string' },
  roster: { type: 'string' },
  scale: { type: 'string' },
  due: { type: 'string' },
  'late-policy': { type: 'string' },
  gradebook: { type: 'string' }, // (gradebook) the LMS form: canvas or moodle
  lang: { type: 'string', default: 'ru' },
  seed: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'deadline-ms': { type: 'string' },
  'require-isolation': { type: 'boolean' }, // no default: merge and gradebook refuse it when given
};

/** grade-batch's arguments (grader/batch/README.md); its parsers are loaded only for a batch. */
async function batchOptions(argv, lang) {
  const [{ parseShard }, { parseDue, parseLatePolicy }] = await Promise.all([
    import('./batch/shard.mjs'),
    import('./batch/late.mjs'),
  ]);
  const { values: v, positionals: p } = parse(argv, BATCH_OPTIONS);
  oneOf('lang', v.lang, ['ru', 'en'], lang);
  if (!v.out) throw new UsageError('needs', { command: 'grade-batch', option: '--out' });
  if (p[0] === 'merge' || p[0] === 'gradebook') {
    if (p.length < 2) throw new UsageError('batch_dirs', { command: p[0] });
    const allowed = ['out', 'lang', 'force', ...(p[0] === 'merge' ? ['allow-partial'] : ['gradebook'])];
    const extra = Object.keys(v).filter((k) => !allowed.includes(k) && v[k] !== undefined);
    if (extra.length)
      throw new UsageError('batch_only', {
        command: p[0],
        allowed: allowed
          .filter((k) => k !== 'force')
          .map((k) => `--${k}`)
          .join(', '),
        option: `--${extra[0]}`,
      });
    return {
      command: `batch-${p[0]}`,
      dirs: p.slice(1),
      out: v.out,
      lang: v.lang,
      allowPartial: Boolean(v['allow-partial']),
      gradebook:
        v.gradebook === undefined ? null : (oneOf('gradebook', v.gradebook, ['canvas', 'moodle'], lang), v.gradebook),
    };
  }
  if (v['allow-partial']) throw new UsageError('merge_only', { option: '--allow-partial' });
  if (v.gradebook !== undefined) throw new UsageError('gradebook_only', { option: '--gradebook' });
  if (p.length !== 1) throw new UsageError(p.length ? 'extra' : 'batch_input', { arg: p[1] });
  if (!v.exercise) throw new UsageError('needs_exercise', { slugs: listExercises().join(', ') });
  knownExercise(v.exercise);
  const due = v.due === undefined ? null : parseDue(v.due);
  if (v.due !== undefined && !due) throw new UsageError('due', { value: v.due });
  const latePolicy = v['late-policy'] === undefined ? null : parseLatePolicy(v['late-policy']);
  if (v['late-policy'] !== undefined && !latePolicy) throw new UsageError('late_policy', { value: v['late-policy'] });
  if (latePolicy && !due) throw new UsageError('needs', { command: '--late-policy', option: '--due' });
  const shard = v.shard === undefined ? null : parseShard(v.shard);
  if (shard === null && v.shard !== undefined) throw new UsageError('shard', { value: v.shard });
  return {
    command: 'grade-batch',
    input: p[0],
    exercise: v.exercise,
    out: v.out,
    force: v.force,
    shard,
    overrides: v.overrides ?? null,
    roster: v.roster ?? null,
    scale: int('scale', v.scale, 1, 100000) ?? null,
    due,
    latePolicy,
    lang: v.lang,
    jobs: int('jobs', v.jobs, 1, 1024) ?? availableParallelism(),
    seed: int('seed', v.seed, 0, 2 ** 32 - 1),
    timeoutMs: int('timeout-ms', v['timeout-ms'], 10, 600000),
    deadlineMs: int('deadline-ms', v['deadline-ms'], 100, 3600000),
    requireIsolation: v['require-isolation'] === true,
  };
}

const COMMANDS = ['list', 'grade', 'grade-batch'];

/** --exercise names a pack that exists (else the closest slug is suggested). */
function knownExercise(slug) {
  const slugs = listExercises();
  if (slug !== undefined && !slugs.includes(slug))
    throw new UsageError('unknown_exercise', { slug, slugs: slugs.join(', '), suggestion: closest(slug, slugs) });
  return slug;
}

function options(argv, lang) {
  const { values: v, positionals: p } = parse(argv, GRADE_OPTIONS);
  if (v.help) return { help: true };
  if (p[0] === 'list') {
    if (p.length > 1) throw new UsageError('extra', { arg: p[1] });
    return { command: 'list' };
  }
  if (p[0] !== 'grade')
    throw new UsageError(p[0] ? 'unknown_command' : 'missing_command', {
      command: p[0],
      suggestion: p[0] && closest(p[0], COMMANDS),
    });
  if (p.length !== 2) throw new UsageError(p.length < 2 ? 'missing_file' : 'extra', { arg: p[2] });
  oneOf('format', v.format, ['text', 'json', 'gradescope'], lang);
  oneOf('lang', v.lang, ['ru', 'en'], lang);
  oneOf('backend', v.backend, BACKEND_NAMES, lang);
  if (v.track !== undefined) oneOf('track', v.track, catalog.TRACK_NAMES, lang);
  return {
    command: 'grade',
    file: p[1],
    exercise: knownExercise(v.exercise),
    format: v.format,
    lang: v.lang,
    backend: v.backend,
    track: catalog.trackFor({ track: v.track, file: p[1] }), // its description; main() loads the whole track
    seed: int('seed', v.seed, 0, 2 ** 32 - 1),
    timeoutMs: int('timeout-ms', v['timeout-ms'], 10, 600000),
    deadlineMs: int('deadline-ms', v['deadline-ms'], 100, 3600000),
    hints: int('hints', v.hints, 0, 100) ?? 0,
    verbose: v.verbose,
    requireIsolation: v['require-isolation'],
  };
}

/** The hints a text report ends with (core/hints.mjs): those of the function that fails first; none after a pass. */
function hintsOf(exercise, report, opts) {
  if (report.status === 'pass') return null;
  const fn = perFunction(exercise.hints) ? failingFunction(report, exercise.spec) : null;
  const list = hintsFor(exercise.hints, { lang: opts.lang, variant: opts.track.variant, fn });
  return list.length ? { fn, list, shown: opts.hints } : null;
}

const FILE_KINDS = [
  ['isDirectory', 'kind_directory'],
  ['isFIFO', 'kind_fifo'],
  ['isCharacterDevice', 'kind_char'],
  ['isBlockDevice', 'kind_block'],
  ['isSocket', 'kind_socket'],
];

/**
 * The submission's text: a regular file (a link is followed) of at most LIMITS.sourceBytes. Opened
 * first without blocking (a FIFO with no writer) and checked on the open descriptor, so that what is
 * read is what was checked; then read up to one byte past the cap, in case it grew meanwhile.
 */
function readSubmission(file) {
  let fd;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    throw new UsageError(e.code === 'ENOENT' ? 'no_file' : 'read', { file, message: e.message });
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      const kind = FILE_KINDS.find(([is]) => st[is]())?.[1] ?? 'kind_other';
      throw new UsageError('not_regular', { file, kind: { key: kind } });
    }
    const cap = LIMITS.sourceBytes;
    if (st.size > cap) throw new UsageError('too_big', { file, size: st.size, cap });
    const buf = Buffer.alloc(cap + 1);
    let n = 0;
    for (let got; n < buf.length && (got = readSync(fd, buf, n, buf.length - n, null)) > 0;) n += got;
    if (n > cap) throw new UsageError('too_big', { file, size: `> ${cap}`, cap });
    return buf.toString('utf8', 0, n);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError('read', { file, message: e.message });
  } finally {
    closeSync(fd);
  }
}

/** The OS boundary (hosts/node/spawn.mjs): --require-isolation refuses without it; --verbose (and a batch, always) says which. */
function checkIsolation(opts, lang) {
  const iso = isolation();
  if (opts.requireIsolation && !iso.on) throw new UsageError('isolation_required', { reason: iso.reason });
  if (opts.verbose || (opts.command === 'grade-batch' && !iso.on))
    console.error(`attnlab: ${cliSay(lang, iso.on ? 'isolation_on' : 'isolation_off', iso)}`);
}

/** The exercise a submission is for, when --exercise does not say: see the header. */
async function inferExercise(file, source, track) {
  const slugs = listExercises();
  const inside = relative(realpathSync(EXERCISES), realpathSync(file)).split(sep);
  if (inside.length > 1 && slugs.includes(inside[0])) return inside[0];
  if (slugs.length === 1) return slugs[0];
  const prepared = track.prepareSource(source);
  // A file that does not parse still says what it defines (its syntax error is then the grader's to report).
  const names = new Set(
    prepared.ok
      ? prepared.names
      : [
          ...source.matchAll(
            /^\s*(?:export\s+)?(?:async\s+)?(?:function\s*\*?\s*|(?:const|let|var)\s+|def\s+)([A-Za-z_$][\w$]*)/gm,
          ),
        ].map((m) => m[1]),
  );
  const scored = [];
  for (const slug of slugs) {
    const { spec } = await readPack(slug);
    const hits = (spec?.functions ?? []).filter((f) => names.has(f)).length;
    if (hits) scored.push({ slug, hits, all: hits === spec.functions.length });
  }
  const best = scored.filter((s) => s.all);
  if (best.length === 1) return best[0].slug;
  const top = Math.max(0, ...scored.map((s) => s.hits)),
    leaders = scored.filter((s) => s.hits === top);
  if (!best.length && leaders.length === 1) return leaders[0].slug;
  throw new UsageError('which', {
    file,
    slugs: slugs.join('|'),
    why: leaders.length ? { key: 'which_could', slugs: leaders.map((s) => s.slug) } : { key: 'which_none' },
  });
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
  const b = await import('./batch/index.mjs');
  const { InputError } = await import('./batch/inputs.mjs');
  try {
    if (opts.command === 'batch-merge') return await b.mergeBatch(opts);
    if (opts.command === 'batch-gradebook') return b.gradebookOf(opts);
    return await b.runBatch(opts);
  } catch (e) {
    if (e instanceof b.BatchError || e instanceof InputError) throw new UsageError(null, {}, e.message);
    throw e;
  }
}

/**
 * argv: the arguments after `node grader/cli.mjs`. early: a sandbox cli.mjs already started for the
 * track it guessed from the arguments ({ track, sandbox: Promise }); used when the guess was right,
 * closed otherwise.
 */
export async function main(argv, early = null) {
  let opts, source, exercise, sandboxReady;
  const lang = cliLang(argv);
  try {
    opts =
      argv[0] === 'grade-batch' && !argv.includes('--help') && !argv.includes('-h')
        ? await batchOptions(argv.slice(1), lang)
        : options(argv, lang);
    if (opts.help) {
      console.log(helpText(lang, listExercises()[0]));
      return 0;
    }
    if (opts.command === 'grade-batch') checkIsolation(opts, lang);
    if (opts.command.startsWith('batch-') || opts.command === 'grade-batch') return await batch(opts);
    if (opts.command === 'list') return await list();
    source = readSubmission(opts.file);
    checkIsolation(opts, lang);
    // The sandbox's child starts now (its realm boots while the pack loads); closed if the pack cannot.
    if (early?.track.name === opts.track.name) sandboxReady = early.sandbox;
    else {
      early?.sandbox.then(
        (s) => s.close(),
        () => {},
      );
      sandboxReady = import('./hosts/node/sandbox.mjs').then((m) => m.NodeSandbox.create({ track: opts.track }));
    }
    early = null;
    opts.track = await loadTrack(opts.track); // this track's code (source preparation, explanations), and no other's
    exercise = await loadExercise(opts.exercise ?? (await inferExercise(opts.file, source, opts.track)));
  } catch (e) {
    await early?.sandbox.then(
      (s) => s.close(),
      () => {},
    );
    await sandboxReady?.then(
      (s) => s.close(),
      () => {},
    );
    if (e instanceof PackError) {
      console.error(`attnlab: ${cliSay(lang, 'pack')}\n${e.message}`);
      return 2;
    }
    if (!(e instanceof UsageError)) throw e;
    console.error(`attnlab: ${e.say(lang)}\n${cliSay(lang, 'more')}`);
    return 2;
  }
  // The core with the reference's answers of earlier runs of this pack (hosts/node/ref-store.mjs).
  let store = null;
  const coreReady = Promise.all([
    import('../wasm/index.mjs').then((m) => m.loadCore({ threads: 1 })),
    import('./core/ref-cache.mjs'),
    import('./hosts/node/ref-store.mjs'),
  ]).then(async ([core, { cachedCore }, { refStore }]) => {
    store = await refStore({ slug: exercise.spec.slug, core });
    return cachedCore(core, { store });
  });
  const [{ grade }, reporters, { say }] = await Promise.all([
    import('./core/grade.mjs'),
    import('./reporters/index.mjs'),
    import('./core/messages.mjs'),
  ]);
  const [core, sandbox] = await Promise.all([coreReady, sandboxReady]);
  let fast;
  try {
    if (opts.backend === 'webgpu' || (opts.backend === 'wasm' && core.flavour !== 'baseline')) {
      const { chooseBackend } = await import('../wasm/webgpu/backend.mjs');
      try {
        fast = await chooseBackend({ backend: opts.backend });
      } catch (e) {
        console.error(`attnlab: ${cliSay(lang, 'backend', { backend: opts.backend, message: e.message })}`);
        return 2;
      }
    }
    const status = progressLine(opts, exercise.spec.tests.length, (key) => say(opts.lang, key));
    const report = await grade({
      exercise,
      source,
      track: opts.track,
      sandbox,
      core,
      fast,
      lang: opts.lang,
      seed: opts.seed,
      timeoutMs: opts.timeoutMs,
      deadlineMs: opts.deadlineMs,
      onGraderError: (e) => console.error(`attnlab: grader fault: ${e && e.stack ? e.stack : e}`),
      onTest: status?.test,
    });
    status?.clear();
    const out =
      opts.format === 'json'
        ? reporters.exercism(report)
        : opts.format === 'gradescope'
          ? reporters.gradescope(report)
          : reporters.text(report, {
              color: process.stdout.isTTY && !process.env.NO_COLOR,
              verbose: opts.verbose,
              hints: hintsOf(exercise, report, opts),
            });
    process.stdout.write(out + '\n');
    return report.status === 'pass' ? 0 : 1;
  } finally {
    fast?.destroy();
    await Promise.all([sandbox.close(), store?.save()]);
  }
}
