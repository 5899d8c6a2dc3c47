// The grader's contracts in one place, checked by `tsc --noEmit` (tsconfig.json) against the JSDoc of the
// modules that build and read them: the report that grade() returns (grader/core/grade.mjs) and its parts,
// which the CLI's reporters, the page, grade-batch and a grading service read (grader/README.md, Reports,
// says the same in words); a suite's context, Ctx<Ref> (Ref: a pack's generated ref.d.ts); the sandbox's
// contract (Sandbox, Reply) that both hosts keep and grade() uses; a track (Track) and a pack as grade() is
// given it (Pack). tests/js/docs.test.mjs checks that the READMEs' contract tables name exactly these members.

/** A language of the messages (grader/core/messages.mjs LANGS). */
export type Lang = 'ru' | 'en';

/** A text in every language, shown in the one a report is rendered in: a test's name, a case's label. */
export type Localized = Partial<Record<Lang, string>>;

/**
 * A param of a Sentence: plain JSON only (grader/core/messages.mjs sentence() makes it so). A string is
 * at most LIMITS.message long; student text (an error's message, a printed value) is only ever such a
 * string, and is escaped wherever it is shown.
 */
export type Param = number | boolean | null | string | Localized | Sentence | Sentence[];

/**
 * A sentence as data: a message key (the grader's, grader/core/messages.mjs, or the pack's,
 * exercises/<slug>/messages.json) and its params. render(lang, sentence, { pack, variant }) makes the
 * text in any language, with the track's spelling of the key (`key.py`) where there is one.
 */
export interface Sentence {
  key: string;
  params: Record<string, Param>;
}

/**
 * Why a test did not pass, as data: the diagnosis the grader named (`d.*` of the pack, `explain.*` of the
 * grader), else what went wrong (`values`, `shape`, `not_array`, `error`, `timeout`, `memory`,
 * `deadline.not_run`, `not_run.syntax`, `grader_error` …). Its key is what grade-batch and a grading
 * service count and store: the same whatever the language or the track.
 */
export type Cause = Sentence;

export type Status = 'pass' | 'fail' | 'error';

/** One graded test of a report (every test of the pack's spec is there, in the spec's order). */
export interface TestEntry {
  /** The test's id in the pack's spec.json. */
  id: string;
  /** The test's name in the report's language. */
  name: string;
  task_id: number;
  /** What passing it is worth (spec.json `points`, default 1): Gradescope's max_score, grade-batch's score. */
  points: number;
  status: Status;
  /** What went wrong, as text in the report's language (`said` rendered); null when passed. */
  message: string | null;
  /**
   * `message` as data: one Sentence, or a list of them (each ended with a full stop, joined with spaces).
   * Absent when passed.
   */
  said?: Sentence | Sentence[];
  /** Why the test did not pass; absent when passed. */
  cause?: Cause;
  /**
   * The id of the earlier test whose message says this cause (or this same error) in full: this test's
   * message only refers to it. Absent when the message says it in full.
   */
  same_as?: string;
  /** What the student's code printed during the test, capped (escaped where shown). */
  output: string;
  /** The test's code as the student reads it, on the submission's track. */
  test_code: string;
}

/** A syntax error, where it is: the text reporter draws a caret under `column` of `sourceLine`. */
export interface SyntaxErrorInfo {
  line: number;
  column: number;
  /** The parser's words in the report's language (or the compiler's own text). */
  message: string;
  /** `message` as data, where the grader worded it. */
  said?: Sentence;
  /** The source line (capped). */
  sourceLine: string;
  [other: string]: unknown;
}

/** What grade() returns. */
export interface Report {
  /** The pack's slug. */
  exercise: string;
  seed: number;
  lang: Lang;
  /** The float32 fast path that checked the large hidden cases ('simd', 'wasm', 'webgpu'). */
  backend: string;
  status: Status;
  /** The submission's own message (a syntax error, a script that did not load), or null. */
  message: string | null;
  /** `message` as data. */
  said?: Sentence | Sentence[];
  /** A syntax error's place, for a caret. */
  error?: SyntaxErrorInfo;
  /** What the script printed at its top level, capped. */
  output?: string;
  passed: number;
  total: number;
  /** The time billed to the submission's requests, in ms (CPU time in Node, the wall clock in a page). */
  time_ms?: number;
  /** The work units its requests counted, where the track's guest counts work (grader/tracks/work.mjs): the same in either host. */
  work?: number;
  tests: TestEntry[];
}

// ---------------------------------------------------------------------------------------------------
// What a pack's suite is given (grader/core/grade.mjs makeContext; exercises/README.md, "The suite").

import type { MaskInput, Tensor, TensorInput } from '../wasm/attnlab';
export type { MaskInput, Tensor, TensorInput };

/** A tensor a reference function returns: its data, shape and dtype (core.call names it: 'bool' for byte data). */
export interface RefTensor extends Tensor<Float64Array | Uint8Array> {
  dtype: 'float64' | 'bool';
}

/** Any pack's ctx.ref, where its generated type (exercises/<slug>/ref.d.ts) is not named. */
export type AnyRef = Record<string, (...args: any[]) => any>;

/**
 * The context each test of a suite gets: `Ctx<Ref>` with the pack's Ref (its ref.d.ts, generated from
 * its reference/bind.cpp by tools/ref-types), so that tsc rejects a reference call of a name the pack does
 * not register, or with arguments its binding does not read. The members the suites use are typed; the
 * rest are `any` (the JS of grade.mjs is the authority on them).
 */
export interface Ctx<R = AnyRef> {
  /** The pack's spec.json. */
  spec: any;
  /** This test's entry of spec.json. */
  test: any;
  /** The test's params (spec.json `params`, or {}). */
  params: any;
  lang: Lang;
  /** The submission's track ('js', 'python'). */
  track: string;
  /** The loaded core (wasm/index.mjs). */
  engine: any;
  /** The pack's reference functions: ctx.ref.<name>(…) → core.call('<slug>.<name>', …). */
  ref: R;
  /** The float32 fast path's backend. */
  fast: any;
  /** The submission's source. */
  source: string;
  members: any;
  /** A sentence: a message key of the grader or of the pack, with its params. */
  t(key: string, params?: Record<string, unknown>): Sentence;
  /** Fails the test: what differs, and why (or null). */
  fail(problem: Sentence | Sentence[], cause?: Sentence | null): never;
  reads(fn: string): any;
  tol: { atol: number; rtol: number; [other: string]: number };
  /** Why `got` is wrong, by the mistakes spec.json declares for reference function `fn` (and `extra`). */
  diagnose(got: any, fn: (keyof R & string) | null, args: any[] | null, options?: any): any;
  rng: any;
  output: string;
  measure(fn: string, args: unknown[], options?: { limit?: number }): Promise<any>;
  /** Calls the student's function `fn`. */
  call(fn: string, ...args: unknown[]): Promise<any>;
  probe(fn: string, ...args: unknown[]): Promise<any>;
  array(value: unknown, fn: string): any;
  tuple(value: unknown, fn: string, names: string[]): any;
  mismatch(actual: any, expected: any, what: any, tol?: any): any;
  [other: string]: any;
}

// ---------------------------------------------------------------------------------------------------
// The sandbox's contract (grader/hosts/README.md): what a host's sandbox answers to a load or a call
// (grader/wire/codec.mjs decodeResponse checks every reply into this shape), and the options each takes.

/** A sandbox's answer to a request: a load (`functions`), a call (`value`), or what went wrong (`kind`). */
export interface Reply {
  ok: boolean;
  /** A load: the names asked for that the submission defines. */
  functions?: string[];
  /** A load: the error its top level raised, or null. */
  error?: { message: string; line: number | null; column: number | null; syntax?: true } | null;
  /** A call: its return value, decoded from the wire. */
  value?: any;
  /** A measured call: what it built (grader/tracks/measure.mjs). */
  measured?: any;
  /** Not ok: 'error', 'timeout', 'memory', 'crash', 'invalid', 'missing' … */
  kind?: string;
  message?: string;
  line?: number | null;
  column?: number | null;
  /** kind 'invalid': why the reply was refused, and its number where there is one. */
  reason?: string;
  detail?: number | null;
  /** What the code printed, capped. */
  output: string;
  /** The work units the request counted, where the track's guest counts work. */
  work?: number;
  /** The CPU ms billed to the request (the Node host), or the wall clock's (the page). */
  cpuMs?: number;
  /** A timeout during which the child's memory kept growing. */
  grew?: boolean;
}

/** The options of a sandbox's load(source, options). */
export interface LoadRequestOptions {
  /** The names the suite will call. */
  functions?: string[];
  /** Other names the track accepts for them. */
  aliases?: Record<string, string>;
  timeoutMs?: number;
  /** The wall time left to the whole grade. */
  deadlineMs?: number;
}

/** The options of a sandbox's call(name, args, options). */
export interface CallRequestOptions {
  timeoutMs?: number;
  deadlineMs?: number;
  /** Run in a fresh child (a retried overrun). */
  fresh?: boolean;
  /** Measure what the call builds (ctx.measure). */
  measure?: { limit?: number } | null;
}

/** What grade() needs of a host's sandbox (NodeSandbox, the page's worker host). */
export interface Sandbox {
  load(source: string, options?: LoadRequestOptions): Promise<Reply>;
  call(name: string, args: unknown[], options?: CallRequestOptions): Promise<Reply>;
  close(): Promise<void> | void;
  /** What `timeoutMs` and every answer's `cpuMs` count: the child's CPU time (Node) or the wall clock (a page). */
  readonly clock: 'cpu' | 'wall';
  [other: string]: any;
}

// ---------------------------------------------------------------------------------------------------
// A track (grader/tracks/README.md, "The contract"): the language of a submission, one folder.

/** An error a track read in a submission: where, and what (grader/core/syntax.mjs reads it further). */
export interface SourceError {
  message: string;
  line: number;
  column: number;
}

/** What a track's prepareSource() gives back when the source can be read. */
export interface PreparedSource {
  ok: true;
  /** The student's text, for reading (error lines, hints). */
  source: string;
  /** The text to load where the track inserts the work count's ticks. */
  run?: string;
  /** An error's column in `run` → the student's. */
  columnOf?(line: number, column: number): number;
  /** `columnOf` for every stack frame a message or printed output quotes. */
  studentText?(text: string): string;
  /** The text loaded when the whole script could not be: its declarations only. */
  declarations: string;
  /** Exported name → the local one (`export { impl as softmax }`). */
  aliases: Record<string, string>;
  names: string[];
  /** Property names the code reads with a dot (`K.T` → `T`). */
  members: string[];
  /** What top-level function `fn` and the functions it calls read, or null where the track cannot tell. */
  reads?(fn: string): { members: Set<string>; functions: Set<string>; [what: string]: unknown } | null;
  /** The declarations without the statement at `line` (the Python track's fallback), or null. */
  withoutLine?(source: string, line: number): string | null;
}

/** A track: the language of a submission (grader/tracks/README.md, "The contract"). */
export interface Track {
  name: string;
  label: string;
  short: string;
  order: number;
  extensions: string[];
  files: { starter: string; solution: string; submission: string };
  prepareSource(source: string): PreparedSource | { ok: false; error: SourceError };
  tokens(source: string): { value: string; offset: number; op?: boolean }[];
  guest: { entry: string; wasm: { file: string; package: string } | null };
  realm: { strings: boolean; wasm: boolean; release: boolean };
  explain: {
    error?(error: { message: string; line?: number | null }, source: string): Sentence | null;
    syntax?(error: SourceError): string | Sentence | null;
    keepdims?: string;
    /** Its parser's messages students meet most: [pattern, message key] (the first group a `name`). */
    parser?: [RegExp, string][];
  };
  /** The track's own sentences per lang (its messages.mjs), looked up after a pack's and before the core's. */
  messages?: Partial<Record<Lang, Record<string, string>>>;
  lexicon?: {
    comments: [string, string][];
    strings: [string, string, boolean][];
    name: { start: RegExp; part: RegExp };
    keywords: string[];
  };
  timeScale?: number;
  budgetMs?: number;
  workPerMs?: number;
  variant?: string;
  warmUp?: string;
  scaleProbe?(fn: string, name: string): string;
}

/** A pack as grade() is given it (`loadExercise(slug)` in Node, the page's build; grader/core/pack-layout.mjs). */
export interface Pack {
  slug: string;
  /** spec.json: functions, tests, tolerance, mistakes, panels, … (exercises/README.md). */
  spec: { slug: string; functions: string[]; tests: { id: string; [field: string]: unknown }[]; [field: string]: unknown };
  /** suite.mjs: one async function per test id, given the test's ctx. */
  suite: Record<string, unknown>;
  /** messages.json: the pack's own sentences, per lang. */
  messages?: Record<string, Record<string, string>> | null;
  hints?: unknown;
}
