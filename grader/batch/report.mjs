// report.html: the teacher's report of a batch, one self-contained file (inline CSS, SVG and a few
// lines of script to sort the table and to page through the similar pairs, kept as JSON data and drawn as
// text; nothing fetched, so it opens offline). Every text from a
// submission (names, messages, code) is HTML-escaped; the diagnosis examples carry no student's name.
import { passRates, commonDiagnoses } from './summary.mjs';
import { capText, visible } from '../wire/text.mjs';

/** Text for HTML: control and bidi characters shown as escapes (wire/text.mjs visible()), then & < > " ' escaped. */
export const escapeHtml = (s) =>
  visible(String(s ?? '')).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
const EXAMPLE_CHARS = 400,
  PAIRS_PER_PAGE = 25;

const WORDS = {
  en: {
    title: 'Batch report',
    submissions: 'submissions',
    scores: 'Score distribution',
    score: 'score',
    students: 'students',
    rates: 'Pass rate per test',
    diagnoses: 'Most common diagnoses',
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
  },
  ru: {
    title: 'Отчёт по проверке',
    submissions: 'работ',
    scores: 'Распределение баллов',
    score: 'баллы',
    students: 'студентов',
    rates: 'Доля прошедших по тестам',
    diagnoses: 'Частые причины ошибок',
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
  },
};

/** A bar chart as SVG: bars [{ label, value, title }], value from 0 to max. */
function bars(items, { max, width = 640, barH = 22, labelW = 180, fmt = String, color = '#3b7dd8' }) {
  const h = items.length * (barH + 6) + 10;
  const plotW = width - labelW - 60;
  const rows = items.map((it, i) => {
    const y = 5 + i * (barH + 6),
      w = max ? Math.round((plotW * it.value) / max) : 0;
    return (
      `<g><title>${escapeHtml(it.title ?? `${it.label}: ${fmt(it.value)}`)}</title>` +
      `<text x="${labelW - 6}" y="${y + barH * 0.7}" text-anchor="end">${escapeHtml(it.label)}</text>` +
      `<rect x="${labelW}" y="${y}" width="${w}" height="${barH}" fill="${color}"/>` +
      `<text x="${labelW + w + 4}" y="${y + barH * 0.7}">${escapeHtml(fmt(it.value))}</text></g>`
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${h}" viewBox="0 0 ${width} ${h}" role="img">${rows.join('')}</svg>`;
}

/** A row's last cells: its grade, whether it was late (and the penalty), its children's CPU time and peak memory (the record's). */
function measures(s, record, w) {
  const num = (v, text = v) => (Number.isFinite(v) ? `<td data-v="${v}">${text}</td>` : '<td data-v="-1"></td>');
  const mib = Number.isFinite(record?.peak_rss) ? Math.round(record.peak_rss / 2 ** 20) : NaN;
  return (
    num(s.grade ?? s.score) +
    `<td>${s.late ? `${w.late}${s.penalty ? ` (${w.penalty} ${s.penalty}%)` : ''}` : ''}</td>` +
    num(record?.cpu_ms) +
    num(mib)
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

/**
 * The report's HTML. `summary`: summary.json; `records`: the batch's records (for examples);
 * `similar`: similarPairs(); `clusters`: clustersOf(similar); `sources`: student → source text; `regrade`: regradeDiff() or null.
 */
export function reportHtml({
  summary,
  records,
  similar = [],
  clusters = [],
  sources = {},
  regrade = null,
  lang = summary.lang,
}) {
  const w = WORDS[lang] ?? WORDS.ru;
  const n = summary.students.length,
    total = summary.total ?? summary.tests.length;
  const rates = passRates(summary);
  const common = commonDiagnoses(summary, records, 10);
  const title = `${w.title}: ${summary.title?.[lang] ?? summary.exercise} (${summary.exercise})`;
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
  sections.push(
    `<h2>${w.diagnoses}</h2>${
      common.length
        ? bars(
            common.map((c) => ({ label: c.key, value: c.count })),
            { max: Math.max(...common.map((c) => c.count)), color: '#c0504d' },
          )
        : `<p>${w.none}</p>`
    }` +
      (common.length
        ? `<dl class="ex">${common.map((c) => `<dt><code>${escapeHtml(c.key)}</code> — ${c.count}</dt><dd>${w.example} (${escapeHtml(c.example?.test)}): ${escapeHtml(capText(c.example?.message ?? '', EXAMPLE_CHARS))}</dd>`).join('')}</dl>`
        : ''),
  );
  if (summary.changes?.length) {
    sections.push(
      `<h2>${w.changes}</h2><table id="changes"><tr><th>${w.student}</th><th>${w.change}</th><th>${w.score}</th></tr>${summary.changes
        .map(
          (c) =>
            `<tr><td>${escapeHtml(c.student)}</td><td>${escapeHtml(w.changeKinds[c.change] ?? c.change)}</td><td>${c.before ?? '—'} → ${c.after ?? '—'}</td></tr>`,
        )
        .join('')}</table>`,
    );
  }
  if (regrade) {
    sections.push(
      `<h2>${w.regrade}: ${w.from} ${escapeHtml(regrade.from)} → ${escapeHtml(regrade.to)}</h2>` +
        (regrade.changed.length
          ? `<p>${regrade.changed.length} ${w.changed}</p><table class="rg"><tr><th>${w.student}</th><th>${w.score}</th><th>tests</th></tr>${regrade.changed.map((c) => `<tr><td>${escapeHtml(c.student)}</td><td>${c.before} → ${c.after}</td><td>${c.tests.map((t) => `${escapeHtml(t.id)}: ${escapeHtml(t.before)} → ${escapeHtml(t.after)}`).join('<br>')}</td></tr>`).join('')}</table>`
          : `<p>${w.nochange}</p>`),
    );
  }
  if (similar.length) {
    // Every pair, PAIRS_PER_PAGE at a time: the pairs and the sources they name as data, drawn by the script
    // below (text only, never HTML), so a class of hundreds of pairs stays one file of moderate size.
    const named = new Set(similar.flatMap((p) => [p.a, p.b]));
    const data = {
      pairs: similar.map(({ a, b, kind, score, shared, linesA, linesB }) => ({
        a: visible(a),
        b: visible(b),
        head: `${visible(a)} ↔ ${visible(b)}: ${Math.round(100 * score)}%, ${shared} ${w.shared} — ${w.kinds[kind]}`,
        sa: a,
        sb: b,
        linesA,
        linesB,
      })),
      sources: Object.fromEntries(
        [...named].map((x) => [
          x,
          (sources[x] ?? '')
            .split('\n')
            .slice(0, 400)
            .map((l) => visible(capText(l, 200))),
        ]),
      ),
      per: PAIRS_PER_PAGE,
      words: { page: w.page, pairs: w.pairs },
    };
    sections.push(
      `<h2>${w.similar}</h2><p>${similar.length} ${w.pairs}</p>` +
        `<h3>${w.clusters}</h3><table id="clusters"><tr><th>#</th><th>${w.members}</th><th>${w.kind}</th><th>${w.evidence}</th></tr>${clusters
          .map(
            (c, i) =>
              `<tr><td>${i + 1}</td><td>${c.members.map(escapeHtml).join(', ')}</td><td>${escapeHtml(w.kinds[c.kind])}</td><td>${escapeHtml(c.evidence.a)} ↔ ${escapeHtml(c.evidence.b)}: ${Math.round(100 * c.evidence.score)}%</td></tr>`,
          )
          .join('')}</table>` +
        `<div id="pairs"></div><p class="pager"><button id="prev">${w.prev}</button> <span id="pageno"></span> <button id="next">${w.next}</button></p>` +
        `<script type="application/json" id="pairs-data">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`,
    );
  }
  const ids = summary.tests.map((t) => t.id),
    mark = { pass: '✓', fail: '✗', error: '!' },
    byStudent = new Map(records.map((r) => [r.student, r]));
  sections.push(
    `<h2>${w.table}</h2><input id="search" type="search" aria-label="${w.search}" placeholder="${w.search}" size="40">` +
      `<table id="students"><thead><tr><th>${w.student}</th><th data-num>${w.score}</th><th>${w.status}</th><th>${w.track}</th>${ids.map((id) => `<th>${escapeHtml(id)}</th>`).join('')}<th>diagnoses</th><th data-num>${w.grade}</th><th>${w.late}</th><th data-num>${w.cpu}</th><th data-num>${w.memory}</th></tr></thead><tbody>` +
      summary.students
        .map(
          (s) =>
            `<tr><td>${s.lms ? `<b class="lms">${escapeHtml(s.lms.name)}</b> <small class="note">${escapeHtml(s.student)}</small>` : escapeHtml(s.student)}${(s.notes ?? []).map((x) => `<small class="note">${escapeHtml(x)}</small>`).join('')}${(s.overrides ?? []).map((o) => `<small class="note override">${w.overridden}: ${escapeHtml(o.test)} ${escapeHtml(o.was)} → ${escapeHtml(o.score)} (${escapeHtml(o.reason)})</small>`).join('')}${s.history?.length > 1 ? `<small class="note">${w.graded} ${s.history.length} ${w.times} ${s.history.map((h) => h.score).join(' → ')}</small>` : ''}</td><td data-v="${s.score}">${s.score}/${s.total}</td><td class="${escapeHtml(s.status)}">${escapeHtml(s.status)}</td><td>${escapeHtml(s.track ?? '')}</td>${ids.map((id) => `<td class="${escapeHtml(s.tests[id])}">${mark[s.tests[id]] ?? ''}</td>`).join('')}<td>${escapeHtml(s.diagnoses.join(' '))}</td>${measures(s, byStudent.get(s.student), w)}</tr>`,
        )
        .join('') +
      '</tbody></table>',
  );
  return `<!doctype html>
<html lang="${lang === 'en' ? 'en' : 'ru'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;max-width:1100px}
svg text{font:12px system-ui,sans-serif;fill:#222}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}th{background:#eee;cursor:pointer}
td.pass{color:#2a7a2a}td.fail{color:#b22}td.error{color:#b70}
.pair{display:flex;gap:1em}.pair>div{flex:1;min-width:0}pre{background:#f7f7f7;overflow:auto;font-size:12px}
pre span{display:block}pre span.sh{background:#ffe08a}pre i{color:#999;font-style:normal;display:inline-block;width:3em}
dl.ex dd{margin:0 0 .6em 1.5em;color:#444}
#clusters td:nth-child(2){max-width:40em}
small.note{display:block;color:#666;max-width:30em}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
<p>${n} ${w.submissions}; ${w.version} ${escapeHtml(summary.pack_version)}; ${w.seed} ${escapeHtml(summary.seed)}</p>
${sections.join('\n')}
<script>
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
const data = document.getElementById('pairs-data');
if (data) {
  const { pairs, sources, per, words } = JSON.parse(data.textContent);
  const box = document.getElementById('pairs'), pages = Math.ceil(pairs.length / per);
  let page = 0;
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  const code = (lines, ranges) => {
    const marked = new Set();
    for (const [a, b] of ranges) for (let l = a; l <= b && l <= lines.length; l++) marked.add(l);
    const pre = el('pre');
    lines.forEach((l, i) => { const s = el('span', marked.has(i + 1) ? 'sh' : ''); s.append(el('i', '', String(i + 1)), l); pre.append(s); });
    return pre;
  };
  const draw = () => {
    box.replaceChildren(...pairs.slice(page * per, (page + 1) * per).map((p) => {
      const d = el('details'), div = el('div', 'pair');
      d.append(el('summary', '', p.head));
      for (const [who, name, ranges] of [[p.sa, p.a, p.linesA], [p.sb, p.b, p.linesB]]) {
        const side = el('div');
        side.append(el('h3', '', name), code(sources[who] ?? [], ranges));
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
