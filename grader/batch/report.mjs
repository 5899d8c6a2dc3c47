// report.html: the teacher's report of a batch, one self-contained file (inline CSS, SVG and a few
// lines of script to sort the table and to page through the similar pairs, kept as JSON data and drawn as
// text; nothing fetched, so it opens offline), and a page per student (#student/<key>: their tests, code, history,
// similar submissions) drawn from the same data. Every text from a submission (names, messages, code) is
// HTML-escaped or set as text; the diagnosis examples carry no student's name.
import { passRates, commonDiagnoses, causeCounts } from './summary.mjs';
import { capText, visible } from '../wire/text.mjs';
import { renderReport } from '../reporters/index.mjs';
import { TRACKS } from '../tracks/index.mjs';

/** Text for HTML: control and bidi characters shown as escapes (wire/text.mjs visible()), then & < > " ' escaped. */
export const escapeHtml = (s) =>
  visible(String(s ?? '')).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
const EXAMPLE_CHARS = 400,
  PAIRS_PER_PAGE = 25,
  MESSAGE_CHARS = 2000,
  // What of a source the report holds (a student page's code, a pair's sides): its first lines, each capped, up to a total.
  SOURCE_LINES = 1000,
  LINE_CHARS = 200,
  SOURCE_CHARS = 64 * 1024,
  PARTNERS = 50;

const WORDS = {
  en: {
    title: 'Batch report',
    submissions: 'submissions',
    scores: 'Score distribution',
    score: 'score',
    students: 'students',
    rates: 'Pass rate per test',
    diagnoses: 'Diagnoses by cause: students with each',
    example: 'example',
    none: 'none',
    similar: 'Similar submissions (for a human to look at; never a penalty)',
    shared: 'shared fingerprints',
    clusters: 'Clusters (submissions linked by any pair below)',
    changes: 'Since the last run',
    change: 'change',
    changeKinds: {
      new: 'new',
      resubmitted: 'resubmitted',
      regraded: 'regraded (the same file, another verdict)',
      removed: 'no longer in the input',
    },
    graded: 'graded',
    overridden: 'overridden by the teacher',
    grade: 'grade',
    late: 'late',
    penalty: 'penalty',
    cpu: 'CPU, ms',
    memory: 'peak memory, MiB',
    search: 'Find a student, a test or a diagnosis',
    times: 'times; scores',
    members: 'members',
    kind: 'kind',
    evidence: 'strongest evidence',
    kinds: { exact: 'exact copy', near: 'near-exact copy (comments, spacing or names differ)', similar: 'similar' },
    pairs: 'pairs',
    page: 'page',
    prev: '← previous',
    next: 'next →',
    table: 'Students (click a column to sort)',
    student: 'student',
    status: 'status',
    track: 'track',
    file: 'file',
    regrade: 'Regrade',
    changed: 'scores changed',
    from: 'pack version',
    nochange: 'no score changed',
    seed: 'seed',
    version: 'pack version',
    causes: 'Failing tests by cause',
    byTest: 'per test',
    byFunction: 'per function',
    cause: 'cause',
    failing: 'failing tests',
    packagingHead: 'Packaging: the file could not be taken as code',
    codeHead: 'The code ran: what the tests found',
    packaging: {
      'batch.too_big': 'file over the size cap',
      'batch.unreadable': 'file that could not be read',
      'batch.notebook': 'notebook that does not parse',
      'batch.no_code': 'no code file',
      'batch.duplicate': 'repeated zip entries',
      'batch.ambiguous': 'several files, none the submission',
      'batch.no_track': 'a language the exercise has no track for',
      'not_run.syntax': 'syntax error',
      'batch.input': 'file not taken',
    },
    open: 'open the student’s page',
    back: '← back to the class',
    tests: 'Tests',
    code: 'Code',
    notShown: 'more lines not shown',
    noCode: 'no code was read',
    notes: 'Notes',
    history: 'History (every grading)',
    time: 'time (UTC)',
    content: 'content',
    similarTo: 'Similar submissions',
    noSimilar: 'none',
    more: '… and {n} more',
    onTime: 'on time',
    statuses: { pass: 'passed', fail: 'failed', error: 'error' },
  },
  ru: {
    title: 'Отчёт по проверке',
    submissions: 'работ',
    scores: 'Распределение баллов',
    score: 'баллы',
    students: 'студентов',
    rates: 'Доля прошедших по тестам',
    diagnoses: 'Причины ошибок: у скольких студентов',
    example: 'пример',
    none: 'нет',
    similar: 'Похожие работы (для просмотра человеком; не штраф)',
    shared: 'общих отпечатков',
    clusters: 'Группы (работы, связанные любой из пар ниже)',
    changes: 'С прошлой проверки',
    change: 'что изменилось',
    changeKinds: {
      new: 'новая',
      resubmitted: 'сдана заново',
      regraded: 'перепроверена (тот же файл, другой результат)',
      removed: 'больше нет во входных данных',
    },
    graded: 'проверена',
    overridden: 'изменено преподавателем',
    grade: 'оценка',
    late: 'опоздание',
    penalty: 'штраф',
    cpu: 'ЦП, мс',
    memory: 'пик памяти, МиБ',
    search: 'Найти студента, тест или причину',
    times: 'раз(а); баллы',
    members: 'участники',
    kind: 'вид',
    evidence: 'самое сильное свидетельство',
    kinds: {
      exact: 'точная копия',
      near: 'почти точная копия (отличаются комментарии, пробелы или имена)',
      similar: 'похожи',
    },
    pairs: 'пар',
    page: 'страница',
    prev: '← назад',
    next: 'дальше →',
    table: 'Студенты (щелчок по столбцу сортирует)',
    student: 'студент',
    status: 'статус',
    track: 'язык',
    file: 'файл',
    regrade: 'Перепроверка',
    changed: 'изменились баллы',
    from: 'версия пакета',
    nochange: 'баллы не изменились',
    seed: 'seed',
    version: 'версия пакета',
    causes: 'Непройденные тесты по причинам',
    byTest: 'по тестам',
    byFunction: 'по функциям',
    cause: 'причина',
    failing: 'непройденных тестов',
    packagingHead: 'Сдача: файл не удалось взять как код',
    codeHead: 'Код запускался: что нашли тесты',
    packaging: {
      'batch.too_big': 'файл больше предела',
      'batch.unreadable': 'файл не прочитать',
      'batch.notebook': 'блокнот не разбирается',
      'batch.no_code': 'нет файла с кодом',
      'batch.duplicate': 'повторы записей в zip',
      'batch.ambiguous': 'несколько файлов, работа неясна',
      'batch.no_track': 'язык, которого нет в упражнении',
      'not_run.syntax': 'синтаксическая ошибка',
      'batch.input': 'файл не взят',
    },
    open: 'открыть страницу студента',
    back: '← назад к группе',
    tests: 'Тесты',
    code: 'Код',
    notShown: 'строк дальше не показано',
    noCode: 'код не прочитан',
    notes: 'Заметки',
    history: 'История (каждая проверка)',
    time: 'время (UTC)',
    content: 'содержимое',
    similarTo: 'Похожие работы',
    noSimilar: 'нет',
    more: '… и ещё {n}',
    onTime: 'в срок',
    statuses: { pass: 'пройден', fail: 'не пройден', error: 'ошибка' },
  },
};

/** A bar chart as SVG: bars [{ label, value, title, color? }], value from 0 to max. */
/**
 * @param {{ label: string, value: number, title?: string, color?: string }[]} items
 * @param {{ max: number, width?: number, barH?: number, labelW?: number, fmt?: (v: number) => string, color?: string }} options
 */
function bars(items, { max, width = 640, barH = 22, labelW = 180, fmt = String, color = '#3b7dd8' }) {
  const h = items.length * (barH + 6) + 10;
  const plotW = width - labelW - 60;
  const rows = items.map((it, i) => {
    const y = 5 + i * (barH + 6),
      w = max ? Math.round((plotW * it.value) / max) : 0;
    return (
      `<g><title>${escapeHtml(it.title ?? `${it.label}: ${fmt(it.value)}`)}</title>` +
      `<text x="${labelW - 6}" y="${y + barH * 0.7}" text-anchor="end">${escapeHtml(it.label)}</text>` +
      `<rect x="${labelW}" y="${y}" width="${w}" height="${barH}" fill="${it.color ?? color}"/>` +
      `<text x="${labelW + w + 4}" y="${y + barH * 0.7}">${escapeHtml(fmt(it.value))}</text></g>`
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${h}" viewBox="0 0 ${width} ${h}" role="img">${rows.join('')}</svg>`;
}

/** A row's last cells: its grade, whether it was late (and the penalty), its children's CPU time and peak memory (the record's). */
function measures(s, record, w) {
  const num = (v, text = v) => (Number.isFinite(v) ? `<td data-v="${v}">${text}</td>` : '<td data-v="-1"></td>');
  return (
    num(s.grade ?? s.score) +
    `<td>${s.late ? `${w.late}${s.penalty ? ` (${w.penalty} ${s.penalty}%)` : ''}` : ''}</td>` +
    num(record?.cpu_ms) +
    num(mibOf(record) ?? NaN)
  );
}

/** A histogram of scores 0..total (the pack's points) as vertical bars, a score in the bar of its whole points. */
function histogram(scores, total, { width = 640, height = 220 } = {}) {
  const counts = Array.from({ length: Math.ceil(total) + 1 }, () => 0);
  for (const x of scores) counts[Math.min(Math.max(Math.floor(x), 0), counts.length - 1)]++;
  const max = Math.max(1, ...counts),
    bw = (width - 60) / counts.length,
    plotH = height - 60;
  const cols = counts.map((c, s) => {
    const h = Math.round((plotH * c) / max),
      x = 40 + s * bw,
      y = 20 + plotH - h;
    return (
      `<g><title>${s}: ${c}</title><rect x="${x + 3}" y="${y}" width="${bw - 6}" height="${h}" fill="#4c9a52"/>` +
      `<text x="${x + bw / 2}" y="${y - 3}" text-anchor="middle">${c}</text><text x="${x + bw / 2}" y="${height - 22}" text-anchor="middle">${s}</text></g>`
    );
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">` +
    `<line x1="38" y1="${20 + plotH}" x2="${width - 18}" y2="${20 + plotH}" stroke="#888"/>${cols.join('')}</svg>`
  );
}

/** A teacher's decision as the report says it: "overridden by the teacher: softmax fail → 1 (reason)". */
const overrideText = (o, w) => `${w.overridden}: ${o.test} ${o.was} → ${o.score} (${o.reason})`;

/**
 * A source as the report holds it (a student's page, a pair's sides): its first SOURCE_LINES lines, each capped at
 * LINE_CHARS, SOURCE_CHARS in all, control and bidi characters shown as escapes. → { lines, more (lines left out) }
 */
function sourceLines(source) {
  const all = String(source).split('\n');
  if (all.length > 1 && all.at(-1) === '') all.pop();
  const lines = [];
  let chars = 0;
  for (const l of all) {
    if (lines.length >= SOURCE_LINES || chars >= SOURCE_CHARS) break;
    const line = visible(capText(l.replace(/\r$/, ''), LINE_CHARS));
    lines.push(line);
    chars += line.length;
  }
  return { lines, more: all.length - lines.length };
}

/**
 * A student's page as data, drawn by the report's script as text (never HTML): their tests with status and message
 * (the report rendered again in `lang` from its causes, reporters/index.mjs renderReport, when the pack is given),
 * notes and the teacher's decisions, history, similar submissions, late flag, CPU time and peak memory.
 */
function studentPage(s, record, { lang, exercise, w, partners, due }) {
  const text = (x) => visible(capText(String(x ?? ''), MESSAGE_CHARS));
  let report = record?.report ?? null;
  if (report && exercise) report = renderReport(report, { lang, exercise, track: TRACKS[record.track] });
  return {
    name: visible(String(s.student)),
    lms: s.lms ? visible(String(s.lms.name)) : null,
    file: visible(String(s.file ?? '')),
    track: s.track ?? '',
    status: s.status,
    score: `${s.score}/${s.total}`,
    grade: s.grade ?? s.score,
    late: s.late ? `${w.late}${s.penalty ? ` (${w.penalty} ${s.penalty}%)` : ''}` : due ? w.onTime : '—',
    cpu: Number.isFinite(record?.cpu_ms) ? record.cpu_ms : null,
    mib: mibOf(record),
    notes: [...(s.notes ?? []), ...(s.overrides ?? []).map((o) => overrideText(o, w))].map(text),
    message: report?.status === 'error' && report.message ? text(report.message) : '',
    tests: (report?.tests ?? []).map((t) => ({
      id: visible(String(t.id)),
      name: text(t.name),
      status: t.status,
      message: t.status === 'pass' ? '' : text(t.message),
    })),
    history: (s.history ?? []).map((h) => ({
      time: String(h.time ?? '')
        .replace('T', ' ')
        .slice(0, 19),
      score: h.score,
      status: h.status,
      file: visible(String(h.file ?? '')),
      content: String(h.content ?? '').slice(0, 16),
    })),
    // The strongest first (the pairs' order), PARTNERS at most: a copy in a cluster of hundreds names the rest by count.
    similar: partners.slice(0, PARTNERS),
    similarMore: Math.max(0, partners.length - PARTNERS),
  };
}

const mibOf = (record) => (Number.isFinite(record?.peak_rss) ? Math.round(record.peak_rss / 2 ** 20) : null);

/** The failing tests by cause: a table of causes × `cols` (per test or per function), packaging causes as their own rows first. */
function causeTable(id, causes, cols, w, attr) {
  const label = (c) =>
    c.packaging && w.packaging[c.key]
      ? `${escapeHtml(w.packaging[c.key])} <code>${escapeHtml(c.key)}</code>`
      : `<code>${escapeHtml(c.key)}</code>`;
  const row = (c) =>
    `<tr data-key="${escapeHtml(c.key)}"${c.packaging ? ' class="packaging"' : ''}><th scope="row">${label(c)}</th>` +
    `<td data-col="students">${c.students}</td><td data-col="tests">${c.tests}</td>` +
    cols
      .map((x) => {
        const n = (attr === 'test' ? c.by_test : c.by_function)[x] ?? 0;
        return `<td data-${attr}="${escapeHtml(x)}"${n ? '' : ' class="z"'}>${n}</td>`;
      })
      .join('') +
    '</tr>';
  const group = (head, list) =>
    list.length ? `<tr class="group"><th colspan="${cols.length + 3}">${head}</th></tr>${list.map(row).join('')}` : '';
  return (
    `<div class="wide"><table id="${id}" class="causes"><thead><tr><th>${w.cause}</th><th>${w.students}</th><th>${w.failing}</th>` +
    cols.map((x) => `<th>${escapeHtml(x)}</th>`).join('') +
    '</tr></thead><tbody>' +
    group(
      w.packagingHead,
      causes.filter((c) => c.packaging),
    ) +
    group(
      w.codeHead,
      causes.filter((c) => !c.packaging),
    ) +
    '</tbody></table></div>'
  );
}

/**
 * The report's HTML. `summary`: summary.json; `records`: the batch's records (their reports, sources, CPU and
 * memory); `similar`: similarPairs(); `clusters`: clustersOf(similar); `regrade`: regradeDiff() or null; `exercise`:
 * the loaded pack, to render each student's report in `lang` (without it, the records' messages as graded).
 */
export function reportHtml({
  summary,
  records,
  similar = [],
  clusters = [],
  regrade = null,
  exercise = null,
  lang = summary.lang,
}) {
  const w = WORDS[lang] ?? WORDS.ru;
  const n = summary.students.length,
    total = summary.total ?? summary.tests.length;
  const rates = passRates(summary);
  const common = commonDiagnoses(summary, records, 10);
  const causes = causeCounts(summary);
  const title = `${w.title}: ${summary.title?.[lang] ?? summary.exercise} (${summary.exercise})`;
  const byStudent = new Map(records.map((r) => [r.student, r])),
    keyOf = new Map(summary.students.map((s) => [s.student, s.key]));
  // A student's name linked to their page.
  const link = (name) =>
    keyOf.has(name)
      ? `<a href="#student/${escapeHtml(encodeURIComponent(keyOf.get(name)))}">${escapeHtml(name)}</a>`
      : escapeHtml(name);
  const sections = [];
  sections.push(
    `<h2>${w.scores}</h2>${histogram(
      summary.students.map((s) => s.score),
      total,
    )}`,
  );
  sections.push(
    `<h2>${w.rates}</h2>${bars(
      rates.map((r) => ({ label: r.id, value: r.rate, title: `${r.name}: ${r.passed}/${r.n}` })),
      { max: 1, fmt: (v) => `${Math.round(100 * v)}%` },
    )}`,
  );
  // The causes: students per cause (packaging causes named in words, in their own colour), the failing tests of
  // each per test and per function, and one example message of the most common.
  const functions = [...new Set(summary.tests.map((t) => t.function ?? t.id))];
  sections.push(
    `<h2>${w.diagnoses}</h2>` +
      (causes.length
        ? bars(
            causes.map((c) => ({
              label: (c.packaging && w.packaging[c.key]) || c.key,
              value: c.students,
              title: `${c.key}: ${c.students} ${w.students}, ${c.tests} ${w.failing}`,
              color: c.packaging ? '#d08a2c' : undefined,
            })),
            { max: Math.max(...causes.map((c) => c.students)), color: '#c0504d', labelW: 260 },
          ) +
          `<h3>${w.causes}, ${w.byTest}</h3>${causeTable(
            'causes-test',
            causes,
            summary.tests.map((t) => t.id),
            w,
            'test',
          )}` +
          `<h3>${w.causes}, ${w.byFunction}</h3>${causeTable('causes-function', causes, functions, w, 'function')}`
        : `<p>${w.none}</p>`) +
      (common.length
        ? `<dl class="ex">${common.map((c) => `<dt><code>${escapeHtml(c.key)}</code>${w.packaging[c.key] ? ` (${escapeHtml(w.packaging[c.key])})` : ''} — ${c.count}</dt><dd>${w.example} (${escapeHtml(c.example?.test)}): ${escapeHtml(capText(c.example?.message ?? '', EXAMPLE_CHARS))}</dd>`).join('')}</dl>`
        : ''),
  );
  if (summary.changes?.length) {
    sections.push(
      `<h2>${w.changes}</h2><div class="wide"><table id="changes"><tr><th>${w.student}</th><th>${w.change}</th><th>${w.score}</th></tr>${summary.changes
        .map(
          (c) =>
            `<tr><td>${escapeHtml(c.student)}</td><td>${escapeHtml(w.changeKinds[c.change] ?? c.change)}</td><td>${c.before ?? '—'} → ${c.after ?? '—'}</td></tr>`,
        )
        .join('')}</table></div>`,
    );
  }
  if (regrade) {
    sections.push(
      `<h2>${w.regrade}: ${w.from} ${escapeHtml(regrade.from)} → ${escapeHtml(regrade.to)}</h2>` +
        (regrade.changed.length
          ? `<p>${regrade.changed.length} ${w.changed}</p><div class="wide"><table class="rg"><tr><th>${w.student}</th><th>${w.score}</th><th>tests</th></tr>${regrade.changed.map((c) => `<tr><td>${escapeHtml(c.student)}</td><td>${c.before} → ${c.after}</td><td>${c.tests.map((t) => `${escapeHtml(t.id)}: ${escapeHtml(t.before)} → ${escapeHtml(t.after)}`).join('<br>')}</td></tr>`).join('')}</table></div>`
          : `<p>${w.nochange}</p>`),
    );
  }
  // Each student's similar submissions, for their page: the other side of every pair, linked.
  const partners = new Map();
  for (const p of similar)
    for (const [me, other] of [
      [p.a, p.b],
      [p.b, p.a],
    ])
      (partners.get(me) ?? partners.set(me, []).get(me)).push({
        key: keyOf.get(other) ?? null,
        name: visible(String(other)),
        head: `${w.kinds[p.kind]}, ${Math.round(100 * p.score)}%, ${p.shared} ${w.shared}`,
      });
  if (similar.length) {
    sections.push(
      `<h2>${w.similar}</h2><p>${similar.length} ${w.pairs}</p>` +
        `<h3>${w.clusters}</h3><div class="wide"><table id="clusters"><tr><th>#</th><th>${w.members}</th><th>${w.kind}</th><th>${w.evidence}</th></tr>${clusters
          .map(
            (c, i) =>
              `<tr><td>${i + 1}</td><td>${c.members.map(link).join(', ')}</td><td>${escapeHtml(w.kinds[c.kind])}</td><td>${escapeHtml(c.evidence.a)} ↔ ${escapeHtml(c.evidence.b)}: ${Math.round(100 * c.evidence.score)}%</td></tr>`,
          )
          .join('')}</table></div>` +
        `<div id="pairs"></div><p class="pager"><button id="prev">${w.prev}</button> <span id="pageno"></span> <button id="next">${w.next}</button></p>`,
    );
  }
  const ids = summary.tests.map((t) => t.id),
    mark = { pass: '✓', fail: '✗', error: '!' };
  sections.push(
    `<h2>${w.table}</h2><input id="search" type="search" aria-label="${w.search}" placeholder="${w.search}" size="40">` +
      `<div class="wide"><table id="students"><thead><tr><th>${w.student}</th><th data-num>${w.score}</th><th>${w.status}</th><th>${w.track}</th>${ids.map((id) => `<th>${escapeHtml(id)}</th>`).join('')}<th>diagnoses</th><th data-num>${w.grade}</th><th>${w.late}</th><th data-num>${w.cpu}</th><th data-num>${w.memory}</th></tr></thead><tbody>` +
      summary.students
        .map(
          (s) =>
            `<tr><td><a class="who" href="#student/${escapeHtml(encodeURIComponent(s.key))}" title="${w.open}">${s.lms ? `<b class="lms">${escapeHtml(s.lms.name)}</b> <small class="note">${escapeHtml(s.student)}</small>` : escapeHtml(s.student)}</a>${(s.notes ?? []).map((x) => `<small class="note">${escapeHtml(x)}</small>`).join('')}${(s.overrides ?? []).map((o) => `<small class="note override">${escapeHtml(overrideText(o, w))}</small>`).join('')}${s.history?.length > 1 ? `<small class="note">${w.graded} ${s.history.length} ${w.times} ${s.history.map((h) => h.score).join(' → ')}</small>` : ''}</td><td data-v="${s.score}">${s.score}/${s.total}</td><td class="${escapeHtml(s.status)}">${escapeHtml(s.status)}</td><td>${escapeHtml(s.track ?? '')}</td>${ids.map((id) => `<td class="${escapeHtml(s.tests[id])}">${mark[s.tests[id]] ?? ''}</td>`).join('')}<td>${escapeHtml(s.diagnoses.join(' '))}</td>${measures(s, byStudent.get(s.student), w)}</tr>`,
        )
        .join('') +
      '</tbody></table></div>',
  );
  // The data the script draws as text: every student's page, every source (once, by the student's key: their page
  // and the pairs read it), and the similar pairs, PAIRS_PER_PAGE at a time (a class of hundreds stays one file).
  const sources = {};
  for (const s of summary.students) {
    const src = byStudent.get(s.student)?.source;
    if (typeof src === 'string') sources[s.key] = sourceLines(src);
  }
  const data = {
    students: Object.fromEntries(
      summary.students.map((s) => [
        s.key,
        studentPage(s, byStudent.get(s.student), {
          lang,
          exercise,
          w,
          partners: partners.get(s.student) ?? [],
          due: summary.due,
        }),
      ]),
    ),
    sources,
    pairs: similar.map(({ a, b, kind, score, shared, linesA, linesB }) => ({
      head: `${visible(a)} ↔ ${visible(b)}: ${Math.round(100 * score)}%, ${shared} ${w.shared} — ${w.kinds[kind]}`,
      sides: [
        [keyOf.get(a), visible(a), linesA],
        [keyOf.get(b), visible(b), linesB],
      ],
    })),
    per: PAIRS_PER_PAGE,
    words: {
      page: w.page,
      pairs: w.pairs,
      tests: w.tests,
      status: w.status,
      code: w.code,
      notShown: w.notShown,
      noCode: w.noCode,
      notes: w.notes,
      history: w.history,
      time: w.time,
      score: w.score,
      file: w.file,
      content: w.content,
      similarTo: w.similarTo,
      noSimilar: w.noSimilar,
      more: w.more,
      track: w.track,
      grade: w.grade,
      late: w.late,
      cpu: w.cpu,
      memory: w.memory,
      statuses: w.statuses,
    },
  };
  return `<!doctype html>
<html lang="${lang === 'en' ? 'en' : 'ru'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;max-width:1100px}
svg text{font:12px system-ui,sans-serif;fill:#222}svg{max-width:100%;height:auto}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}th{background:#eee}
#students th{cursor:pointer}#students tbody tr{cursor:pointer}#students tbody tr:hover{background:#f3f7ff}
td.pass{color:#2a7a2a}td.fail{color:#b22}td.error{color:#b70}
.wide{overflow-x:auto;max-width:100%}#search{max-width:100%;box-sizing:border-box}
h1,h2,h3,summary,p{overflow-wrap:anywhere}
table.causes td{text-align:right}table.causes td.z{color:#bbb}table.causes th[scope=row]{text-align:left;font-weight:normal;background:#fafafa}
table.causes tr.group th{text-align:left;background:#dde6f3}table.causes tr.packaging th[scope=row]{background:#fbeedd}
.pair{display:flex;gap:1em}.pair>div{flex:1;min-width:0}pre{background:#f7f7f7;overflow:auto;font-size:12px}
pre span{display:block;white-space:pre}pre span.sh{background:#ffe08a}pre i{color:#999;font-style:normal;display:inline-block;width:3em;user-select:none}
dl.ex dd{margin:0 0 .6em 1.5em;color:#444}
#clusters td:nth-child(2){max-width:40em}
small.note{display:block;color:#666;max-width:30em}
#student dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 1em}#student dl.facts dt{color:#555}#student dl.facts dd{margin:0;overflow-wrap:anywhere;min-width:0}
#student-tests{padding-left:1.5em}#student-tests li{margin:.3em 0}#student-tests .st{font-weight:bold}
#student-tests li.pass .st{color:#2a7a2a}#student-tests li.fail .st{color:#b22}#student-tests li.error .st{color:#b70}
#student div.msg,#student p.msg{white-space:pre-wrap;overflow-wrap:anywhere;background:#fdf3f3;border-left:3px solid #d99;padding:.3em .6em;margin:.2em 0 .5em}
#student h2{overflow-wrap:anywhere}
@media (max-width:600px){body{margin:.6em}.pair{flex-direction:column}}
</style></head><body>
<div id="class">
<h1>${escapeHtml(title)}</h1>
<p>${n} ${w.submissions}; ${w.version} ${escapeHtml(summary.pack_version)}; ${w.seed} ${escapeHtml(summary.seed)}</p>
${sections.join('\n')}
</div>
<section id="student" hidden><p><a id="back" href="#">${w.back}</a></p><div id="page"></div></section>
<script type="application/json" id="report-data">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>
<script>
const { students, sources, pairs, per, words } = JSON.parse(document.getElementById('report-data').textContent);
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
const code = (src, ranges = []) => {
  const marked = new Set();
  for (const [a, b] of ranges) for (let l = a; l <= b && l <= src.lines.length; l++) marked.add(l);
  const pre = el('pre');
  src.lines.forEach((l, i) => { const s = el('span', marked.has(i + 1) ? 'sh' : ''); s.append(el('i', '', String(i + 1)), l); pre.append(s); });
  if (src.more > 0) pre.append(el('span', '', '… ' + src.more + ' ' + words.notShown));
  return pre;
};
const search = document.getElementById('search');
search.addEventListener('input', () => {
  const q = search.value.trim().toLowerCase();
  for (const r of document.querySelectorAll('#students tbody tr')) r.hidden = Boolean(q) && !r.textContent.toLowerCase().includes(q);
});
document.querySelectorAll('#students th').forEach((th, col) => th.addEventListener('click', () => {
  const body = th.closest('table').tBodies[0], rows = [...body.rows], num = th.hasAttribute('data-num');
  const dir = th.dataset.dir = th.dataset.dir === 'asc' ? 'desc' : 'asc';
  const val = (r) => (num ? Number(r.cells[col].dataset.v) : r.cells[col].textContent);
  rows.sort((a, b) => { const x = val(a), y = val(b); return (x < y ? -1 : x > y ? 1 : 0) * (dir === 'asc' ? 1 : -1); });
  rows.forEach((r) => body.appendChild(r));
}));
// A click anywhere on a student's row opens their page (#student/<key>); the class view stays as it was (search, sort).
document.querySelector('#students tbody').addEventListener('click', (e) => {
  if (e.target.closest('a')) return;
  const a = e.target.closest('tr')?.querySelector('a.who');
  if (a) location.hash = a.getAttribute('href');
});
const table = (head, rows) => {
  const t = el('table'), tr = el('tr');
  head.forEach((h) => tr.append(el('th', '', h)));
  t.append(tr);
  for (const r of rows) { const x = el('tr'); r.forEach(([v, cls]) => x.append(el('td', cls ?? '', String(v ?? '')))); t.append(x); }
  return t;
};
const drawStudent = (key, s) => {
  const page = document.getElementById('page'), h = el('h2', '', s.lms ?? s.name), facts = el('dl', 'facts');
  const parts = [h];
  if (s.lms) parts.push(el('p', 'note', s.name));
  const fact = (k, v) => facts.append(el('dt', '', k), el('dd', '', String(v ?? '—')));
  fact(words.file, s.file); fact(words.track, s.track); fact(words.status, words.statuses[s.status] ?? s.status);
  fact(words.score, s.score); fact(words.grade, s.grade); fact(words.late, s.late); fact(words.cpu, s.cpu); fact(words.memory, s.mib);
  parts.push(facts);
  if (s.notes.length) { const ul = el('ul', 'notes'); s.notes.forEach((x) => ul.append(el('li', '', x))); parts.push(el('h3', '', words.notes), ul); }
  parts.push(el('h3', '', words.tests));
  if (s.message) parts.push(el('p', 'msg', s.message));
  const tests = el('ol');
  tests.id = 'student-tests';
  for (const t of s.tests) {
    const li = el('li', t.status);
    li.dataset.test = t.id;
    li.append(el('b', '', t.name + ' (' + t.id + ')'), ' — ', el('span', 'st', words.statuses[t.status] ?? t.status));
    if (t.message) li.append(el('div', 'msg', t.message));
    tests.append(li);
  }
  parts.push(tests);
  const hist = table([words.time, words.score, words.status, words.file, words.content], s.history.map((x) => [[x.time], [x.score], [words.statuses[x.status] ?? x.status, x.status], [x.file], [x.content]]));
  hist.id = 'student-history';
  const wide = el('div', 'wide');
  wide.append(hist);
  parts.push(el('h3', '', words.history), wide);
  parts.push(el('h3', '', words.similarTo));
  if (s.similar.length) {
    const ul = el('ul', 'similar');
    for (const p of s.similar) {
      const li = el('li'), a = el('a', '', p.name);
      if (p.key !== null) a.href = '#student/' + encodeURIComponent(p.key);
      li.append(a, ' — ' + p.head);
      ul.append(li);
    }
    if (s.similarMore) ul.append(el('li', '', words.more.replace('{n}', s.similarMore)));
    parts.push(ul);
  } else parts.push(el('p', '', words.noSimilar));
  parts.push(el('h3', '', words.code));
  parts.push(sources[key] ? code(sources[key]) : el('p', '', words.noCode));
  page.replaceChildren(...parts);
};
let shown = null;
const route = () => {
  const m = /^#student\\/(.+)$/.exec(location.hash);
  let key = null;
  try { key = m && decodeURIComponent(m[1]); } catch { key = null; }
  const s = key !== null && Object.hasOwn(students, key) ? students[key] : null;
  document.getElementById('class').hidden = Boolean(s);
  document.getElementById('student').hidden = !s;
  if (s) { drawStudent(key, s); shown = key; window.scrollTo(0, 0); document.getElementById('back').focus(); return; }
  // Back in the class view: at the row of the student just seen.
  const a = shown !== null && [...document.querySelectorAll('#students a.who')].find((x) => x.getAttribute('href') === '#student/' + encodeURIComponent(shown));
  if (a) { a.scrollIntoView({ block: 'center' }); a.focus(); }
};
document.getElementById('back').addEventListener('click', (e) => { e.preventDefault(); location.hash = ''; });
window.addEventListener('hashchange', route);
route();
if (pairs.length) {
  const box = document.getElementById('pairs'), pages = Math.ceil(pairs.length / per);
  let page = 0;
  const draw = () => {
    box.replaceChildren(...pairs.slice(page * per, (page + 1) * per).map((p) => {
      const d = el('details'), div = el('div', 'pair');
      d.append(el('summary', '', p.head));
      for (const [key, name, ranges] of p.sides) {
        const side = el('div');
        side.append(el('h3', '', name), code(sources[key] ?? { lines: [], more: 0 }, ranges));
        div.append(side);
      }
      d.append(div);
      return d;
    }));
    document.getElementById('pageno').textContent = words.page + ' ' + (page + 1) + ' / ' + pages + ' (' + pairs.length + ' ' + words.pairs + ')';
    document.getElementById('prev').disabled = page === 0;
    document.getElementById('next').disabled = page >= pages - 1;
  };
  document.getElementById('prev').addEventListener('click', () => { page--; draw(); });
  document.getElementById('next').addEventListener('click', () => { page++; draw(); });
  draw();
}
</script>
</body></html>
`;
}
