// Reporters: one report (grader/core/grade.mjs) → text for people, Exercism v3 or Gradescope JSON.
import { say } from '../core/messages.mjs';

/** Exercism test-runner interface, version 3 (results.json). */
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

/** Gradescope autograder results.json: one point per test unless the spec says otherwise. */
export function gradescope(report) {
  const tests = report.tests.map((t, i) => ({
    name: t.name, number: String(i + 1), score: t.status === 'pass' ? 1 : 0, max_score: 1,
    status: t.status === 'pass' ? 'passed' : 'failed',
    output: [t.message, t.output].filter(Boolean).join('\n\n'), visibility: 'visible',
  }));
  const doc = {
    score: tests.reduce((s, t) => s + t.score, 0),
    output: [say(report.lang, 'summary', report), say(report.lang, 'seed', report), report.message].filter(Boolean).join('\n'),
    visibility: 'visible', stdout_visibility: 'visible', tests,
  };
  return JSON.stringify(doc, null, 2);
}

/** Plain text; colour only when `color` (the CLI sets it for a TTY). */
export function text(report, { color = false } = {}) {
  const c = (code, s) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const mark = { pass: c(32, '✓'), fail: c(31, '✗'), error: c(33, '!') };
  const lines = [];
  if (report.message) lines.push(c(report.status === 'error' ? 33 : 2, report.message), '');
  if (report.output) lines.push(...report.output.trimEnd().split('\n').map((l) => c(2, `| ${l}`)), '');
  for (const t of report.tests) {
    lines.push(`${mark[t.status]} ${t.id} — ${t.name}: ${say(report.lang, `status.${t.status}`)}`);
    if (t.message) lines.push(`    ${t.message}`);
    if (t.output) lines.push(...t.output.trimEnd().split('\n').map((l) => c(2, `    | ${l}`)));
  }
  if (report.tests.length) lines.push('');
  lines.push(`${c(1, say(report.lang, 'summary', report))} (${say(report.lang, 'seed', report)}; ${say(report.lang, 'backend', report)})`);
  return lines.join('\n');
}
