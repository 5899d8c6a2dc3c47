// What the service does, apart from HTTP: launches into sessions, submissions stored and graded, scores
// sent to the LMS, the teacher's views (class, history, overrides, regrade, gradebook). Every read is
// scoped by the session: a learner reaches only their own submissions in their placement, an
// instructor only their own course's.
import { hostname } from 'node:os';
import { TRACK_NAMES, csvCell, regradeDiff, reportHtml, similarityOf, summarize } from '../grader/index.mjs';
import { causesOf } from './grading.mjs';
import { PolicyError, lateScore, parsePolicy, policyOf } from './late.mjs';
import { t as say } from './messages.mjs';
import { CLAIM, AGS_CLAIM, DL_CLAIM, consumeLaunch, postScore, randomToken, roleOf, sha256 } from './lti.mjs';

const MAX_ATTEMPTS = 3; // a submission the grader fails on this many times is marked failed
const KEEP_MS = 24 * 3600_000; // logins, used nonces and expired sessions are deleted after a day

export class ApiError extends Error {
  /** status: the HTTP status; key: the message key (messages.mjs `api.<key>`); params: its fields. */
  constructor(status, key, params = {}) {
    super(key);
    Object.assign(this, { status, key, params });
  }
}

const now = () => Date.now();
/** Which process graded a submission (host:pid), stored with it. */
export const GRADED_BY = `${hostname()}:${process.pid}`;
const titleOf = (exercise, lang) => exercise.spec.title?.[lang] ?? exercise.spec.title?.en ?? exercise.spec.slug;

export function createService({ db, config, grader, key, log, fetchImpl = fetch }) {
  let queue = null;
  const rates = new Map(); // `${placement}:${user}` → times of the last minute's submissions

  /** After verifyLaunch: the user, course and placement upserted, the state and nonce consumed, a session. Returns { token }. */
  async function startSession(launch, { lang }) {
    const { platform, claims } = launch;
    const type = claims[`${CLAIM}message_type`];
    const deployment = claims[`${CLAIM}deployment_id`];
    const role = roleOf(claims);
    const context = claims[`${CLAIM}context`];
    const token = randomToken(32);
    return db.tx(async (t) => {
      await consumeLaunch(t, db, launch);
      const name = String(claims.name ?? [claims.given_name, claims.family_name].filter(Boolean).join(' ') ?? '').slice(
        0,
        200,
      );
      await t.run(
        'INSERT INTO users (platform_id, sub, name) VALUES (?, ?, ?) ON CONFLICT (platform_id, sub) DO UPDATE SET name = excluded.name',
        [platform.id, claims.sub, name],
      );
      const user = await t.get('SELECT id FROM users WHERE platform_id = ? AND sub = ?', [platform.id, claims.sub]);
      await t.run(
        `INSERT INTO courses (platform_id, deployment_id, context_id, title) VALUES (?, ?, ?, ?)
         ON CONFLICT (platform_id, deployment_id, context_id) DO UPDATE SET title = excluded.title`,
        [platform.id, deployment, context.id, String(context.title ?? '').slice(0, 200)],
      );
      const course = await t.get(
        'SELECT id FROM courses WHERE platform_id = ? AND deployment_id = ? AND context_id = ?',
        [platform.id, deployment, context.id],
      );
      let placement = null,
        deepLink = null;
      if (type === 'LtiResourceLinkRequest') {
        const custom = claims[`${CLAIM}custom`] ?? {};
        const exercise = String(custom.exercise ?? '');
        const track = String(custom.track ?? '');
        const known = await grader.pack(exercise).catch(() => null);
        if (!known || !TRACK_NAMES.includes(track))
          throw new ApiError(400, 'placement', { exercise: exercise.slice(0, 40), track: track.slice(0, 20) });
        const ags = claims[AGS_CLAIM];
        const lineitem = ags?.scope?.includes?.('https://purl.imsglobal.org/spec/lti-ags/scope/score')
          ? (ags.lineitem ?? null)
          : null;
        const link = claims[`${CLAIM}resource_link`];
        await t.run(
          `INSERT INTO placements (course_id, resource_link_id, exercise, track, title, lineitem_url) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (course_id, resource_link_id) DO UPDATE SET exercise = excluded.exercise, track = excluded.track,
             title = excluded.title, lineitem_url = COALESCE(excluded.lineitem_url, placements.lineitem_url)`,
          [course.id, link.id, exercise, track, String(link.title ?? '').slice(0, 200), lineitem],
        );
        placement = (
          await t.get('SELECT id FROM placements WHERE course_id = ? AND resource_link_id = ?', [course.id, link.id])
        ).id;
      } else {
        if (role !== 'instructor') throw new ApiError(403, 'deep_link_role');
        deepLink = JSON.stringify({
          settings: claims[`${DL_CLAIM}deep_linking_settings`],
          deployment,
          platform: platform.id,
        });
      }
      await t.run(
        `INSERT INTO sessions (token_hash, user_id, course_id, placement_id, role, kind, deep_link, lang, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          sha256(token),
          user.id,
          course.id,
          placement,
          role,
          type === 'LtiResourceLinkRequest' ? 'resource' : 'deep_link',
          deepLink,
          lang,
          now(),
          now() + config.session_hours * 3600_000,
        ],
      );
      return { token };
    });
  }

  /** The session a token names, or an ApiError 401. */
  async function session(token) {
    if (typeof token !== 'string' || token.length < 20 || token.length > 100) throw new ApiError(401, 'session');
    const s = await db.get(
      `SELECT s.*, u.sub, u.name AS user_name, u.platform_id, p.exercise, p.track, p.title AS placement_title, p.lineitem_url,
         p.due_at, p.late_per_day, p.late_cap
       FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN placements p ON p.id = s.placement_id WHERE s.token_hash = ?`,
      [sha256(token)],
    );
    if (!s || s.expires_at < now()) throw new ApiError(401, 'session');
    return s;
  }

  const needPlacement = (s) => {
    if (!s.placement_id) throw new ApiError(400, 'no_placement');
  };
  const needInstructor = (s) => {
    if (s.role !== 'instructor') throw new ApiError(403, 'instructor_only');
  };

  /** Stores a submission (queued) and hands it to the queue. Returns { id, queued, busy }. */
  async function submit(s, code) {
    needPlacement(s);
    if (typeof code !== 'string') throw new ApiError(400, 'code_type');
    const bytes = Buffer.byteLength(code);
    if (bytes > config.max_code_bytes) throw new ApiError(413, 'code_size', { bytes, max: config.max_code_bytes });
    const k = `${s.placement_id}:${s.user_id}`;
    const recent = (rates.get(k) ?? []).filter((t) => t > now() - 60_000);
    if (recent.length >= config.rate_per_minute) throw new ApiError(429, 'rate', { n: config.rate_per_minute });
    rates.set(k, [...recent, now()]);
    if (rates.size > 10_000) for (const [key, times] of rates) if (times.at(-1) < now() - 60_000) rates.delete(key);
    const row = await db.get(
      `INSERT INTO submissions (placement_id, user_id, exercise, track, code, lang, created_at, status) VALUES (?, ?, ?, ?, ?, ?, ?, 'queued') RETURNING id`,
      [s.placement_id, s.user_id, s.exercise, s.track, code, s.lang, now()],
    );
    const queued = Number(
      (await db.get("SELECT COUNT(*) AS n FROM submissions WHERE status IN ('queued', 'grading')")).n,
    );
    await queue.enqueue(row.id);
    log.info({ submission: row.id, user: s.user_id, placement: s.placement_id, bytes, queued }, 'submission stored');
    return { id: row.id, queued, busy: queued > config.busy_queue };
  }

  /** Grades one submission (a queue job): claimed, graded, stored with its causes, then its score sent. */
  async function gradeJob(id) {
    const claim = await db.run(
      "UPDATE submissions SET status = 'grading', attempts = attempts + 1 WHERE id = ? AND status IN ('queued', 'grading')",
      [id],
    );
    if (claim.changes !== 1) return; // graded already (a job run twice)
    const sub = await db.get('SELECT * FROM submissions WHERE id = ?', [id]);
    const t0 = now();
    let graded;
    try {
      graded = await grader.grade({ slug: sub.exercise, trackName: sub.track, code: sub.code, lang: sub.lang });
    } catch (e) {
      // A fault of the grader (the student's own errors, timeouts and crashes are in the report): the job
      // is tried again, up to MAX_ATTEMPTS, then the submission is marked failed and the page says so.
      const last = sub.attempts >= MAX_ATTEMPTS;
      await db.run(`UPDATE submissions SET status = ?, score_error = ? WHERE id = ? AND status = 'grading'`, [
        last ? 'failed' : 'queued',
        String(e?.message ?? e).slice(0, 500),
        id,
      ]);
      log.error(
        { submission: id, attempts: sub.attempts, err: String(e?.stack ?? e) },
        last ? 'grading failed for good' : 'grading failed, queued again',
      );
      if (last) return;
      throw e;
    }
    const { report, version } = graded;
    const done = await db.tx(async (t) => {
      const r = await t.run(
        `UPDATE submissions SET status = 'graded', report = ?, passed = ?, total = ?, pack_version = ?, graded_at = ?, graded_by = ?,
           score_state = 'pending' WHERE id = ? AND status = 'grading'`,
        [JSON.stringify(report), report.passed, report.total, version, now(), GRADED_BY, id],
      );
      if (r.changes !== 1) return false;
      for (const c of causesOf(report))
        await t.run(
          'INSERT INTO causes (submission_id, test_id, status, cause_key, cause_params) VALUES (?, ?, ?, ?, ?)',
          [id, c.test, c.status, c.key, c.params && JSON.stringify(c.params)],
        );
      return true;
    });
    if (!done) return;
    log.info({ submission: id, passed: report.passed, total: report.total, ms: now() - t0 }, 'graded');
    await sendScore(id);
  }

  /** Sends a graded submission's score by AGS (unless an override stands, or the placement has no line item). */
  async function sendScore(id) {
    const sub = await db.get(
      `SELECT s.*, u.sub, u.platform_id, p.lineitem_url, p.due_at, p.late_per_day, p.late_cap FROM submissions s
       JOIN users u ON u.id = s.user_id JOIN placements p ON p.id = s.placement_id WHERE s.id = ?`,
      [id],
    );
    if (!sub.lineitem_url) return db.run("UPDATE submissions SET score_state = 'none' WHERE id = ?", [id]);
    if (
      await db.get('SELECT 1 AS o FROM overrides WHERE placement_id = ? AND user_id = ?', [
        sub.placement_id,
        sub.user_id,
      ])
    )
      return db.run("UPDATE submissions SET score_state = 'overridden' WHERE id = ?", [id]);
    const platform = await db.get('SELECT * FROM platforms WHERE id = ?', [sub.platform_id]);
    // The placement's late policy as it is now (a changed policy applies to every score sent after it).
    const late = lateScore(sub, sub.created_at, sub.passed);
    // `sending` before the request: a process killed during it leaves the row saying the LMS may have the
    // score; it is sent again with the same timestamp, which AGS platforms take as the same score.
    await db.run("UPDATE submissions SET score_state = 'sending' WHERE id = ?", [id]);
    try {
      await postScore({
        key,
        platform,
        lineitem: sub.lineitem_url,
        fetchImpl,
        score: {
          userId: sub.sub,
          scoreGiven: late.score,
          scoreMaximum: sub.total,
          // the submission's time, not the grading's: a later submission graded first is never overwritten
          timestamp: new Date(sub.created_at).toISOString(),
          ...(late.days ? { comment: say(sub.lang, 'late.comment', late) } : {}),
        },
      });
      await db.run(
        "UPDATE submissions SET score_state = 'sent', score_sent_at = ?, score_error = NULL, score_given = ? WHERE id = ?",
        [now(), late.score, id],
      );
      log.info({ submission: id, scoreGiven: late.score, scoreMaximum: sub.total, late: late.days }, 'score sent');
    } catch (e) {
      await db.run("UPDATE submissions SET score_state = 'failed', score_error = ? WHERE id = ?", [
        String(e.message).slice(0, 500),
        id,
      ]);
      log.warn({ submission: id, err: String(e.message) }, 'score not sent (retried later)');
    }
  }

  /** Scores not sent (the service stopped between grading and sending, or the LMS failed): sent again. */
  async function resendScores({ olderThanMs = 30_000 } = {}) {
    const rows = await db.all(
      "SELECT id FROM submissions WHERE score_state IN ('pending', 'sending', 'failed') AND graded_at < ? ORDER BY id",
      [now() - olderThanMs],
    );
    for (const r of rows) await sendScore(r.id);
    return rows.length;
  }

  /** Deletes what is kept only for a while: logins, used nonces (an id_token is refused after an hour anyway), expired sessions. */
  async function prune() {
    const before = now() - KEEP_MS;
    await db.run('DELETE FROM oidc_states WHERE created_at < ?', [before]);
    await db.run('DELETE FROM nonces WHERE used_at < ?', [before]);
    await db.run('DELETE FROM sessions WHERE expires_at < ?', [now()]);
  }

  /** A submission as the API shows it; `policy`: its placement's row (due_at, late_per_day, late_cap): `score` is what counts, after a late penalty. */
  const summaryOf = (r, policy) => {
    const late = lateScore(policy, r.created_at, r.passed);
    return {
      id: r.id,
      created_at: r.created_at,
      status: r.status,
      passed: r.passed,
      total: r.total,
      score: late.score,
      late_days: late.days,
      penalty: late.penalty,
      score_state: r.score_state,
    };
  };

  /** One submission, if the session may see it: its owner in its placement, or an instructor of its course. */
  async function submission(s, id) {
    const r = await db.get(
      `SELECT s.*, p.course_id, p.due_at, p.late_per_day, p.late_cap FROM submissions s JOIN placements p ON p.id = s.placement_id WHERE s.id = ?`,
      [Number(id)],
    );
    const mine = r && r.user_id === s.user_id && r.placement_id === s.placement_id;
    const teaches = r && s.role === 'instructor' && r.course_id === s.course_id;
    if (!mine && !teaches) throw new ApiError(404, 'not_found'); // the same answer whether it exists or not
    return { ...summaryOf(r, r), code: r.code, report: r.report && JSON.parse(r.report) };
  }

  /** The session's own state: the placement, the latest code, the history, and what the course recorded. */
  async function state(s) {
    const base = { role: s.role, kind: s.kind, lang: s.lang, name: s.user_name };
    if (s.kind === 'deep_link') return { ...base, packs: await packs(s.lang) };
    const history = await db.all(
      'SELECT * FROM submissions WHERE placement_id = ? AND user_id = ? ORDER BY id DESC LIMIT 50',
      [s.placement_id, s.user_id],
    );
    const override = await db.get(
      'SELECT score, reason FROM overrides WHERE placement_id = ? AND user_id = ? ORDER BY id DESC LIMIT 1',
      [s.placement_id, s.user_id],
    );
    return {
      ...base,
      exercise: s.exercise,
      track: s.track,
      title: s.placement_title,
      code: history[0]?.code ?? null,
      history: history.map((r) => summaryOf(r, s)),
      override,
      scores: Boolean(s.lineitem_url),
      late_policy: policyOf(s),
    };
  }

  async function packs(lang) {
    const out = [];
    for (const slug of grader.list()) {
      const { exercise } = await grader.pack(slug);
      out.push({ slug, title: titleOf(exercise, lang), tests: exercise.spec.tests.length, tracks: TRACK_NAMES });
    }
    return out;
  }

  /** Deep Linking: the content item for pack `exercise` on `track`, with its line item (scoreMaximum = the pack's tests). */
  async function deepLinkItem(s, { exercise, track, title }) {
    if (s.kind !== 'deep_link') throw new ApiError(400, 'not_deep_link');
    const known = await grader.pack(String(exercise)).catch(() => null);
    if (!known || !TRACK_NAMES.includes(track))
      throw new ApiError(400, 'placement', {
        exercise: String(exercise).slice(0, 40),
        track: String(track).slice(0, 20),
      });
    const { settings, deployment, platform: platformId } = JSON.parse(s.deep_link);
    const platform = await db.get('SELECT * FROM platforms WHERE id = ?', [platformId]);
    const label =
      typeof title === 'string' && title.trim()
        ? title.trim().slice(0, 200)
        : `${titleOf(known.exercise, s.lang)} (${track})`;
    const item = {
      type: 'ltiResourceLink',
      title: label,
      url: `${config.base_url}/lti/launch`,
      custom: { exercise, track },
      lineItem: {
        scoreMaximum: known.exercise.spec.tests.length,
        label,
        resourceId: `${exercise}:${track}`,
        tag: 'attnlab',
      },
    };
    return { returnUrl: settings.deep_link_return_url, platform, deployment, settings, items: [item] };
  }

  // ---- the teacher's views ----

  /** The class: each student of the placement with their latest submission, its score, their count, and an override if any. */
  async function classView(s) {
    needInstructor(s);
    needPlacement(s);
    const rows = await db.all(
      `SELECT u.id AS user_id, u.name, u.sub, COUNT(x.id) AS submissions, MAX(x.id) AS latest
       FROM submissions x JOIN users u ON u.id = x.user_id WHERE x.placement_id = ? GROUP BY u.id, u.name, u.sub ORDER BY u.name, u.id`,
      [s.placement_id],
    );
    const out = [];
    for (const r of rows) {
      const latest = await db.get('SELECT * FROM submissions WHERE id = ?', [r.latest]);
      const override = await db.get(
        'SELECT score, reason, created_at FROM overrides WHERE placement_id = ? AND user_id = ? ORDER BY id DESC LIMIT 1',
        [s.placement_id, r.user_id],
      );
      const causes = await db.all(
        'SELECT test_id, status, cause_key FROM causes WHERE submission_id = ? ORDER BY test_id',
        [r.latest],
      );
      out.push({
        user: r.user_id,
        name: r.name,
        sub: r.sub,
        submissions: Number(r.submissions),
        latest: summaryOf(latest, s),
        override,
        causes,
      });
    }
    return { exercise: s.exercise, track: s.track, late_policy: policyOf(s), students: out };
  }

  /** A student's submissions in the placement, oldest first (an instructor's view). */
  async function history(s, userId) {
    needInstructor(s);
    needPlacement(s);
    const rows = await db.all('SELECT * FROM submissions WHERE placement_id = ? AND user_id = ? ORDER BY id', [
      s.placement_id,
      Number(userId),
    ]);
    return rows.map((r) => ({ ...summaryOf(r, s), code: r.code }));
  }

  /** An override of a student's score with a reason, sent by AGS at once. */
  async function override(s, { user, score, reason }) {
    needInstructor(s);
    needPlacement(s);
    const total = (await grader.pack(s.exercise)).exercise.spec.tests.length;
    if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > total)
      throw new ApiError(400, 'override_score', { max: total });
    if (typeof reason !== 'string' || !reason.trim() || reason.length > 1000)
      throw new ApiError(400, 'override_reason');
    const student = await db.get(
      'SELECT u.* FROM users u JOIN submissions x ON x.user_id = u.id WHERE u.id = ? AND x.placement_id = ? LIMIT 1',
      [Number(user), s.placement_id],
    );
    if (!student) throw new ApiError(404, 'not_found');
    const row = await db.get(
      'INSERT INTO overrides (placement_id, user_id, score, reason, by_user_id, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
      [s.placement_id, student.id, score, reason.trim(), s.user_id, now()],
    );
    log.info({ override: row.id, user: student.id, placement: s.placement_id, score, by: s.user_id }, 'override');
    if (!s.lineitem_url) {
      await db.run("UPDATE overrides SET score_state = 'none' WHERE id = ?", [row.id]);
      return { id: row.id, score_state: 'none' };
    }
    const platform = await db.get('SELECT * FROM platforms WHERE id = ?', [student.platform_id]);
    try {
      await postScore({
        key,
        platform,
        lineitem: s.lineitem_url,
        fetchImpl,
        score: {
          userId: student.sub,
          scoreGiven: score,
          scoreMaximum: total,
          comment: reason.trim(),
          timestamp: new Date().toISOString(),
        },
      });
      await db.run("UPDATE overrides SET score_state = 'sent' WHERE id = ?", [row.id]);
      return { id: row.id, score_state: 'sent' };
    } catch (e) {
      await db.run("UPDATE overrides SET score_state = 'failed', score_error = ? WHERE id = ?", [
        String(e.message).slice(0, 500),
        row.id,
      ]);
      return { id: row.id, score_state: 'failed' };
    }
  }

  /**
   * Regrade of the placement (after a pack changed): every student's latest submission graded again with
   * the pack as it is now, stored as the new report, and the diff (grader/batch's regradeDiff: who
   * changed, which tests) kept and returned; changed scores are sent again.
   */
  async function regrade(s) {
    needInstructor(s);
    needPlacement(s);
    grader.reload();
    const latest = await db.all(
      `SELECT x.* FROM submissions x JOIN (SELECT user_id, MAX(id) AS id FROM submissions WHERE placement_id = ? AND status IN ('graded', 'failed') GROUP BY user_id) l
       ON l.id = x.id ORDER BY x.id`,
      [s.placement_id],
    );
    const summary = (rows, versionOf, reportOf) => ({
      pack_version: versionOf(rows),
      students: rows.map((r) => {
        const report = reportOf(r);
        return {
          student: String(r.user_id),
          key: String(r.id),
          score: report.passed,
          tests: Object.fromEntries(report.tests.map((t) => [t.id, t.status])),
        };
      }),
    });
    const after = new Map();
    let version = null;
    for (const r of latest) {
      const g = await grader.grade({ slug: r.exercise, trackName: r.track, code: r.code, lang: r.lang });
      after.set(r.id, g.report);
      version = g.version;
    }
    const diff = regradeDiff(
      summary(
        latest,
        (rows) => [...new Set(rows.map((r) => r.pack_version))].join(' '),
        (r) => (r.report ? JSON.parse(r.report) : { passed: null, tests: [] }), // a submission the grader had failed on
      ),
      summary(
        latest,
        () => version,
        (r) => after.get(r.id),
      ),
    );
    for (const r of latest) {
      const report = after.get(r.id);
      await db.tx(async (t) => {
        await t.run(
          "UPDATE submissions SET status = 'graded', report = ?, passed = ?, total = ?, pack_version = ?, graded_at = ?, score_state = 'pending' WHERE id = ?",
          [JSON.stringify(report), report.passed, report.total, version, now(), r.id],
        );
        await t.run('DELETE FROM causes WHERE submission_id = ?', [r.id]);
        for (const c of causesOf(report))
          await t.run(
            'INSERT INTO causes (submission_id, test_id, status, cause_key, cause_params) VALUES (?, ?, ?, ?, ?)',
            [r.id, c.test, c.status, c.key, c.params && JSON.stringify(c.params)],
          );
      });
      const changed = diff.changed.some((c) => c.key === String(r.id));
      if (changed) await sendScore(r.id);
      else await db.run('UPDATE submissions SET score_state = ? WHERE id = ?', [r.score_state, r.id]);
    }
    await db.run('INSERT INTO regrades (placement_id, by_user_id, created_at, diff) VALUES (?, ?, ?, ?)', [
      s.placement_id,
      s.user_id,
      now(),
      JSON.stringify(diff),
    ]);
    log.info({ placement: s.placement_id, regraded: latest.length, changed: diff.changed.length }, 'regrade');
    return { regraded: latest.length, ...diff };
  }

  /**
   * Sets the placement's late policy (late.mjs parsePolicy: { due, per_day, cap }; a null due clears it),
   * then sends again every student's latest score that the policy changes (not an overridden one).
   * Returns { late_policy, resent }.
   */
  async function setLatePolicy(s, body) {
    needInstructor(s);
    needPlacement(s);
    let policy;
    try {
      policy = parsePolicy(body);
    } catch (e) {
      if (e instanceof PolicyError) throw new ApiError(400, e.key, e.params);
      throw e;
    }
    await db.run('UPDATE placements SET due_at = ?, late_per_day = ?, late_cap = ? WHERE id = ?', [
      policy.due_at,
      policy.late_per_day,
      policy.late_cap,
      s.placement_id,
    ]);
    log.info({ placement: s.placement_id, ...policy, by: s.user_id }, 'late policy');
    const latest = await db.all(
      `SELECT x.* FROM submissions x JOIN (SELECT user_id, MAX(id) AS id FROM submissions WHERE placement_id = ? AND status = 'graded' GROUP BY user_id) l
       ON l.id = x.id WHERE x.score_state IN ('sent', 'failed') ORDER BY x.id`,
      [s.placement_id],
    );
    let resent = 0;
    for (const r of latest)
      if (lateScore(policy, r.created_at, r.passed).score !== r.score_given) {
        await sendScore(r.id);
        resent++;
      }
    return { late_policy: policyOf(policy), resent };
  }

  /**
   * The class report of the placement (grade-batch's report.html: scores, pass rates per test, common
   * diagnoses, similar submissions) from each student's latest graded submission, in the session's language.
   */
  async function classReport(s) {
    needInstructor(s);
    needPlacement(s);
    const { exercise, version } = await grader.pack(s.exercise);
    const rows = await db.all(
      `SELECT x.*, u.name, u.sub FROM submissions x JOIN users u ON u.id = x.user_id
       JOIN (SELECT user_id, MAX(id) AS id FROM submissions WHERE placement_id = ? AND status = 'graded' GROUP BY user_id) l
       ON l.id = x.id ORDER BY x.id`,
      [s.placement_id],
    );
    // A student is named as the LMS names them (their LMS id after it: two students may share a name).
    const records = rows.map((r) => ({
      student: `${r.name || r.sub} (${r.sub})`,
      key: String(r.id),
      track: r.track,
      report: JSON.parse(r.report),
      pack_version: r.pack_version,
      lang: s.lang,
      source: r.code,
    }));
    const summary = summarize(records, exercise, { version });
    summary.lang = s.lang;
    return reportHtml({ summary, records, ...similarityOf(records, exercise), exercise, lang: s.lang });
  }

  /** The gradebook CSV of the placement: each student's LMS id, name, the score that counts (an override, else the latest), its maximum. */
  async function gradebook(s) {
    const view = await classView(s);
    const lines = [
      ['user_id', 'name', 'score', 'max', 'submissions', 'overridden', 'reason', 'late_days', 'penalty'].join(','),
    ];
    for (const st of view.students) {
      const score = st.override ? st.override.score : st.latest.score;
      lines.push(
        [
          st.sub,
          st.name ?? '',
          score ?? '',
          st.latest.total ?? '',
          st.submissions,
          st.override ? 'yes' : 'no',
          st.override?.reason ?? '',
          st.latest.late_days,
          st.latest.penalty,
        ]
          .map(csvCell)
          .join(','),
      );
    }
    return lines.join('\n') + '\n';
  }

  return {
    setQueue(q) {
      queue = q;
    },
    startSession,
    session,
    submit,
    gradeJob,
    sendScore,
    resendScores,
    prune,
    submission,
    state,
    packs,
    deepLinkItem,
    classView,
    history,
    override,
    regrade,
    setLatePolicy,
    classReport,
    gradebook,
  };
}
