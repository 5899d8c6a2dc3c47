// The CLI's own words (grader/cli.mjs): its --help and its usage errors, in Russian (the default, as
// for reports) and English, chosen by --lang. The environment's LANG is not read: one default for
// the whole CLI, so help, errors and the report always speak the same language. Also the spelling
// check behind "did you mean --format?", and `grade`'s options (GRADE_OPTIONS).

import { catalog } from './tracks/catalog.mjs';

// `grade`'s options as node:util's parseArgs reads them: cli-main.mjs parses with them, and cli.mjs reads
// the same arguments with them to start the submission's sandbox early.
export const GRADE_OPTIONS = {
  exercise: { type: 'string' },
  track: { type: 'string' },
  format: { type: 'string', default: 'text' },
  seed: { type: 'string' },
  lang: { type: 'string', default: 'ru' },
  'timeout-ms': { type: 'string' },
  'deadline-ms': { type: 'string' },
  backend: { type: 'string', default: 'auto' },
  hints: { type: 'string' },
  verbose: { type: 'boolean', default: false },
  'require-isolation': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h' },
};

// The tracks, each in its own words (its name, label, extensions, limits), read from the tracks'
// descriptions (grader/tracks/catalog.mjs): nothing here names a track, so a track folder added is
// in the usage lines and the help at once.
const TRACKS = Object.values(catalog.TRACKS);
const DEFAULT = catalog.DEFAULT_TRACK;
const OTHERS = TRACKS.filter((t) => t !== DEFAULT);
/** "A, B or C" in `lang` ('или', 'or'). */
const listed = (items, or) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${or} ${items.at(-1)}`;
const labels = TRACKS.map((t) => t.label);
const LABELS = { ru: listed(labels, 'или'), en: listed(labels, 'or') };
const TRACK_CHOICE = catalog.TRACK_NAMES.join('|');
/** An option's line: its name, then its text from column 25 (on the next line when the name is longer). */
const option = (name, text) =>
  `  ${name}${name.length < 21 ? ' '.repeat(23 - name.length) : `\n${' '.repeat(25)}`}${text}`;
/** By extension: ".py — python, иначе js" (ru), ".py: python, else js" (en). */
const byExtension = (arrow, otherwise) => {
  const others = OTHERS.flatMap((t) => t.extensions.map((e) => `${e}${arrow}${t.name}`));
  return [...others, `${otherwise} ${DEFAULT.name}`].join(', ');
};
/** The tracks whose time limits are scaled (`timeScale`), and every track's whole-submission budget. */
const SCALED = TRACKS.filter((t) => (t.timeScale ?? 1) !== 1);
const budget = (on) => TRACKS.map((t) => `${t.budgetMs ?? 10000 * (t.timeScale ?? 1)} ${on} ${t.label}`).join(', ');
/** The help's first example grades a pack solution by its extension alone: the first track after the default's. */
const EXAMPLE = (OTHERS[0] ?? DEFAULT).files.solution;

// The usage lines: the same in both languages, and the same as README.md's grading block.
export const USAGE = `node grader/cli.mjs list
node grader/cli.mjs grade <submission${TRACKS.flatMap((t) => t.extensions).join('|')}> [--exercise SLUG] [--track ${TRACK_CHOICE}] [--format text|json|gradescope]
                          [--seed N] [--lang ru|en] [--timeout-ms N] [--deadline-ms N]
                          [--backend auto|simd|wasm|webgpu] [--hints N] [--verbose] [--require-isolation]
node grader/cli.mjs grade-batch <folder|zip> --exercise SLUG --out DIR [--jobs N] [--force] [--shard I/N]
                                [--overrides FILE.csv] [--roster FILE.csv] [--scale N] [--due TIME] [--late-policy SPEC]
                                [--lang ru|en] [--seed N] [--timeout-ms N] [--deadline-ms N] [--require-isolation]
node grader/cli.mjs grade-batch merge <out dirs…> --out DIR [--allow-partial] [--lang ru|en]
node grader/cli.mjs grade-batch gradebook <out dirs…> --out FILE.csv [--gradebook canvas|moodle]`;

const HELP = {
  ru: (slug) => `attnlab: проверка решений упражнений курса по вниманию (${LABELS.ru}).

Использование:
${USAGE.replace(/^/gm, '  ')}

Команды:
  list                   все упражнения по порядку курса: функции и число тестов
  grade ФАЙЛ             проверить одно решение и напечатать отчёт
  grade-batch ПАПКА|ZIP  проверить решения группы (grader/batch/README.md)

Параметры grade:
  --exercise SLUG        упражнение; по умолчанию — папка exercises/<slug>/, в которой лежит файл,
                         иначе то, чьи функции файл определяет
${option(`--track ${TRACK_CHOICE}`, `язык решения; по умолчанию по расширению (${byExtension(' — ', 'иначе')})`)}
  --format text|json|gradescope
                         вид отчёта; по умолчанию text (json — results.json Exercism v3,
                         gradescope — results.json Gradescope)
  --lang ru|en           язык сообщений, справки и ошибок; по умолчанию ru
  --seed N               сид случайных входов (0…4294967295); по умолчанию сид упражнения
  --timeout-ms N         предел одного вызова кода студента, мс; по умолчанию timeout_ms упражнения
                         (1000${SCALED.map((t) => `, на ${t.label} ×${t.timeScale}`).join('')})
  --deadline-ms N        бюджет всего решения: время процессора на все его запросы, мс (после
                         него остальные тесты не запускаются); по умолчанию
                         ${budget('на')}
  --backend auto|simd|wasm|webgpu
                         быстрый путь float32 для больших скрытых тестов; по умолчанию auto
  --hints N              показать первые N подсказок к функции, которая не проходит первой (от намёка
                         почти до ответа); по умолчанию 0: только сколько их есть
  --verbose              назвать быстрый путь в итоговой строке, а песочницу — в stderr; по умолчанию
                         выключено
  --require-isolation    не проверять, если ядро не даёт изолировать код студента (bubblewrap:
                         пространства имён, лимиты ядра); по умолчанию без изоляции код идёт
                         в обычном дочернем процессе
  -h, --help             эта справка

Параметры grade-batch:
  --exercise SLUG        упражнение (обязательно)
  --out DIR              папка результатов (обязательно)
  --jobs N               сколько решений проверять одновременно; по умолчанию число ядер
  --force                проверить заново уже проверенные; по умолчанию выключено
  --shard I/N            только I-я из N частей группы; по умолчанию вся группа
  --overrides FILE.csv   решения преподавателя: столбцы student, test (id теста или total), score,
                         reason; по умолчанию нет
  --roster FILE.csv      выгрузка группы из LMS (журнал Canvas, оценки или ведомость задания Moodle):
                         работы сопоставляются со студентами LMS, пишется gradebook-canvas.csv или
                         gradebook-moodle.csv для импорта; по умолчанию нет
  --scale N              перевести баллы в шкалу LMS от 0 до N (1…100000, округление до сотых);
                         по умолчанию баллы как есть
  --due TIME             срок сдачи, ISO 8601 с поясом (2026-12-01T23:59+03:00): работа, файл которой
                         изменён позже, помечается как поздняя; по умолчанию срока нет
  --late-policy SPEC     штраф за опоздание в журнале: penalty:10%/day (или /hour) от максимума за каждый
                         начатый день, cap:50% — не больше, grace:15m — льгота; нужен --due; по умолчанию
                         без штрафа
  --gradebook canvas|moodle
                         (gradebook) журнал в виде для импорта в Canvas или Moodle из проверок
                         с --roster; по умолчанию общий вид gradebook.csv
  --allow-partial        (merge) объединить и без недостающих частей или с частями другой группы,
                         назвав их; по умолчанию такое объединение отклоняется
  --lang, --seed, --timeout-ms, --deadline-ms, --require-isolation   как у grade

Коды выхода:
  0  все тесты пройдены
  1  проверено, есть непройденные тесты или ошибка (в том числе синтаксическая)
  2  проверка не запустилась: неверные аргументы, нет файла (или это не обычный файл, или он больше
     1 МиБ), испорченное упражнение, нет изоляции при --require-isolation

Примеры:
  node grader/cli.mjs grade exercises/${slug}/${EXAMPLE}
  node grader/cli.mjs grade my_attention${DEFAULT.extensions[0]} --exercise ${slug} --format json --lang en
  node grader/cli.mjs grade-batch submissions.zip --exercise ${slug} --out results/ --jobs 4`,
  en: (slug) => `attnlab: grades exercises of the course on attention (${LABELS.en} submissions).

Usage:
${USAGE.replace(/^/gm, '  ')}

Commands:
  list                   every exercise in course order, with its functions and test count
  grade FILE             grade one submission and print the report
  grade-batch FOLDER|ZIP grade a whole class (grader/batch/README.md)

Options of grade:
  --exercise SLUG        the exercise; default: the exercises/<slug>/ folder the file is in, else
                         the one whose functions the file defines
${option(`--track ${TRACK_CHOICE}`, `the submission's language; default: from the extension (${byExtension(': ', 'else')})`)}
  --format text|json|gradescope
                         the report's form; default text (json: Exercism v3 results.json,
                         gradescope: Gradescope results.json)
  --lang ru|en           the language of messages, help and errors; default ru
  --seed N               the seed of the random inputs (0…4294967295); default: the exercise's seed
  --timeout-ms N         the limit of one call into the student's code, in ms; default: the
                         exercise's timeout_ms (1000${SCALED.map((t) => `, ×${t.timeScale} on ${t.label}`).join('')})
  --deadline-ms N        the whole submission's budget: CPU time of all its requests, in ms (past
                         it the other tests are not run); default
                         ${budget('on')}
  --backend auto|simd|wasm|webgpu
                         the float32 fast path for large hidden tests; default auto
  --hints N              show the first N hints for the function that fails first (from a nudge to
                         nearly the answer); default 0: only how many there are
  --verbose              name the fast path in the summary line, and the sandbox on stderr; default off
  --require-isolation    do not grade where the kernel cannot isolate student code (bubblewrap:
                         namespaces, kernel limits); by default such code runs in a plain child process
  -h, --help             this help

Options of grade-batch:
  --exercise SLUG        the exercise (required)
  --out DIR              the results folder (required)
  --jobs N               how many submissions are graded at once; default: the number of cores
  --force                grade again what was already graded; default off
  --shard I/N            only part I of N of the class; default: the whole class
  --overrides FILE.csv   the teacher's decisions: columns student, test (a test id or total), score,
                         reason; default none
  --roster FILE.csv      the class as the LMS exports it (Canvas' gradebook, Moodle's grades or an
                         assignment's grading worksheet): submissions matched to LMS users, and
                         gradebook-canvas.csv or gradebook-moodle.csv written for its import; default none
  --scale N              the points scaled to the LMS's maximum N (1…100000, rounded to 2 decimals);
                         default: the points as they are
  --due TIME             the due time, ISO 8601 with its zone (2026-12-01T23:59+03:00): a submission whose
                         file was modified later is flagged late; default: no due time
  --late-policy SPEC     the gradebook's penalty for lateness: penalty:10%/day (or /hour) of the maximum per
                         period begun, cap:50% at most, grace:15m; needs --due; default: no penalty
  --gradebook canvas|moodle
                         (gradebook) the gradebook in the form Canvas' or Moodle's import reads, from runs
                         with --roster; default: gradebook.csv's general form
  --allow-partial        (merge) merge even with shards missing or of another class, naming them;
                         default: such a merge is refused
  --lang, --seed, --timeout-ms, --deadline-ms, --require-isolation   as for grade

Exit codes:
  0  every test passed
  1  graded, with a failed test or an error (a syntax error included)
  2  not graded: bad arguments, a missing file (or not a regular file, or over 1 MiB), a broken
     exercise pack, no isolation with --require-isolation

Examples:
  node grader/cli.mjs grade exercises/${slug}/${EXAMPLE}
  node grader/cli.mjs grade my_attention${DEFAULT.extensions[0]} --exercise ${slug} --format json --lang en
  node grader/cli.mjs grade-batch submissions.zip --exercise ${slug} --out results/ --jobs 4`,
};

const ERRORS = {
  ru: {
    prefix: 'attnlab',
    more: 'Справка: node grader/cli.mjs --help',
    unknown_option: 'неизвестный параметр {option}',
    unknown_command: 'неизвестная команда «{command}»',
    did_you_mean: 'может быть, {suggestion}?',
    missing_command: 'не указана команда (list, grade или grade-batch)',
    missing_value: 'параметру {option} нужно значение',
    no_value: 'параметр {option} не принимает значения',
    bad_value: 'у параметра {option} значение должно быть {allowed}, а не «{value}»',
    int: 'у параметра {option} значение должно быть целым числом от {min} до {max}, а не «{value}»',
    shard: 'у параметра --shard значение должно быть I/N, где 1 ≤ I ≤ N, а не «{value}»',
    due: 'у параметра --due значение должно быть временем ISO 8601 с часовым поясом (2026-12-01T23:59+03:00 или …Z), а не «{value}»',
    late_policy:
      'у параметра --late-policy значение должно быть из penalty:P%/day или penalty:P%/hour, cap:C%, grace:N(m|h|d) через запятую (P, C до 100), а не «{value}»',
    extra: 'лишний аргумент «{arg}»',
    missing_file: 'не указан файл решения',
    batch_input: 'grade-batch нужна папка или zip-архив с решениями',
    batch_dirs: 'grade-batch {command} нужна хотя бы одна папка результатов',
    batch_only: 'grade-batch {command} принимает только {allowed}, а не {option}',
    merge_only: '{option} — параметр grade-batch merge',
    gradebook_only: '{option} — параметр grade-batch gradebook',
    needs: '{command} нужен параметр {option}',
    needs_exercise: 'grade-batch нужен параметр --exercise (одно из: {slugs})',
    unknown_exercise: 'нет упражнения «{slug}» (есть: {slugs})',
    no_file: 'нет такого файла: {file}',
    read: 'не удалось прочитать {file}: {message}',
    not_regular: '{file} — {kind}, а не обычный файл: проверяется только файл с кодом',
    kind_directory: 'папка',
    kind_fifo: 'именованный канал (FIFO)',
    kind_char: 'символьное устройство',
    kind_block: 'блочное устройство',
    kind_socket: 'сокет',
    kind_other: 'особый файл',
    too_big: '{file} занимает {size} байт, больше предела {cap}: такой файл не читается',
    isolation_required:
      'ядро не даёт изолировать код студента ({reason}); с --require-isolation проверка без изоляции не запускается',
    isolation_on:
      'песочница: {mechanism} (свои пространства имён: без сети, файлы только для чтения, свои процессы; лимиты ядра)',
    isolation_off: 'песочница без изоляции ОС ({reason}): код студента идёт в обычном дочернем процессе',
    which: 'непонятно, к какому упражнению относится {file} ({why}); укажите --exercise {slugs}',
    which_could: 'это может быть {slugs}',
    which_none: 'он не определяет ни одной из их функций',
    backend: '--backend {backend} здесь недоступен: {message}',
    pack: 'ошибка в упражнении:',
    or: ' или ',
    progress: 'проверено {done} из {total}: {id} — {status}',
    running: 'проверяется {n} из {total}…',
  },
  en: {
    prefix: 'attnlab',
    more: 'Help: node grader/cli.mjs --help',
    unknown_option: 'unknown option {option}',
    unknown_command: 'unknown command "{command}"',
    did_you_mean: 'did you mean {suggestion}?',
    missing_command: 'missing command (list, grade or grade-batch)',
    missing_value: 'option {option} needs a value',
    no_value: 'option {option} takes no value',
    bad_value: '{option} must be {allowed}, got "{value}"',
    int: '{option} must be an integer from {min} to {max}, got "{value}"',
    shard: '--shard must be I/N with 1 ≤ I ≤ N, got "{value}"',
    due: '--due must be an ISO 8601 time with its zone (2026-12-01T23:59+03:00 or …Z), got "{value}"',
    late_policy:
      '--late-policy must be penalty:P%/day or penalty:P%/hour, cap:C%, grace:N(m|h|d), separated by commas (P, C at most 100), got "{value}"',
    extra: 'unexpected argument "{arg}"',
    missing_file: 'missing <submission> file',
    batch_input: 'grade-batch needs a folder or a zip of submissions',
    batch_dirs: 'grade-batch {command} needs at least one output folder',
    batch_only: 'grade-batch {command} takes only {allowed}, got {option}',
    merge_only: '{option} is an option of grade-batch merge',
    gradebook_only: '{option} is an option of grade-batch gradebook',
    needs: '{command} needs {option}',
    needs_exercise: 'grade-batch needs --exercise (one of {slugs})',
    unknown_exercise: 'unknown exercise "{slug}" (exercises: {slugs})',
    no_file: 'no such file: {file}',
    read: 'cannot read {file}: {message}',
    not_regular: '{file} is a {kind}, not a regular file: only a file of code is graded',
    kind_directory: 'folder',
    kind_fifo: 'named pipe (FIFO)',
    kind_char: 'character device',
    kind_block: 'block device',
    kind_socket: 'socket',
    kind_other: 'special file',
    too_big: '{file} is {size} bytes, more than the limit of {cap}: it is not read',
    isolation_required:
      'the kernel cannot isolate student code here ({reason}); --require-isolation refuses to grade without it',
    isolation_on:
      'sandbox: {mechanism} (namespaces of its own: no network, read-only files, its own processes; kernel limits)',
    isolation_off: 'sandbox without OS isolation ({reason}): student code runs in a plain child process',
    which: 'cannot tell which exercise {file} is for ({why}); say --exercise {slugs}',
    which_could: 'it could be {slugs}',
    which_none: 'it defines none of their functions',
    backend: '--backend {backend} is not available here: {message}',
    pack: 'exercise pack error:',
    or: ' or ',
    progress: 'checked {done} of {total}: {id} — {status}',
    running: 'checking {n} of {total}…',
  },
};

/** The CLI's language: the last valid --lang in argv (read before the arguments are parsed, so that parsing errors speak it too), else ru. */
export function cliLang(argv) {
  let lang = 'ru';
  argv.forEach((a, i) => {
    const v = a === '--lang' ? argv[i + 1] : a.startsWith('--lang=') ? a.slice(7) : null;
    if (v === 'ru' || v === 'en') lang = v;
  });
  return lang;
}

/** --help in `lang`; its examples grade the pack `slug` (the course's first: no pack is named in the grader's code). */
export const helpText = (lang, slug) => (HELP[lang] ?? HELP.ru)(slug);

/** A CLI sentence by key, `{name}` fields filled in. */
export function cliSay(lang, key, params = {}) {
  const table = ERRORS[lang] ?? ERRORS.ru;
  return (table[key] ?? ERRORS.en[key] ?? key).replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** Optimal string alignment distance (Levenshtein with adjacent transpositions: fromat → format is 1). */
export function editDistance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The closest of `candidates` to `word` when it is close enough to be a slip (≤ 1 edit for words of 3–4 letters, ≤ 2 for longer ones, or the one candidate it begins; none for 1–2 letters), else null. */
export function closest(word, candidates) {
  const bare = (s) => s.replace(/^-+/, '').toLowerCase();
  let best = null,
    bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(bare(word), bare(c));
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  const w = bare(word);
  if (w.length < 3) return null; // one or two letters: anything is one slip away
  if (best && bestD <= (w.length <= 4 ? 1 : 2)) return best;
  const prefixed = w.length >= 3 ? candidates.filter((c) => bare(c).startsWith(w)) : [];
  return prefixed.length === 1 ? prefixed[0] : null;
}
