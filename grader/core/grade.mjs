// The grader core, shared by the CLI (Node) and the exercise page (browser): the loop that is the same
// for every exercise pack, track and host (load → call each test → compare → diagnose → one report).
// The host hands in a sandbox (grader/README.md), the exercise pack (its spec and its suite's tests)
// and the WASM core, whose C++ reference gives every expected value.
import { Rng, deriveSeed } from './prng.mjs';
import { say, kindName, sentence, render, isSentence, inEachLang, sentenceKeys, LANGS } from './messages.mjs';
import { toTensor, toWire, fmtShape } from './tensor.mjs';
import { compare, DEFAULT_TOL } from './compare.mjs';
import { explainWhy, matches } from './diagnose.mjs';
import { fmtNum } from './format.mjs';
import { capText, scrubHost } from '../wire/text.mjs';
import { explainError, explainSyntax } from './explain.mjs';
import { readSyntax } from './syntax.mjs';
import { LIMITS } from '../limits.mjs';

/** @typedef {import('../types').Lang} Lang */

/**
 * A test's verdict on the student's code; anything else thrown is a grader bug (status 'error').
 * `message`: its text; `problem`: what differs (Sentences); `cause`: the diagnosis or explanation (a
 * Sentence or null; said once per report: a later test with the same cause refers to the first);
 * `error`: { fn, message, line } when the student's code raised.
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
  /**
   * @param {string} message
   * @param {{ problem: import('../types').Sentence[], cause?: import('../types').Sentence | null,
   *   error?: { fn: string, message: string, line?: number } | null }} parts
   */
  constructor(message, { problem, cause = null, error = null }) {
    super(message);
    this.problem = problem;
    this.cause = cause;
    this.error = error;
    /** @type {string | undefined} the error's message, when the student's code raised */
    this.raised = undefined;
  }
  /** What the failure says, as data: the problem's sentences, then the cause's. */
  get said() {
    return this.cause ? [...this.problem, this.cause] : this.problem;
  }
}
/** The submission's overall time ran out. */
class DeadlineReached extends Error {}
/**
 * A test not run because it calls a function whose call in an earlier test was confirmed as a
 * timeout (that function is not called again): the message's key and params.
 */
class NotRun extends Error {
  /** @param {string} key @param {Record<string, unknown>} params */
  constructor(key, params) {
    super(key);
    this.key = key;
    this.params = params;
  }
}

/**
 * The submission's budget: `spent` is what its requests cost, in ms: where the track's guest counts
 * work (`workPerMs`, grader/tracks/work.mjs) and the host reports it, the units over `workPerMs` (the
 * same on any machine and in either host), else what the host billed (`cpuMs`: CPU time in Node, the
 * wall clock in a page); against `deadlineMs`. `time` is what the hosts billed in any case, `work` the
 * units counted. The wall clock is only a backstop against a stalled sandbox, at LIMITS.wallFactor ×
 * deadlineMs.
 */
class Clock {
  constructor(deadlineMs, workPerMs = 0) {
    this.deadlineMs = deadlineMs;
    this.workPerMs = workPerMs;
    this.spent = 0;
    this.time = 0;
    this.work = null; // until a host reports units
    this.wallAt = now() + deadlineMs * LIMITS.wallFactor;
  }
  /** Budget left (ms), and wall ms left for the request. */
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
    const ms = typeof res?.cpuMs === 'number' ? res.cpuMs : now() - t0;
    this.time += ms;
    const work = res?.work;
    if (typeof work === 'number') this.work = (this.work ?? 0) + work;
    this.spent += typeof work === 'number' && this.workPerMs > 0 ? work / this.workPerMs : ms;
  }
}

/**
 * An error's column in the student's own text: the track's prepared source may run with the work
 * count's ticks inserted (`run`, `columnOf`: grader/tracks/js/source.mjs), which move a column after
 * them on the same line.
 */
const studentColumn = (prepared, line, column) =>
  prepared?.columnOf && line > 0 && column > 0 ? prepared.columnOf(line, column) : column;
/** The same for the stack frames a text quotes (an error's message built from a stack, printed output). */
const studentText = (prepared, text) => (prepared?.studentText ? prepared.studentText(text) : text);

const OUTPUT_LIMIT = 500; // Exercism's limit for a test's output
/**
 * The whole submission's budget (its deadline) where a track states none (its `budgetMs`: JavaScript
 * 11 s, Python 14 s): ms of the host's time (CPU time in Node) for every request the submission causes
 * (loads, calls, their retries, reloads and releases). Each request is limited to what is left of it,
 * so no submission costs more; past it the tests not reached are not run.
 */
/**
 * A function missing after a top level that stopped: why, in one sentence of its own (the line and the
 * error where the top level raised one), not the report's note nested in it (Exercism shows no note on a
 * failing run).
 */
const missingAfterLoad = (note) =>
  typeof note.params?.line === 'number'
    ? sentence('missing.after_load_line', { line: note.params.line, message: note.params.message })
    : sentence('missing.after_load');

export const DEFAULT_DEADLINE_MS = 10000;

/**
 * A sentence on a track: its own messages (grader/tracks/<name>/messages.mjs) looked up after the pack's,
 * before the core's, and its spelling, a key `key.<variant>` (`d.batched_T.py`) in any of them used before
 * `key` (grader/tracks/<name>/info.mjs `variant`).
 */
export const sayForTrack = (track, lang, key, params, pack) => render(lang, sentence(key, params), { pack, track });

/** A test's output cut to OUTPUT_LIMIT with a note, at the same place in every language (so a report renders in another). */
export function capOutput(text, lang) {
  const note = (l) => `\n${say(l, 'output.truncated')}`;
  const longest = Math.max(...LANGS.map((l) => note(l).length));
  return capText(text, OUTPUT_LIMIT - longest + note(lang).length, note(lang));
}

const now = () => performance.now();

/** A pack's limit for one call into student code on a track (spec.json timeout_ms × the track's timeScale). */
export const callLimitMs = (spec, track) => spec.timeout_ms * (track?.timeScale ?? 1);

/**
 * Grade one submission. Returns the report (grader/types.d.ts Report): { exercise, seed, lang, backend,
 * status: 'pass'|'fail'|'error', message, said?, error?, output, passed, total, time_ms, work?, tests: [{ id,
 * name, task_id, points, status, message, said?, cause?, same_as?, output, test_code }] }; each text a report
 * shows is also kept as data (`said`, `cause`: Sentences), so that it can be counted by key and
 * rendered in another language (reporters/index.mjs renderReport).
 * Every test of the spec is in `tests`, whatever happened (a syntax error, a script that cannot load,
 * the deadline). `deadlineMs` bounds the whole submission: each request to the sandbox is ended by
 * then, and tests not reached are reported as not run. `onGraderError(e)` sees a grader fault's
 * stack (the report carries only its message). `onTest(entry, { index, sameAs })` sees each test's
 * entry as soon as it is graded (a page shows progress with it); `sameAs` is the id of the earlier
 * test whose error or cause this one's message refers to (entry.same_as), else null.
 * @param {{ exercise: any, source: string, track: any, sandbox: import('../types').Sandbox, core: any, fast?: any,
 *   lang?: import('../types').Lang, seed?: number, timeoutMs?: number, memoryMb?: number, deadlineMs?: number,
 *   onGraderError?: (e: Error) => void, onTest?: (entry: import('../types').TestEntry, at: { index: number, sameAs: string | null }) => void }} options
 * @returns {Promise<import('../types').Report>}
 */
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
  deadlineMs = deadlineMs ?? (track.budgetMs ?? DEFAULT_DEADLINE_MS * scale) + granted;
  const clock = new Clock(deadlineMs, track.workPerMs);
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
  /** @type {import('../types').Report} */
  const report = {
    exercise: spec.slug,
    seed,
    lang: /** @type {Lang} */ (lang),
    backend: fast.name,
    status: 'fail',
    message: null,
    passed: 0,
    total: spec.tests.length,
    tests: [],
  };
  const t = sentence;
  const text = (said) => render(lang, said, { pack: exercise.messages, track });
  /**
   * A test's entry; `verdict`: null (passed), a Sentence (the whole message, and its cause), or
   * { said, cause, same_as? } (what the message says, why the test did not pass, the test it refers to).
   */
  const entry = (test, status, verdict = null, output = '') => {
    const v = isSentence(verdict) ? { said: verdict, cause: verdict } : verdict;
    return {
      id: test.id,
      name: test.name[lang] || test.name.en,
      task_id: test.task_id,
      points: test.points ?? 1,
      status,
      message: v ? text(v.said) : null,
      ...(v && { said: v.said, cause: v.cause }),
      ...(v?.same_as && { same_as: v.same_as }),
      output: capOutput(output, lang),
      test_code:
        typeof test.test_code === 'string'
          ? test.test_code
          : (test.test_code[track.name] ?? Object.values(test.test_code)[0]),
    };
  };
  /** The report's own message (a syntax error, a script that did not load), as data and as text. */
  const reportSays = (said) => {
    report.said = said;
    report.message = text(said);
  };
  const notRun = (verdict) => {
    report.status = 'error';
    report.tests = spec.tests.map((test) => entry(test, 'error', verdict));
    return report;
  };
  const seconds = Number((deadlineMs / 1000).toFixed(1)); // 2, 8, 0.5: as the messages say them

  // A syntax error: found by the track on the trusted side (JavaScript), or by the guest's compiler
  // when it loads the source (Python); either way every test is listed as not run.
  // core/syntax.mjs says where the mistake is (an unclosed bracket where it opens) and words the
  // parser's message; report.error keeps the source line for a caret (the text reporter's).
  const syntaxError = (error) => {
    const where = readSyntax(source, error, track, t);
    const at = { line: where.line, column: where.column };
    // where.message: the parser's words as a Sentence, or the compiler's own text
    const syntax = t('syntax', { ...at, message: where.message });
    const why = explainSyntax(error, track);
    reportSays(why ? [syntax, t(why.key, why.params)] : syntax);
    const said = syntax.params.message;
    report.error = {
      ...where,
      message: text(said),
      ...(isSentence(said) && { said }),
      sourceLine: capText(where.sourceLine, 1000),
    };
    return notRun(t('not_run.syntax', at));
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
    if (r.error) {
      r.error.column = studentColumn(prepared, r.error.line, r.error.column);
      r.error.message = studentText(prepared, r.error.message);
    }
    if (r.output) r.output = studentText(prepared, r.output);
    return r;
  };
  let load = await loadBilled(prepared.run ?? prepared.source);
  if (load.ok && load.error?.syntax) return syntaxError(load.error);
  report.output = capOutput(load.output || '', lang); // what the script printed at top level (its demo lines)
  const loadNote = !load.ok
    ? t(`load.${load.kind === 'timeout' || load.kind === 'memory' ? load.kind : 'crash'}`, {
        ms: loadMs,
        mb: memoryMb,
        message: load.message,
      })
    : load.error
      ? t(/^ImportError\b/.test(load.error.message) ? 'load.import' : 'load.error', {
          line: load.error.line ?? '?',
          message: load.error.message,
        })
      : null;
  if (loadNote) {
    reportSays([loadNote, t('load.declarations')]);
    if (clock.over) return notRun(t('deadline.not_run', { s: seconds }));
    load = await loadBilled(prepared.declarations);
    // A declaration that fails in turn (an import of a module the runtime lacks) is left out, and the
    // rest loaded again, a few times at most: the functions that do not need it are still graded.
    for (let declarations = prepared.declarations, tries = 0; tries < 3 && load.ok && load.error?.line; tries++) {
      const fewer = prepared.withoutLine?.(declarations, load.error.line);
      if (!fewer || fewer === declarations) break;
      declarations = fewer;
      load = await loadBilled(declarations);
    }
    if (!load.ok) {
      const failed = t('load.declarations_failed', { message: load.message });
      return notRun({ said: [loadNote, failed], cause: loadNote });
    }
  }

  // A function whose call was confirmed as a timeout is not called again: fn → the test's name.
  const timedOut = new Map();
  // An error or a cause is said in full once; a later test that meets it again refers to the first.
  const firstSaid = new Map();
  const testName = (test) => inEachLang((l) => test.name[l] || test.name.en);
  // The first failure of each student function (the one a test called last when it failed): fn → { fn,
  // test, cause, keys } (keys: those of its cause and of the mistakes spec.json declares for fn).
  const failedIn = new Map();
  const declared = [...(spec.mistakes ?? []), ...spec.tests.flatMap((x) => x.mistakes ?? [])];
  const unexplained = new Set(spec.unexplained ?? []);
  /**
   * The earlier failure that a value failure of `subject` follows from: the first of the functions the
   * student's `subject` calls (directly or not) to fail a test, when this failure found no explanation
   * of its own (its cause is one of spec.json `unexplained`: what to check, not why) or names that
   * function's mistake (a key of its cause, or of a mistake declared for it): one mistake, one cause,
   * said where it showed first. A failure without a cause says what is wrong with `subject` itself (not
   * implemented, not a pair, …), and an error has its own line: neither is blamed on another function.
   */
  const calleeFailure = (f, subject) => {
    const reached = !f.error && f.cause && subject ? prepared.reads?.(subject)?.functions : null;
    if (!reached) return null;
    const own = sentenceKeys(f.cause);
    const vague = unexplained.has(f.cause.key);
    return [...failedIn.values()].find((c) => reached.has(c.fn) && (vague || own.some((k) => c.keys.has(k)))) ?? null;
  };
  /**
   * A failure's verdict ({ said, cause, same_as? }): said in full, or referring to the test that said it.
   * `subject`: the student's function the test called last (null when it called none).
   */
  const verdictOf = (f, test, subject) => {
    const callee = calleeFailure(f, subject);
    const record = (cause) => {
      if (subject && !failedIn.has(subject))
        failedIn.set(
          subject,
          callee ?? {
            fn: subject,
            test,
            cause,
            keys: new Set([
              ...sentenceKeys(cause),
              ...declared.filter((m) => m.function === subject).map((m) => m.key),
            ]),
          },
        );
    };
    if (callee) {
      record(callee.cause);
      const test = testName(callee.test);
      // the very cause said there: "the same cause"; else where it lies ("`attention` calls your `softmax`, …")
      const same = JSON.stringify(f.cause) === JSON.stringify(callee.cause);
      const said = [
        ...f.problem,
        same ? t('cause.same', { test }) : t('cause.callee', { fn: subject, callee: callee.fn, test }),
      ];
      return { said, cause: callee.cause, same_as: callee.test.id };
    }
    // Why the test did not pass: the diagnosis, else what went wrong (the first thing the message says).
    const cause = f.cause ?? f.problem[0];
    record(cause);
    // The same error: same line and message up to the shapes it quotes (each test's inputs differ),
    // whichever of the student's functions was called (attention raising in its softmax is softmax's error).
    const key = f.error
      ? `error\0${f.error.line}\0${f.error.message.replace(/\(\d[\d, ]*\)/g, '()')}`
      : f.cause
        ? `cause\0${JSON.stringify(f.cause)}`
        : null;
    if (!key || !firstSaid.has(key)) {
      if (key) firstSaid.set(key, test);
      return { said: f.said, cause };
    }
    const first = firstSaid.get(key);
    const said = f.error
      ? t('error.same', {
          fn: f.error.fn,
          where: f.error.line ? t('error.where', { line: f.error.line }) : '',
          test: testName(first),
        })
      : [...f.problem, t('cause.same', { test: testName(first) })];
    return { said, cause, same_as: first.id };
  };

  const done = (e) => {
    report.tests.push(e);
    onTest?.(e, { index: report.tests.length - 1, sameAs: e.same_as ?? null });
  };
  for (const test of spec.tests) {
    if (clock.over) {
      done(entry(test, 'error', t('deadline.not_run', { s: seconds })));
      continue;
    }
    const called = []; // the student's functions the test calls (ctx.call), in order
    const ctx = makeContext({
      called,
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
      timedOut,
      source: prepared.source,
      prepared,
      members: prepared.members,
      reads: prepared.reads,
      loadNote,
    });
    let status = 'pass',
      verdict = null;
    try {
      await exercise.suite[test.id](ctx);
    } catch (e) {
      if (e instanceof Failure) {
        status = 'fail';
        verdict = verdictOf(e, test, e.error?.fn ?? called.at(-1) ?? null);
      } else if (e instanceof DeadlineReached) {
        status = 'error';
        verdict = t('deadline.hit', { s: seconds });
      } else if (e instanceof NotRun) {
        status = 'error';
        verdict = t(e.key, e.params);
      } else {
        status = 'error';
        verdict = t('grader_error', { message: capText(scrubHost(String(e && e.message)), LIMITS.message) });
        onGraderError?.(e);
      }
    }
    if (status === 'pass') report.passed++;
    done(entry(test, status, verdict, ctx.output));
  }
  report.time_ms = Math.round(clock.time);
  if (clock.work !== null) report.work = clock.work;
  report.status =
    report.passed === report.total && report.total > 0
      ? 'pass'
      : report.tests.some((x) => x.status === 'error')
        ? 'error'
        : 'fail';
  if (report.status === 'error' && !report.message) reportSays(report.tests.find((x) => x.status === 'error').said);
  return report;
}

/** The calls a pack's reference functions answer (`ctx.ref.split_heads(…)` → core.call('<slug>.split_heads', …)). */
export const referenceOf = (core, slug) =>
  new Proxy(
    {},
    { get: (_, name) => (typeof name === 'string' ? (...args) => core.call(`${slug}.${name}`, ...args) : undefined) },
  );

function makeContext({
  called,
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
  timedOut,
  source,
  prepared,
  members,
  reads,
  loadNote,
}) {
  const spec = exercise.spec;
  const t = sentence;
  const asSentence = (s, what) => {
    if (!isSentence(s))
      throw new TypeError(
        `ctx.fail(problem, cause): ${what} must be a sentence of ctx.t(key, params), not ${typeof s}`,
      );
    return sentence(s.key, s.params);
  };
  /** A Failure: `problem` (what differs: a Sentence, or a list of them) and `cause` (why: a Sentence, or nothing). */
  const failure = (problem, cause, error = null) => {
    const p = [problem]
      .flat()
      .filter(Boolean)
      .map((s) => asSentence(s, 'the problem'));
    const c = cause ? asSentence(cause, 'the cause') : null;
    if (!p.length) throw new TypeError('ctx.fail(problem, cause): no problem given');
    return new Failure(render(lang, c ? [...p, c] : p, { pack: exercise.messages, track }), {
      problem: p,
      cause: c,
      error,
    });
  };
  /** Fails the test: `problem` (what differs) and `cause` (why, or null). */
  const fail = (problem, cause = null) => {
    throw failure(problem, cause);
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
      if (!res.ok) {
        res.column = studentColumn(prepared, res.line, res.column);
        res.message = studentText(prepared, res.message);
      }
      if (res.output) res.output = studentText(prepared, res.output);
      measured = res.measured ?? NOTHING_MEASURED;
      if (!res.ok && res.kind === 'timeout' && limit < ms) throw new DeadlineReached();
      return res;
    };
    const earlier = timedOut.get(fn);
    if (earlier) throw new NotRun('not_run.timeout_earlier', { fn, test: earlier });
    if (retry) called.push(fn);
    let res = await attempt(timeoutMs, false);
    if (!res.ok && res.kind === 'timeout' && !retry) fail(t('timeout.probe', { fn, ms: timeoutMs }));
    if (!res.ok && res.kind === 'timeout') {
      res = await attempt(timeoutMs * 2, true);
      // Confirmed, while it kept taking memory: the memory problem it is.
      if (!res.ok && res.kind === 'timeout' && res.grew) res = { ...res, kind: 'memory' };
      if (!res.ok && res.kind === 'timeout') {
        if (res.output) ctx.output += res.output;
        timedOut.set(
          fn,
          inEachLang((l) => test.name[l] || test.name.en),
        );
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
      if (res.kind === 'missing') fail([t('missing', { fn }), loadNote && missingAfterLoad(loadNote)]);
      const where = res.line ? t('error.where', { line: res.line }) : '';
      const why = explainError(res, source, track);
      const cause = why && t(why.key, why.params);
      // Explained: the error's type and where, then the explanation (in the student's language).
      const type = /^([A-Z]\w*(?:Error|Exception)):/.exec(String(res.message))?.[1];
      const problem =
        cause && type
          ? t('error.explained', { fn, message: res.message, type, where })
          : t('error', { fn, message: res.message, where });
      const err = failure(problem, cause, { fn, message: res.message, line: res.line });
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
     * Why the student's result `got` (a tensor, or a list of them) is wrong: the cause, a sentence
     * (ctx.t) for ctx.fail, or null. The candidates: the mistakes spec.json declares for reference
     * function `fn` (the test's `mistakes`, then the pack's: "the reference with these options gives
     * the student's output"), each recomputed as ctx.ref[fn](...args, options), or by
     * `recompute(options)` where the result is not one reference call (several calls, a chain of
     * them); then `extra`, those the suite builds from these inputs ({ key, params?, run }). A cause
     * is named only when one key alone explains `got` (on inputs that cannot tell two mistakes apart,
     * none is). `confirm()`: a second look, on other inputs, → { got, args, extra?, expected } (the
     * student's result there, the reference's arguments, the candidates built for them, the right
     * result), or null when the student's call failed there; the cause is then named only if the same
     * mistake gives the student's result there too (or, where it makes no difference, the student is
     * right there), and the answer is a Promise. `fn` null: only `extra`.
     */
    diagnose(got, fn, args, { extra = [], recompute = null, confirm = null } = {}) {
      const candidates = (a, more, again) => [
        ...[...(test.mistakes ?? []), ...(spec.mistakes ?? [])]
          .filter((m) => fn && m.function === fn)
          .map((m) => ({
            key: m.key,
            params: m.params ?? {},
            run: () => (again ? again(m.options) : ctx.ref[fn](...a, m.options)),
          })),
        ...more.filter(Boolean),
      ];
      const why = explainWhy(got, candidates(args, extra, recompute), ctx.tol);
      const cause = why && t(why.key, why.params);
      if (!confirm) return cause;
      const holds = (second) => {
        if (!second) return false;
        const same = candidates(second.args, second.extra ?? [], null).filter((m) => m.key === why.key);
        if (!same.length) return matches(second.got, second.expected, ctx.tol);
        return same.some((m) => {
          try {
            return matches(second.got, m.run(), ctx.tol);
          } catch {
            return false;
          }
        });
      };
      return cause ? confirm().then((second) => (holds(second) ? cause : null)) : Promise.resolve(null);
    },
    // each test its own stream, independent of its position; its larger draws by the core (prng.mjs)
    rng: new Rng(deriveSeed(seed, `${spec.slug}/${test.id}`), { normals: core.rngNormals }),
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
            kind: inEachLang((l) => kindName(l, r.kind === 'object' && value && value.$other ? value.$other : r.kind)),
          }),
        );
      fail(
        t(r.error, {
          fn,
          kind: inEachLang((l) => kindName(l, r.kind)),
          kindNom: inEachLang((l) => kindName(l, r.kind, true)),
        }),
      );
    },

    /** A returned list of `names.length` arrays (a tuple such as [out, weights]) as tensors. */
    tuple(value, fn, names) {
      const n = names.length;
      if (!Array.isArray(value) || value.length !== n || value.some((v) => !v || !(Array.isArray(v) || v.$array))) {
        const kind = inEachLang((l) =>
          value && value.$array
            ? `${l === 'en' ? 'one array of shape' : 'один массив формы'} ${fmtShape(value.$array.shape)}`
            : Array.isArray(value)
              ? `${l === 'en' ? 'a list of length' : 'список длины'} ${value.length}`
              : kindName(l, value === null ? 'null' : (value?.$other ?? typeof value)),
        );
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
