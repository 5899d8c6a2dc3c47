// Page strings (the exercise's own texts and the grader's messages come from exercises/ and grader/).
export const STRINGS = {
  ru: {
    skip: 'Перейти к редактору',
    task: 'Задание',
    code: 'Код',
    run: 'Запустить',
    check: 'Проверить',
    hint: 'Подсказка',
    reset: 'Сбросить',
    output: 'Вывод',
    results: 'Тесты',
    heatmap: 'Веса внимания: пример из урока',
    heatNote:
      'Строка — запрос (кто смотрит), столбец — ключ (на кого). Закрытые маской клетки заштрихованы, отличия от эталона обведены красным.',
    resetQ: 'Вернуть исходный код?',
    resetBody: 'Ваш код будет заменён заготовкой задания.',
    cancel: 'Отмена',
    resetOk: 'Сбросить',
    backendTitle: (why) =>
      `Бэкенд быстрых float32-вычислений (панель «Масштаб»); проверка всегда идёт по эталону в double.\n${why}`,
    backendFellBack: (why) => `WebGPU отказал, вычисления переключены на CPU.\n${why}`,
    backendLoading: 'Выбирается вычислительный бэкенд…',
    backendLabel: 'Вычисляет:',
    threadsN: (n) =>
      `${n} ${n % 10 === 1 && n % 100 !== 11 ? 'поток' : [2, 3, 4].includes(n % 10) && ![12, 13, 14].includes(n % 100) ? 'потока' : 'потоков'}`,
    memoryBtn: 'Память',
    memoryH: 'Память: что строит ваша функция при разных T',
    memoryRun: 'Измерить снова',
    memoryNote:
      'Случайные Q, K, V формы (T, 64). Ваша функция работает в песочнице, а движок np записывает каждый массив, который она создаёт: самый большой и сколько байт всего (представления вроде reshape и сами входы не считаются).',
    memoryProgress: (T) => `Измеряется T = ${T}…`,
    memoryDone: (n) => `Готово, измерено точек: ${n}.`,
    memory: {
      axisT: 'T — длина последовательности (токенов)',
      axisBytes: 'байты',
      caption: (d, b) =>
        `Самый большой массив и все созданные массивы вместе от T, обе оси логарифмические (d = ${d}). Вся матрица оценок T×T растёт как T² (пунктир); FlashAttention держит за раз один блок оценок, T × ${b ?? 'block_size'}, который растёт как T (красный пунктир). «Все созданные массивы» — сумма за весь вызов, включая давно ненужные, поэтому и у верного решения она растёт как T²: отличает блоки от всей матрицы самый большой массив.`,
      largest: 'Самый большой массив',
      bytes: 'Все созданные массивы',
      line: 'Строка',
      matrix: 'Вся матрица оценок T×T',
      block: (b) => `Один блок оценок, T × ${b}`,
      tableCaption: 'Что построил один вызов (d = 64)',
      stopped: { timeout: 'прервано по времени', memory: 'превышен лимит памяти', after: 'пропущено' },
      error: (e) =>
        ({
          syntax: () => `синтаксическая ошибка, строка ${e.line}: ${e.message}`,
          load: () => `скрипт не загрузился: ${e.message}`,
          missing: () => `функция ${e.fn} не определена`,
          error: () => `ошибка${e.line ? ` (строка ${e.line})` : ''}: ${e.message}`,
        })[e.kind](),
    },
    scaleBtn: 'Масштаб',
    scaleH: 'Масштаб: время attention от длины T',
    scaleRun: 'Измерить снова',
    scaleNote:
      'Случайные Q, K, V формы (T, 64) и причинная маска. Ваша функция работает в песочнице; размер, с которым она не справляется за 1 с, прерывается, а бо́льшие пропускаются.',
    scaleProgress: (what, T) => `Измеряется: ${what}, T = ${T}…`,
    scaleBusy: 'Подождите: идёт другая операция.',
    scaleDone: (n) => `Готово, измерено точек: ${n}.`,
    scale: {
      student: (track) => `Ваша attention (${track})`,
      units: ['мкс', 'мс', 'с'],
      axisT: 'T — длина последовательности (токенов)',
      axisMs: 'время одного вызова',
      caption: (d) =>
        `Время одного вызова от T, обе оси логарифмические (d = ${d}, причинная маска). Каждый из T запросов сравнивается с T ключами, матрица весов — T×T, поэтому работа растёт как T²: удвоение T даёт примерно вчетверо больше времени, а на графике это прямая с наклоном 2 (пунктир). При малых T время уходит на накладные расходы вызова, и кривые там положе; маска отбрасывает половину пар, но степень не меняет.`,
      limit: (t) => `предел ${t}`,
      guide: '∝ T² (наклон 2)',
      slope: (k) => `наклон ≈ ${k}`,
      none: 'нет точек',
      // The backend's reason is for developers (the badge's title); the legend says it in plain words.
      noGpu: (why) =>
        /^requested:/.test(why)
          ? 'не измерялось: выбран бэкенд на CPU (?backend=)'
          : 'WebGPU в этом браузере недоступен',
      swiftshader:
        'WebGPU здесь работает на SwiftShader (эмуляция на CPU): эти времена ничего не говорят о настоящих GPU.',
      tableCaption: 'Время одного вызова (d = 64, причинная маска)',
      skip: {
        timeout: (t) => `> ${t}, прервано`,
        memory: () => 'превышен лимит памяти',
        predicted: (t) => `не запускалось (≈ ${t})`,
        after: () => 'пропущено',
      },
      error: (e) =>
        ({
          syntax: () => `синтаксическая ошибка, строка ${e.line}: ${e.message}`,
          load: () =>
            e.message ? `скрипт упал при запуске: ${e.message}` : 'скрипт не завершился за отведённое время',
          missing: () => `функция ${e.fn} не определена`,
          notPair: () => 'attention вернула не пару [out, weights]',
          error: () => `ошибка${e.line ? ` (строка ${e.line})` : ''}: ${e.message}`,
        })[e.kind](),
    },
    langSwitch: 'English',
    editorLabel: (track) => `Редактор кода (${track})`,
    trackGroup: 'Язык решения',
    trackTitle: (track) => `Решать на ${track}: у каждого языка свой код`,
    exercise: 'Упражнение',
    unknownExercise: (slug, shown, all) =>
      `Упражнения «${slug}» здесь нет, открыто «${shown}». Есть: ${all.join(', ')}.`,
    running: 'Выполняется…',
    checking: 'Проверяется…',
    noOutput: 'Скрипт выполнен, он ничего не напечатал.',
    line: (n) => `строка ${n}`,
    goToLine: (n) => `Перейти к строке ${n}`,
    summary: (p, t) => `${p}/${t}`,
    summaryLong: (p, t) => `Пройдено тестов: ${p} из ${t}`,
    status: { pass: 'пройден', fail: 'не пройден', error: 'ошибка' },
    output_: 'вывод',
    hintN: (i, n) => `Подсказка ${i} из ${n}`,
    hintsDone: (n) => `Показаны все подсказки (${n}).`,
    noHints: 'Подсказок нет.',
    hintsFor: (fn) => `Подсказки к функции ${fn}`,
    yours: 'Ваши веса',
    reference: 'Эталон',
    heatWait: 'Нажмите «Запустить» или «Проверить», чтобы увидеть веса вашей функции.',
    heatMissing: (fn) => `Функция ${fn} не определена.`,
    heatNotImpl: (fn) => `${fn} не вернула веса внимания.`,
    heatShape: (want, got) => `Веса должны иметь форму ${want}, получено ${got}.`,
    masked: 'закрыто маской',
    cell: (q, k, v) => `${q} → ${k}: ${v}`,
    coreFailed: (m) => `Не удалось загрузить вычислительное ядро: ${m}`,
    packFailed: 'Не удалось загрузить упражнение: файл не пришёл (сеть прервалась?). Код сохранён; обновите страницу.',
    // embed mode refused (web/src/embed.js embedRefusal): why
    embedRefused: {
      noParent:
        'Упражнение открыто в режиме встраивания без адреса страницы курса (parent-origin) и здесь не работает. Откройте его на сайте упражнения.',
      notParent: (o, real) =>
        `Упражнение встроено страницей ${real}, а адрес в ссылке — ${o}: так нельзя, оно здесь не работает.`,
      off: 'Сервер упражнения не разрешает встраивать его в другие страницы (список страниц курса не задан). Откройте упражнение на его сайте.',
      noList: 'Не удалось прочитать у сервера упражнения список страниц, где его можно встраивать: обновите страницу.',
      notListed: (o) =>
        `Сервер упражнения не разрешает встраивать его на страницы ${o}: этого адреса нет в его списке. Откройте упражнение на его сайте или попросите автора курса добавить адрес.`,
    },
    lms: {
      // a SCORM package in a course's system (web/src/scorm.js)
      refused: (why) =>
        `Система курса не подключилась (${why}): результат туда не попадёт, код хранится только в этом браузере.`,
      restored: 'Код восстановлен из системы курса: вы продолжаете с того места, где остановились.',
      sent: (p, n) => `Результат ${p}/${n} отправлен в систему курса.`,
      sentBest: (p, n, best) => `Результат ${p}/${n}; система курса хранит ваш лучший результат, ${best} из 100.`,
      stored: (raw, passed) =>
        passed
          ? `В системе курса ваш результат: ${raw} из 100, задание зачтено.`
          : `В системе курса ваш лучший результат пока ${raw} из 100, задание ещё не зачтено.`,
      review: (mode) =>
        `Режим ${mode === 'browse' ? 'просмотра' : 'повторного просмотра'}: в систему курса ничего не записывается.`,
      noCredit: 'Эта попытка без оценки: в систему курса ничего не записывается.',
      exit: 'Выйти в курс',
      ended:
        'Этот сеанс уже завершён: система курса больше ничего не записывает. Чтобы продолжить, откройте упражнение из курса снова.',
      notRecorded: (p, n, why) => `Результат ${p}/${n} не записан. ${why}`,
      notSent: (why) => `Система курса не приняла результат (${why}).`,
      nearlyFull: (n, max) =>
        `Код занимает ${n} из ${max} символов, которые система курса может хранить: если он станет длиннее, он будет сохраняться только в этом браузере.`,
      tooLong: (n, max) =>
        `Код не помещается в хранилище курса: в сжатом виде ${n} символов при пределе ${max}. Он сохранён только в этом браузере; чтобы продолжить на другом компьютере, сократите его (например, длинные комментарии).`,
    },
    // layouts, theme, comforts
    tabsLabel: 'Разделы страницы',
    resultsTab: 'Результаты',
    themeDark: 'Тёмная тема',
    themeLight: 'Светлая тема',
    saved: 'Сохранено',
    cheer: (n) => `Пройдены все тесты (${n}) — отлично!`,
    cheerNext: 'Следующее упражнение:',
    cheerLast: 'Это было последнее упражнение курса.',
    solutionBtn: 'Решение',
    solutionH: (track) => `Эталонное решение (${track})`,
    solutionNote: 'Только для чтения. Сравните его со своим кодом: ваш код не изменился.',
    solutionLabel: (track) => `Эталонное решение, ${track}, только для чтения`,
    solutionLoading: 'Решение загружается…',
    solutionFailed: (why) => `Не удалось загрузить решение (${why}). Проверьте сеть и нажмите «Решение» ещё раз.`,
    solutionCheer: 'Теперь можно сравнить свой код с эталонным решением:',
    solutionShow: 'показать решение',
    solutionBadParam: (value, when) =>
      `Параметр ?solution=${value} не распознан (допустимы after-pass, always и never): действует настройка упражнения, ${when}.`,
    crashed: (action) =>
      `${{ check: 'Последняя проверка не завершилась', run: 'Последний запуск не завершился', scale: 'Последнее измерение масштаба не завершилось' }[action] ?? 'Последний запуск не завершился'}: браузер закрыл страницу, пока выполнялся ваш код. Код сохранён. Проверьте, нет ли массива или строки, которые становятся огромными (цикл, который без конца выделяет память, split('') огромной строки), или бесконечной рекурсии.`,
    // the student's flow: verdict line, progress, Stop, pending tests, hints drawer
    stop: 'Остановить',
    hintsH: 'Подсказки',
    hintNext: 'Ещё подсказка',
    close: 'Закрыть',
    pending: 'ожидает',
    notChecked: 'не проверен',
    verdictAll: (n) => `Все тесты пройдены: ${n} из ${n}.`,
    verdictFail: (p, n) => `Пройдено ${p} из ${n} — первая ошибка: `,
    verdictLoad: 'код не загрузился',
    progress: (done, n) => `Проверено ${done} из ${n}…`,
    stale: 'Результаты относятся к прежней версии кода — нажмите «Проверить» ещё раз.',
    stopped: {
      check: 'Проверка остановлена, результаты неполные. Нажмите «Проверить», чтобы проверить заново.',
      run: 'Запуск остановлен.',
    },
    sameCauseIn: 'Эта же причина и в тестах:',
    testOutput: 'Что напечатал код в этом тесте',
    testCode: 'Код теста',
    trackQueued: (label) => `Переключусь на ${label}, как только закончится текущая операция.`,
    // the badge's reason in the page's language (en: the backend's own technical lines; ru: what runs, in words)
    backendWhy: (b) =>
      `Сейчас считает ${b.label}${b.threads > 1 ? `, ${b.threads} ${b.threads % 10 === 1 && b.threads % 100 !== 11 ? 'поток' : [2, 3, 4].includes(b.threads % 10) && ![12, 13, 14].includes(b.threads % 100) ? 'потока' : 'потоков'}` : ', один поток'}. Технические подробности — на английской странице.`,
  },
  en: {
    skip: 'Skip to the editor',
    task: 'Task',
    code: 'Code',
    run: 'Run',
    check: 'Check',
    hint: 'Hint',
    reset: 'Reset',
    output: 'Output',
    results: 'Tests',
    heatmap: 'Attention weights: the lesson example',
    heatNote:
      'A row is a query (who looks), a column is a key (at whom). Cells closed by the mask are hatched; cells that differ from the reference are outlined in red.',
    resetQ: 'Restore the starter code?',
    resetBody: 'Your code will be replaced with the exercise starter.',
    cancel: 'Cancel',
    resetOk: 'Reset',
    backendTitle: (why) =>
      `Backend of the fast float32 path (the Scale panel); grading always uses the double-precision reference.\n${why}`,
    backendFellBack: (why) => `WebGPU failed; computing on the CPU instead.\n${why}`,
    backendLoading: 'Choosing the compute backend…',
    backendLabel: 'Computed by:',
    threadsN: (n) => `${n} thread${n === 1 ? '' : 's'}`,
    memoryBtn: 'Memory',
    memoryH: 'Memory: what your function builds as T grows',
    memoryRun: 'Measure again',
    memoryNote:
      'Random Q, K, V of shape (T, 64). Your function runs in the sandbox while the np engine records every array it creates: the largest one, and how many bytes in all (views such as reshape, and the inputs themselves, are not counted).',
    memoryProgress: (T) => `Measuring T = ${T}…`,
    memoryDone: (n) => `Done: ${n} points measured.`,
    memory: {
      axisT: 'T: sequence length (tokens)',
      axisBytes: 'bytes',
      caption: (d, b) =>
        `The largest array and all arrays created together against T, both axes logarithmic (d = ${d}). The whole T×T score matrix grows as T² (dashed); FlashAttention keeps one block of scores at a time, T × ${b ?? 'block_size'}, which grows as T (red dots). “All arrays created” sums the whole call, arrays long dropped included, so it grows as T² for a correct solution too: the largest array is what tells blocks from the whole matrix.`,
      largest: 'The largest array',
      bytes: 'All arrays created',
      line: 'Line',
      matrix: 'The whole T×T score matrix',
      block: (b) => `One block of scores, T × ${b}`,
      tableCaption: 'What one call built (d = 64)',
      stopped: { timeout: 'stopped at the time limit', memory: 'over the memory limit', after: 'skipped' },
      error: (e) =>
        ({
          syntax: () => `syntax error, line ${e.line}: ${e.message}`,
          load: () => `the script did not load: ${e.message}`,
          missing: () => `${e.fn} is not defined`,
          error: () => `error${e.line ? ` (line ${e.line})` : ''}: ${e.message}`,
        })[e.kind](),
    },
    scaleBtn: 'Scale',
    scaleH: 'Scale: attention time against the length T',
    scaleRun: 'Measure again',
    scaleNote:
      'Random Q, K, V of shape (T, 64) and a causal mask. Your function runs in the sandbox; a size it cannot finish within 1 s is cut off and larger ones are skipped.',
    scaleProgress: (what, T) => `Measuring: ${what}, T = ${T}…`,
    scaleBusy: 'Please wait: another action is running.',
    scaleDone: (n) => `Done, ${n} points measured.`,
    scale: {
      student: (track) => `Your attention (${track})`,
      units: ['µs', 'ms', 's'],
      axisT: 'T — sequence length (tokens)',
      axisMs: 'time per call',
      caption: (d) =>
        `Time per call against T, both axes logarithmic (d = ${d}, causal mask). Each of the T queries is compared with T keys and the weights are a T×T matrix, so the work grows as T²: doubling T takes about four times as long, which on this plot is a line of slope 2 (dashed). At small T the fixed cost of a call dominates, so the curves are flatter there; the mask drops half of the pairs but not the power.`,
      limit: (t) => `limit ${t}`,
      guide: '∝ T² (slope 2)',
      slope: (k) => `slope ≈ ${k}`,
      none: 'no points',
      noGpu: (why) =>
        /^requested:/.test(why)
          ? 'not measured: a CPU backend was chosen (?backend=)'
          : 'WebGPU is not available in this browser',
      swiftshader: 'WebGPU runs on SwiftShader here (a CPU emulation): these times say nothing about real GPUs.',
      tableCaption: 'Time per call (d = 64, causal mask)',
      skip: {
        timeout: (t) => `> ${t}, cut off`,
        memory: () => 'memory limit reached',
        predicted: (t) => `not started (≈ ${t})`,
        after: () => 'skipped',
      },
      error: (e) =>
        ({
          syntax: () => `syntax error, line ${e.line}: ${e.message}`,
          load: () => (e.message ? `the script failed at start: ${e.message}` : 'the script did not finish in time'),
          missing: () => `the function ${e.fn} is not defined`,
          notPair: () => 'attention did not return a pair [out, weights]',
          error: () => `error${e.line ? ` (line ${e.line})` : ''}: ${e.message}`,
        })[e.kind](),
    },
    langSwitch: 'Русский',
    editorLabel: (track) => `Code editor (${track})`,
    trackGroup: 'Solution language',
    trackTitle: (track) => `Solve it in ${track}: each language keeps its own code`,
    exercise: 'Exercise',
    unknownExercise: (slug, shown, all) =>
      `There is no exercise “${slug}” here; showing “${shown}”. Exercises: ${all.join(', ')}.`,
    running: 'Running…',
    checking: 'Checking…',
    noOutput: 'The script finished and printed nothing.',
    line: (n) => `line ${n}`,
    goToLine: (n) => `Go to line ${n}`,
    summary: (p, t) => `${p}/${t}`,
    summaryLong: (p, t) => `Tests passed: ${p} of ${t}`,
    status: { pass: 'passed', fail: 'failed', error: 'error' },
    output_: 'output',
    hintN: (i, n) => `Hint ${i} of ${n}`,
    hintsDone: (n) => `All hints are shown (${n}).`,
    noHints: 'No hints.',
    hintsFor: (fn) => `Hints for ${fn}`,
    yours: 'Your weights',
    reference: 'Reference',
    heatWait: 'Press Run or Check to see the weights of your function.',
    heatMissing: (fn) => `The function ${fn} is not defined.`,
    heatNotImpl: (fn) => `${fn} did not return attention weights.`,
    heatShape: (want, got) => `The weights must have shape ${want}, got ${got}.`,
    masked: 'masked',
    cell: (q, k, v) => `${q} → ${k}: ${v}`,
    coreFailed: (m) => `Could not load the compute core: ${m}`,
    packFailed:
      'Could not load the exercise: a file did not arrive (did the network drop?). Your code is kept; reload the page.',
    embedRefused: {
      noParent:
        "The exercise was opened in embed mode without the course page's address (parent-origin) and does not work here. Open it on the exercise's own site.",
      notParent: (o, real) => `The exercise is embedded by ${real}, but its link names ${o}: it does not work here.`,
      off: "The exercise's server does not allow embedding it in other pages (no list of course pages is set). Open the exercise on its own site.",
      noList: "Could not read the exercise server's list of pages that may embed it: reload the page.",
      notListed: (o) =>
        `The exercise's server does not allow embedding it in pages of ${o}: that origin is not in its list. Open the exercise on its own site, or ask the course's author to add it.`,
    },
    lms: {
      refused: (why) =>
        `The course's system did not connect (${why}): the result will not reach it, and the code is kept in this browser only.`,
      restored: 'Your code was restored from the course: you continue where you stopped.',
      sent: (p, n) => `Result ${p}/${n} sent to the course's system.`,
      sentBest: (p, n, best) => `Result ${p}/${n}; the course's system keeps your best result, ${best} of 100.`,
      stored: (raw, passed) =>
        passed
          ? `The course's system holds your result: ${raw} of 100, passed.`
          : `The course's system holds your best result so far: ${raw} of 100, not passed yet.`,
      review: (mode) => `${mode === 'browse' ? 'Browse' : 'Review'} mode: nothing is recorded in the course's system.`,
      noCredit: "This attempt is for no credit: nothing is recorded in the course's system.",
      exit: 'Back to the course',
      ended:
        "This session has ended: the course's system records nothing more. To go on, open the exercise from the course again.",
      notRecorded: (p, n, why) => `Result ${p}/${n}, not recorded. ${why}`,
      notSent: (why) => `The course's system did not accept the result (${why}).`,
      nearlyFull: (n, max) =>
        `Your code takes ${n} of the ${max} characters the course's system can keep: if it grows beyond that, it will be kept in this browser only.`,
      tooLong: (n, max) =>
        `Your code does not fit in the course's storage: ${n} characters compressed, the limit is ${max}. It is kept in this browser only; to continue on another computer, shorten it (long comments, for instance).`,
    },
    // layouts, theme, comforts
    tabsLabel: 'Page sections',
    resultsTab: 'Results',
    themeDark: 'Dark theme',
    themeLight: 'Light theme',
    saved: 'Saved',
    cheer: (n) => `All ${n} tests passed — well done!`,
    cheerNext: 'Next exercise:',
    cheerLast: 'That was the last exercise of the course.',
    solutionBtn: 'Solution',
    solutionH: (track) => `Reference solution (${track})`,
    solutionNote: 'Read-only. Compare it with your code, which is unchanged.',
    solutionLabel: (track) => `Reference solution, ${track}, read-only`,
    solutionLoading: 'Loading the solution…',
    solutionFailed: (why) => `The solution could not be loaded (${why}). Check the network and press Solution again.`,
    solutionCheer: 'You can now compare your code with the reference solution:',
    solutionShow: 'show the solution',
    solutionBadParam: (value, when) =>
      `?solution=${value} is not a setting (after-pass, always or never): the exercise's own setting is used, ${when}.`,
    crashed: (action) =>
      `The last ${{ check: 'Check', run: 'Run', scale: 'Scale measurement' }[action] ?? 'run'} did not finish: the browser closed the page while your code was running. Your code is kept. Look for an array or string that grows huge (a loop that allocates without end, split('') of a huge string), or recursion without end.`,
    // the student's flow: verdict line, progress, Stop, pending tests, hints drawer
    stop: 'Stop',
    hintsH: 'Hints',
    hintNext: 'Next hint',
    close: 'Close',
    pending: 'pending',
    notChecked: 'not checked',
    verdictAll: (n) => `All tests passed: ${n} of ${n}.`,
    verdictFail: (p, n) => `${p} of ${n} passed — first failure: `,
    verdictLoad: 'the code did not load',
    progress: (done, n) => `Checked ${done} of ${n}…`,
    stale: 'These results belong to an earlier version of the code — press Check again.',
    stopped: { check: 'Check stopped, the results are incomplete. Press Check to start over.', run: 'Run stopped.' },
    sameCauseIn: 'The same cause also fails:',
    testOutput: 'What the code printed in this test',
    testCode: "The test's code",
    trackQueued: (label) => `Switching to ${label} as soon as the current action ends.`,
    // the badge's reason in the page's language (en: the backend's own technical lines; ru: what runs, in words)
    backendWhy: (b, notes) => [b.reason, ...notes].join('\n'),
  },
};
