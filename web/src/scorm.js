// The SCORM side of a package's page (tools/package-scorm; web/README.md, "SCORM packages"). It finds
// the LMS's API in the frames above the page (SCORM's search: window.parent up the chain, then the
// opener's), initialises, restores the student's code from cmi.suspend_data and says what result the LMS
// holds, and after every Check records it as an attempt (checkResult: the best score, passed once, never
// taken back; nothing at all in review, browse or no-credit sessions) and commits. The code is kept in
// suspend_data compressed (deflate-raw, base64, after the prefix CODE_PREFIX), or, when that does not fit
// (SCORM 1.2: 4096 characters), as its difference from the starter (DIFF_PREFIX); past 90 % of the limit
// the student is told, and a code that does not fit even so is said so, and suspend_data is emptied rather
// than left with an older version. On leaving: session time, commit,
// finish. Without an LMS nothing happens: the page works as usual (the code stays in localStorage).
export const CODE_PREFIX = 'attnlab1:';
// Past this share of the limit the student is told, before the code stops fitting.
const NEARLY = 0.9;

const pct = (passed, total) => String(total ? Math.round((10000 * passed) / total) / 100 : 0);
const pad = (n, w = 2) => String(n).padStart(w, '0');

// Each version's names, its suspend_data limit, and the data model elements an attempt reads and writes.
export const VERSIONS = {
  1.2: {
    api: 'API',
    init: 'LMSInitialize',
    get: 'LMSGetValue',
    set: 'LMSSetValue',
    commit: 'LMSCommit',
    finish: 'LMSFinish',
    error: 'LMSGetLastError',
    errorText: 'LMSGetErrorString',
    suspendMax: 4096,
    // lesson_mode normal|browse|review (empty where an LMS leaves it out), credit credit|no-credit.
    mode: (get) => ({ mode: get('cmi.core.lesson_mode') || 'normal', credit: get('cmi.core.credit') || 'credit' }),
    stored: (get) => ({ passed: get('cmi.core.lesson_status') === 'passed', raw: get('cmi.core.score.raw') }),
    // The first launch: "not attempted" becomes "incomplete"; exit "suspend" keeps suspend_data for the next.
    start: (get) => [
      ...(['not attempted', ''].includes(get('cmi.core.lesson_status'))
        ? [['cmi.core.lesson_status', 'incomplete']]
        : []),
      ['cmi.core.exit', 'suspend'],
    ],
    score: (passed, total) => [
      ['cmi.core.score.raw', pct(passed, total)],
      ['cmi.core.score.min', '0'],
      ['cmi.core.score.max', '100'],
    ],
    passed: [['cmi.core.lesson_status', 'passed']],
    failed: [['cmi.core.lesson_status', 'failed']],
    // CMITimespan HHHH:MM:SS.SS
    sessionTime: (ms) => [
      'cmi.core.session_time',
      `${pad(Math.floor(ms / 3.6e6), 4)}:${pad(Math.floor(ms / 6e4) % 60)}:${pad(((ms / 1000) % 60).toFixed(2), 5)}`,
    ],
  },
  2004: {
    api: 'API_1484_11',
    init: 'Initialize',
    get: 'GetValue',
    set: 'SetValue',
    commit: 'Commit',
    finish: 'Terminate',
    error: 'GetLastError',
    errorText: 'GetErrorString',
    suspendMax: 64000,
    mode: (get) => ({ mode: get('cmi.mode') || 'normal', credit: get('cmi.credit') || 'credit' }),
    stored: (get) => ({ passed: get('cmi.success_status') === 'passed', raw: get('cmi.score.raw') }),
    start: (get) => [
      ...(['unknown', 'not attempted', ''].includes(get('cmi.completion_status'))
        ? [['cmi.completion_status', 'incomplete']]
        : []),
      ['cmi.exit', 'suspend'],
    ],
    score: (passed, total) => [
      ['cmi.score.scaled', String(total ? Math.round((10000 * passed) / total) / 10000 : 0)],
      ['cmi.score.raw', pct(passed, total)],
      ['cmi.score.min', '0'],
      ['cmi.score.max', '100'],
    ],
    passed: [
      ['cmi.success_status', 'passed'],
      ['cmi.completion_status', 'completed'],
    ],
    failed: [['cmi.success_status', 'failed']],
    // ISO 8601 duration
    sessionTime: (ms) => [
      'cmi.session_time',
      `PT${Math.floor(ms / 3.6e6)}H${Math.floor(ms / 6e4) % 60}M${((ms / 1000) % 60).toFixed(2)}S`,
    ],
  },
};

/** What a package may be told at build time (tools/package-scorm): which score the LMS keeps, and whether leaving unpassed says failed. */
export const ATTEMPT_DEFAULTS = { score: 'best', failedOnExit: false };

/**
 * The attempt's rules for one Check (pure; web/README.md, "SCORM packages"): `attempt` is what the LMS holds
 * ({ passed, best: the score 0..100 it keeps or null }), `options` the package's (ATTEMPT_DEFAULTS).
 * - the score: sent when it beats the kept one (`score: 'best'`, the default), or every time (`'latest'`);
 * - the status: `passed` (2004: and `completed`) the first time every test passes; never taken back;
 *   nothing else is written at a Check (the attempt stays `incomplete` until it passes).
 * → { pairs: the values to set, attempt: what the LMS holds afterwards, kept: the score it keeps when this one was not sent }
 */
export function checkResult(v, attempt, passed, total, options = ATTEMPT_DEFAULTS) {
  const raw = Number(pct(passed, total));
  const pairs = [];
  const next = { ...attempt };
  if (options.score === 'latest' || attempt.best === null || raw > attempt.best) {
    pairs.push(...v.score(passed, total));
    next.best = options.score === 'latest' ? raw : Math.max(raw, attempt.best ?? 0);
  }
  if (total > 0 && passed === total && !attempt.passed) {
    pairs.push(...v.passed);
    next.passed = true;
  }
  const kept = pairs.some(([k]) => k.endsWith('score.raw')) ? null : attempt.best;
  return { pairs, attempt: next, kept };
}

/**
 * SCORM's search for the LMS's API object (`API` for 1.2, `API_1484_11` for 2004): this window and its
 * parents up to the top (at most 500 steps), then the top window's opener and its parents. A window of
 * another origin on the way is skipped (reading it throws). → the object or null.
 */
export function findApi(name, win = window) {
  const scan = (w) => {
    for (let i = 0; w && i < 500; i++) {
      try {
        if (w[name] && typeof w[name] === 'object') return w[name];
      } catch {
        /* another origin: go on up */
      }
      if (w.parent === w) break;
      w = w.parent;
    }
    return null;
  };
  let opener = null;
  try {
    opener = win.top.opener;
  } catch {
    /* none */
  }
  return scan(win) ?? (opener ? scan(opener) : null);
}

const bytesToBase64 = (bytes) => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
};
const pipe = async (bytes, stream) =>
  new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());

const deflate = async (text) =>
  bytesToBase64(await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw')));
const inflate = async (b64) =>
  new TextDecoder('utf-8', { fatal: true }).decode(
    await pipe(
      Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)),
      new DecompressionStream('deflate-raw'),
    ),
  );

/** code → CODE_PREFIX + base64(deflate-raw(UTF-8)). */
export async function encodeCode(code) {
  return CODE_PREFIX + (await deflate(code));
}

// The code as its difference from the pack's starter, for a code whose whole does not fit (SCORM 1.2's
// 4096 characters: a student keeps most of a long starter's comments). DIFF_PREFIX + the starter's hash +
// ':' + base64(deflate-raw(JSON of the line operations)): a number n > 0 copies the starter's next n lines,
// n < 0 skips -n of them, a string is a line of the student's own. The hash ties it to that starter: a
// package rebuilt with another starter cannot misread it (decodeCode answers null).
export const DIFF_PREFIX = 'attnlab2:';
const MAX_DIFF_CELLS = 4e6; // lines × lines the line diff may compare (a few thousand lines each way)

/** FNV-1a over the UTF-16 code units → 8 hex digits. */
export const starterHash = (text) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
};

/** The line operations that turn `base`'s lines into `code`'s (longest common subsequence), or null when too large to compare. */
export function lineDiff(base, code) {
  const a = base.split('\n'),
    b = code.split('\n');
  if ((a.length + 1) * (b.length + 1) > MAX_DIFF_CELLS) return null;
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w); // lcs[i*w+j]: of a[i..] and b[j..]
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * w + j] =
        a[i] === b[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
  const ops = [];
  const push = (op) => {
    const last = ops.at(-1);
    if (typeof op === 'number' && typeof last === 'number' && Math.sign(op) === Math.sign(last))
      ops[ops.length - 1] += op;
    else ops.push(op);
  };
  let i = 0,
    j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) (push(1), i++, j++);
    else if (j < b.length && (i === a.length || lcs[i * w + j + 1] >= lcs[(i + 1) * w + j])) push(b[j++]);
    else (push(-1), i++);
  }
  return ops;
}

/** The reverse of lineDiff; null when the operations do not fit `base`. */
export function applyDiff(base, ops) {
  const a = base.split('\n'),
    out = [];
  let i = 0;
  if (!Array.isArray(ops)) return null;
  for (const op of ops) {
    if (typeof op === 'string') out.push(op);
    else if (Number.isInteger(op) && op > 0 && i + op <= a.length) out.push(...a.slice(i, (i += op)));
    else if (Number.isInteger(op) && op < 0 && i - op <= a.length) i -= op;
    else return null;
  }
  return i === a.length ? out.join('\n') : null;
}

/**
 * The code for suspend_data within `max` characters: whole (encodeCode) when it fits, else as its difference
 * from `starter` when that fits; else the shorter, which does not (the caller says so).
 */
export async function encodeWithin(code, max, starter = null) {
  const whole = await encodeCode(code);
  if (whole.length <= max || typeof starter !== 'string') return whole;
  const ops = lineDiff(starter, code);
  if (!ops) return whole;
  const diff = `${DIFF_PREFIX}${starterHash(starter)}:${await deflate(JSON.stringify(ops))}`;
  return diff.length < whole.length ? diff : whole;
}

/** The reverse of encodeCode and encodeWithin (given the same starter); null for anything else (another tool's data, damaged text). */
export async function decodeCode(text, starter = null) {
  if (typeof text !== 'string') return null;
  try {
    if (text.startsWith(CODE_PREFIX)) return await inflate(text.slice(CODE_PREFIX.length));
    const m = /^attnlab2:([0-9a-f]{8}):(.*)$/s.exec(text);
    if (!m || typeof starter !== 'string' || m[1] !== starterHash(starter)) return null;
    return applyDiff(starter, JSON.parse(await inflate(m[2])));
  } catch {
    return null;
  }
}

/** The page's line about the LMS (#lms-note, a status), under the buttons, where the student looks after Check. */
export function lmsNote() {
  const note = document.createElement('p');
  note.id = 'lms-note';
  note.className = 'notice';
  note.setAttribute('role', 'status');
  note.hidden = true;
  (document.getElementById('check')?.closest('[role=toolbar]') ?? document.getElementById('notice')).after(note);
  return note;
}

/**
 * host: the page (main.js: getCode, setCode, check, …); version '1.2' | '2004'; strings(): the page's
 * `lms` strings in its language; options: the package's (ATTEMPT_DEFAULTS). Sets <html data-lms="none|connected|failed">
 * and, when the LMS records nothing (review or browse mode, no credit), data-lms-recording="no".
 */
export async function connectScorm(host, version, strings, options = ATTEMPT_DEFAULTS, win = window) {
  const v = VERSIONS[version];
  const api = v && findApi(v.api, win);
  const root = document.documentElement;
  if (!api) return void (root.dataset.lms = 'none');

  const note = lmsNote();
  // The note: what the LMS holds or was told last (restored, sent, refused, not recorded), and whether the code fits.
  let last = [],
    tooLong = null,
    nearly = null;
  const say = (...texts) => {
    if (texts.length) last = texts;
    const room = tooLong
      ? strings().tooLong(tooLong, v.suspendMax)
      : nearly
        ? strings().nearlyFull(nearly, v.suspendMax)
        : '';
    note.textContent = [...last, room].filter(Boolean).join(' ');
    note.hidden = !note.textContent;
  };

  // Every call is guarded: an LMS's API may throw, or answer "false" with an error code. After
  // Terminate/LMSFinish nothing more is called (a late autosave, Check or visibility change included).
  let finished = false;
  const call = (fn, ...args) => {
    if (finished) return 'false';
    try {
      return String(api[fn](...args));
    } catch (e) {
      return `error:${e?.message ?? e}`;
    }
  };
  const problem = () => {
    const code = call(v.error);
    return `${code}${code && code !== '0' ? ` ${call(v.errorText, code)}` : ''}`;
  };
  const get = (key) => call(v.get, key);
  const set = (pairs) => pairs.every(([k, val]) => call(v.set, k, val) === 'true') || problem();
  const commit = () => call(v.commit, '') === 'true' || problem();

  if (call(v.init, '') !== 'true') {
    root.dataset.lms = 'failed';
    return say(strings().refused(problem()));
  }
  const started = performance.now();

  // Review, browse or no-credit: the LMS keeps nothing of this session, and the page writes nothing.
  const { mode, credit } = v.mode(get);
  const recording = mode === 'normal' && credit === 'credit';
  const notRecorded = () => (mode !== 'normal' ? strings().review(mode) : strings().noCredit);
  const stored = v.stored(get);
  const best = Number.parseFloat(stored.raw);
  let attempt = { passed: stored.passed, best: Number.isFinite(best) ? best : null };

  // A resumed attempt: the code the LMS kept, and the result it holds.
  const saved = await decodeCode(get('cmi.suspend_data'), host.starter);
  const resumed = [];
  if (saved !== null && saved !== host.getCode()) {
    host.setCode(saved);
    resumed.push(strings().restored);
  }
  if (attempt.best !== null || attempt.passed) resumed.push(strings().stored(attempt.best ?? 100, attempt.passed));
  if (!recording) resumed.push(notRecorded());
  say(...resumed);
  if (recording) {
    set(v.start(get));
    commit();
  } else root.dataset.lmsRecording = 'no';
  root.dataset.lms = 'connected';

  // The code in suspend_data: at each Check, and a moment after the student stops typing (so that
  // leaving the page, which cannot wait for compression, finds it already set).
  async function storeCode() {
    const data = await encodeWithin(host.getCode(), v.suspendMax, host.starter);
    tooLong = data.length > v.suspendMax ? data.length : null;
    nearly = !tooLong && data.length > NEARLY * v.suspendMax ? data.length : null;
    const r = set([['cmi.suspend_data', tooLong ? '' : data]]);
    root.dataset.lmsStored = String(Number(root.dataset.lmsStored ?? 0) + 1); // for tests: how many times
    return r;
  }
  let timer = null;
  addEventListener('attnlab:edited', () => {
    if (!recording) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      storeCode().then(() => say());
    }, 1500);
  });

  let checked = attempt.best !== null;
  addEventListener('attnlab:checked', async ({ detail: { passed, total } }) => {
    if (finished) return;
    if (!recording) {
      say(strings().notRecorded(passed, total, notRecorded()));
      return dispatchEvent(new CustomEvent('attnlab:lms', { detail: { passed, total, ok: true, recorded: false } }));
    }
    checked = true;
    const stored = await storeCode();
    const result = checkResult(v, attempt, passed, total, options);
    attempt = result.attempt;
    const sent = result.pairs.length ? set(result.pairs) : true;
    const committed = commit();
    const failure = [stored, sent, committed].find((r) => r !== true);
    say(
      failure
        ? strings().notSent(failure)
        : result.kept !== null
          ? strings().sentBest(passed, total, result.kept)
          : strings().sent(passed, total),
    );
    dispatchEvent(new CustomEvent('attnlab:lms', { detail: { passed, total, ok: !failure, recorded: true } }));
  });

  // Leaving ends the session: the time spent, `failed` if the package says so and the attempt checked
  // without passing, a commit, and Terminate/LMSFinish, once. A session that records nothing only finishes.
  const finish = () => {
    if (finished) return;
    if (recording) {
      if (options.failedOnExit && checked && !attempt.passed) set(v.failed);
      set([v.sessionTime(performance.now() - started)]);
      commit();
    }
    call(v.finish, '');
    finished = true;
  };
  addEventListener('pagehide', finish);
  addEventListener('beforeunload', finish);
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden' && recording) commit();
  });
}
