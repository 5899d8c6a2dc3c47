// An exercise pack (exercises/<slug>/, exercises/README.md), checked as a whole when it is loaded:
// by the Node loader (grader/hosts/node/exercise.mjs, where a problem is an author error: exit 2) and by
// the page's build (web/build.mjs, where it fails the build). Every problem is one sentence naming
// the file and the key. Pure: no I/O, the same in Node and in the bundler. The tracks are given (the
// registry that grader/index.mjs passes in), never imported: core knows no track by name.

import { LANGS } from './messages.mjs';
import { PACK_FILES, packLayout, taskText, englishFile, valueAt } from './pack-layout.mjs';

export { englishFile };

const IDENT = /^[A-Za-z_$][\w$]*$/;
const SLUG = /^[a-z][a-z0-9_]*$/; // also a C++ namespace and an Embind prefix
/** spec.json "solution": when the page offers the pack's reference solution (the first one is the default). */
export const SOLUTION_WHEN = ['after-pass', 'always', 'never'];

// The schema of spec.json: each key with its check (a function returning a problem, or null).
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const texts = (v) =>
  isObj(v) &&
  LANGS.every((l) => typeof v[l] === 'string' && v[l].trim()) &&
  Object.keys(v).every((k) => LANGS.includes(k))
    ? null
    : `must be { "ru": "…", "en": "…" }`;
const tolerance = (v) =>
  isObj(v) && Object.keys(v).every((k) => ['rtol', 'atol'].includes(k) && typeof v[k] === 'number' && v[k] >= 0)
    ? null
    : 'must be { "rtol": number, "atol": number }';
// A list of declared mistakes (a test's, or the pack's for every test): the reference function with
// these options gives what the mistake gives; `params` fill the message's {placeholders}.
const mistakeList = (v) =>
  Array.isArray(v) &&
  v.every(
    (m) =>
      isObj(m) &&
      typeof m.key === 'string' &&
      typeof m.function === 'string' &&
      isObj(m.options) &&
      (m.params === undefined || isObj(m.params)) &&
      Object.keys(m).every((k) => ['key', 'function', 'options', 'params'].includes(k)),
  )
    ? null
    : 'must be a list of { "key": message key, "function": reference function, "options": { … }, "params"?: { … } }';
const SPEC = {
  slug: { required: true, check: (v) => (typeof v === 'string' && SLUG.test(v) ? null : 'must be a lowercase slug') },
  title: { required: true, check: texts },
  order: {
    check: (v) => (Number.isInteger(v) ? null : 'must be an integer (the place in the course: pickers sort by it)'),
  },
  functions: {
    required: true,
    check: (v) =>
      Array.isArray(v) &&
      v.length &&
      v.every((f) => typeof f === 'string' && IDENT.test(f)) &&
      new Set(v).size === v.length
        ? null
        : 'must be a list of distinct function names',
  },
  tasks: {
    required: true,
    check: (v) =>
      Array.isArray(v) &&
      v.every(
        (t) =>
          isObj(t) &&
          Number.isInteger(t.id) &&
          typeof t.function === 'string' &&
          Object.keys(t).every((k) => ['id', 'function'].includes(k)),
      )
        ? null
        : 'must be a list of { "id": integer, "function": name }',
  },
  seed: {
    required: true,
    check: (v) => (Number.isInteger(v) && v >= 0 && v < 2 ** 32 ? null : 'must be an integer from 0 to 2^32 - 1'),
  },
  timeout_ms: {
    required: true,
    check: (v) => (Number.isInteger(v) && v >= 10 && v <= 60000 ? null : 'must be an integer from 10 to 60000'),
  },
  tolerance: { check: tolerance },
  panels: {
    check: (v) =>
      isObj(v) && Object.keys(v).every((k) => PANELS[k])
        ? null
        : `must be an object of panels (${Object.keys(PANELS).join(', ')})`,
  },
  tests: { required: true, check: (v) => (Array.isArray(v) && v.length ? null : 'must be a non-empty list') },
  // Mistakes every test may name (after the test's own "mistakes"), where the same ones hold for several tests.
  mistakes: { check: (v) => mistakeList(v) },
  // When the page offers the reference solution (web/src/solution.js; a course's ?solution= overrides it).
  solution: {
    check: (v) =>
      SOLUTION_WHEN.includes(v) ? null : `must be one of ${SOLUTION_WHEN.map((w) => `"${w}"`).join(', ')}`,
  },
  // Causes that only say what to check (a suite's fallback when no mistake explains the output): a test
  // failing with one of them, while a function the student's code calls failed an earlier test, refers to that test.
  unexplained: {
    check: (v) => (Array.isArray(v) && v.every((k) => typeof k === 'string') ? null : 'must be a list of message keys'),
  },
};
const TEST = {
  id: { required: true, check: (v) => (typeof v === 'string' && IDENT.test(v) ? null : 'must be an identifier') },
  task_id: { required: true, check: (v) => (Number.isInteger(v) ? null : 'must be an integer') },
  name: { required: true, check: texts },
  // What the test runs, for Exercism/Gradescope: one string, or one per track ({ "js": …, "python": … }, the
  // first track's required: the default track, js).
  test_code: {
    required: true,
    check: (v, tracks) =>
      typeof v === 'string' ||
      (isObj(v) &&
        typeof v[Object.keys(tracks)[0]] === 'string' &&
        Object.entries(v).every(([k, c]) => Object.hasOwn(tracks, k) && typeof c === 'string'))
        ? null
        : `must be a string, or an object of strings per track (${Object.keys(tracks).join(', ')}; ${Object.keys(tracks)[0]} required)`,
  },
  params: { check: (v) => (isObj(v) ? null : 'must be an object') },
  tolerance: { check: tolerance },
  // This test's limit per call (a test that grants more time, e.g. a memory test at a large T); --timeout-ms overrides it.
  timeout_ms: {
    check: (v) => (Number.isInteger(v) && v >= 10 && v <= 60000 ? null : 'must be an integer from 10 to 60000'),
  },
  mistakes: { check: (v) => mistakeList(v) },
  // What passing it is worth in a batch's score and gradebook (grader/batch/README.md); default 1.
  points: {
    check: (v) =>
      typeof v === 'number' &&
      Number.isFinite(v) &&
      v > 0 &&
      v <= 1000 &&
      Math.abs(Math.round(v * 100) - v * 100) < 1e-9
        ? null
        : 'must be a number of points above 0 and at most 1000, with at most 2 decimals',
  },
};
// Panels a pack may ask the page for. heatmap: the attention weights of the student's `function` on
// the pack's example (suite.mjs exports `heatmap(kit)`, see exercises/README.md), with `tokens` as labels.
const PANELS = {
  heatmap: {
    function: { required: true, check: (v) => (typeof v === 'string' ? null : 'must be a function name') },
    tokens: {
      required: true,
      check: (v) =>
        isLabels(v) ||
        (isObj(v) &&
          Object.keys(v).join() === 'ru,en' &&
          isLabels(v.ru) &&
          isLabels(v.en) &&
          v.ru.length === v.en.length)
          ? null
          : 'must be a list of strings, or { "ru": [...], "en": [...] } of the same length (the labels in each language)',
    },
  },
  // scale: the Scale panel times the student's `function`, called as function(Q, K, V, mask) on (T, 64).
  scale: {
    function: { required: true, check: (v) => (typeof v === 'string' ? null : 'must be a function name') },
  },
  // memory: the Memory panel measures what the student's `function` builds, called as
  // function(Q, K, V, ...args) on (T, 64) (args[0]: a block size, drawn as the one-block guide).
  memory: {
    function: { required: true, check: (v) => (typeof v === 'string' ? null : 'must be a function name') },
    args: {
      check: (v) =>
        Array.isArray(v) && v.every((x) => typeof x === 'number' || typeof x === 'boolean')
          ? null
          : 'must be a list of numbers or booleans',
    },
  },
};
const HOOKS = { heatmap: 'the heatmap panel' }; // suite exports that are not tests

function checkFields(where, value, schema, problems, tracks) {
  if (!isObj(value)) return void problems.push(`${where} must be an object`);
  for (const key of Object.keys(value))
    if (!schema[key])
      problems.push(`${where} has an unknown field "${key}" (known: ${Object.keys(schema).join(', ')})`);
  for (const [key, { required, check }] of Object.entries(schema)) {
    if (!(key in value)) {
      if (required) problems.push(`${where} lacks "${key}"`);
      continue;
    }
    const p = check(value[key], tracks);
    if (p) problems.push(`${where}: "${key}" ${p}`);
  }
}

/**
 * Problems of a loaded pack, each a sentence naming its file and key (empty when it is sound).
 * pack: { slug (the folder's name), spec, suite (the module's exports), messages, hints, texts: { ru, en },
 *         trackTexts: { <variant>: { ru, en } }, files: { <track>: { starter, starterEn, solution } } } as read from
 *         the folder (null for a missing file).
 * tracks: the track registry ({ <name>: track }, the TRACKS of grader/tracks/index.mjs), given by the caller.
 */
export function packProblems(pack, tracks) {
  const p = [];
  const VARIANTS = Object.values(tracks).map((t) => t.variant);
  const at = (file) => `exercises/${pack.slug}/${file}`;
  const { spec } = pack;
  // Files the layout requires (core/pack-layout.mjs), each named once.
  const missing = [
    ...new Set(
      packLayout(tracks, LANGS)
        .filter((e) => e.required && valueAt(pack, e.at) == null)
        .map((e) => e.file),
    ),
  ].map((f) => `${at(f)} is missing`);
  if (!spec) return missing;
  p.push(...missing);
  checkFields(at(PACK_FILES.spec), spec, SPEC, p);
  if (spec.slug !== undefined && spec.slug !== pack.slug)
    p.push(`${at(PACK_FILES.spec)}: "slug" is "${spec.slug}" but the folder is "${pack.slug}"`);
  const functions = new Set(Array.isArray(spec.functions) ? spec.functions : []);
  const taskIds = new Set();
  for (const [i, t] of (Array.isArray(spec.tasks) ? spec.tasks : []).entries()) {
    if (isObj(t) && !functions.has(t.function))
      p.push(`${at(PACK_FILES.spec)}: tasks[${i}].function "${t.function}" is not in "functions"`);
    if (isObj(t)) taskIds.add(t.id);
  }
  // A declared mistake: its key in messages.json (both languages), its function one that reference/bind.cpp binds.
  const bound = boundFunctions(pack);
  const mistakeProblems = (where, m) => {
    if (!isObj(m)) return;
    if (typeof m.key === 'string' && pack.messages && !LANGS.every((l) => pack.messages[l]?.[m.key]))
      p.push(`${at(PACK_FILES.spec)}: ${where}.key "${m.key}" is not in ${at(PACK_FILES.messages)} (both languages)`);
    if (bound && typeof m.function === 'string' && !bound.has(m.function))
      p.push(`${at(PACK_FILES.spec)}: ${where}.function "${m.function}" ${unbound(bound)}`);
  };
  const unbound = (names) =>
    `is not bound in ${at(PACK_FILES.bindings)} (def("${pack.slug}.<name>", …) binds: ${[...names].join(', ') || 'none'})`;
  for (const [j, m] of (Array.isArray(spec.mistakes) ? spec.mistakes : []).entries())
    mistakeProblems(`mistakes[${j}]`, m);
  for (const k of Array.isArray(spec.unexplained) ? spec.unexplained : [])
    if (typeof k === 'string' && pack.messages && !LANGS.every((l) => pack.messages[l]?.[k]))
      p.push(`${at(PACK_FILES.spec)}: unexplained "${k}" is not in ${at(PACK_FILES.messages)} (both languages)`);
  for (const name of bound && typeof pack.suiteSource === 'string' ? referenceCalls(pack.suiteSource) : [])
    if (!bound.has(name))
      p.push(`${at(PACK_FILES.suite)} calls the reference function "${name}", which ${unbound(bound)}`);
  const ids = new Set();
  for (const [i, t] of (Array.isArray(spec.tests) ? spec.tests : []).entries()) {
    checkFields(`${at(PACK_FILES.spec)}: tests[${i}]`, t, TEST, p, tracks);
    if (!isObj(t)) continue;
    if (ids.has(t.id)) p.push(`${at(PACK_FILES.spec)}: tests[${i}].id "${t.id}" is used twice`);
    ids.add(t.id);
    if (Number.isInteger(t.task_id) && !taskIds.has(t.task_id))
      p.push(`${at(PACK_FILES.spec)}: tests[${i}] ("${t.id}") has task_id ${t.task_id}, which is not in "tasks"`);
    for (const [j, m] of (Array.isArray(t.mistakes) ? t.mistakes : []).entries())
      mistakeProblems(`tests[${i}].mistakes[${j}]`, m);
    if (pack.suite && typeof pack.suite[t.id] !== 'function')
      p.push(
        `${at(PACK_FILES.spec)}: test "${t.id}" has no function in ${at(PACK_FILES.suite)} (export async function ${t.id}(ctx))`,
      );
  }
  for (const [name, panel] of Object.entries(isObj(spec.panels) ? spec.panels : {})) {
    if (!PANELS[name]) continue;
    checkFields(`${at(PACK_FILES.spec)}: panels.${name}`, panel, PANELS[name], p);
    if (isObj(panel) && typeof panel.function === 'string' && !functions.has(panel.function))
      p.push(`${at(PACK_FILES.spec)}: panels.${name}.function "${panel.function}" is not in "functions"`);
    if (HOOKS[name] && pack.suite && typeof pack.suite[name] !== 'function')
      p.push(`${at(PACK_FILES.spec)}: panels.${name} needs ${at(PACK_FILES.suite)} to export ${name}(kit)`);
  }
  if (pack.suite)
    for (const key of Object.keys(pack.suite))
      if (!ids.has(key) && !HOOKS[key])
        p.push(
          `${at(PACK_FILES.suite)} exports "${key}", which is neither a test id of ${PACK_FILES.spec} nor a hook (${Object.keys(HOOKS).join(', ')})`,
        );
  // messages.json: the same keys in every language.
  const m = pack.messages;
  if (m !== null && m !== undefined) {
    if (!isObj(m) || !LANGS.every((l) => isObj(m[l])))
      p.push(`${at(PACK_FILES.messages)} must be { "ru": { key: sentence }, "en": { … } }`);
    else {
      for (const l of Object.keys(m))
        if (!LANGS.includes(l)) p.push(`${at(PACK_FILES.messages)} has an unknown language "${l}"`);
      for (const [a, b] of [
        ['ru', 'en'],
        ['en', 'ru'],
      ])
        for (const k of Object.keys(m[a]))
          if (!(k in m[b])) p.push(`${at(PACK_FILES.messages)}: key "${k}" is in "${a}" but missing in "${b}"`);
      for (const l of LANGS)
        for (const [k, v] of Object.entries(m[l]))
          if (typeof v !== 'string' || !v.trim())
            p.push(`${at(PACK_FILES.messages)}: ${l}."${k}" must be a non-empty sentence`);
    }
  }
  // Hints (core/hints.mjs): one set of lists, or one per function ("functions", and "general" before them);
  // a set is { "ru": [hint, …], "en": [hint, …] }, and a track may have its own ("ru.py"/"en.py"), of the same length.
  const h = pack.hints;
  const hintSet = (where, set) => {
    const hintList = (l) => Array.isArray(set?.[l]) && set[l].every((x) => typeof x === 'string' && x.trim());
    if (!isObj(set) || !LANGS.every(hintList)) return p.push(`${where} must be { "ru": [hint, …], "en": [hint, …] }`);
    if (set.ru.length !== set.en.length)
      p.push(`${where}: ${set.ru.length} hints in "ru" but ${set.en.length} in "en"`);
    const keys = [...LANGS, ...VARIANTS.flatMap((v) => LANGS.map((l) => `${l}.${v}`))];
    for (const k of Object.keys(set))
      if (!keys.includes(k)) p.push(`${where} has an unknown key "${k}" (known: ${keys.join(', ')})`);
    for (const v of VARIANTS) {
      const [ru, en] = LANGS.map((l) => set[`${l}.${v}`]);
      if (
        (ru === undefined) !== (en === undefined) ||
        (ru !== undefined && !(hintList(`ru.${v}`) && hintList(`en.${v}`) && ru.length === en.length))
      )
        p.push(`${where}: "ru.${v}" and "en.${v}" must both be lists of hints of the same length`);
    }
  };
  if (isObj(h) && 'functions' in h) {
    for (const k of Object.keys(h))
      if (!['general', 'functions'].includes(k))
        p.push(`${at(PACK_FILES.hints)} has an unknown key "${k}" (known: general, functions)`);
    if (h.general !== undefined) hintSet(`${at(PACK_FILES.hints)}: general`, h.general);
    if (!isObj(h.functions) || !Object.keys(h.functions).length)
      p.push(`${at(PACK_FILES.hints)}: functions must be { "<function>": { "ru": [hint, …], "en": [hint, …] }, … }`);
    else
      for (const [fn, set] of Object.entries(h.functions)) {
        if (!functions.has(fn))
          p.push(`${at(PACK_FILES.hints)}: functions."${fn}" is not in ${PACK_FILES.spec} "functions"`);
        hintSet(`${at(PACK_FILES.hints)}: functions."${fn}"`, set);
      }
  } else if (h != null) hintSet(at(PACK_FILES.hints), h);
  for (const l of LANGS)
    if (typeof pack.texts?.[l] === 'string' && !pack.texts[l].trim()) p.push(`${at(taskText(l))} is empty`);
  for (const [v, tx] of Object.entries(pack.trackTexts ?? {})) {
    if (LANGS.some((l) => !tx[l]?.trim()))
      p.push(
        `${at(
          taskText(
            LANGS.find((l) => !tx[l]?.trim()),
            v,
          ),
        )} is missing or empty (a track's text needs both languages)`,
      );
  }
  // A message key for one track (`d.batched_T.py`) spells out a sentence that exists for every track.
  for (const l of LANGS) {
    for (const k of Object.keys(isObj(m?.[l]) ? m[l] : {})) {
      const v = VARIANTS.find((x) => k.endsWith(`.${x}`));
      if (v && !(k.slice(0, -v.length - 1) in m[l]))
        p.push(
          `${at(PACK_FILES.messages)}: ${l}."${k}" is a track's spelling of "${k.slice(0, -v.length - 1)}", which is missing`,
        );
    }
  }
  // Tracks: each one whose starter or solution is there needs both; at least one track.
  for (const [name, f] of Object.entries(pack.files ?? {})) {
    const track = tracks[name];
    const has = (x) => typeof f[x] === 'string' && f[x].trim() !== '';
    if (has('starter') !== has('solution'))
      p.push(
        `${at(has('starter') ? track.files.solution : track.files.starter)} is missing or empty (the ${track.label} track needs a starter and a solution)`,
      );
    const en = f.starterEn;
    if (typeof en === 'string' && !en.trim())
      p.push(`${at(englishFile(track.files.starter))} is empty (delete it, or write the English starter)`);
    if (typeof en === 'string' && en.trim() && !has('starter'))
      p.push(`${at(englishFile(track.files.starter))} has no ${at(track.files.starter)} to be the English twin of`);
  }
  if (!offeredTracks(pack.files ?? {}, tracks).length)
    p.push(
      `${at(
        Object.values(tracks)
          .map((t) => t.files.starter)
          .join(' or '),
      )} is missing: a pack needs a starter and a solution for at least one track`,
    );
  return p;
}

/**
 * The reference functions a pack's reference/bind.cpp binds (its `def("<slug>.<name>", …)` lines) as a
 * Set of names, or null when the pack was read without that file (`pack.bindings`, its text).
 */
export function boundFunctions(pack) {
  if (typeof pack.bindings !== 'string') return null;
  const slug = pack.slug.replace(/[^\w]/g, '');
  return new Set([...pack.bindings.matchAll(new RegExp(`\\bdef\\(\\s*"${slug}\\.(\\w+)"`, 'g'))].map((m) => m[1]));
}

/**
 * The reference functions a suite's source names: `ref.<name>`, `ref['<name>']`, `ref[NAME]`,
 * `diagnose(got, '<name>', …)` / `diagnose(got, NAME, …)` and `fn: '<name>'` (ctx.ref, ctx.diagnose and
 * the kit's expect, a hook's `{ ref }`), where NAME is a `const NAME = '<name>'` of that source (other
 * expressions cannot be read without running it).
 */
export function referenceCalls(source) {
  const consts = new Map(
    [...source.matchAll(/\bconst\s+([A-Za-z_$][\w$]*)\s*=\s*['"](\w+)['"]/g)].map((m) => [m[1], m[2]]),
  );
  const names = new Set();
  for (const m of source.matchAll(/\bref\.([A-Za-z_$][\w$]*)/g)) names.add(m[1]);
  const named = /\b(?:ref\[|diagnose\(\s*[\w$.]+\s*,|fn:)\s*(?:['"](\w+)['"]|([A-Za-z_$][\w$]*))/g;
  for (const m of source.matchAll(named)) {
    const name = m[1] ?? consts.get(m[2]);
    if (name) names.add(name);
  }
  return names;
}

/** The starter of `track` in `lang` from a pack's files ({ <track>: { starter, starterEn } }). */
export const starterIn = (files, track, lang) =>
  lang === 'en' && files[track]?.starterEn?.trim() ? files[track].starterEn : files[track]?.starter;

/** Labels that are a list (the same in every language) or { ru, en } lists → the list in `lang`. */
export const labelsIn = (labels, lang) => (Array.isArray(labels) ? labels : (labels?.[lang] ?? labels?.ru));
const isLabels = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The tracks a pack offers, in the order of the registry `tracks`: those with a starter and a solution. */
export const offeredTracks = (files, tracks) =>
  Object.keys(tracks).filter((n) => files[n]?.starter?.trim() && files[n]?.solution?.trim());

/** A pack that fails packProblems(): the author's error, shown as is (the CLI exits 2). */
export class PackError extends Error {}
