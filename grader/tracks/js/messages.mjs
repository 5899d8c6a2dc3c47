// The JavaScript track's own sentences, in every language of grader/core/messages.mjs (LANGS): the keys
// its explanations return (./explain.mjs) and its parser's words (./index.mjs `explain.parser`), looked
// up after a pack's and before the core's (grader/tracks/README.md, "A track's folder"). Data only; ./info.mjs carries it as `messages`.
export default Object.freeze({
  ru: Object.freeze({
    'explain.operator': 'Оператор JavaScript `{op}` не работает с массивами: используйте `{fix}`.',
    'explain.math': '`Math.{name}` работает только с отдельными числами: для массива используйте `np.{np}(…)`.',
    // its parser's words (./index.mjs `explain.parser`, read by grader/core/syntax.mjs)
    'parser.unexpected_token': 'неожиданный символ',
    'parser.unexpected_character': 'недопустимый символ {name}',
    'parser.unterminated_string': 'строка без закрывающей кавычки',
    'parser.unterminated_template': 'шаблонная строка без закрывающей обратной кавычки',
    'parser.unterminated_comment': 'комментарий /* не закрыт',
    'parser.redeclared': '`{name}` уже объявлено',
    'parser.unexpected_keyword': 'ключевое слово `{name}` здесь стоять не может',
    'parser.return_outside': '`return` вне функции',
  }),
  en: Object.freeze({
    'explain.operator': 'JavaScript’s `{op}` does not work on arrays: use `{fix}`.',
    'explain.math': '`Math.{name}` works on single numbers only: for an array use `np.{np}(…)`.',
    // its parser's words (./index.mjs `explain.parser`, read by grader/core/syntax.mjs)
    'parser.unexpected_token': 'unexpected token',
    'parser.unexpected_character': 'unexpected character {name}',
    'parser.unterminated_string': 'a string without its closing quote',
    'parser.unterminated_template': 'a template string without its closing backquote',
    'parser.unterminated_comment': 'a /* comment that is never closed',
    'parser.redeclared': '`{name}` is already declared',
    'parser.unexpected_keyword': 'the keyword `{name}` cannot stand here',
    'parser.return_outside': '`return` outside a function',
  }),
});
