// The grader's own sentences, in Russian and English: what any exercise can say on any track (loading,
// limits, shapes, values). Each pack adds its own in messages.json (its diagnoses, under `d.`), which
// `say()` looks up first, and each track its own (grader/tracks/<name>/messages.mjs: the keys its
// explanations return, its spelling of a sentence), looked up next. `{name}` fields are filled in by `say()`.
// A report keeps what it says as data (a Sentence: a key and its params, sentence() below), so that
// it can be counted by key and rendered (render()) in any language after grading.
import { capText } from '../wire/text.mjs';
import { LIMITS } from '../limits.mjs';

const en = {
  'status.pass': 'passed',
  'status.fail': 'failed',
  'status.error': 'error',
  summary: '{passed} of {total} tests passed',
  // the CLI's hints (--hints N; core/hints.mjs): those of the function that fails first
  'hints.of': ' for `{fn}`',
  'hints.count': 'Hints{of}: {n} (`--hints 1` shows the first).',
  'hints.one': 'Hint {i} of {n}{of}:',
  'hints.more': '`--hints {next}` shows the next one.',
  seed: 'seed {seed}',
  backend: 'fast path {backend}',
  syntax: 'Syntax error at line {line}, column {column}: {message}',
  'load.error': 'While loading, your script stopped with an error at line {line}: {message}.',
  'load.import':
    'The import at line {line} failed ({message}): this runtime does not have that module, so your script stopped there.',
  'load.timeout': 'Your script did not finish loading within {ms} ms (top-level code that never ends?).',
  'load.memory': 'Your script used too much memory while loading and was stopped (limit {mb} MiB).',
  'load.crash': 'Your script stopped the sandbox while loading ({message}).',
  'load.declarations': 'Only its declarations were graded: functions, and constants with simple values.',
  'load.declarations_failed': 'Its declarations could not be loaded either: {message}.',
  'missing.after_load':
    "Your script's top level did not run to its end, so what the code after the place it stopped makes was never made.",
  'missing.after_load_line':
    "Your script's top level stopped at line {line} with {message}, so what the code after that line makes was never made.",
  'not_run.syntax': 'Not run: the file does not parse (a syntax error at line {line}, column {column}).',
  'deadline.hit': 'The submission used up its overall time limit of {s} s during this test.',
  'deadline.not_run': 'Not run: the submission used up its overall time limit of {s} s before this test.',
  'not_run.timeout_earlier':
    'Not run: `{fn}` did not finish in the test “{test}”, so it is not called again (look for a loop that never ends).',
  grader_error: 'Grader error (a fault of the grader, not of your code): {message}',
  crash:
    '`{fn}` stopped the sandbox process ({message}): look for a very large array or string, or recursion without end.',
  invalid: '`{fn}` returned something that cannot be checked: {what}.',
  'invalid.too_long': 'an array of length {n}, more than the {max} elements a result may have',
  'invalid.too_many': 'more than {max} numbers in all',
  'invalid.too_deep': 'lists nested more than {depth} levels deep',
  'invalid.ndarray': 'an np array whose data, shape or dtype were replaced',
  'invalid.too_big': 'a result larger than {mb} MiB',
  'invalid.reply': 'a reply the grader could not read',
  'invalid.unreadable': 'a value that could not be read',
  not_implemented: '`{fn}` returns nothing yet: it is not implemented.',
  missing: '`{fn}` is not defined in your code.',
  error: '`{fn}` raised an error{where}: {message}',
  'error.same': '`{fn}` raised the same error{where} as in the test “{test}”.',
  // An error the grader explains (the sentence after it): English keeps NumPy's own words.
  'error.explained': '`{fn}` raised an error{where}: {message}',
  'cause.same': 'The same cause as in the test “{test}”.',
  'cause.callee': '`{fn}` calls your `{callee}`, which fails the test “{test}”: the cause is there, fix it first.',
  'explain.keepdims':
    'A max or sum lost its axis: {b} is {a} without the last axis it was taken over. Keep that axis with `{keepdims}`, so that the result lines up row by row.',
  'explain.broadcast': 'The shapes {a} and {b} do not line up from the right (each axis must be equal or 1).',
  'explain.matmul':
    'matmul multiplies the last axis of the left operand, {a}, by the second-to-last of the right one, {b}: {n} ≠ {m}.',
  'explain.indexing': '`{expr}` reads a plain property: arrays are indexed with `{fix}`.',
  'error.where': ' at line {line}',
  timeout:
    '`{fn}` ran for {ms} ms without finishing, and again for {ms2} ms when it was run a second time on its own: look for a loop that never ends.',
  'timeout.probe': '`{fn}` ran for {ms} ms without finishing.',
  memory:
    '`{fn}` used too much memory and was stopped (limit {mb} MiB for the whole run): look for an array or string far larger than the inputs, one that grows without end, or arrays kept in a global between calls.',
  'memory.array':
    '`{fn}` asked for an array of shape {shape}{where}, larger than the memory limit of the whole run ({mb} MiB): look for sizes mixed up, such as a product of dimensions where one dimension was meant.',
  not_array: '`{fn}` returned {kind} where an array was expected.',
  ragged: '`{fn}` returned nested lists of different lengths: that is not a rectangular array.',
  mixed: '`{fn}` returned a list that mixes numbers and booleans.',
  element: '`{fn}` returned a list containing {kindNom}; only numbers or booleans can form an array.',
  not_tuple: '`{fn}` must return [{names}]; it returned {kind}.',
  shape: '{what}: shape is {actual}, expected {expected}.',
  'dtype.bool':
    '{what} must be a boolean mask (true/false), but it holds numbers. Make it with a comparison, or `.astype("bool")`.',
  'dtype.float': '{what} must hold numbers, but it holds booleans.',
  nonfinite: '{what}: element {index} is {actual}, expected {expected}.',
  values:
    '{what}: {count} of {total} {total|element|elements} {count|differs|differ}. First at {index}: expected {expected}, got {actual}. Largest absolute error: {maxAbsErr}.',
  // a syntax error read by core/syntax.mjs (where it is; the parser's words are each track's own), and said once by the text reporter
  'syntax.unclosed': 'this `{bracket}` is never closed',
  'syntax.unfinished': 'the line ends with `{op}`, and the next line does not go on from it',
  'not_run.parse': 'Not run ({n} {n|test|tests}): the file does not parse.',
  'error.run_explained': '{message} {cause}',
  // two parts of a label, such as a tuple's part after its call: "attention(Q, K, V) weights"
  'label.part': '{what} {name}',
  'output.truncated': '… output truncated',
  // grade-batch (grader/batch/run.mjs): a submission it could not grade, every test an error saying why
  // (each packaging problem its own key, so that the report counts them apart; inputs.mjs says which, in words)
  'batch.input': '{why}',
  'batch.too_big': '{why}',
  'batch.unreadable': '{why}',
  'batch.notebook': '{why}',
  'batch.no_code': '{why}',
  'batch.duplicate': '{why}',
  'batch.ambiguous': '{why}',
  'batch.no_track': 'this exercise has no {track} track (it has {tracks})',
  'batch.fault': 'Grader fault (not a fault of the submission): {message}',
};

const ru = {
  'status.pass': 'пройден',
  'status.fail': 'не пройден',
  'status.error': 'ошибка',
  summary: 'Пройдено тестов: {passed} из {total}',
  'hints.of': ' к `{fn}`',
  'hints.count': 'Подсказок{of}: {n} (`--hints 1` покажет первую).',
  'hints.one': 'Подсказка {i} из {n}{of}:',
  'hints.more': '`--hints {next}` покажет следующую.',
  seed: 'сид {seed}',
  backend: 'быстрый путь {backend}',
  syntax: 'Синтаксическая ошибка в строке {line}, столбец {column}: {message}',
  'load.error': 'При загрузке скрипт остановился с ошибкой в строке {line}: {message}.',
  'load.import': 'Импорт в строке {line} не удался ({message}): такого модуля здесь нет, и скрипт остановился на нём.',
  'load.timeout': 'Скрипт не загрузился за {ms} мс (бесконечный цикл на верхнем уровне?).',
  'load.memory': 'При загрузке скрипт занял слишком много памяти и был остановлен (лимит {mb} МиБ).',
  'load.crash': 'При загрузке скрипт остановил песочницу ({message}).',
  'load.declarations': 'Проверялись только объявления: функции и константы с простыми значениями.',
  'load.declarations_failed': 'Объявления тоже не удалось загрузить: {message}.',
  'missing.after_load':
    'Верхний уровень скрипта не выполнился до конца, поэтому то, что создаёт код после места остановки, так и не было создано.',
  'missing.after_load_line':
    'Верхний уровень скрипта остановился в строке {line} с ошибкой {message}, поэтому то, что создаёт код после этой строки, так и не было создано.',
  'not_run.syntax': 'Не запускался: файл не разбирается (синтаксическая ошибка в строке {line}, столбец {column}).',
  'deadline.hit': 'Во время этого теста решение исчерпало общий лимит времени в {s} с.',
  'deadline.not_run': 'Не запускался: решение исчерпало общий лимит времени в {s} с раньше, чем дошло до этого теста.',
  'not_run.timeout_earlier':
    'Не запускался: `{fn}` не завершилась в тесте «{test}», поэтому больше не вызывается (проверьте, нет ли бесконечного цикла).',
  grader_error: 'Ошибка проверяющей системы (не вашего кода): {message}',
  crash:
    '`{fn}` остановила процесс песочницы ({message}): проверьте, нет ли огромного массива или строки либо бесконечной рекурсии.',
  invalid: '`{fn}` вернула то, что нельзя проверить: {what}.',
  'invalid.too_long': 'массив длины {n}, а в результате может быть не больше {max} элементов',
  'invalid.too_many': 'всего больше {max} чисел',
  'invalid.too_deep': 'списки вложены глубже {depth} уровней',
  'invalid.ndarray': 'массив np, у которого подменены данные, форма или тип',
  'invalid.too_big': 'результат больше {mb} МиБ',
  'invalid.reply': 'ответ, который проверяющая система не смогла прочитать',
  'invalid.unreadable': 'значение, которое не удалось прочитать',
  not_implemented: '`{fn}` пока ничего не возвращает: функция ещё не реализована.',
  missing: 'В коде нет функции `{fn}`.',
  error: 'В `{fn}` возникла ошибка{where}: {message}',
  'error.same': 'В `{fn}` та же ошибка{where}, что и в тесте «{test}».',
  // Russian gives the error's type only: the explanation that follows says the rest in Russian.
  'error.explained': 'В `{fn}` возникла ошибка {type}{where}',
  'cause.same': 'Причина та же, что и в тесте «{test}».',
  'cause.callee':
    '`{fn}` вызывает вашу `{callee}`, а она не проходит тест «{test}»: причина там, исправьте сначала её.',
  'explain.keepdims':
    'У максимума или суммы пропала ось: {b} — это {a} без последней оси, вдоль которой они считались. Сохраните её с `{keepdims}`, чтобы результат согласовался построчно.',
  'explain.broadcast': 'Формы {a} и {b} не согласуются справа налево (каждая ось должна совпадать или быть равна 1).',
  'explain.matmul': 'matmul умножает последнюю ось левого операнда, {a}, на предпоследнюю ось правого, {b}: {n} ≠ {m}.',
  'explain.indexing': '`{expr}` читает обычное свойство: элементы массива берутся так: `{fix}`.',
  'error.where': ' (строка {line})',
  timeout:
    '`{fn}` работала {ms} мс и не завершилась, а при повторном отдельном запуске — ещё {ms2} мс: проверьте, не зациклился ли какой-то цикл.',
  'timeout.probe': '`{fn}` работала {ms} мс и не завершилась.',
  memory:
    '`{fn}` заняла слишком много памяти и была остановлена (лимит {mb} МиБ на весь запуск): проверьте, нет ли массива или строки намного больше входных данных, массива, который растёт без конца, или массивов, которые копятся в глобальной переменной между вызовами.',
  'memory.array':
    '`{fn}` запросила массив формы {shape}{where}, больше всего лимита памяти на запуск ({mb} МиБ): проверьте, не перепутаны ли размеры — например, произведение размерностей там, где нужна одна.',
  not_array: '`{fn}` вернула {kind}, а ожидался массив.',
  ragged: '`{fn}` вернула вложенные списки разной длины: это не прямоугольный массив.',
  mixed: '`{fn}` вернула список, где перемешаны числа и логические значения.',
  element: '`{fn}` вернула список, в котором есть {kindNom}; массив может состоять только из чисел или true/false.',
  not_tuple: '`{fn}` должна вернуть [{names}], а вернула {kind}.',
  shape: '{what}: форма {actual}, ожидалась {expected}.',
  'dtype.bool': '{what}: нужна булева маска (true/false), а в ней числа. Получите её сравнением или `.astype("bool")`.',
  'dtype.float': '{what}: нужны числа, а в результате true/false.',
  nonfinite: '{what}: элемент {index} равен {actual}, ожидалось {expected}.',
  values:
    '{what}: {count|не совпадает|не совпадают|не совпадают} {count} из {total} {total|элемента|элементов|элементов}. Первое расхождение в {index}: ожидалось {expected}, получено {actual}. Наибольшая абсолютная ошибка: {maxAbsErr}.',
  // a syntax error read by core/syntax.mjs (where it is; the parser's words are each track's own), and said once by the text reporter
  'syntax.unclosed': 'скобка `{bracket}`, открытая здесь, нигде не закрыта',
  'syntax.unfinished': 'строка кончается на `{op}`, а следующая строка её не продолжает',
  'not_run.parse': 'Не запускались ({n} {n|тест|теста|тестов}): файл не разбирается.',
  'error.run_explained': '{type}: {cause}',
  'label.part': '{what} {name}',
  'output.truncated': '… вывод обрезан',
  'batch.input': '{why}',
  'batch.too_big': '{why}',
  'batch.unreadable': '{why}',
  'batch.notebook': '{why}',
  'batch.no_code': '{why}',
  'batch.duplicate': '{why}',
  'batch.ambiguous': '{why}',
  'batch.no_track': 'у этого упражнения нет варианта на {track} (есть: {tracks})',
  'batch.fault': 'Сбой проверяющей программы (не работы): {message}',
};

// What a value is, as a message names it: the accusative ("returned a string": вернула строку) and,
// for "a list containing …", the nominative (в котором есть строка).
const kinds = {
  en: {
    undefined: 'nothing (undefined)',
    null: 'null',
    number: 'a number',
    string: 'a string',
    object: 'an object',
    function: 'a function',
    boolean: 'a boolean',
    symbol: 'a symbol',
    bigint: 'a BigInt',
  },
  ru: {
    undefined: 'ничего (undefined)',
    null: 'null',
    number: 'число',
    string: 'строку',
    object: 'объект',
    function: 'функцию',
    boolean: 'логическое значение',
    symbol: 'символ',
    bigint: 'BigInt',
  },
};
const kindsNominative = {
  en: kinds.en,
  ru: { ...kinds.ru, undefined: 'undefined', string: 'строка', function: 'функция' },
};

/** The languages of every message, the default first. */
export const LANGS = Object.freeze(['ru', 'en']);
/** The grader's own sentences per language ({ ru: { key: sentence }, en: … }). */
export const SENTENCES = { en, ru };

/**
 * A sentence in `lang` with its `{name}` fields filled in and `{name|…}` plural forms agreed.
 * `pack`: an exercise's own messages ({ ru: {...}, en: {...} }, its messages.json), looked up first;
 * `own`: the track's own messages (the same shape, its `messages`: grader/tracks/<name>/messages.mjs),
 * looked up next, before the core's (a track's spelling of a key, `key.py`, is chosen by render()).
 */
export function say(lang, key, params = {}, pack = null, own = null) {
  const table = SENTENCES[lang] ? lang : 'ru';
  const text =
    pack?.[table]?.[key] ??
    own?.[table]?.[key] ??
    SENTENCES[table][key] ??
    pack?.en?.[key] ??
    own?.en?.[key] ??
    en[key] ??
    key;
  return text
    .replace(/\{(\w+)((?:\|[^|{}]*)+)\}/g, (_, k, forms) => plural(table, Number(params[k]), forms.slice(1).split('|')))
    .replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
}

/**
 * `{n|one|few|many}` in a sentence: the form that agrees with the number n (Russian: 1, 21 → one;
 * 2–4, 22–24 → few; else many; English: 1 → one, else the second form).
 */
function plural(lang, n, forms) {
  if (lang !== 'ru') return forms[n === 1 ? 0 : 1] ?? forms[0];
  const m10 = n % 10,
    m100 = n % 100;
  const i = m10 === 1 && m100 !== 11 ? 0 : m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14) ? 1 : 2;
  return forms[i] ?? forms.at(-1);
}

export const kindName = (lang, kind, nominative = false) =>
  ((nominative ? kindsNominative : kinds)[lang] || kinds.ru)[kind] || kind;

/** A text in every language ({ ru, en }), each from `f(lang)`: a param that a sentence shows in the language it is rendered in. */
export const inEachLang = (f) => Object.fromEntries(LANGS.map((l) => [l, f(l)]));

const PARAM_DEPTH = 4; // sentences inside sentences (a label inside a mismatch inside …)
const PARAMS = 16; // params of one sentence
const LIST = 8; // sentences in a list param

/**
 * A sentence as data (grader/types.d.ts Sentence): `key`, a message key (the core's or a pack's), and its
 * params as plain JSON, each one of: a finite number, a boolean, null, a string (capped at
 * LIMITS.message: student text, such as an error message, is only ever a param, escaped where it is
 * shown), a text in every language ({ ru, en }: a test's name), a Sentence (rendered in its place), or
 * a list of Sentences (rendered as sentences, each ended, joined with spaces; empty: nothing).
 * Anything else becomes its string. `key` itself must be a message key, never student text.
 * @param {string} key
 * @param {object} [params]
 * @returns {import('../types').Sentence}
 */
export const sentence = (key, params = {}) => sentenceAt({ key, params }, 0);

function sentenceAt({ key, params }, depth) {
  if (typeof key !== 'string' || !/^[\w.]{1,80}$/.test(key)) throw new TypeError(`not a message key: ${String(key)}`);
  // Not text: a Sentence put into a string (a template literal) would read "[object Object]"; it is a param instead.
  return Object.defineProperty({ key, params: plainParams(params, depth) }, 'toString', { value: notText });
}
function notText() {
  throw new TypeError(`the sentence ${this.key} was used as text: pass it as a param of another sentence`);
}

function plainParams(params, depth) {
  const out = {};
  for (const [k, v] of Object.entries(params ?? {}).slice(0, PARAMS)) out[k] = plainParam(v, depth);
  return out;
}

function plainParam(v, depth) {
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'string') return capText(v, LIMITS.message);
  if (isSentence(v)) return depth < PARAM_DEPTH ? sentenceAt(v, depth + 1) : '…';
  if (Array.isArray(v) && v.every(isSentence) && depth < PARAM_DEPTH)
    return v.slice(0, LIST).map((s) => sentenceAt(s, depth + 1));
  if (isLocalized(v))
    return Object.fromEntries(LANGS.filter((l) => l in v).map((l) => [l, capText(v[l], LIMITS.message)]));
  return capText(String(v), LIMITS.message);
}

/** The keys of a sentence (or a list of them) and of the sentences in its params. */
export const sentenceKeys = (s) =>
  !s || typeof s !== 'object'
    ? []
    : Array.isArray(s)
      ? s.flatMap(sentenceKeys)
      : isSentence(s)
        ? [s.key, ...Object.values(s.params ?? {}).flatMap(sentenceKeys)]
        : [];

/** Is `v` a Sentence ({ key, params })? */
export const isSentence = (v) =>
  Boolean(v) &&
  typeof v === 'object' &&
  typeof v.key === 'string' &&
  (v.params === undefined || typeof v.params === 'object');
const isLocalized = (v) =>
  Boolean(v) &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.keys(v).length > 0 &&
  Object.entries(v).every(([l, s]) => LANGS.includes(l) && typeof s === 'string');

/** A sentence ended as one: a full stop added unless it ends with . ! ? … or : */
const ended = (p) => (/[.!?…:]$/.test(p) ? p : `${p}.`);

/**
 * A Sentence, or a list of them, as text in `lang`: each param rendered first (a Sentence in its place,
 * { ru, en } in `lang`); a list's sentences each ended with a full stop and joined with spaces.
 * `pack`: the exercise's messages (its messages.json); `track`: the submission's track, whole or its
 * description (grader/tracks/<name>/info.mjs): its own `messages`, looked up after the pack's and before
 * the core's, and its `variant`, the spelling of a key (`key.py`) used where the pack, the track or the
 * core has one (`variant`: that spelling given alone).
 * @param {string} lang
 * @param {import('../types').Sentence | import('../types').Sentence[] | null} said
 * @param {{ pack?: Record<string, Record<string, string>> | null, track?: { variant?: string | null, messages?: Record<string, Record<string, string>> | null } | null, variant?: string | null }} [options]
 * @returns {string}
 */
export function render(lang, said, { pack = null, track = null, variant = track?.variant ?? null } = {}) {
  const own = track?.messages ?? null;
  if (Array.isArray(said))
    return said
      .filter(Boolean)
      .map((s) => ended(render(lang, s, { pack, track, variant })))
      .join(' ');
  if (!isSentence(said)) return said == null ? '' : String(said);
  const param = (v) =>
    isSentence(v) || Array.isArray(v)
      ? render(lang, v, { pack, track, variant })
      : isLocalized(v)
        ? (v[lang] ?? v.en ?? Object.values(v)[0])
        : v;
  const params = Object.fromEntries(Object.entries(said.params ?? {}).map(([k, v]) => [k, param(v)]));
  const v = variant ? `${said.key}.${variant}` : null;
  const has = (k) =>
    Boolean(
      pack?.[lang]?.[k] ?? pack?.en?.[k] ?? own?.[lang]?.[k] ?? own?.en?.[k] ?? SENTENCES[lang]?.[k] ?? SENTENCES.en[k],
    );
  // (trimmed at the end: a list param, last in its sentence, may be empty)
  return say(lang, v && has(v) ? v : said.key, params, pack, own).trimEnd();
}
