// The Python track's own sentences, in every language of grader/core/messages.mjs (LANGS): the key its
// syntax explanation returns (./index.mjs `explain.syntax`), and its spelling (`variant` 'py') of the
// core's sentences that name a JavaScript construct, `key.py`; looked up after a pack's and before the
// core's (grader/tracks/README.md, "A track's folder"). Data only; ./info.mjs carries it as `messages`.
export default Object.freeze({
  ru: Object.freeze({
    'syntax.star_display':
      'Здесь (MicroPython) нельзя распаковывать `*` внутри записанного кортежа или списка, как в `(*lead, T, d)`: соберите его так: `tuple(lead) + (T, d)`. Распаковка в вызове, `f(*args)`, работает.',
    'not_tuple.py': '`{fn}` должна вернуть ({names}), а вернула {kind}.',
    'dtype.bool.py':
      '{what}: нужна булева маска (True/False), а в ней числа. Получите её сравнением или `.astype(bool)`.',
  }),
  en: Object.freeze({
    'syntax.star_display':
      'This runtime (MicroPython) cannot unpack with `*` inside a tuple or list written out, such as `(*lead, T, d)`: build it as `tuple(lead) + (T, d)`. Unpacking into a call, `f(*args)`, works.',
    'not_tuple.py': '`{fn}` must return ({names}); it returned {kind}.',
    'dtype.bool.py':
      '{what} must be a boolean mask (True/False), but it holds numbers. Make it with a comparison, or `.astype(bool)`.',
  }),
});
