// The file layout of an exercise pack (exercises/<slug>/, exercises/README.md "Layout"), declared once:
// which files a pack has, which of them it must have, and how each is read. The Node loader
// (grader/hosts/node/exercise.mjs readPack) reads a pack by it, the page's build (web/build.mjs) imports
// the files readPack found by it, and packProblems (./pack.mjs) names files through it: nothing else
// spells a pack file's name. Pure: no I/O; the tracks and the languages are given (core names no track).

/** The files (and folders) every pack has in the same place, whatever its tracks. */
export const PACK_FILES = Object.freeze({
  spec: 'spec.json',
  suite: 'suite.mjs',
  messages: 'messages.json',
  hints: 'hints.json',
  bindings: 'reference/bind.cpp',
  texts: 'texts',
  fixtures: 'fixtures',
  aims: 'fixtures/aims.json',
  /** The types of the pack's ctx.ref, generated from `bindings` (tools/ref-types, grader/core/ref-types.mjs). */
  refTypes: 'ref.d.ts',
});

/** The task statement in `lang`, or a track's own (`variant` 'py': texts/task.ru.py.md). */
export const taskText = (lang, variant = null) => `${PACK_FILES.texts}/task.${lang}${variant ? `.${variant}` : ''}.md`;

/**
 * A file's English twin, where a pack has one: `starter.js` → `starter.en.js`. The plain file is the
 * course's first language (Russian); the page and the grader fall back to it.
 */
export const englishFile = (file) => file.replace(/(\.[^.]+)$/, '.en$1');

/** A track's files in a pack ({ starter, starterEn, solution, solutionEn }): its `files` and their English twins. */
export const trackPackFiles = (track) => ({
  starter: track.files.starter,
  starterEn: englishFile(track.files.starter),
  solution: track.files.solution,
  solutionEn: englishFile(track.files.solution),
});

/**
 * Every file a pack may have, as { at, file, read, required }: `at`, where a reader puts what it read
 * (keys from the pack's root: ['texts', 'en'], ['files', 'python', 'starter']); `file`, its path in the
 * pack; `read`: 'text', 'json' (a file that does not parse is a pack error naming it) or 'module' (the
 * suite: its exports); `required`: a pack without it is refused, the file named. The rest are optional:
 * a track's starter and solution (a pack offers the tracks it has both of, packProblems), the English
 * twins, messages.json, a track's own texts; reference/bind.cpp (a pack read without it cannot have its
 * reference functions checked, ./pack.mjs boundFunctions).
 * tracks: { <name>: { name, files: { starter, solution }, variant } }; langs: ['ru', 'en'].
 */
export function packLayout(tracks, langs) {
  const variants = [...new Set(Object.values(tracks).map((t) => t.variant))].filter(Boolean);
  return [
    { at: ['spec'], file: PACK_FILES.spec, read: 'json', required: true },
    { at: ['suite'], file: PACK_FILES.suite, read: 'module', required: true },
    { at: ['suiteSource'], file: PACK_FILES.suite, read: 'text', required: true },
    { at: ['bindings'], file: PACK_FILES.bindings, read: 'text', required: false },
    { at: ['messages'], file: PACK_FILES.messages, read: 'json', required: false },
    { at: ['hints'], file: PACK_FILES.hints, read: 'json', required: true },
    ...langs.map((l) => ({ at: ['texts', l], file: taskText(l), read: 'text', required: true })),
    ...variants.flatMap((v) =>
      langs.map((l) => ({ at: ['trackTexts', v, l], file: taskText(l, v), read: 'text', required: false })),
    ),
    ...Object.values(tracks).flatMap((t) =>
      Object.entries(trackPackFiles(t)).map(([k, file]) => ({
        at: ['files', t.name, k],
        file,
        read: 'text',
        required: false,
      })),
    ),
  ];
}

/** The value at `at` (a list of keys) in `object`, or undefined. */
export const valueAt = (object, at) => at.reduce((o, k) => o?.[k], object);

/** Sets the value at `at` in `object`, making the objects on the way. */
export function setAt(object, at, value) {
  let o = object;
  for (const k of at.slice(0, -1)) o = o[k] ??= {};
  o[at.at(-1)] = value;
}
