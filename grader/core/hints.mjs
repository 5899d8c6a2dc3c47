// A pack's hints (exercises/<slug>/hints.json), shared by the page and the CLI: hints belong to the
// function they are about, ordered from a nudge to nearly the answer, and a student is shown those of the
// function that fails first, never another function's (a mask bug in attend_with_cache must not be
// answered with the code of repeat_kv). hints.json has two forms:
//   { "ru": [hint, …], "en": [hint, …], "ru.py"?: […], "en.py"?: […] }       (every hint for every function)
//   { "general"?: { "ru": […], "en": […], … }, "functions": { "<fn>": { "ru": […], "en": […], … }, … } }
// (general: about the whole exercise, shown before a function's own: shapes, the language's syntax).

/** The list of one entry ({ ru, en, "ru.py", … }) in `lang` and the track's spelling `variant`. */
const listOf = (entry, lang, variant) => (entry && (entry[`${lang}.${variant}`] ?? entry[lang])) ?? [];

/** Is this hints.json of the per-function form? */
export const perFunction = (hints) => Boolean(hints && typeof hints === 'object' && 'functions' in hints);

/**
 * The hints shown for function `fn` (or for the exercise as a whole when `fn` is null or has none of its
 * own): the general ones, then `fn`'s, in `lang` and on the track with `variant`.
 * @param {any} hints  hints.json
 * @param {{ lang: string, variant?: string | null, fn?: string | null }} where
 * @returns {string[]}
 */
export function hintsFor(hints, { lang, variant = null, fn = null }) {
  if (!perFunction(hints)) return listOf(hints, lang, variant);
  return [...listOf(hints.general, lang, variant), ...(fn ? listOf(hints.functions[fn], lang, variant) : [])];
}

/**
 * The function whose hints a report calls for: that of the first test that did not pass (the task's
 * function, spec.json `tasks`), else null (all passed, or no report).
 * @param {import('../types').Report | null} report
 * @param {{ tasks: { id: number, function: string }[] }} spec
 */
export function failingFunction(report, spec) {
  const first = report?.tests.find((t) => t.status !== 'pass');
  return (first && spec.tasks.find((task) => task.id === first.task_id)?.function) ?? null;
}
