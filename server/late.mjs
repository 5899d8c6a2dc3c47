// A placement's late policy: a due time, a penalty per day late (a started day counts) as a percentage
// of the score, and a cap on the penalty. A submission made after the due time is late; the score sent
// to the LMS is the tests passed less the penalty. Pure functions: the service applies them when it
// sends a score (so a changed policy applies to every score sent after it), the views show them.
const DAY_MS = 24 * 3600_000;

/** The placement row's policy ({ due_at, late_per_day, late_cap }) as the API shows it, or null when there is no due time. */
export function policyOf(p) {
  if (p?.due_at == null) return null;
  return { due: new Date(Number(p.due_at)).toISOString(), per_day: Number(p.late_per_day), cap: Number(p.late_cap) };
}

/**
 * What the policy makes of a submission made at `createdAt` that passed `passed` tests: { late_ms (0 when
 * on time), days, penalty (percent), score (rounded to 0.01; null before grading) }.
 */
export function lateScore(p, createdAt, passed) {
  const lateMs = p?.due_at == null ? 0 : Math.max(0, Number(createdAt) - Number(p.due_at));
  const days = Math.ceil(lateMs / DAY_MS);
  const penalty = days ? Math.min(Number(p.late_cap), Number(p.late_per_day) * days) : 0;
  const score = passed == null ? null : Math.round(passed * (100 - penalty)) / 100;
  return { late_ms: lateMs, days, penalty, score };
}

/** A policy the API refuses: `key` (messages.mjs `api.<key>`) and its params ({ field, got }). */
export class PolicyError extends Error {
  constructor(key, field, value) {
    super(`${field}: ${key}`);
    this.key = key;
    this.params = { field, got: String(JSON.stringify(value) ?? value).slice(0, 60) };
  }
}

const percent = (v, name, fallback) => {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 100) throw new PolicyError('late_percent', name, v);
  return v;
};

/**
 * A policy from the API's body { due, per_day, cap }: `due` an ISO 8601 time with its zone (or null: no
 * due time, nothing late), `per_day` 0…100 (default 10), `cap` 0…100 (default 100). Returns the columns
 * { due_at, late_per_day, late_cap }; throws a PolicyError naming the field.
 */
export function parsePolicy({ due, per_day: perDay, cap }) {
  if (due === null || due === undefined) return { due_at: null, late_per_day: null, late_cap: null };
  if (typeof due !== 'string' || due.length > 40 || !/(Z|[+-]\d\d:?\d\d)$/.test(due) || Number.isNaN(Date.parse(due)))
    throw new PolicyError('late_due', 'due', due);
  return { due_at: Date.parse(due), late_per_day: percent(perDay, 'per_day', 10), late_cap: percent(cap, 'cap', 100) };
}
