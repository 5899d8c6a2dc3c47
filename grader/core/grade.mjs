// The grader core, shared by the CLI (Node) and the exercise page (browser): the loop that is the same
// for every exercise pack, track and host (load → call each test → compare → diagnose → one report).
// The host hands in a sandbox (grader/README.md), the exercise pack (its spec and its suite's tests)
// and the WASM core, whose C++ reference gives every expected value.
import { Rng, deriveSeed } from './prng.mjs';
import { say, kindName, SENTENCES } from './messages.mjs';
import { toTensor, toWire, fmtShape } from './tensor.mjs';
import { compare, DEFAULT_TOL } from './compare.mjs';
import { fmtNum } from './format.mjs';
import { capText, scrubHost } from '../wire/text.mjs';
import { explainError, explainSyntax } from './explain.mjs';
import { readSyntax } from './syntax.mjs';
import { LIMITS } from '../limits.mjs';

/**
 * A test's verdict on the student's code; anything else thrown is a grader bug (status 'error').
 * `problem`: what differs; `cause`: the diagnosis or explanation (said once per report: a later test
 * with the same cause refers to the first); `error`: { fn, message, line } when the student's code raised.
 */
/** What a call that measured nothing reports (a reply without `measured`: an error, a timeout). */
const NOTHING = { bytes: 0, line: null };
const NOTHING_MEASURED = Object.freeze({
  arrays: 0,
  bytes: 0,
  largest: null,
  kept: { np: { ...NOTHING, loaded: 0 }, typed: NOTHING, lists: NOTHING, heap: NOTHING },
});

export class Failure extends Error {
  constructor(message, { problem = message, cause = null, error = null } = {}) {
    super(message);
    Object.assign(this, { problem, cause, error });
  }
}
/** The submission's overall time ran out. */
class DeadlineReached extends Error {}

/**
 * The submission's time: `spent` is what the host billed its requests (`cpuMs`: CPU time in Node,
 * the wall clock in a page), against `deadlineMs`; the wall clock is only a backstop against a
 * stalled sandbox, at LIMITS.wallFactor × deadlineMs.
 */
class Clock {
  constructor(deadlineMs) {
    this.deadlineMs = deadlineMs;
    this.spent = 0;
    this.wallAt = now() + deadlineMs * LIMITS.wallFactor;
  }
  /** Budget left (ms of the host's time), and wall ms left for the request. */
  get left() {
    return this.deadlineMs - this.spent;
  }
  get wallLeft() {
    return this.wallAt - now();
  }
  get over() {
    return this.left <= 0 || this.wallLeft <= 0;
  }
  bill(res, t0) {
    this.spent += typeof res?.cpuMs === 'number' ? res.cpuMs : now() - t0;
  }
}

const OUTPUT_LIMIT = 500; // Exercism's limit for a test's output
export const DEFAULT_DEADLINE_MS = 30000;

/**
 * say() with the track's spelling: a key `key.<variant>` (`d.batched_T.py`) in the pack's messages or
 * the core's is used before `key` on that track (grader/tracks/<name>/index.mjs `variant`).
 */
export function sayForTrack(track, lang, key, params, pack) {
  const v = track?.variant ? `${key}.${track.variant}` : null;
  const has = (k) => Boolean(pack?.[lang]?.[k] ?? pack?.en?.[k] ?? SENTENCES[lang]?.[k] ?? SENTENCES.en[k]);
  return say(lang, v && has(v) ? v : key, params, pack);
}

export function capOutput(text, lang) {
  return capText(text, OUTPUT_LIMIT, lang === 'en' ? '\n… output truncated' : '\n… вывод обрезан');
}

const now = () => performance.now();
const sentence = (p) => (/[.!?…:]$/.test(p) ? p : `${p}.`);
/** The parts that are not empty, each ended as a sentence, joined with spaces. */
const sentences = (...parts) => parts.filter(Boolean).map(sentence).join(' ');

/**
 * Grade one submission. Returns the report:
 * { exercise, seed, lang, status: 'pass'|'fail'|'error', message, passed, total,
 *   tests: [{ id, name, task_id, status, message, output, test_code }] }
 * Every test of the spec is in `tests`, whatever happened (a syntax error, a script that cannot load,
 * the deadline). `deadlineMs` bounds the whole submission: each request to the sandbox is ended by
 * then, and tests not reached are reported as not run. `onGraderError(e)` sees a grader fault's
 * stack (the report carries only its message). `onTest(entry, { index, sameAs })` sees each test's
 * entry as soon as it is graded (a page shows progress with it); `sameAs` is the id of the earlier
 * test whose error or cause this one's message refers to, else null.
 */
/** A pack's limit for one call into student code on a track (spec.json timeout_ms × the track's timeScale). */
export const callLimitMs = (spec, track) => spec.timeout_ms * (track?.timeScale ?? 1);

export async function grade({
  exercise,
  source,
  track,
  sandbox,
  core,
  fast,
  lang = 'ru',
  seed,
  timeoutMs,
  memoryMb = LIMITS.memoryMb,
  deadlineMs,
  onGraderError,
  onTest,
}) {
  if (typeof track?.prepareSource !== 'function')
    throw new TypeError('grade(): `track` must be one of the tracks (grader/index.mjs TRACKS), given by the caller');
  // The pack's limits are for JavaScript; a track may scale them (its `timeScale`). A test's own
  // timeout_ms is used as it is, and the default deadline grows by what such tests grant beyond the
  // pack's limit. Limits given explicitly (--timeout-ms, --deadline-ms) are used as they are.
  const scale = track.timeScale ?? 1;
  const packLimit = callLimitMs(exercise.spec, track);
  const granted =
    timeoutMs === undefined
      ? exercise.spec.tests.reduce((s, t) => s + Math.max(0, (t.timeout_ms ?? 0) - packLimit), 0)
      : 0;
  deadlineMs = deadlineMs ?? DEFAULT_DEADLINE_MS * scale + granted;
  const clock = new Clock(deadlineMs);
  // `fast`: the float32 fast path for large hidden cases ({ name, attentionF32 }, e.g. chooseBackend()'s
  // result); by default the core's own (WASM SIMD or plain WASM).
  fast = fast ?? {
    name: core.flavour === 'baseline' ? 'wasm' : 'simd',
    attentionF32: (args) => core.attentionF32(args),
  };
  const spec = exercise.spec;
  seed = seed ?? spec.seed;
  const givenTimeoutMs = timeoutMs; // --timeout-ms: every test's limit; otherwise a test's own timeout_ms, else the pack's
  timeoutMs = timeoutMs ?? packLimit;
  const report = {
    exercise: spec.slug,
    seed,
    lang,
    backend: fast.name,
    status: 'fail',
    message: null,
    passed: 0,
    total: spec.tests.length,
    tests: [],
  };
  const t = (key, params) => sayForTrack(track, lang, key, params, exercise.messages);
  const entry = (test, status, message, output = '') => ({
    id: test.id,
    name: test.name[lang] || test.name.en,
    task_id: test.task_id,
    status,
    message,
    output: capOutput(output, lang),
    test_code:
      typeof test.test_code === 'string'
        ? test.test_code
        : (test.test_code[track.name] ?? Object.values(test.test_code)[0]),
  });
  const notRun = (message) => {
    report.status = 'error';
    report.tests = spec.tests.map((test) => entry(test, 'error', message));
    return report;
  };
  const seconds = Math.round(deadlineMs / 1000);

  // A syntax error: found by the track on the trusted side (JavaScript), or by the guest's compiler
  // when it loads the source (Python); either way every test is listed as not run.
  // core/syntax.mjs says where the mistake is (an unclosed bracket where it opens) and words the
  // parser's message; report.error keeps the source line for a caret (the text reporter's).
  const syntaxError = (error) => {
    const where = readSyntax(source, error, track, t);
    const why = explainSyntax(error, track);
    report.message = why ? sentences(t('syntax', where), t(why)) : t('syntax', where);
    report.error = { ...where, sourceLine: capText(where.sourceLine, 1000) };
    return notRun(t('not_run.syntax', where));
  };
  const prepared = track.prepareSource(source);
  if (!prepared.ok) return syntaxError(prepared.error);

  // The top-level rule, the same for every host: a script whose top level throws, hangs or crashes
  // is graded on its declarations only (prepareSource's copy), loaded in a fresh realm with the same
  // budget; the report says so once.
  const loadMs = timeoutMs * 2;
  const loadOptions = () => ({
    functions: spec.functions,
    aliases: prepared.aliases,
    timeoutMs: Math.min(loadMs, clock.left),
    deadlineMs: clock.wallLeft,
  });
  const loadBilled = async (src) => {
    const t0 = now();
    const r = await sandbox.load(src, loadOptions());
    clock.bill(r, t0);
    return r;
  };
  let load = await loadBilled(prepared.source);
  if (load.ok && load.error?.syntax) return syntaxError(load.error);
  report.output = capOutput(load.output || '', lang); // what the script printed at top level (its demo lines)
  const loadNote = !load.ok
    ? t(`load.${load.kind === 'timeout' || load.kind === 'memory' ? load.kind : 'crash'}`, {
        ms: loadMs,
        mb: memoryMb,
        message: load.message,
      })
    : load.error
      ? t('load.error', { line: load.error.line ?? '?', message: load.error.message })
      : null;
  if (loadNote) {
    report.message = `${loadNote} ${t('load.declarations')}`;
    if (clock.over) return notRun(t('deadline.not_run', { s: seconds }));
    load = await loadBilled(prepared.declarations);
    if (!load.ok) return notRun(`${loadNote} ${t('load.declarations_failed', { message: load.message })}`);
  }

  // An error or a cause is said in full once; a later test that meets it again refers to the first.
  const firstSaid = new Map();
  let sameAs = null; // the earlier test the last sayOnce() referred to
  const testName = (test) => test.name[lang] || test.name.en;
  const sayOnce = (f, test) => {
    // The same error: same function, line and message up to the shapes it quotes (each test's inputs differ).
    const key = f.error
      ? `error\0${f.error.fn}\0${f.error.line}\0${f.error.message.replace(/\(\d[\d, ]*\)/g, '()')}`
      : f.cause
        ? `cause\0${f.cause}`
        : null;
    if (!key) return f.message;
    if (!firstSaid.has(key)) {
      firstSaid.set(key, test);
      return f.message;
    }
    const first = firstSaid.get(key);
    sameAs = first.id;
    return f.error
      ? t('error.same', {
          fn: f.error.fn,
          where: f.error.line ? t('error.where', { line: f.error.line }) : '',
          test: testName(first),
        })
      : sentences(f.problem, t('cause.same', { test: testName(first) }));
  };

  const done = (e) => {
    report.tests.push(e);
    onTest?.(e, { index: report.tests.length - 1, sameAs });
    sameAs = null;
  };
  for (const test of spec.tests) {
    if (clock.over) {
      done(entry(test, 'error', t('deadline.not_run', { s: seconds })));
      continue;
    }
    const ctx = makeContext({
      exercise,
      test,
      track,
      seed,
      lang,
      core,
      fast,
      sandbox,
      timeoutMs: givenTimeoutMs ?? test.timeout_ms ?? timeoutMs,
      memoryMb,
      clock,
      source: prepared.source,
      members: prepared.members,
      reads: prepared.reads,
      loadNote,
    });
    let status = 'pass',
      message = null;
    try {
      await exercise.suite[test.id](ctx);
    } catch (e) {
      if (e instanceof Failure) {
        status = 'fail';
        message = sayOnce(e, test);
      } else if (e instanceof DeadlineReached) {
        status = 'error';
        message = t('deadline.hit', { s: seconds });
      } else {
        status = 'error';
        message = t('grader_error', { message: capText(scrubHost(String(e && e.message)), LIMITS.message) });
        onGraderError?.(e);
      }
    }
    if (status === 'pass') report.passed++;
    done(entry(test, status, message, ctx.output));
  }
  report.time_ms = Math.round(clock.spent);
  report.status =
    report.passed === report.total && report.total > 0
      ? 'pass'
      : report.tests.some((x) => x.status === 'error')
        ? 'error'
        : 'fail';
  if (report.status === 'error' && !report.message)
    report.message = report.tests.find((x) => x.status === 'error').message;
  return report;
}

/** The calls a pack's reference functions answer (`ctx.ref.split_heads(…)` → core.call('<slug>.split_heads', …)). */
export const referenceOf = (core, slug) =>
  new Proxy(
    {},
    { get: (_, name) => (typeof name === 'string' ? (...args) => core.call(`${slug}.${name}`, ...args) : undefined) },
  );

function makeContext({
  exercise,
  test,
  track,
  seed,
  lang,
  core,
  fast,
  sandbox,
  timeoutMs,
  memoryMb,
  clock,
  source,
  members,
  reads,
  loadNote,
}) {
  const spec = exercise.spec;
  const t = (key, params) => sayForTrack(track, lang, key, params, exercise.messages);
  /** Fails the test: `problem` (what differs) and `cause` (why, or null). */
  const fail = (problem, cause = null) => {
    throw new Failure(sentences(problem, cause), { problem, cause });
  };
  let measuring = null,
    measured = null; // ctx.measure's request, and what the last call reported
  /**
   * One call into the student's code (ctx.call and ctx.probe): `retry` confirms an overrun by a second run.
   */
  const callWith = async ({ retry }, fn, ...args) => {
    const wire = args.map(toWire);
    const attempt = async (ms, fresh) => {
      if (clock.over) throw new DeadlineReached();
      const limit = Math.max(1, Math.floor(Math.min(ms, clock.left))); // whole milliseconds, as the messages say them
      const t0 = now();
      const res = await sandbox.call(fn, wire, {
        timeoutMs: limit,
        deadlineMs: clock.wallLeft,
        fresh,
        ...(measuring && { measure: measuring }),
      });
      clock.bill(res, t0);
      measured = res.measured ?? NOTHING_MEASURED;
      if (!res.ok && res.kind === 'timeout' && limit < ms) throw new DeadlineReached();
      return res;
    };
    let res = await attempt(timeoutMs, false);
    if (!res.ok && res.kind === 'timeout' && !retry) fail(t('timeout.probe', { fn, ms: timeoutMs }));
    if (!res.ok && res.kind === 'timeout') {
      res = await attempt(timeoutMs * 2, true);
      // Confirmed, while it kept taking memory: the memory problem it is.
      if (!res.ok && res.kind === 'timeout' && res.grew) res = { ...res, kind: 'memory' };
      if (!res.ok && res.kind === 'timeout') {
        if (res.output) ctx.output += res.output;
        fail(t('timeout', { fn, ms: timeoutMs, ms2: timeoutMs * 2 }));
      }
    }
    if (res.output) ctx.output += res.output; // a retried call's output is the retry's
    if (!res.ok) {
      if (res.kind === 'memory') {
        // np refused one array larger than the whole budget, when it was asked for: its shape and line.
        const shape = /^MemoryError: an array of shape (\([\d, ]*\))/.exec(String(res.message))?.[1];
        if (shape)
          fail(
            t('memory.array', { fn, shape, mb: memoryMb, where: res.line ? t('error.where', { line: res.line }) : '' }),
          );
        fail(t('memory', { fn, mb: memoryMb }));
      }
      if (res.kind === 'crash') fail(t('crash', { fn, message: res.message }));
      if (res.kind === 'invalid')
        fail(
          t('invalid', {
            fn,
            what: t(`invalid.${res.reason}`, {
              n: res.detail,
              max: LIMITS.elements,
              depth: LIMITS.depth,
              mb: Math.round(LIMITS.replyBytes / 2 ** 20),
            }),
          }),
        );
      if (res.kind === 'missing') fail(sentences(t('missing', { fn }), loadNote && t('missing.after_load')));
      const where = res.line ? t('error.where', { line: res.line }) : '';
      const why = explainError(res, source, track);
      const cause = why && t(why.key, why.params);
      // Explained: the error's type and where, then the explanation (in the student's language).
      const type = /^([A-Z]\w*(?:Error|Exception)):/.exec(String(res.message))?.[1];
      const problem =
        cause && type
          ? t('error.explained', { fn, message: res.message, type, where })
          : t('error', { fn, message: res.message, where });
      const err = new Failure(sentences(problem, cause), {
        problem,
        cause,
        error: { fn, message: res.message, line: res.line },
      });
      err.raised = res.message;
      throw err;
    }
    if (res.value && res.value.$undef) fail(t('not_implemented', { fn }));
    return res.value;
  };
  const ctx = {
    spec,
    test,
    params: test.params || {},
    lang,
    track: track.name,
    engine: core,
    ref: referenceOf(core, spec.slug),
    fast,
    source,
    members,
    t,
    fail,
    /** What the student's function `fn` and the functions it calls read (the track's source preparation), or null. */
    reads: (fn) => reads?.(fn) ?? null,
    tol: { ...DEFAULT_TOL, ...spec.tolerance, ...test.tolerance },
    /**
     * The declared mistakes for reference function `fn` (spec.json tests[].mistakes, then the pack's
     * "mistakes" that hold for every test: "the reference with these options gives the student's
     * output") as kit.explain() candidates { key, params, run }: each recomputes ctx.ref[fn](...args,
     * options). `calls`: a list of argument lists instead of `args`, for a test that calls `fn` on several
     * inputs: then each run gives the list of results.
     */
    mistakes: (fn, args, { calls = null } = {}) =>
      [...(test.mistakes ?? []), ...(spec.mistakes ?? [])]
        .filter((m) => m.function === fn)
        .map((m) => ({
          key: m.key,
          params: m.params ?? {},
          run: calls ? () => calls.map((a) => ctx.ref[fn](...a, m.options)) : () => ctx.ref[fn](...args, m.options),
        })),
    rng: new Rng(deriveSeed(seed, `${spec.slug}/${test.id}`)), // each test its own stream, independent of its position
    output: '',

    /**
     * ctx.call, measured: → { value, arrays, bytes, largest: { shape, dtype, bytes, line } | null, kept },
     * what the call built in np and the most memory it held at once, by what held it (kept: { np, typed,
     * lists, heap }, each { bytes, line }; grader/tracks/measure.mjs). `limit`: an element count; when the
     * largest array is bigger and its line is unknown, the guest finds the line by a second run.
     */
    async measure(fn, args, { limit = 0 } = {}) {
      measuring = { limit };
      try {
        const value = await ctx.call(fn, ...args);
        return { value, ...measured };
      } finally {
        measuring = null;
      }
    },

    /**
     * Call a student function; any way it can go wrong becomes a Failure naming it. A call that
     * overruns its limit is run once more, alone in a fresh sandbox with twice the limit, and only a
     * second overrun is a `timeout` (a busy machine or a slow first start is never called a loop).
     */
    call(fn, ...args) {
      return callWith({ retry: true }, fn, ...args);
    },

    /**
     * A diagnosis' call: like call(), but an overrun is not run again (the probe's answer only
     * sharpens a message, so it costs at most one limit; the suite treats any failure as "no").
     */
    probe(fn, ...args) {
      return callWith({ retry: false }, fn, ...args);
    },

    /** A returned value as a tensor, or a Failure saying why it is not an array. */
    array(value, fn) {
      const r = toTensor(value);
      if (r.tensor) return r.tensor;
      if (r.error === 'not-array')
        fail(
          t('not_array', {
            fn,
            kind: kindName(lang, r.kind === 'object' && value && value.$other ? value.$other : r.kind),
          }),
        );
      fail(t(r.error, { fn, kind: kindName(lang, r.kind), kindNom: kindName(lang, r.kind, true) }));
    },

    /** A returned list of `names.length` arrays (a tuple such as [out, weights]) as tensors. */
    tuple(value, fn, names) {
      const n = names.length;
      if (!Array.isArray(value) || value.length !== n || value.some((v) => !v || !(Array.isArray(v) || v.$array))) {
        const kind =
          value && value.$array
            ? `${lang === 'en' ? 'one array of shape' : 'один массив формы'} ${fmtShape(value.$array.shape)}`
            : Array.isArray(value)
              ? `${lang === 'en' ? 'a list of length' : 'список длины'} ${value.length}`
              : kindName(lang, value === null ? 'null' : (value?.$other ?? typeof value));
        fail(t('not_tuple', { fn, kind, names: names.join(', ') }));
      }
      return value.map((v) => ctx.array(v, fn));
    },

    /** Fail with a message describing how `actual` differs from `expected` (null when equal). */
    mismatch(actual, expected, what, tol = ctx.tol) {
      const r = compare(actual, expected, tol);
      if (r.ok) return null;
      if (r.reason === 'shape')
        return t('shape', { what, actual: fmtShape(r.actualShape), expected: fmtShape(r.expectedShape) });
      if (r.reason === 'dtype') return t(expected.dtype === 'bool' ? 'dtype.bool' : 'dtype.float', { what });
      const show = (x) => (expected.dtype === 'bool' ? String(Boolean(x)) : fmtNum(x));
      const params = {
        what,
        index: `[${r.index.join(', ')}]`,
        actual: show(r.actual),
        expected: show(r.expected),
        count: r.count,
        total: r.total,
        maxAbsErr: fmtNum(r.maxAbsErr),
      };
      return t(r.reason, params);
    },
  };
  return ctx;
}
