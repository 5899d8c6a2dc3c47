// The exercise page: editor, Run / Check / Hint / Reset, results, heatmap, offline cache.
// Checks are the grader's own (grader/core/grade.mjs); the page only supplies a browser sandbox.
import './styles.css';
import { STRINGS } from './i18n.js';
import { renderMarkdown } from './markdown.js';
import { heatmap, heatmapMessage } from './heatmap.js';
import { createEditor, createViewer } from './editor.js';
import {
  BrowserSandbox,
  grade,
  referenceOf,
  callLimitMs,
  TRACKS,
  DEFAULT_TRACK,
  say,
  visible,
  LIMITS,
  toTensor,
  toWire,
  fmtShape,
  take0,
  readSyntax,
  explainError,
  hintsFor,
  failingFunction,
  perFunction,
} from '../../grader/browser.mjs';
import { exercises, chooseExercise, starterOf, heatmapTokens } from './exercise.js';
import { loadCore } from '../../wasm/index.mjs';
import { backendParam, pickBackend, flavourLabel, softwareAdapter, threadsNote } from './backend.js';
import { measureScale, renderScale } from './scale.js';
import { pageMode, pageParams } from './mode.js';
import { connectEmbed, embedRefusal } from './embed.js';
import { measureMemory, renderMemory } from './memory.js';
import { createLayout } from './layout.js';
import { connectTheme } from './theme.js';
import { savedSign, renderCheer, passedAll } from './comforts.js';
import { solutionSetting, solutionOffered, solutionFile, fetchSolution } from './solution.js';

const $ = (id) => document.getElementById(id);
// Embed mode (a frame in a course's page) or a SCORM package's page: the exercise alone (mode.js).
const mode = pageMode(location.search);
if (mode.embed) document.documentElement.dataset.embed = '';
// The URL parameters this mode may read (mode.js URL_PARAMS: in embed mode and a package, only what to show).
const params = pageParams(location.search, mode);
// Embed mode proper (a course page's frame, not a package): allowed only for a parent origin the host lists.
const embedCheck = mode.embed && !mode.pkg && !mode.cmi5 ? embedRefusal(mode.parentOrigin) : null;
// ?timeout=MS shortens the per-call and top-level limits (the browser tests use it); else the grader's.
const timeoutMs = Number(params.get('timeout')) || undefined;
// ?backend=webgpu|simd|wasm|auto picks the fast path (a forced CPU backend also picks the core's build);
// ?scaleMax=N caps T in the Scale panel (tests keep SwiftShader quick with it).
// A package runs one thread whatever its URL says (it carries no threaded build: web/build.mjs).
const backendChoice = backendParam(mode.pkg ? '?threads=1' : `?${params}`);
const scaleMax = Number(params.get('scaleMax')) || Infinity;
// ?memoryMax=N caps T in the Memory panel (tests keep it quick with it).
const memoryMax = Number(params.get('memoryMax')) || Infinity;
// In embed mode every key is the parent origin's own (`embed <origin> <key>`): a frame under another origin
// (which may share this origin's storage: browsers partition it by site, not by origin) starts empty, and
// never reads or overwrites the code of the page itself or of another course. The page's own keys are as
// they always were. A cmi5 launch's keys are its LRS's own (`cmi5 <endpoint's origin> <key>`): the page may
// talk to that origin (web/page-policy.mjs), so a launch naming another LRS never reads, and never sends
// there, the code kept for another one or for the page itself.
const scope =
  mode.embed && mode.parentOrigin
    ? `embed ${mode.parentOrigin} `
    : mode.cmi5 && !(mode.cmi5 instanceof Error)
      ? `cmi5 ${new URL(mode.cmi5.endpoint).origin} `
      : '';
const store = {
  get: (k) => {
    try {
      return localStorage.getItem(scope + k);
    } catch {
      return null;
    }
  },
  set: (k, v) => {
    try {
      localStorage.setItem(scope + k, v);
    } catch {
      /* private mode or full: keep working */
    }
  },
  remove: (k) => {
    try {
      localStorage.removeItem(scope + k);
    } catch {
      /* as above */
    }
  },
};

// The page's language: ?lang=, else the one chosen last, else Russian.
const LANG_KEY = 'attnlab:lang',
  EXERCISE_KEY = 'attnlab:exercise';
let lang = mode.pkg?.lang ?? params.get('lang') ?? store.get(LANG_KEY) ?? 'ru';
if (!STRINGS[lang]) lang = 'ru';
const t = () => STRINGS[lang];

// The exercise: ?exercise=<slug>, else the one opened last, else the first of the course.
// Its chunk can fail to arrive (the network dropped on a first visit): the page says so, not a blank page.
const { exercise, unknown: unknownExercise } = await chooseExercise(
  mode.pkg?.exercise ?? params.get('exercise'),
  store.get(EXERCISE_KEY),
).catch((e) => {
  const n = $('notice');
  n.textContent = t().packFailed;
  n.hidden = false;
  throw e;
});
// Refused embed mode stops here: a message, no editor, no stored code, nothing sent to the parent.
const refused = await embedCheck;
if (refused) {
  const why = t().embedRefused[refused.key];
  $('notice').textContent = typeof why === 'function' ? why(refused.origin, refused.real) : why;
  $('notice').hidden = false;
  $('title').textContent = exercise.spec.title[lang] ?? exercise.slug;
  document.documentElement.dataset.embedRefused = refused.key;
  await new Promise(() => {}); // never settles: the rest of the page is not started
}
store.set(EXERCISE_KEY, exercise.slug);
// Each (exercise, track) keeps its own code (the default track's key, JavaScript's, is the one it always had, without a suffix). `running`: set
// while student code runs and cleared after, so that a tab the browser took down (a V8 fatal error in
// the worker ends the whole renderer) says so when it is opened again.
const KEY = {
  code: (tr) => (tr === DEFAULT_TRACK ? `attnlab:${exercise.slug}:code` : `attnlab:${exercise.slug}:${tr.name}:code`),
  track: `attnlab:${exercise.slug}:track`,
  lang: LANG_KEY,
  running: `attnlab:${exercise.slug}:running`,
  // '1' once a Check on that track passed every test (the reference solution is then offered: solution.js)
  passed: (tr) => `attnlab:${exercise.slug}:${tr.name}:passed`,
};
const PANELS = exercise.spec.panels ?? {};
// When the reference solution is offered: the course's ?solution=, else the pack's spec.json "solution" (solution.js).
const solutionWhen = solutionSetting(exercise.spec, params.get('solution'));

// The track (the solution's language): ?track=, else the one used last for this exercise, else the
// pack's first. Only the tracks the pack offers (a starter and a solution each).
const offered = exercise.tracks.map((n) => TRACKS[n]);
const chooseTrack = (name) => offered.find((tr) => tr.name === name) ?? offered[0];
let track = chooseTrack(mode.pkg?.track ?? params.get('track') ?? store.get(KEY.track));
store.set(KEY.track, track.name);
// The pack's texts and hints in the track's spelling where it has them (texts/task.ru.py.md, "ru.py").
const taskText = () => exercise.trackTexts?.[track.variant]?.[lang] ?? exercise.texts[lang];
// Hints per function (grader/core/hints.mjs): those of the function that fails first in the last check
// (before one, the first function), never another's; a pack with one list has no function to follow (null).
const hintsFunction = () =>
  perFunction(exercise.hints) ? (failingFunction(state.report, exercise.spec) ?? exercise.spec.functions[0]) : null;
const hintList = () => hintsFor(exercise.hints, { lang, variant: track.variant, fn: hintsFunction() });
/** Another function to hint at: its hints start from the first (a nudge). */
function followFunction() {
  const fn = hintsFunction();
  if (state.hintsFn !== fn) Object.assign(state, { hintsFn: fn, hintsShown: 0, hintsShownAll: false });
}
const starter = () => starterOf(exercise, track.name, lang);

const state = {
  core: null,
  sandbox: new BrowserSandbox({ track }),
  busy: null /* the running action: { action, stopped, stop() } */,
  gen: 0 /* bumped by each action, Stop and track switch: late answers of an older one are dropped */,
  hintsShown: 0,
  report: null,
  sameAs: {} /* test id → the earlier test its message refers to (grade()'s onTest) */,
  stale: false /* the results shown belong to an earlier version of the code */,
  live: false /* the Check under way shows its progress (PROGRESS_AFTER_MS) */,
  student: null /* heatmap of the student's function */,
  heat: null /* the pack's heatmap panel once the core is up: { args, reference, mask, weights } */,
  backend: null /* { name, label, reason, fallback?, failed?, be } once chosen */,
  scale: null /* last Scale results */,
  memory: null /* last Memory results */,
  solution: null /* the reference solution shown: { path, viewer } */,
};

// ---------- rendering ----------
function renderTexts() {
  document.documentElement.lang = lang;
  const text = taskText();
  const [, title = exercise.spec.slug, body = ''] = text.match(/^#\s+(.*)\n([\s\S]*)$/) ?? [
    null,
    exercise.spec.slug,
    text,
  ];
  $('title').textContent = title;
  document.title = `${title} — attnlab`;
  $('task').innerHTML = renderMarkdown(body);
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t()[el.dataset.i18n];
  for (const el of document.querySelectorAll('[data-i18n-title]')) el.title = t()[el.dataset.i18nTitle];
  $('lang').textContent = t().langSwitch;
  $('lang').lang = lang === 'ru' ? 'en' : 'ru';
  editor.setLabel(t().editorLabel(track.label));
  renderBadge();
  renderPicker();
  renderTracks();
  renderCrashNote();
  renderScalePanel();
  if (state.memory) $('memory-out').replaceChildren(renderMemory(state.memory, t().memory));
  renderHints();
  renderSolution();
  renderHeatmaps();
  if (state.report) renderReport(state.report);
  else {
    state.live = true; // a Check under way keeps its rows, and fills in the rest as they are graded
    renderPending(exercise.spec.tests.map((x) => state.progress?.[x.id]));
  }
  theme?.render();
  showCheer();
}

function lineButton(line, column, text) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'linkish';
  b.textContent = text;
  b.title = t().goToLine(line);
  b.dataset.line = line;
  b.addEventListener('click', () => editor.goTo(line, column ?? 1));
  return b;
}

// The grader's ways of naming a line of the student's code (grader/core/messages.mjs: "at line N",
// "line N, column M"; "в строке N, столбец M", "в строке N:", "(строка N)"). In Russian "строка" is
// also a row of a matrix ("Строка 1 весов…", "в строке 0 должно быть…"): those stay text.
const SOURCE_LINE =
  /\b[Ll]ine\s+(\d+)(?:,\s*column\s+(\d+))?|строке\s+(\d+)(?:,\s*столбец\s+(\d+))?(?=[,:.)]|$)|(?<=\()строка\s+(\d+)(?=\))/g;

/**
 * The raw texts a message quotes (its sentences' `message` params: an error's own words, from the
 * student's code, np or the runtime, in whatever language they were raised): shown as code, not prose.
 */
function quotedTexts(said, out = []) {
  if (Array.isArray(said)) for (const s of said) quotedTexts(s, out);
  else if (said && typeof said === 'object' && typeof said.key === 'string')
    for (const [name, v] of Object.entries(said.params ?? {})) {
      if (name === 'message' && typeof v === 'string' && v.trim().length > 3) out.push(visible(v));
      else if (v && typeof v === 'object') quotedTexts(v, out);
    }
  return out;
}

/**
 * A grader message as DOM: the raw texts it quotes (`quoted`) and `code` spans become <code>, and every
 * reference to a line of the student's code (SOURCE_LINE) a button that moves the cursor there.
 */
function messageDom(text, quoted = []) {
  const frag = document.createDocumentFragment();
  for (const q of quoted) {
    const at = text.indexOf(q);
    if (at < 0) continue;
    frag.append(
      messageDom(text.slice(0, at), quoted),
      Object.assign(document.createElement('code'), { className: 'raw', textContent: q }),
      messageDom(text.slice(at + q.length), quoted),
    );
    return frag;
  }
  text.split(/(`[^`]+`)/).forEach((part, i) => {
    if (i % 2) return frag.append(Object.assign(document.createElement('code'), { textContent: part.slice(1, -1) }));
    const re = new RegExp(SOURCE_LINE);
    let last = 0,
      m;
    while ((m = re.exec(part))) {
      const line = m[1] ?? m[3] ?? m[5],
        column = m[2] ?? m[4];
      frag.append(part.slice(last, m.index), lineButton(+line, column ? +column : 1, m[0]));
      last = re.lastIndex;
    }
    frag.append(part.slice(last));
  });
  return frag;
}

/**
 * An error of Run in the student's language, as Check words it: a syntax error read by core/syntax.mjs,
 * an error np raised with the grader's explanation (a shape clash, an operator on arrays; Russian keeps
 * only the error's type beside it, as Check does).
 */
function readError(error, source) {
  if (error.syntax) return readSyntax(source, error, track, (k, p) => say(lang, k, p, null, track.messages));
  const why = explainError(error, source, track);
  const type = /^([A-Z]\w*(?:Error|Exception)):/.exec(String(error.message))?.[1];
  return why && type
    ? {
        ...error,
        message: say(lang, 'error.run_explained', {
          message: error.message,
          type,
          cause: say(lang, why.key, why.params, null, track.messages),
        }),
      }
    : error;
}

function showOutput(res) {
  const out = $('output');
  out.replaceChildren();
  if (res.output) out.append(visible(res.output.replace(/\n$/, '')), '\n');
  const problem = (text) =>
    out.append(Object.assign(document.createElement('div'), { className: 'err', textContent: visible(text) }));
  if (res.ok === false) {
    problem(
      say(lang, `load.${res.kind === 'timeout' || res.kind === 'memory' ? res.kind : 'crash'}`, {
        ms: res.ms,
        mb: LIMITS.memoryMb,
        message: res.message,
      }),
    );
  } else if (res.error) {
    const { message, line, column } = res.error;
    if (line) out.append(lineButton(line, column, `${t().line(line)}: ${visible(message)}`));
    else problem(message);
  } else if (!res.output) {
    out.append(Object.assign(document.createElement('span'), { className: 'muted', textContent: t().noOutput }));
  }
}

// ---------- the Tests pane and the verdict line ----------
const testName = (test) => test.name?.[lang] || test.name?.en || test.id;
const ICON = { pass: '✓', fail: '✗', error: '!', pending: '…' };

/** One test's row: its name and status in a <summary>; the message, the others it explains, its output and code inside. */
function testItem(test, entry) {
  const status = entry?.status ?? 'pending';
  const li = document.createElement('li');
  li.className = status;
  li.dataset.test = test.id;
  li.id = `test-${test.id}`;
  const d = document.createElement('details');
  d.open = status === 'fail' || status === 'error';
  const head = document.createElement('summary');
  head.className = 'head';
  head.append(
    Object.assign(document.createElement('span'), { className: 'icon', textContent: ICON[status] }),
    Object.assign(document.createElement('span'), { className: 'name', textContent: entry?.name ?? testName(test) }),
    Object.assign(document.createElement('span'), {
      className: 'st',
      textContent: status === 'pending' ? t().pending : t().status[status],
    }),
  );
  head.querySelector('.icon').setAttribute('aria-hidden', 'true');
  d.append(head);
  if (entry?.message) {
    const msg = document.createElement('div');
    msg.className = 'msg';
    msg.append(messageDom(visible(entry.message), quotedTexts(entry.said)));
    d.append(msg);
  }
  const also = Object.entries(state.sameAs)
    .filter(([, first]) => first === test.id)
    .map(([id]) => id);
  if (also.length) {
    // one diagnosis, shown once, with every test it fails
    const p = document.createElement('p');
    p.className = 'same';
    p.append(t().sameCauseIn, ' ');
    also.forEach((id, i) =>
      p.append(i ? ', ' : '', testLink(id, testName(exercise.spec.tests.find((x) => x.id === id) ?? { id }))),
    );
    d.append(p);
  }
  const block = (title, text, cls) => {
    const sub = document.createElement('details');
    sub.className = cls;
    sub.append(
      Object.assign(document.createElement('summary'), { textContent: title }),
      Object.assign(document.createElement('pre'), { textContent: visible(text) }),
    );
    d.append(sub);
  };
  if (entry?.output) block(t().testOutput, entry.output, 'test-output');
  if (entry?.test_code) block(t().testCode, entry.test_code, 'test-code');
  li.append(d);
  return li;
}

/** A link to a test's row: opens it, scrolls it into view, focuses its summary. */
function testLink(id, text) {
  const a = Object.assign(document.createElement('a'), { href: `#test-${id}`, textContent: text });
  a.addEventListener('click', (e) => {
    e.preventDefault();
    const li = $(`test-${id}`);
    if (!li) return;
    const d = li.querySelector('details');
    if (d) d.open = true;
    li.scrollIntoView({ block: 'nearest' });
    (li.querySelector('summary') ?? li).focus({ preventScroll: true });
  });
  return a;
}

/** Every test of the pack, by the task text's names, as pending (before the first Check, and as one starts). */
function renderPending(done = []) {
  $('results').replaceChildren(...exercise.spec.tests.map((test, i) => testItem(test, done[i])));
  $('results').toggleAttribute('data-stale', false);
}

// How long a Check runs before its progress is shown. One that is over sooner (the usual JavaScript
// Check: ~80 ms) shows its results in one step, over the dimmed results of the last: each update of the
// list or the count while it runs costs the page a frame (style, layout, paint: ~20 ms of a 100 ms
// Check here, tools/measure-page). A longer one then lists every test, those graded so far filled in,
// and fills in each as it comes, with the count.
const PROGRESS_AFTER_MS = 150;

/** The Check under way's tests listed from now on: pending, or as graded so far (showProgress then keeps it up). */
function showProgressFromNow() {
  if (state.live || state.report) return;
  state.live = true;
  const done = exercise.spec.tests.map((x) => state.progress[x.id]);
  renderPending(done);
  const count = done.filter(Boolean).length;
  if (count) $('summary').textContent = t().progress(count, exercise.spec.tests.length);
}

/** One graded test kept, and shown in place of its pending row once the Check's progress shows (grade()'s onTest). */
function showProgress(entry, { index, sameAs }) {
  if (sameAs) state.sameAs[entry.id] = sameAs;
  state.progress[entry.id] = entry;
  if (!state.live) return;
  const old = $('results').children[index];
  const test = exercise.spec.tests[index];
  if (old && test?.id === entry.id) old.replaceWith(testItem(test, entry));
  if (sameAs)
    $(`test-${sameAs}`)?.replaceWith(
      testItem(
        exercise.spec.tests.find((x) => x.id === sameAs),
        state.progress[sameAs],
      ),
    );
  $('summary').textContent = t().progress(index + 1, exercise.spec.tests.length);
}

function renderReport(report) {
  const list = $('results');
  const byId = new Map(exercise.spec.tests.map((x) => [x.id, x]));
  list.replaceChildren(...report.tests.map((entry) => testItem(byId.get(entry.id) ?? entry, entry)));
  // A load failure (syntax error, top level that never ends) has no per-test list worth reading alone.
  if (report.message && report.status === 'error') {
    const li = document.createElement('li');
    li.className = 'error';
    li.dataset.test = 'load';
    li.id = 'test-load';
    li.tabIndex = -1;
    li.append(messageDom(visible(report.message), quotedTexts(report.said)));
    list.prepend(li);
  }
  list.toggleAttribute('data-stale', state.stale);
  const s = $('summary');
  s.textContent = t().summary(report.passed, report.total);
  s.title = t().summaryLong(report.passed, report.total);
  s.className = `summary ${report.passed === report.total ? 'all' : 'some'}`;
  renderVerdict(report);
}

/** The one-line verdict beside the toolbar: how many passed and a link to the first failure. */
function renderVerdict(report) {
  const v = $('verdict');
  v.replaceChildren();
  v.className = 'verdict';
  if (!report) return;
  if (report.passed === report.total) {
    v.classList.add('all');
    v.append(t().verdictAll(report.total));
  } else {
    v.classList.add('some');
    const load = report.message && report.status === 'error';
    const first = report.tests.find((x) => x.status !== 'pass');
    v.append(
      t().verdictFail(report.passed, report.total),
      load ? testLink('load', t().verdictLoad) : testLink(first.id, first.name ?? first.id),
    );
  }
  if (state.stale)
    v.append(' ', Object.assign(document.createElement('span'), { className: 'stale-note', textContent: t().stale }));
}

/** The results shown no longer match the code (Run or Reset of other code): dimmed and said so, until the next Check. */
function markStale() {
  if (!state.report || state.stale || editor.value === state.checked) return;
  state.stale = true;
  $('results').toggleAttribute('data-stale', true);
  renderVerdict(state.report);
}

// The picker lists every exercise; choosing one opens it (its own code, texts and panels).
function renderPicker() {
  const select = $('exercise');
  select.replaceChildren(
    ...exercises.map((x) =>
      Object.assign(document.createElement('option'), {
        value: x.slug,
        textContent: x.spec.title[lang],
        selected: x.slug === exercise.slug,
      }),
    ),
  );
  // What the URL asked for that the page could not do: an unknown exercise, a ?solution= that is no setting.
  const notes = [
    unknownExercise &&
      t().unknownExercise(
        unknownExercise,
        exercise.spec.title[lang],
        exercises.map((x) => x.slug),
      ),
    solutionWhen.bad !== null && t().solutionBadParam(solutionWhen.bad, solutionWhen.when),
  ].filter(Boolean);
  $('notice').hidden = !notes.length;
  $('notice').textContent = notes.join(' ');
}

// The track switch: one button per track the pack offers (none when it offers one), aria-pressed.
function renderTracks() {
  const box = $('tracks');
  box.hidden = offered.length < 2;
  box.setAttribute('aria-label', t().trackGroup);
  box.replaceChildren(
    ...offered.map((tr) => {
      const b = Object.assign(document.createElement('button'), {
        type: 'button',
        textContent: tr.label,
        title: t().trackTitle(tr.label),
      });
      b.dataset.track = tr.name;
      b.setAttribute('aria-pressed', String(tr === track));
      b.addEventListener('click', () => {
        switchTrack(tr.name);
      });
      return b;
    }),
  );
}

/**
 * Switches the editor to another track in place: its own code (or its starter), its highlighting,
 * texts and hints, and a sandbox that runs its guest. Resolves (and fires `attnlab:track`) once that
 * sandbox has a warmed realm, i.e. Check can grade at once.
 */
async function switchTrack(name) {
  const next = chooseTrack(name);
  if (next === track) return;
  if (state.busy) {
    // a click during a Check or Run is kept: the switch happens when it ends
    $('verdict').textContent = t().trackQueued(next.label);
    await state.idle;
    return switchTrack(name);
  }
  state.gen++;
  performance.mark('attnlab:track-switch');
  store.set(KEY.code(track), editor.value);
  track = next;
  store.set(KEY.track, track.name);
  const url = new URL(location.href);
  url.searchParams.set('track', track.name);
  history.replaceState(null, '', url);
  state.sandbox.close();
  state.sandbox = new BrowserSandbox({ track });
  Object.assign(state, {
    report: null,
    sameAs: {},
    progress: {},
    stale: false,
    student: null,
    scale: null,
    memory: null,
    hintsShown: 0,
    hintsShownAll: false,
  });
  closeSolution();
  showCheer();
  await editor.setLanguage(track.name);
  editor.value = store.get(KEY.code(track)) ?? starter();
  $('summary').textContent = '';
  renderVerdict(null);
  $('output').replaceChildren();
  renderTexts();
  await trackReady();
}

async function trackReady() {
  await Promise.all([languageReady, state.sandbox.whenReady()]);
  document.documentElement.dataset.track = track.name;
  performance.mark('attnlab:track-ready');
  dispatchEvent(new CustomEvent('attnlab:track', { detail: { track: track.name } }));
}

function openExercise(slug) {
  const next = new URLSearchParams(location.search);
  next.set('exercise', slug);
  location.search = next.toString();
}

function renderCrashNote() {
  const note = $('crash-note');
  note.hidden = !state.crashed;
  if (state.crashed) note.textContent = t().crashed(state.crashed);
}

function renderHints() {
  followFunction();
  const box = $('hints');
  box.replaceChildren();
  if (state.hintsFn)
    box.append(
      Object.assign(document.createElement('p'), {
        className: 'note hints-for',
        textContent: t().hintsFor(state.hintsFn),
      }),
    );
  const hints = hintList();
  for (let i = 0; i < state.hintsShown; i++) {
    const div = document.createElement('div');
    div.className = 'hint';
    div.innerHTML = `<h4>${t().hintN(i + 1, hints.length)}</h4>${renderMarkdown(hints[i])}`;
    box.append(div);
  }
  if (!state.hintsShown && !state.hintsShownAll) closeHints();
  $('hint-next').hidden = state.hintsShown >= hints.length && state.hintsShownAll;
  if (state.hintsShown >= hints.length && state.hintsShownAll)
    box.append(
      Object.assign(document.createElement('p'), {
        className: 'note',
        textContent: hints.length ? t().hintsDone(hints.length) : t().noHints,
      }),
    );
}

function renderHeatmaps() {
  const box = $('heatmaps');
  box.replaceChildren();
  if (!state.heat) return;
  const common = {
    tokens: heatmapTokens(exercise, lang),
    mask: rows(state.heat.mask),
    describe: t().cell,
    maskedLabel: t().masked,
  };
  const s = state.student;
  if (s?.weights)
    box.append(heatmap({ ...common, id: 'student', title: t().yours, weights: s.weights, expected: state.reference }));
  else box.append(heatmapMessage({ id: 'student', title: t().yours, message: s?.message?.() ?? t().heatWait }));
  if (state.reference)
    box.append(heatmap({ ...common, id: 'reference', title: t().reference, weights: state.reference }));
}

// The badge: the fast path's backend; its title says why (and that grading uses the reference).
function renderBadge() {
  const el = $('backend'),
    b = state.backend;
  if (!b) return void (el.title = t().backendLoading);
  // A CPU backend's threads are part of its name on the badge: "WASM SIMD · 8 threads".
  el.textContent = b.threads > 1 ? `${b.label} · ${t().threadsN(b.threads)}` : b.label;
  const notes = [
    b.name !== 'webgpu' && !b.failed ? threadsNote(b.be?.core, backendChoice.threads) : null,
    backendChoice.warning,
  ].filter(Boolean);
  el.title = b.fallback ? t().backendFellBack(t().backendWhy(b, [])) : t().backendTitle(t().backendWhy(b, notes));
  el.dataset.backend = b.name;
  el.dataset.threads = String(b.threads ?? 1);
  el.dataset.state = b.failed ? 'failed' : b.fallback ? 'fallback' : 'ok';
}

function renderScalePanel() {
  const r = state.scale;
  $('scale-sw').hidden = !r?.software;
  $('scale-sw').textContent = t().scale.swiftshader;
  if (r) $('scale-out').replaceChildren(renderScale(r.result, t().scale, { width: $('scale-out').clientWidth }));
}

const rows = (tn) =>
  Array.from({ length: tn.shape[0] }, (_, i) =>
    Array.from(tn.data.slice(i * tn.shape[1], (i + 1) * tn.shape[1]), (v) => (tn.dtype === 'bool' ? !!v : v)),
  );

// ---------- actions ----------
// One action at a time. aria-disabled (not `disabled`) keeps keyboard focus on the pressed button.
// `fn(job)` checks `job.stopped` after each wait: Stop (Check and Run) ends the action at once (its
// sandbox closed, a fresh one in its place) and whatever the old one still answers is dropped.
// `state.idle` resolves when no action runs (a track switch clicked meanwhile waits for it).
const BUSY_IDS = ['run', 'check', 'scale-run', 'memory-run'];
state.idle = Promise.resolve();
async function busy(fn, action) {
  if (state.busy) return;
  let stop, idle;
  const stopped = new Promise((r) => {
    stop = r;
  });
  const job = {
    action,
    gen: ++state.gen,
    stopped: false,
    stop() {
      job.stopped = true;
      stop();
    },
  };
  state.busy = job;
  state.idle = new Promise((r) => {
    idle = r;
  });
  store.set(KEY.running, action);
  for (const id of BUSY_IDS) $(id).setAttribute('aria-disabled', 'true');
  $('stop').hidden = action !== 'check' && action !== 'run';
  $('busy').classList.add('on');
  $('editor-panel').setAttribute('aria-busy', 'true');
  try {
    await Promise.race([fn(job), stopped]);
  } finally {
    store.remove(KEY.running);
    state.busy = null;
    for (const id of BUSY_IDS) $(id).removeAttribute('aria-disabled');
    const stopHad = document.activeElement === $('stop');
    $('stop').hidden = true;
    if (stopHad) $(action).focus(); // focus never falls to the page when its button hides
    $('busy').classList.remove('on');
    $('editor-panel').removeAttribute('aria-busy');
    idle();
  }
}

/** Stop: ends the running Check or Run by closing its sandbox (its worker terminated); the page keeps working. */
function stopAction() {
  const job = state.busy;
  if (!job || (job.action !== 'check' && job.action !== 'run')) return;
  const old = state.sandbox;
  state.sandbox = new BrowserSandbox({ track });
  old.close();
  state.gen++;
  if (job.action === 'check') {
    showProgressFromNow(); // a Check stopped before its progress showed: its tests listed as far as they went
    for (const li of $('results').querySelectorAll('li.pending .st')) li.textContent = t().notChecked;
    $('summary').textContent = '';
    $('verdict').className = 'verdict some';
    $('verdict').textContent = t().stopped.check;
  } else {
    $('output').textContent = t().stopped.run;
  }
  job.stop();
  dispatchEvent(new CustomEvent('attnlab:stopped', { detail: { action: job.action } }));
}

const run = () =>
  busy(async (job) => {
    const source = editor.value;
    store.set(KEY.code(track), source);
    markStale();
    $('output').textContent = t().running;
    // Same syntax check and `export` handling as Check, so both report the same line numbers (a Python
    // syntax error comes back from the load, as `error` with its line).
    const prepared = track.prepareSource(source);
    if (!prepared.ok) {
      showOutput({ error: readSyntax(source, prepared.error, track, (k, p) => say(lang, k, p, null, track.messages)) });
      afterwards(job, false, 'attnlab:ran');
      return;
    }
    const limit = 2 * (timeoutMs ?? callLimitMs(exercise.spec, track)); // the grader's limit for a top level
    const res = await state.sandbox.load(prepared.run ?? prepared.source, {
      functions: exercise.spec.functions,
      aliases: prepared.aliases,
      timeoutMs: limit,
    });
    if (job.stopped) return;
    showOutput(
      res.ok === false ? { ...res, ms: limit } : res.error ? { ...res, error: readError(res.error, source) } : res,
    );
    layout.showResults();
    afterwards(job, res.ok, 'attnlab:ran');
  }, 'run');

const check = () =>
  busy(async (job) => {
    const source = editor.value;
    store.set(KEY.code(track), source);
    closeHints(); // the drawer would cover the results (the hints stay revealed: Hint reopens it)
    // The previous results are dimmed; they go once this Check's are in, or after PROGRESS_AFTER_MS for
    // its progress (every test pending, filled in as each is graded).
    Object.assign(state, { report: null, sameAs: {}, progress: {}, stale: false, live: false });
    $('results').toggleAttribute('data-stale', true);
    const progressTimer = setTimeout(() => !job.stopped && showProgressFromNow(), PROGRESS_AFTER_MS);
    renderVerdict(null);
    $('verdict').textContent = t().checking;
    $('summary').className = 'summary';
    $('summary').textContent = t().checking;
    const core = await state.coreReady;
    if (job.stopped) return;
    if (!core) return void ($('summary').textContent = t().coreFailed(state.coreError));
    let report;
    try {
      report = await grade({
        exercise,
        source,
        track,
        sandbox: state.sandbox,
        core,
        lang,
        timeoutMs,
        onTest: (e, info) => {
          if (!job.stopped) showProgress(e, info);
        },
      });
    } catch (e) {
      // a grader fault, not the student's: say so instead of failing silently
      clearTimeout(progressTimer);
      if (job.stopped) return;
      $('summary').textContent = `grader error: ${e.message}`;
      throw e;
    }
    clearTimeout(progressTimer);
    if (job.stopped) return;
    state.report = report;
    state.checked = source;
    if (passedAll(report)) store.set(KEY.passed(track), '1'); // the reference solution is offered from now on
    renderReport(report);
    renderSolution();
    layout.showResults();
    showCheer();
    showOutput({ output: report.output || '', error: report.error ?? null }); // what this code printed at load, not an earlier Run's
    revealVerdict(report);
    // Results are on screen now (tools/measure-page times click → this event).
    dispatchEvent(
      new CustomEvent('attnlab:checked', {
        detail: { passed: report.passed, total: report.total, tests: report.tests },
      }),
    );
    afterwards(job, report.status !== 'error');
  }, 'check');

/**
 * After Check: the first failure's row scrolled into view (its message on screen; the toolbar with the
 * verdict stays at the top, sticky) and focus on the verdict, which the live region also reads.
 */
function revealVerdict(report) {
  const first =
    report.message && report.status === 'error'
      ? $('test-load')
      : report.tests.find((x) => x.status !== 'pass') && $(`test-${report.tests.find((x) => x.status !== 'pass').id}`);
  (first ?? $('results')).scrollIntoView({ block: 'nearest' });
  $('verdict').focus({ preventScroll: true });
}

/**
 * The student's heatmap once the buttons are free again: the action is over for the student when its
 * results show, so nothing waits for this call; a newer action's generation drops its late answer.
 */
function afterwards(job, loaded, event) {
  updateStudentHeatmap(loaded, job.gen).then(() => {
    if (event) dispatchEvent(new Event(event));
  });
}

/** Calls the student's heatmap function on the pack's example (the sandbox holds the last loaded source). */
async function updateStudentHeatmap(loaded, gen = state.gen) {
  if (!state.heat) return;
  const answer = loaded
    ? await state.sandbox.call(PANELS.heatmap.function, state.heat.args.map(toWire), {
        timeoutMs: timeoutMs ?? callLimitMs(exercise.spec, track),
      })
    : null;
  if (gen !== state.gen) return; // another action (or Stop, or a track switch) came since
  state.student = answer && studentWeights(answer);
  renderHeatmaps();
  dispatchEvent(new Event('attnlab:heatmap'));
}

// → { weights } or { message: () => text } (a function, so a language switch re-renders it).
function studentWeights(res) {
  if (!res.ok)
    return { message: () => (res.kind === 'missing' ? t().heatMissing(PANELS.heatmap.function) : res.message) };
  const picked = state.heat.weights(res.value);
  const w = picked ? toTensor(picked) : { error: 'none' };
  if (w.error) return { message: () => t().heatNotImpl(PANELS.heatmap.function) };
  let tn = w.tensor;
  while (tn.shape.length > 2 && tn.shape[0] > 0) tn = take0(tn, 0); // a batch or heads: the first one
  const want = state.heat.reference.shape;
  if (tn.shape.join() !== want.join())
    return { message: () => t().heatShape(fmtShape(want), fmtShape(w.tensor.shape)) };
  return { weights: rows(tn) };
}

// ---------- Scale ----------
function toggleScale() {
  const panel = $('scale-panel'),
    open = panel.hidden;
  panel.hidden = !open;
  $('scale').setAttribute('aria-expanded', String(open));
  if (!open) return;
  layout.select('results');
  panel.scrollIntoView({ block: 'start' });
  if (!state.scale) measure();
}

/** Times the editor's attention and the fast paths against T (scale.js), then draws the results. */
function measure() {
  if (state.busy) return void ($('scale-status').textContent = t().scaleBusy);
  return busy(async () => {
    const source = editor.value;
    store.set(KEY.code(track), source);
    $('scale-status').textContent = '';
    const core = await state.coreReady;
    if (!core) return void ($('scale-status').textContent = t().coreFailed(state.coreError));
    const be = await state.backendReady;
    const gpu = be?.webgpu ?? null; // used directly: a failure shows in its series instead of turning into CPU timings
    const cpuCore = be?.core ?? core; // under WebGPU the CPU series runs on the grading core's build
    const n = await cpuCore.threadsReady;
    const names = {
      student: t().scale.student(track.short),
      cpu: flavourLabel(cpuCore.flavour) + (n > 1 ? ` · ${t().threadsN(n)}` : ''),
      gpu: 'WebGPU',
    };
    // Its own sandbox, closed afterwards: a size cut off by the time limit never touches the editor's.
    const sandbox = new BrowserSandbox({ memory: 'request', track, counted: false });
    try {
      const result = await measureScale({
        source,
        track,
        fn: PANELS.scale.function,
        sandbox,
        maxT: scaleMax,
        cpu: { label: names.cpu, attentionF32: (a) => cpuCore.attentionF32(a) },
        gpu: gpu && { label: names.gpu, attentionF32: (a) => gpu.attentionF32(a) },
        gpuNote: state.backend?.reason ?? '',
        progress: (id, T) => {
          $('scale-progress').textContent = t().scaleProgress(names[id], T);
        },
      });
      state.scale = { result, software: Boolean(gpu && softwareAdapter(gpu.adapterInfo)) };
      renderScalePanel();
      $('scale-out').querySelector('.scale-plot')?.scrollIntoView({ block: 'nearest' });
      $('scale-status').textContent = t().scaleDone(result.series.reduce((n, s) => n + s.points.length, 0));
      dispatchEvent(new CustomEvent('attnlab:scaled', { detail: result }));
    } catch (e) {
      // a fault of the page, not of the student's code: say so where the results would be
      $('scale-status').textContent = `Scale: ${e.message}`;
      console.error(e);
    } finally {
      $('scale-progress').textContent = '';
      sandbox.close();
    }
  }, 'scale');
}

// ---------- Memory ----------
function toggleMemory() {
  const panel = $('memory-panel'),
    open = panel.hidden;
  panel.hidden = !open;
  $('memory').setAttribute('aria-expanded', String(open));
  if (!open) return;
  layout.select('results');
  panel.scrollIntoView({ block: 'start' });
  if (!state.memory) measureMem();
}

/** Measures what the editor's function builds against T (memory.js), then draws it. */
function measureMem() {
  if (state.busy) return void ($('memory-status').textContent = t().scaleBusy);
  return busy(async () => {
    const source = editor.value;
    store.set(KEY.code(track), source);
    $('memory-status').textContent = '';
    const sandbox = new BrowserSandbox({ memory: 'request', track }); // its own: a size stopped by a limit never touches the editor's
    try {
      const result = await measureMemory({
        source,
        track,
        fn: PANELS.memory.function,
        args: PANELS.memory.args ?? [],
        sandbox,
        maxT: memoryMax,
        progress: (T) => {
          $('memory-progress').textContent = t().memoryProgress(T);
        },
      });
      state.memory = result;
      $('memory-out').replaceChildren(renderMemory(result, t().memory));
      $('memory-status').textContent = result.error ? '' : t().memoryDone(result.points.length);
      dispatchEvent(new CustomEvent('attnlab:memory', { detail: result }));
    } catch (e) {
      // a fault of the page, not of the student's code
      $('memory-status').textContent = `Memory: ${e.message}`;
      console.error(e);
    } finally {
      $('memory-progress').textContent = '';
      sandbox.close();
    }
  }, 'memory');
}

// ---------- the reference solution (solution.js) ----------
const solutionShown = () => solutionOffered(solutionWhen.when, store.get(KEY.passed(track)) === '1');

/** The Solution button where the solution is offered on this track; the panel, when open, with the right file. */
function renderSolution() {
  const on = solutionShown();
  $('solution').hidden = !on;
  if (!on) closeSolution();
  $('solution-h').textContent = t().solutionH(track.label);
  state.solution?.viewer?.setLabel(t().solutionLabel(track.label));
  if (!$('solution-panel').hidden) loadSolution(); // the language changed: its English twin, where there is one
}

function toggleSolution() {
  const panel = $('solution-panel'),
    open = panel.hidden;
  if (open && !solutionShown()) return;
  panel.hidden = !open;
  $('solution').setAttribute('aria-expanded', String(open));
  if (!open) return;
  layout.select('results');
  panel.scrollIntoView({ block: 'start' });
  // once its text is in, again: the column could not scroll an empty panel to its top
  loadSolution().then(() => {
    if (!panel.hidden) panel.scrollIntoView({ block: 'start' });
  });
}

function closeSolution() {
  $('solution-panel').hidden = true;
  $('solution').setAttribute('aria-expanded', 'false');
}

/** Fetches the track's solution file (only now: it is in no bundle) into the read-only view. */
async function loadSolution() {
  const path = solutionFile(exercise.solutions, track.name, lang);
  const status = $('solution-status');
  if (!path || state.solution?.path === path) return;
  state.solution = { path, viewer: state.solution?.viewer ?? null };
  status.textContent = t().solutionLoading;
  const tr = track;
  let text;
  try {
    text = await fetchSolution(path);
  } catch (e) {
    if (state.solution?.path !== path) return;
    state.solution.path = null; // pressing Solution again tries again
    status.textContent = t().solutionFailed(e.message);
    return;
  }
  if (state.solution?.path !== path) return; // another load since
  if (tr !== track) return void (state.solution.path = null); // another track since: loaded again when opened
  if (!state.solution.viewer) {
    state.solution.viewer = createViewer({ parent: $('solution-code') });
    theme.follow(state.solution.viewer.view);
  }
  await state.solution.viewer.show(text, track.name, t().solutionLabel(track.label));
  status.textContent = '';
  dispatchEvent(new CustomEvent('attnlab:solution', { detail: { path } }));
}

// Hints open in a drawer beside the editor (fixed to the window, so the page never scrolls away from
// the code); each press reveals the next one and focuses it; Escape or Close hands focus back.
function hint() {
  followFunction();
  if (state.hintsShown < hintList().length) state.hintsShown++;
  else state.hintsShownAll = true; // pressed once more: say that there are no more
  renderHints();
  const drawer = $('hints-drawer');
  drawer.hidden = false;
  $('hint').setAttribute('aria-expanded', 'true');
  const last = $('hints').lastElementChild;
  if (!last) return;
  last.tabIndex = -1;
  last.focus({ preventScroll: true });
  $('hints').scrollTop = last.offsetTop - $('hints').offsetTop; // within the drawer only
}

function closeHints() {
  const drawer = $('hints-drawer');
  if (drawer.hidden) return;
  const inside = drawer.contains(document.activeElement);
  drawer.hidden = true;
  $('hint').setAttribute('aria-expanded', 'false');
  if (inside) $('hint').focus({ preventScroll: true });
}

function reset() {
  $('confirm-reset').returnValue = '';
  $('confirm-reset').showModal();
}

function onResetClosed() {
  if ($('confirm-reset').returnValue !== 'ok') return;
  editor.value = starter();
  store.set(KEY.code(track), starter());
  markStale();
  showCheer();
  layout.select('code');
  editor.view.focus();
}

// A pass: a short congratulation and the next exercise in the picker's order (comforts.js).
function showCheer() {
  const href = (slug) => {
    const q = new URLSearchParams(location.search);
    q.set('exercise', slug);
    return `?${q}`;
  };
  renderCheer($('cheer'), {
    report: state.stale ? null : state.report,
    list: exercises,
    slug: exercise.slug,
    lang,
    strings: t,
    href: mode.embed ? null : href,
  });
  // A pass that offers the reference solution says so, with a way to open it.
  if (!$('cheer').hidden && solutionShown()) {
    const open = Object.assign(document.createElement('button'), {
      type: 'button',
      className: 'show-solution',
      textContent: t().solutionShow,
    });
    open.addEventListener('click', () => {
      if ($('solution-panel').hidden) toggleSolution();
      else $('solution-panel').scrollIntoView({ block: 'start' });
    });
    $('cheer').append(document.createElement('br'), `${t().solutionCheer} `, open);
  }
}

// ---------- start ----------
// Tabs below 1024 px (layout.js): a first visit opens on the task, a return (code kept) on the editor.
const layout = createLayout({ embed: mode.embed, first: store.get(KEY.code(track)) ? 'code' : 'task' });
const saved = savedSign($('saved'), t);
let theme = null;
const editor = createEditor({
  parent: $('editor'),
  doc: store.get(KEY.code(track)) ?? starter(),
  label: t().editorLabel(track.label),
  track: track.name,
  onRun: () => {
    run();
  },
  onCheck: () => {
    check();
  },
  onChange: (text) => {
    store.set(KEY.code(track), text);
    saved.note();
    dispatchEvent(new Event('attnlab:edited'));
  },
});
// In embed mode ?theme=light|dark (the course page's choice; `auto` or none: the system's) fixes the theme.
theme = connectTheme({
  button: $('theme'),
  editor,
  store,
  strings: t,
  choice: !mode.embed,
  fixed: params.get('theme'),
});
// Its scroller is a scrollable region whose content a keyboard must reach (axe: scrollable-region-focusable).
editor.view.contentDOM.tabIndex = 0;
const languageReady = editor.setLanguage(track.name);
if (/Mac|iPhone|iPad/.test(navigator.platform)) $('run').querySelector('kbd').textContent = '⌘ Enter';
// The last Check/Run/Scale never finished: the browser took the tab down while student code ran.
state.crashed = store.get(KEY.running);
store.remove(KEY.running);
renderTexts();
$('run').addEventListener('click', run);
$('check').addEventListener('click', check);
$('hint').addEventListener('click', hint);
$('hint-next').addEventListener('click', hint);
$('hints-close').addEventListener('click', closeHints);
// Escape closes the drawer from inside it, or from anywhere but the editor (where Escape means "Tab leaves").
addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !e.target.closest?.('.cm-editor') && !$('confirm-reset').open) closeHints();
});
$('stop').addEventListener('click', stopAction);
// Ctrl/Cmd+Enter runs and Shift+Ctrl/Cmd+Enter checks anywhere on the page (the editor's own keymap
// handles them inside it and marks the event handled); not behind the Reset dialog.
addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || e.altKey || e.defaultPrevented || $('confirm-reset').open)
    return;
  e.preventDefault();
  if (e.shiftKey) check();
  else run();
});
$('reset').addEventListener('click', reset);
$('scale').addEventListener('click', toggleScale);
$('scale-run').addEventListener('click', () => {
  measure();
});
$('memory').addEventListener('click', toggleMemory);
$('solution').addEventListener('click', toggleSolution);
$('memory-run').addEventListener('click', () => {
  measureMem();
});
$('confirm-reset').addEventListener('close', onResetClosed);
$('lang').addEventListener('click', () => {
  lang = lang === 'ru' ? 'en' : 'ru';
  store.set(KEY.lang, lang);
  renderTexts();
});
$('exercise').addEventListener('change', (e) => openExercise(e.target.value));
// Panels the pack asks for (spec.json "panels"); the others stay hidden.
$('heat-panel').hidden = !PANELS.heatmap;
$('scale').hidden = !PANELS.scale;
$('memory').hidden = !PANELS.memory;

// web/build.mjs copies the .wasm files to dist/wasm/ (the glue itself is bundled as a chunk).
const locateFile = (path) => new URL(`./wasm/${path}`, import.meta.url).href;
// Where the page is cross-origin isolated the core is a threaded build (its glue and pthread worker
// script come from dist/wasm/ too); elsewhere those files are never fetched.
state.coreReady = loadCore({
  flavour: params.get('flavour') ?? backendChoice.flavour,
  threads: backendChoice.threads,
  locateFile,
}).then(
  (core) => {
    state.core = core;
    $('backend').textContent = flavourLabel(core.flavour);
    if (PANELS.heatmap) {
      state.heat = exercise.suite.heatmap({ spec: exercise.spec, engine: core, ref: referenceOf(core, exercise.slug) });
      state.reference = rows(state.heat.reference);
    }
    renderHeatmaps();
    document.documentElement.dataset.ready = 'core';
    performance.mark('attnlab:core');
    return core;
  },
  (e) => {
    state.coreError = e.message ?? String(e);
    $('backend').textContent = 'WASM ✗';
    $('output').textContent = t().coreFailed(state.coreError);
    document.documentElement.dataset.ready = 'core-failed';
    return null;
  },
);

// The fast path's backend is chosen once the core is up (WebGPU's device set-up never delays grading).
// After the core's pool is up too (a few ms later), so that the badge names its threads.
state.backendReady = state.coreReady.then(
  async (core) =>
    core &&
    (await core.threadsReady,
    pickBackend({
      backend: backendChoice.backend,
      threads: backendChoice.threads,
      // The grading core when it is the build asked for: one module, one pool of workers.
      loadCore: async (o) => (o.flavour === core.flavour ? core : loadCore({ ...o, locateFile })),
      onChange: (info) => {
        state.backend = info;
        renderBadge();
        document.documentElement.dataset.backend = info.failed ? 'failed' : info.name;
        dispatchEvent(
          new CustomEvent('attnlab:backend', {
            detail: {
              name: info.name,
              label: info.label,
              threads: info.threads,
              reason: info.reason,
              fallback: !!info.fallback,
              failed: !!info.failed,
            },
          }),
        );
      },
    })),
);

// For the browser tests and the console: the editor and the live state.
window.attnlab = {
  editor,
  state,
  exercise,
  run,
  check,
  stop: stopAction,
  measure,
  switchTrack,
  /** The hints the Hint button shows now: the function they are for (null: one list), and the list. */
  hints: () => ({ fn: hintsFunction(), list: hintList() }),
  get track() {
    return track.name;
  },
};
const firstReady = Promise.allSettled([state.coreReady, trackReady()]);
// What the embed API (and the SCORM bridge) may do with the page.
const host = {
  exercise: exercise.slug,
  get track() {
    return track.name;
  },
  ready: firstReady,
  busy: () => Boolean(state.busy),
  getCode: () => editor.value,
  get starter() {
    return starter();
  },
  // The language the LMS says the learner prefers (cmi5's learner preferences): the page's texts follow.
  setLang: (l) => {
    if (!STRINGS[l] || l === lang) return;
    lang = l;
    renderTexts();
  },
  setCode: (code) => {
    editor.value = code;
  },
  check,
};
connectEmbed(host, mode.parentOrigin);
if (mode.cmi5) import('./cmi5.js').then((m) => m.connectCmi5(host, mode.cmi5, () => t().lms));
else if (mode.pkg?.scorm)
  import('./scorm.js').then((m) => m.connectScorm(host, mode.pkg.scorm, () => t().lms, mode.pkg.attempt));

// The offline cache is filled once the page is ready to grade (the core loaded, the track's sandbox
// warm), so that it never competes with the first load.
// Not in embed mode: a frame in someone else's page is online with it, and needs no copy of every file.
if ('serviceWorker' in navigator && !params.has('nosw') && !mode.embed) {
  firstReady
    .then(() => navigator.serviceWorker.register('./sw.js'))
    .catch((e) => console.warn('service worker not registered:', e));
}
document.documentElement.dataset.ready = 'editor';
performance.mark('attnlab:editor');
