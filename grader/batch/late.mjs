// Late submissions (`grade-batch --due ISO-time [--late-policy SPEC]`, grader/batch/README.md): the time of each
// submission (its file's modification time in the folder or the zip), the late flag (also Canvas' `_LATE`
// mark in a download name), and the policy's penalty, applied to the gradebook's grade only.
import { lmsIdentity, round2 } from './summary.mjs';

export class LateError extends Error {}

const ISO = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d))?(Z|[+-]\d\d:?\d\d)$/;

/** `--due`: an ISO 8601 time with its zone (`Z` or `±hh:mm`) → { ms, offsetMin, text }; null when it is not one. */
export function parseDue(text) {
  const m = ISO.exec(String(text).trim());
  if (!m) return null;
  const ms = Date.parse(
    `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${m[7].replace(/^([+-]\d\d)(\d\d)$/, '$1:$2')}`,
  );
  if (!Number.isFinite(ms)) return null;
  const z = m[7] === 'Z' ? 0 : (m[7][0] === '-' ? -1 : 1) * (+m[7].slice(1, 3) * 60 + +m[7].slice(-2));
  return { ms, offsetMin: z, text: String(text).trim() };
}

const UNIT = { m: 60e3, h: 3600e3, d: 86400e3 };
/**
 * `--late-policy`: terms separated by commas, `penalty:P%/day` (or `/hour`: P % of the maximum taken per period
 * begun after the due time), `cap:C%` (the most the penalty takes; default 100 %), `grace:N(m|h|d)` (late only
 * past the due time plus this). → { pct, per, perMs, cap, graceMs, text }, or null when a term is not one of these.
 */
export function parseLatePolicy(text) {
  const p = { pct: 0, per: 'day', perMs: UNIT.d, cap: 100, graceMs: 0, text: String(text).trim() };
  for (const term of p.text.split(',').map((t) => t.trim())) {
    let m;
    if ((m = /^penalty:(\d+(?:\.\d+)?)%\/(day|hour)$/.exec(term)) && +m[1] <= 100) {
      p.pct = +m[1];
      p.per = m[2];
      p.perMs = m[2] === 'day' ? UNIT.d : UNIT.h;
    } else if ((m = /^cap:(\d+(?:\.\d+)?)%$/.exec(term)) && +m[1] <= 100) p.cap = +m[1];
    else if ((m = /^grace:(\d+)(m|h|d)$/.exec(term))) p.graceMs = +m[1] * UNIT[m[2]];
    else return null;
  }
  return p;
}

/**
 * Each row's submission time and late flag, and with a policy its penalty on `grade` (after the scale): `times`
 * (student → { ms, naive }: a zip's DOS time has no zone, `naive`, and is read in the zone of --due). A row
 * gets `submitted` (ISO, UTC; null when unknown or without a due time), `late` (past the due time and grace, or marked `_LATE` by
 * Canvas' download name), and when a policy took points, `late_periods` and `penalty` (percent of the maximum).
 */
export function applyLate(summary, times, { due = null, policy = null } = {}) {
  for (const s of summary.students) {
    const t = due ? times.get(s.student) : null; // the time is read for a due time only
    const ms = t ? t.ms - (t.naive ? (due?.offsetMin ?? 0) * 60e3 : 0) : null;
    s.submitted = ms === null ? null : new Date(ms).toISOString();
    const over = due && ms !== null ? ms - due.ms - (policy?.graceMs ?? 0) : 0;
    s.late = over > 0 || lmsIdentity(s.student).late;
    if (policy && over > 0 && policy.pct > 0) {
      s.late_periods = Math.ceil(over / policy.perMs);
      s.penalty = Math.min(policy.cap, round2(policy.pct * s.late_periods));
      s.grade = Math.max(0, round2(s.grade - (summary.max * s.penalty) / 100));
    }
  }
  if (due) summary.due = new Date(due.ms).toISOString();
  if (policy) summary.late_policy = policy.text;
  return summary;
}
