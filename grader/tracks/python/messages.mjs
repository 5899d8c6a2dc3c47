// The Python track's own sentences, in every language of grader/core/messages.mjs (LANGS): the key its
// syntax explanation returns (./index.mjs `explain.syntax`), its compiler's words (`explain.parser`),
// and its spelling (`variant` 'py') of the core's sentences that name a JavaScript construct, `key.py`;
// looked up after a pack's and before the core's (grader/tracks/README.md, "A track's folder"). Data
// only; ./info.mjs carries it as `messages`.
export default Object.freeze({
  ru: Object.freeze({
    'syntax.star_display':
      'Здесь (MicroPython) нельзя распаковывать `*` внутри записанного кортежа или списка, как в `(*lead, T, d)`: соберите его так: `tuple(lead) + (T, d)`. Распаковка в вызове, `f(*args)`, работает.',
    'not_tuple.py': '`{fn}` должна вернуть ({names}), а вернула {kind}.',
    'dtype.bool.py':
      '{what}: нужна булева маска (True/False), а в ней числа. Получите её сравнением или `.astype(bool)`.',
    // its parser's words (./index.mjs `explain.parser`, read by grader/core/syntax.mjs)
    'parser.return_outside': '`return` вне функции',
    'parser.invalid_syntax': 'неверный синтаксис',
    'parser.unexpected_indent': 'лишний отступ',
    'parser.unindent': 'этот отступ не совпадает ни с одним внешним блоком',
    'parser.expected_indent': 'здесь нужен блок с отступом',
  }),
  en: Object.freeze({
    'syntax.star_display':
      'This runtime (MicroPython) cannot unpack with `*` inside a tuple or list written out, such as `(*lead, T, d)`: build it as `tuple(lead) + (T, d)`. Unpacking into a call, `f(*args)`, works.',
    'not_tuple.py': '`{fn}` must return ({names}); it returned {kind}.',
    'dtype.bool.py':
      '{what} must be a boolean mask (True/False), but it holds numbers. Make it with a comparison, or `.astype(bool)`.',
    // its parser's words (./index.mjs `explain.parser`, read by grader/core/syntax.mjs)
    'parser.return_outside': '`return` outside a function',
    'parser.invalid_syntax': 'invalid syntax',
    'parser.unexpected_indent': 'unexpected indentation',
    'parser.unindent': 'this indentation matches no outer block',
    'parser.expected_indent': 'an indented block was expected',
  }),
});
