// The SCORM side of a package's page (tools/package-scorm; web/README.md, "SCORM packages"). It finds
// the LMS's API in the frames above the page (SCORM's search: window.parent up the chain, then the
// opener's), initialises, restores the student's code from cmi.suspend_data, and after every Check sets
// the score and status and commits. The code is kept in suspend_data compressed (deflate-raw, base64,
// after the prefix CODE_PREFIX); a solution that does not fit (SCORM 1.2: 4096 characters) is said so,
// and suspend_data is emptied rather than left with an older version. On leaving: session time, commit,
// finish. Without an LMS nothing happens: the page works as usual (the code stays in localStorage).
export const CODE_PREFIX = 'attnlab1:';

const pct = (passed, total) => String(total ? Math.round((10000 * passed) / total) / 100 : 0);
const pad = (n, w = 2) => String(n).padStart(w, '0');

// Each version's names, its suspend_data limit, and what it sets.
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
    // The first launch: "not attempted" becomes "incomplete"; exit "suspend" keeps suspend_data for the next.
    start: (get) => [
      ...(get('cmi.core.lesson_status') === 'not attempted' ? [['cmi.core.lesson_status', 'incomplete']] : []),
      ['cmi.core.exit', 'suspend'],
    ],
    result: (passed, total) => [
      ['cmi.core.score.raw', pct(passed, total)],
      ['cmi.core.score.min', '0'],
      ['cmi.core.score.max', '100'],
      ['cmi.core.lesson_status', total && passed === total ? 'passed' : 'failed'],
    ],
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
    start: (get) => [
      ...(['unknown', 'not attempted', ''].includes(get('cmi.completion_status'))
        ? [['cmi.completion_status', 'incomplete']]
        : []),
      ['cmi.exit', 'suspend'],
    ],
    result: (passed, total) => {
      const done = total > 0 && passed === total;
      return [
        ['cmi.score.scaled', String(total ? Math.round((10000 * passed) / total) / 10000 : 0)],
        ['cmi.score.raw', pct(passed, total)],
        ['cmi.score.min', '0'],
        ['cmi.score.max', '100'],
        ['cmi.success_status', done ? 'passed' : 'failed'],
        ['cmi.completion_status', done ? 'completed' : 'incomplete'],
      ];
    },
    // ISO 8601 duration
    sessionTime: (ms) => [
      'cmi.session_time',
      `PT${Math.floor(ms / 3.6e6)}H${Math.floor(ms / 6e4) % 60}M${((ms / 1000) % 60).toFixed(2)}S`,
    ],
  },
};

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

/** code → CODE_PREFIX + base64(deflate-raw(UTF-8)). */
export async function encodeCode(code) {
  return CODE_PREFIX + bytesToBase64(await pipe(new TextEncoder().encode(code), new CompressionStream('deflate-raw')));
}

/** The reverse of encodeCode; null for anything else (another tool's data, damaged text). */
export async function decodeCode(text) {
  if (typeof text !== 'string' || !text.startsWith(CODE_PREFIX)) return null;
  try {
    const bytes = Uint8Array.from(atob(text.slice(CODE_PREFIX.length)), (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(await pipe(bytes, new DecompressionStream('deflate-raw')));
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
 * `lms` strings in its language. Sets <html data-lms="none|connected|failed">.
 */
export async function connectScorm(host, version, strings, win = window) {
  const v = VERSIONS[version];
  const api = v && findApi(v.api, win);
  const root = document.documentElement;
  if (!api) return void (root.dataset.lms = 'none');

  const note = lmsNote();
  // The note: what happened last with the LMS (restored, sent, refused), and whether the code fits.
  let last = '',
    tooLong = null;
  const say = (text = last) => {
    last = text;
    note.textContent = [text, tooLong ? strings().tooLong(tooLong, v.suspendMax) : ''].filter(Boolean).join(' ');
    note.hidden = !note.textContent;
  };

  // Every call is guarded: an LMS's API may throw, or answer "false" with an error code.
  const call = (fn, ...args) => {
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

  const saved = await decodeCode(get('cmi.suspend_data'));
  if (saved !== null && saved !== host.getCode()) {
    host.setCode(saved);
    say(strings().restored);
  }
  set(v.start(get));
  commit();
  root.dataset.lms = 'connected';

  // The code in suspend_data: at each Check, and a moment after the student stops typing (so that
  // leaving the page, which cannot wait for compression, finds it already set).
  async function storeCode() {
    const data = await encodeCode(host.getCode());
    tooLong = data.length > v.suspendMax ? data.length : null;
    const r = set([['cmi.suspend_data', tooLong ? '' : data]]);
    root.dataset.lmsStored = String(Number(root.dataset.lmsStored ?? 0) + 1); // for tests: how many times
    return r;
  }
  let timer = null;
  addEventListener('attnlab:edited', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      storeCode().then(() => say());
    }, 1500);
  });

  addEventListener('attnlab:checked', async ({ detail: { passed, total } }) => {
    const stored = await storeCode();
    const sent = set(v.result(passed, total));
    const committed = commit();
    const failure = [stored, sent, committed].find((r) => r !== true);
    say(failure ? strings().notSent(failure) : strings().sent(passed, total));
    dispatchEvent(new CustomEvent('attnlab:lms', { detail: { passed, total, ok: !failure } }));
  });

  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    set([v.sessionTime(performance.now() - started)]);
    commit();
    call(v.finish, '');
  };
  addEventListener('pagehide', finish);
  addEventListener('beforeunload', finish);
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') commit();
  });
}
