// The grader's own sentences, in Russian and English: what any exercise can say (loading, limits,
// shapes, values). Each pack adds its own in messages.json (its diagnoses, under `d.`), which
// `say()` looks up first. `{name}` fields are filled in by `say()`.

const en = {
  'status.pass': 'passed',
  'status.fail': 'failed',
  'status.error': 'error',
  'summary': '{passed} of {total} tests passed',
  'seed': 'seed {seed}',
  'backend': 'fast path {backend}',
  'syntax': 'Syntax error at line {line}, column {column}: {message}',
  'load.error': 'While loading, your script stopped with an error at line {line}: {message}.',
  'load.timeout': 'Your script did not finish loading within {ms} ms (top-level code that never ends?).',
  'load.memory': 'Your script used too much memory while loading and was stopped (limit {mb} MiB).',
  'load.crash': 'Your script stopped the sandbox while loading ({message}).',
  'load.declarations': 'Only its declarations were graded: functions, and constants with simple values.',
  'load.declarations_failed': 'Its declarations could not be loaded either: {message}.',
  'missing.after_load': 'Your script\'s top level did not complete, see the note above.',
  'not_run.syntax': 'Not run: the code has a syntax error at line {line}, column {column}.',
  'deadline.hit': 'The submission used up its overall time limit of {s} s during this test.',
  'deadline.not_run': 'Not run: the submission used up its overall time limit of {s} s before this test.',
  'grader_error': 'Grader error (a fault of the grader, not of your code): {message}',
  'crash': '`{fn}` stopped the sandbox process ({message}): look for a very large array or string, or recursion without end.',
  'invalid': '`{fn}` returned something that cannot be checked: {what}.',
  'invalid.too_long': 'an array of length {n}, more than the {max} elements a result may have',
  'invalid.too_many': 'more than {max} numbers in all',
  'invalid.too_deep': 'lists nested more than {depth} levels deep',
  'invalid.ndarray': 'an np array whose data, shape or dtype were replaced',
  'invalid.too_big': 'a result larger than {mb} MiB',
  'invalid.reply': 'a reply the grader could not read',
  'invalid.unreadable': 'a value that could not be read',
  'not_implemented': '`{fn}` returns nothing yet: it is not implemented.',
  'missing': '`{fn}` is not defined in your code.',
  'error': '`{fn}` raised an error{where}: {message}',
  'error.where': ' at line {line}',
  'timeout': '`{fn}` did not finish within the {ms} ms time limit: look for a loop that never ends.',
  'memory': '`{fn}` used too much memory and was stopped (limit {mb} MiB for the whole run): look for an array or string far larger than the inputs, one that grows without end, or arrays kept in a global between calls.',
  'not_array': '`{fn}` returned {kind} where an array was expected.',
  'ragged': '`{fn}` returned nested lists of different lengths: that is not a rectangular array.',
  'mixed': '`{fn}` returned a list that mixes numbers and booleans.',
  'element': '`{fn}` returned a list containing {kind}; only numbers or booleans can form an array.',
  'not_tuple': '`{fn}` must return [{names}]; it returned {kind}.',
  'shape': '{what}: shape is {actual}, expected {expected}.',
  'dtype.bool': '{what} must be a boolean mask (true/false), but it holds numbers. Compare, or use .astype("bool").',
  'dtype.float': '{what} must hold numbers, but it holds booleans.',
  'nonfinite': '{what}: element {index} is {actual}, expected {expected}.',
  'values': '{what}: differs in {count} of {total} elements. First at {index}: expected {expected}, got {actual}. Largest absolute error: {maxAbsErr}.',
  // Python spellings (the track's variant, grade.mjs sayOn)
  'not_tuple.py': '`{fn}` must return ({names}); it returned {kind}.',
  'dtype.bool.py': '{what} must be a boolean mask (True/False), but it holds numbers. Compare, or use .astype(bool).',
};

const ru = {
  'status.pass': 'пройден',
  'status.fail': 'не пройден',
  'status.error': 'ошибка',
  'summary': 'Пройдено тестов: {passed} из {total}',
  'seed': 'seed {seed}',
  'backend': 'быстрый путь {backend}',
  'syntax': 'Синтаксическая ошибка в строке {line}, столбец {column}: {message}',
  'load.error': 'При загрузке скрипт остановился с ошибкой в строке {line}: {message}.',
  'load.timeout': 'Скрипт не загрузился за {ms} мс (бесконечный цикл на верхнем уровне?).',
  'load.memory': 'При загрузке скрипт занял слишком много памяти и был остановлен (лимит {mb} МиБ).',
  'load.crash': 'При загрузке скрипт остановил песочницу ({message}).',
  'load.declarations': 'Проверялись только объявления: функции и константы с простыми значениями.',
  'load.declarations_failed': 'Объявления тоже не удалось загрузить: {message}.',
  'missing.after_load': 'Верхний уровень скрипта не выполнился до конца, см. сообщение выше.',
  'not_run.syntax': 'Не запускался: в коде синтаксическая ошибка в строке {line}, столбец {column}.',
  'deadline.hit': 'Во время этого теста решение исчерпало общий лимит времени в {s} с.',
  'deadline.not_run': 'Не запускался: решение исчерпало общий лимит времени в {s} с раньше, чем дошло до этого теста.',
  'grader_error': 'Ошибка проверяющей системы (не вашего кода): {message}',
  'crash': '`{fn}` остановила процесс песочницы ({message}): проверьте, нет ли огромного массива или строки либо бесконечной рекурсии.',
  'invalid': '`{fn}` вернула то, что нельзя проверить: {what}.',
  'invalid.too_long': 'массив длины {n}, а в результате может быть не больше {max} элементов',
  'invalid.too_many': 'всего больше {max} чисел',
  'invalid.too_deep': 'списки вложены глубже {depth} уровней',
  'invalid.ndarray': 'массив np, у которого подменены данные, форма или тип',
  'invalid.too_big': 'результат больше {mb} МиБ',
  'invalid.reply': 'ответ, который проверяющая система не смогла прочитать',
  'invalid.unreadable': 'значение, которое не удалось прочитать',
  'not_implemented': '`{fn}` пока ничего не возвращает: функция ещё не реализована.',
  'missing': 'В коде нет функции `{fn}`.',
  'error': '`{fn}` выбросила ошибку{where}: {message}',
  'error.where': ' в строке {line}',
  'timeout': '`{fn}` не уложилась в лимит {ms} мс: проверьте, не зациклился ли какой-то цикл.',
  'memory': '`{fn}` заняла слишком много памяти и была остановлена (лимит {mb} МиБ на весь запуск): проверьте, нет ли массива или строки намного больше входных данных, массива, который растёт без конца, или массивов, которые копятся в глобальной переменной между вызовами.',
  'not_array': '`{fn}` вернула {kind}, а ожидался массив.',
  'ragged': '`{fn}` вернула вложенные списки разной длины: это не прямоугольный массив.',
  'mixed': '`{fn}` вернула список, где перемешаны числа и логические значения.',
  'element': '`{fn}` вернула список, в котором есть {kind}; массив может состоять только из чисел или true/false.',
  'not_tuple': '`{fn}` должна вернуть [{names}], а вернула {kind}.',
  'shape': '{what}: форма {actual}, ожидалась {expected}.',
  'dtype.bool': '{what} должна быть булевой маской (true/false), а в ней числа. Используйте сравнение или .astype("bool").',
  'dtype.float': '{what} должен содержать числа, а содержит true/false.',
  'nonfinite': '{what}: элемент {index} равен {actual}, ожидалось {expected}.',
  'values': '{what}: не совпадают {count} из {total} элементов. Первое расхождение в {index}: ожидалось {expected}, получено {actual}. Наибольшая абсолютная ошибка: {maxAbsErr}.',
  // написание для Python (вариант трека, grade.mjs sayOn)
  'not_tuple.py': '`{fn}` должна вернуть ({names}), а вернула {kind}.',
  'dtype.bool.py': '{what} должна быть булевой маской (True/False), а в ней числа. Используйте сравнение или .astype(bool).',
};

const kinds = {
  en: { undefined: 'nothing (undefined)', null: 'null', number: 'a number', string: 'a string', object: 'an object', function: 'a function', boolean: 'a boolean' },
  ru: { undefined: 'ничего (undefined)', null: 'null', number: 'число', string: 'строку', object: 'объект', function: 'функцию', boolean: 'логическое значение' },
};

export const LANGS = { en, ru };

/**
 * A sentence in `lang` with its `{name}` fields filled in. `pack`: an exercise's own messages
 * ({ ru: {...}, en: {...} }, its messages.json), looked up before the core's.
 */
export function say(lang, key, params = {}, pack = null) {
  const table = LANGS[lang] ? lang : 'ru';
  const text = pack?.[table]?.[key] ?? LANGS[table][key] ?? pack?.en?.[key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
}

export const kindName = (lang, kind) => (kinds[lang] || kinds.ru)[kind] || kind;
