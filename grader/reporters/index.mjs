// Reporters: one report (grader/core/grade.mjs) → text for people, Exercism v3 or Gradescope JSON; and
// the report's texts rendered again from its data in another language (renderReport).
import { say, render } from '../core/messages.mjs';
import { visible } from '../wire/text.mjs';

/**
 * A report's texts rendered again from its data in `lang` (a report graded in Russian, read in
 * English): each test's name and message, the report's message, from `exercise` (its spec's names, its
 * messages) on `track` (its own messages, its spelling of a key). The report itself is left as it is.
 * @param {import('../types').Report} report
 * @returns {import('../types').Report}
 */
export function renderReport(report, { lang, exercise, track }) {
  const opts = { pack: exercise.messages, track };
  const names = new Map(exercise.spec.tests.map((t) => [t.id, t.name]));
  // An output cut to its limit ends with the note of the report's language (grade.mjs capOutput).
  const [was, now] = [report.lang, lang].map((l) => `\n${say(l, 'output.truncated')}`);
  const output = (s) => (s && s.endsWith(was) ? s.slice(0, -was.length) + now : s);
  const out = {
    ...report,
    lang,
    output: output(report.output),
    tests: report.tests.map((t) => ({
      ...t,
      name: names.get(t.id)?.[lang] ?? names.get(t.id)?.en ?? t.name,
      message: t.said ? render(lang, t.said, opts) : t.message,
      output: output(t.output),
    })),
  };
  if (report.said) out.message = render(lang, report.said, opts);
  if (report.error?.said) out.error = { ...report.error, message: render(lang, report.error.said, opts) };
  return out;
}

/**
 * Exercism test-runner interface, version 3 (results.json): the fields its spec lists and no other (a
 * test's cause is not among them: its message carries it as text).
 * @param {import('../types').Report} report
 */
export function exercism(report) {
  const doc = { version: 3, status: report.status };
  if (report.status === 'error') doc.message = report.message;
  doc.tests = report.tests.map((t) => {
    const o = { name: t.name, status: t.status, test_code: t.test_code, task_id: t.task_id };
    if (t.status !== 'pass') o.message = t.message;
    if (t.output) o.output = t.output;
    return o;
  });
  return JSON.stringify(doc, null, 2);
}

/**
 * Gradescope autograder results.json, each test worth its points (spec.json `points`, default 1); the causes as data in its top-level
 * `extra_data` ("extra data to be stored"): { causes: [{ test, key, params, same_as? }] }, one per test
 * not passed, in test order.
 * @param {import('../types').Report} report
 */
export function gradescope(report) {
  const tests = report.tests.map((t, i) => ({
    name: t.name,
    number: String(i + 1),
    score: t.status === 'pass' ? (t.points ?? 1) : 0,
    max_score: t.points ?? 1,
    status: t.status === 'pass' ? 'passed' : 'failed',
    output: [t.message, t.output].filter(Boolean).join('\n\n'),
    visibility: 'visible',
  }));
  const doc = {
    score: Math.round(tests.reduce((s, t) => s + t.score, 0) * 1e6) / 1e6,
    output: [say(report.lang, 'summary', report), say(report.lang, 'seed', report), report.message]
      .filter(Boolean)
      .join('\n'),
    visibility: 'visible',
    stdout_visibility: 'visible',
    extra_data: {
      causes: report.tests
        .filter((t) => t.cause)
        .map((t) => ({ test: t.id, ...t.cause, ...(t.same_as && { same_as: t.same_as }) })),
    },
    tests,
  };
  return JSON.stringify(doc, null, 2);
}

/**
 * Plain text; colour only when `color` (the CLI sets it for a TTY); `verbose` adds the fast path's name;
 * `hints` ({ fn, list, shown }: the pack's hints for the function that fails first, fn null for a pack
 * whose hints are one list) adds the first `shown` of them, or how many there are. Student text cannot pass for the
 * grader's: control characters are shown escaped, and every line after the first of a message, and
 * every printed line, is indented under its test behind `| `, so a line that starts with a mark
 * (✓ ✗ !) or the summary at the left margin is always the grader's own.
 * @param {import('../types').Report} report
 */
export function text(report, { color = false, verbose = false, hints = null } = {}) {
  const c = (code, s) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const mark = { pass: c(32, '✓'), fail: c(31, '✗'), error: c(33, '!') };
  const block = (s, first, rest) =>
    visible(s)
      .trimEnd()
      .split('\n')
      .map((l, i) => `${i ? rest : first}${l}`);
  const lines = [];
  if (report.message)
    lines.push(...block(report.message, '', '  | ').map((l) => c(report.status === 'error' ? 33 : 2, l)), '');
  if (report.error?.sourceLine !== undefined) lines.push(...caret(report.error), '');
  if (report.output) lines.push(...block(report.output, '| ', '| ').map((l) => c(2, l)), '');
  // A file that does not parse: its tests are not run, said once (the JSON formats keep each test).
  const notParsed =
    report.error &&
    report.tests.length &&
    report.tests.every((t) => t.status === 'error' && t.message === report.tests[0].message);
  if (notParsed) lines.push(`${mark.error} ${say(report.lang, 'not_run.parse', { n: report.tests.length })}`, '');
  for (const t of notParsed ? [] : report.tests) {
    lines.push(`${mark[t.status]} ${t.id} — ${visible(t.name)}: ${say(report.lang, `status.${t.status}`)}`);
    if (t.message) lines.push(...block(t.message, '    ', '    | '));
    if (t.output) lines.push(...block(t.output, '    | ', '    | ').map((l) => c(2, l)));
  }
  if (report.tests.length && !notParsed) lines.push('');
  if (hints) lines.push(...hintLines(report.lang, hints), '');
  const details = [say(report.lang, 'seed', report), verbose && say(report.lang, 'backend', report)]
    .filter(Boolean)
    .join('; ');
  lines.push(`${c(1, say(report.lang, 'summary', report))} (${details})`);
  return lines.join('\n');
}

/**
 * A syntax error's source line and a caret under its column (`error`: report.error), the line escaped
 * and, when long, cut to a window around the column; tabs shown as one space so that the caret lines up.
 */
function caret({ line, column, sourceLine }) {
  const WIDTH = 100;
  let text = sourceLine.replace(/\t/g, ' '),
    col = Math.max(1, column ?? 1);
  if (text.length > WIDTH) {
    const from = Math.max(0, Math.min(col - 1 - WIDTH / 2, text.length - WIDTH));
    text = `${from > 0 ? '…' : ''}${text.slice(from, from + WIDTH)}${from + WIDTH < text.length ? '…' : ''}`;
    col = col - from + (from > 0 ? 1 : 0);
  }
  // visible() may lengthen the text before the column (an escaped control character): the caret follows it.
  const shown = visible(text),
    before = visible(text.slice(0, col - 1));
  const gutter = ' '.repeat(String(line).length);
  return [`  ${line} | ${shown}`, `  ${gutter} | ${' '.repeat(before.length)}^`];
}

/** The hints a text report ends with: the first `shown` of `list` (or their count), and how to see the next. */
function hintLines(lang, { fn, list, shown }) {
  const of = fn ? say(lang, 'hints.of', { fn }) : '';
  if (!shown) return [say(lang, 'hints.count', { n: list.length, of })];
  const lines = list
    .slice(0, shown)
    .flatMap((h, i) => [
      say(lang, 'hints.one', { i: i + 1, n: list.length, of }),
      ...h.split('\n').map((l) => `  ${l}`),
    ]);
  if (shown < list.length) lines.push(say(lang, 'hints.more', { next: shown + 1 }));
  return lines;
}
