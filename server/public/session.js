// The launch page (served at /lti/session after a verified LTI launch, inside the LMS's frame). It frames
// the exercise page in embed mode (web/README.md, Embedding), restores the student's latest code from
// the service, and after every Check the page reports, asks the frame for the code and submits it: the
// service grades it in its own sandbox, and this page shows what the course recorded. What the frame
// claims (its `checked` score) is never sent: only the code is. Teachers also get the class, each
// student's history with diffs, overrides, the regrade and the gradebook; a deep-linking launch gets
// the picker. Student text is only ever set as textContent.
const token = new URLSearchParams(location.hash.slice(1)).get('s');
const $ = (id) => document.getElementById(id);
let words = {};

/** A word of the page with its {fields} filled in. */
const say = (key, params = {}) =>
  (words[key] ?? key).replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));

async function api(path, { method = 'GET', body } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers['x-attnlab-session'] = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const type = res.headers.get('content-type') ?? '';
  const data = type.includes('json') ? await res.json() : await res.text();
  if (!res.ok) throw new Error(typeof data === 'object' ? data.message : String(data).slice(0, 200));
  return data;
}

function status(text, kind = '') {
  const el = $('status');
  el.textContent = text;
  el.className = kind;
}

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  for (const c of children) e.append(c);
  return e;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let following = null; // the submission the status line is about (a newer Check takes it over)

/** What the status line says of a graded submission whose score was sent, failed or is not sent at all. */
function sayScore(sub) {
  // `score`: what counts after a late penalty (the placement's late policy), which the course records.
  const p = { passed: sub.score ?? sub.passed, total: sub.total };
  const late = sub.late_days ? ` ${say('late', sub)}` : '';
  if (sub.score_state === 'sent') status(say('recorded', p) + late, 'ok');
  else if (sub.score_state === 'failed') status(say('score_failed', p), 'warn');
  else status(say('recorded_none', p), 'ok');
}

/**
 * Waits for a submission to be graded and its score sent (or not to be sent), then says so. A score the
 * LMS did not take is retried by the service: the line keeps following it (every 5 s) until it is sent
 * or a newer Check takes the line over.
 */
async function follow(id, busy) {
  following = id;
  status(busy ? say('later') : say('grading'), busy ? 'warn' : '');
  for (let i = 0; ; i++) {
    const sub = await api(`/api/submissions/${id}`);
    if (sub.status === 'failed') return status(say('grading_failed'), 'warn');
    if (sub.status === 'graded' && !['pending', 'sending'].includes(sub.score_state)) {
      sayScore(sub);
      document.body.dataset.recorded = `${sub.passed}/${sub.total}`;
      if (sub.score_state === 'failed') followRetry(id);
      return sub;
    }
    await sleep(Math.min(2000, 300 + 100 * i));
  }
}

async function followRetry(id) {
  while (following === id) {
    await sleep(5000);
    const sub = await api(`/api/submissions/${id}`).catch(() => null);
    if (following !== id) return;
    if (sub && !['failed', 'pending', 'sending'].includes(sub.score_state)) return sayScore(sub);
  }
}

function student(state) {
  const origin = location.origin;
  const src = `/app/index.html?embed=1&exercise=${encodeURIComponent(state.exercise)}&track=${encodeURIComponent(state.track)}&lang=${state.lang}&parent-origin=${encodeURIComponent(origin)}`;
  const frame = el('iframe', { src, title: state.title || state.exercise });
  $('exercise').append(frame);
  let wanted = false;
  if (state.override) status(say('overridden', state.override), 'ok');
  showPolicy(state.late_policy);
  window.addEventListener('message', async (e) => {
    if (e.origin !== origin || e.source !== frame.contentWindow || typeof e.data !== 'object' || !e.data) return;
    const m = e.data;
    if (m.type === 'attnlab:ready' && typeof state.code === 'string')
      frame.contentWindow.postMessage({ type: 'attnlab:set-code', code: state.code }, origin);
    else if (m.type === 'attnlab:resize' && Number.isFinite(m.height))
      frame.style.height = `${Math.ceil(m.height) + 4}px`;
    else if (m.type === 'attnlab:checked') {
      // Only the fact that a Check happened is used: the code is asked for and graded on the service.
      wanted = true;
      frame.contentWindow.postMessage({ type: 'attnlab:get-code' }, origin);
    } else if (m.type === 'attnlab:code' && wanted && typeof m.code === 'string') {
      wanted = false;
      status(say('sending'));
      try {
        const { id, busy } = await api('/api/submissions', { method: 'POST', body: { code: m.code } });
        await follow(id, busy);
        if (state.role === 'instructor') await teacher(state);
      } catch (err) {
        status(say('failed', { message: err.message }), 'warn');
      }
    }
  });
}

/** The placement's due time and late penalty, in the reader's time zone (nothing when there is no due time). */
function showPolicy(policy) {
  $('due').hidden = !policy;
  if (policy) $('due').textContent = say('due', { ...policy, due: new Date(policy.due).toLocaleString() });
}

/** The teacher's form for the placement's due time and late penalty (a datetime-local input: the teacher's time zone). */
function policyForm(policy) {
  const local = (iso) => {
    const d = new Date(iso);
    return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  };
  const due = el('input', { type: 'datetime-local', id: 'late-due', value: policy ? local(policy.due) : '' });
  const perDay = el('input', {
    type: 'number',
    id: 'late-per-day',
    min: 0,
    max: 100,
    step: 'any',
    value: policy?.per_day ?? 10,
  });
  const cap = el('input', { type: 'number', id: 'late-cap', min: 0, max: 100, step: 'any', value: policy?.cap ?? 100 });
  const save = el('button', { type: 'submit', textContent: say('late_save') });
  const said = el('span', { id: 'late-saved' });
  const form = el(
    'form',
    { id: 'late-policy' },
    el('h3', { textContent: say('late_policy') }),
    el('label', {}, say('late_due'), ' ', due),
    el('label', {}, ' −', perDay, say('late_per_day')),
    el('label', {}, ', ', say('late_cap'), ' ', cap),
    ' ',
    save,
    ' ',
    said,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const r = await api('/api/late-policy', {
        method: 'POST',
        body: {
          due: due.value ? new Date(due.value).toISOString() : null,
          per_day: Number(perDay.value),
          cap: Number(cap.value),
        },
      });
      showPolicy(r.late_policy);
      await teacher();
      $('late-saved').textContent = say('late_saved', r);
    } catch (err) {
      status(err.message, 'warn');
    }
  });
  return form;
}

/** Line diff of two texts (LCS on lines): [{ kind: ' ' | '-' | '+', line }]. */
function diffLines(a, b) {
  const x = a.split('\n'),
    y = b.split('\n');
  if (x.length * y.length > 250_000)
    return [...x.map((line) => ({ kind: '-', line })), ...y.map((line) => ({ kind: '+', line }))];
  const L = Array.from({ length: x.length + 1 }, () => new Int32Array(y.length + 1));
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      L[i][j] = x[i] === y[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  const out = [];
  let i = 0,
    j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) (out.push({ kind: ' ', line: x[i++] }), j++);
    else if (j < y.length && (i === x.length || L[i][j + 1] >= L[i + 1][j])) out.push({ kind: '+', line: y[j++] });
    else out.push({ kind: '-', line: x[i++] });
  }
  return out;
}

async function showHistory(box, user) {
  box.replaceChildren();
  const subs = await api(`/api/students/${user}/submissions`);
  let prev = '';
  for (const s of subs) {
    const pre = el('pre');
    for (const d of diffLines(prev, s.code))
      pre.append(
        el('div', {
          className: d.kind === '+' ? 'add' : d.kind === '-' ? 'del' : '',
          textContent: `${d.kind} ${d.line}`,
        }),
      );
    box.append(
      el('h4', {
        textContent: `#${s.id} ${new Date(s.created_at).toLocaleString()} — ${s.passed ?? '…'} / ${s.total ?? '…'}`,
      }),
      pre,
    );
    prev = s.code;
  }
}

// What the last regrade said: the teacher's view is drawn again after a regrade (and an override), and keeps it.
let lastRegrade = '';

async function teacher() {
  const box = $('teacher');
  box.hidden = false;
  const view = await api('/api/class');
  const table = el(
    'table',
    {},
    el(
      'tr',
      {},
      ...[say('student'), say('score'), say('submissions'), say('override'), ''].map((h) =>
        el('th', { textContent: h }),
      ),
    ),
  );
  const detail = el('div', { id: 'history' });
  for (const s of view.students) {
    const score = s.override
      ? `${s.override.score} (${s.override.reason})`
      : `${s.latest.score ?? '…'} / ${s.latest.total ?? '…'}${s.latest.late_days ? ` (−${s.latest.penalty}%)` : ''}`;
    const input = el('input', { type: 'number', min: 0, step: 'any', size: 4, ariaLabel: say('score') });
    const reason = el('input', { type: 'text', placeholder: say('reason'), ariaLabel: say('reason') });
    const apply = el('button', { type: 'button', textContent: say('override') });
    apply.addEventListener('click', async () => {
      try {
        await api('/api/overrides', {
          method: 'POST',
          body: { user: s.user, score: Number(input.value), reason: reason.value },
        });
        await teacher();
      } catch (err) {
        status(err.message, 'warn');
      }
    });
    const hist = el('button', { type: 'button', textContent: say('history') });
    hist.addEventListener('click', () => showHistory(detail, s.user).catch((err) => status(err.message, 'warn')));
    table.append(
      el(
        'tr',
        {},
        el('td', { textContent: s.name || s.sub }),
        el('td', { textContent: score }),
        el('td', { textContent: String(s.submissions) }),
        el('td', {}, input, reason, apply),
        el('td', {}, hist),
      ),
    );
  }
  const regrade = el('button', { type: 'button', textContent: say('regrade') });
  const result = el('pre', { id: 'regrade', textContent: lastRegrade });
  regrade.addEventListener('click', async () => {
    try {
      const r = await api('/api/regrade', { method: 'POST', body: {} });
      // kept for the table drawn again below, which would otherwise show an empty result
      lastRegrade = result.textContent = [
        say('regraded', { n: r.regraded, changed: r.changed.length }),
        ...r.changed.map(
          (c) =>
            `${c.student}: ${c.before} → ${c.after} (${c.tests.map((t) => `${t.id} ${t.before}→${t.after}`).join(', ')})`,
        ),
      ].join('\n');
      await teacher();
    } catch (err) {
      status(err.message, 'warn');
    }
  });
  // The class report (grade-batch's report.html from the database), opened apart: a GET with the session cookie.
  const report = el('a', { href: '/api/report.html', target: '_blank', rel: 'noopener', textContent: say('report') });
  const csv = el('button', { type: 'button', textContent: say('gradebook') });
  csv.addEventListener('click', async () => {
    const headers = token ? { 'x-attnlab-session': token } : {};
    const blob = await (await fetch('/api/gradebook.csv', { headers })).blob();
    const a = el('a', { href: URL.createObjectURL(blob), download: 'gradebook.csv' });
    a.click();
  });
  box.replaceChildren(
    el('h2', { textContent: say('class') }),
    view.students.length ? table : el('p', { textContent: say('none') }),
    policyForm(view.late_policy),
    regrade,
    csv,
    ' ',
    report,
    result,
    detail,
  );
}

function picker(state) {
  const box = $('picker');
  box.hidden = false;
  const exercise = el(
    'select',
    { id: 'pick-exercise' },
    ...state.packs.map((p) => el('option', { value: p.slug, textContent: `${p.title} (${p.tests})` })),
  );
  const track = el(
    'select',
    { id: 'pick-track' },
    ...state.packs[0].tracks.map((t) => el('option', { value: t, textContent: t })),
  );
  const title = el('input', { id: 'pick-title', type: 'text' });
  const go = el('button', { type: 'submit', textContent: say('pick_submit') });
  const form = el(
    'form',
    {},
    el('label', {}, say('pick_exercise'), ' ', exercise),
    el('label', {}, say('pick_track'), ' ', track),
    el('label', {}, say('pick_title'), ' ', title),
    go,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const r = await api('/api/deep-link', {
        method: 'POST',
        body: { exercise: exercise.value, track: track.value, title: title.value },
      });
      const back = el(
        'form',
        { method: 'POST', action: r.return_url },
        el('input', { type: 'hidden', name: 'JWT', value: r.jwt }),
      );
      document.body.append(back);
      back.submit();
    } catch (err) {
      status(err.message, 'warn');
    }
  });
  box.replaceChildren(el('h2', { textContent: say('pick') }), form);
}

try {
  const state = await api('/api/state');
  words = state.words;
  document.documentElement.lang = state.lang;
  if (state.kind === 'deep_link') picker(state);
  else {
    student(state);
    if (state.role === 'instructor') await teacher(state);
  }
} catch (err) {
  status(err.message, 'warn');
}
