// The JavaScript track's own sentences, in every language of grader/core/messages.mjs (LANGS): the keys
// its explanations return (./explain.mjs), looked up after a pack's and before the core's
// (grader/tracks/README.md, "A track's folder"). Data only; ./info.mjs carries it as `messages`.
export default Object.freeze({
  ru: Object.freeze({
    'explain.operator': 'Оператор JavaScript `{op}` не работает с массивами: используйте `{fix}`.',
    'explain.math': '`Math.{name}` работает только с отдельными числами: для массива используйте `np.{np}(…)`.',
  }),
  en: Object.freeze({
    'explain.operator': 'JavaScript’s `{op}` does not work on arrays: use `{fix}`.',
    'explain.math': '`Math.{name}` works on single numbers only: for an array use `np.{np}(…)`.',
  }),
});
