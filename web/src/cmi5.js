// The cmi5 side of a page launched by an LMS with cmi5's parameters (web/README.md, "cmi5"; the
// specification: github.com/AICC/CMI-5_Spec_Current). It takes its one-time token from the `fetch` URL,
// reads LMS.LaunchData, and speaks xAPI to `endpoint`:
// - "initialized" once the page is ready; after every Check a "scored" statement (cmi5 allowed: the score
//   of that Check); the first time the score reaches the mastery score (LMS.LaunchData masteryScore,
//   else every test) "passed" and "completed", once per registration; on leaving, if this session
//   checked but did not pass, "failed" with its last score; then "terminated" (cmi5: one of passed/failed
//   per session, none after passed, nothing judged outside launchMode Normal);
// - the student's code, and whether passed/completed were sent, in an xAPI state document of its own
//   (stateId "attnlab"), so that the code comes back at the next launch.
// The session lives in sessionStorage for the launch: a reload reuses the token (the fetch URL answers
// once) and sends no second initialized; after terminated (on leaving, or on Exit, which then goes to
// LMS.LaunchData's returnURL) a reload records nothing and says so.
// The page's CSP lets it reach exactly the origins of this launch's endpoint and fetch URL besides its own
// (web/page-policy.mjs); an LRS on another origin must answer CORS (Authorization is a custom header).
import { decodeCode, encodeCode, lmsNote } from './scorm.js';

const verb = (name) => ({ id: `http://adlnet.gov/expapi/verbs/${name}`, display: { 'en-US': name } });
export const CATEGORY = {
  cmi5: 'https://w3id.org/xapi/cmi5/context/categories/cmi5',
  moveOn: 'https://w3id.org/xapi/cmi5/context/categories/moveon',
};
const MASTERY = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore';
export const STATE_ID = 'attnlab';

/** ISO 8601 duration of `ms`, to the hundredth of a second. */
export const isoDuration = (ms) => `PT${Math.round(Math.max(0, ms) / 10) / 100}S`;

/**
 * host: the page (main.js); launch: mode.js cmi5Launch()'s result, or the Error it threw; strings(): the page's `lms` strings.
 * Sets <html data-lms="none|connected|failed">.
 */
export async function connectCmi5(host, launch, strings) {
  const root = document.documentElement;
  const note = lmsNote();
  const say = (text) => {
    note.textContent = text;
    note.hidden = !text;
  };
  const fail = (e) => {
    root.dataset.lms = 'failed';
    say(strings().refused(e.message ?? String(e)));
  };
  if (launch instanceof Error) return fail(launch);

  // This launch's session, kept in sessionStorage so that a reload within the launch never asks the
  // one-time fetch URL again, never sends initialized twice, and knows whether it already terminated.
  const sessionKey = `attnlab:cmi5 ${launch.registration} ${launch.fetch}`;
  const session = (() => {
    try {
      return JSON.parse(sessionStorage.getItem(sessionKey)) ?? {};
    } catch {
      return {};
    }
  })();
  const keep = () => {
    try {
      sessionStorage.setItem(sessionKey, JSON.stringify(session));
    } catch {
      /* private mode: a reload then cannot resume the session */
    }
  };
  let token = session.token;
  const xapi = async (method, path, { query = {}, body, keepalive = false, missingOk = false } = {}) => {
    const url = new URL(path, launch.endpoint);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const r = await fetch(url, {
      method,
      keepalive,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: {
        Authorization: `Basic ${token}`,
        'X-Experience-API-Version': '1.0.3',
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      },
    });
    if (missingOk && r.status === 404) return null;
    if (!r.ok) throw new Error(`${method} ${url.pathname}: HTTP ${r.status}`);
    return r.status === 204 ? null : r.json().catch(() => null);
  };
  const stateQuery = (stateId) => ({
    stateId,
    activityId: launch.activityId,
    agent: JSON.stringify(launch.actor),
    registration: launch.registration,
  });

  let launchData, ours;
  try {
    if (typeof token !== 'string' || !token) {
      const answer = await (await fetch(launch.fetch, { method: 'POST' })).json();
      token = answer?.['auth-token'];
      if (typeof token !== 'string' || !token)
        throw new Error(`fetch: ${answer?.['error-code'] ?? '?'} ${answer?.['error-text'] ?? 'no auth-token'}`);
      session.token = token;
      keep();
    }
    launchData = await xapi('GET', 'activities/state', { query: stateQuery('LMS.LaunchData') });
    if (!launchData?.contextTemplate || typeof launchData.contextTemplate !== 'object')
      throw new Error('LMS.LaunchData has no contextTemplate');
    ours = (await xapi('GET', 'activities/state', { query: stateQuery(STATE_ID), missingOk: true })) ?? {};
    // cmi5 11.0: the learner's preferences (an agent profile the LMS keeps); the page follows the first
    // language it has (ru, en) in languagePreference.
    const prefs = await xapi('GET', 'agents/profile', {
      query: { agent: JSON.stringify(launch.actor), profileId: 'cmi5LearnerPreferences' },
      missingOk: true,
    }).catch(() => null);
    const wanted = String(prefs?.languagePreference ?? '')
      .split(',')
      .map((x) => x.trim().slice(0, 2).toLowerCase())
      .find((x) => x === 'ru' || x === 'en');
    if (wanted) host.setLang(wanted);
  } catch (e) {
    return fail(e);
  }
  const normal = (launchData.launchMode ?? 'Normal') === 'Normal';
  // returnURL (cmi5 10.2.6): where Exit takes the learner once the session is terminated.
  const returnURL = (() => {
    try {
      const u = new URL(launchData.returnURL);
      return /^https?:$/.test(u.protocol) ? u.href : null;
    } catch {
      return null;
    }
  })();
  const mastery = Number.isFinite(launchData.masteryScore) ? launchData.masteryScore : null;
  const template = launchData.contextTemplate;

  const saved = await decodeCode(ours.code);
  if (saved !== null && saved !== host.getCode()) {
    host.setCode(saved);
    say(strings().restored);
  }

  // A statement about this AU: cmi5 defined ones carry the cmi5 category, and the moveOn one when their
  // result says success or completion; every one carries the context template and the registration.
  let started = performance.now(),
    lastTime = 0;
  const statement = (name, { result, defined = true, extensions } = {}) => {
    const category = [...(template.contextActivities?.category ?? [])];
    if (defined) category.push({ id: CATEGORY.cmi5, objectType: 'Activity' });
    if (defined && result && ('success' in result || 'completion' in result))
      category.push({ id: CATEGORY.moveOn, objectType: 'Activity' });
    const time = Math.max(Date.now(), lastTime + 1); // strictly increasing: cmi5 orders a session by timestamp
    lastTime = time;
    return {
      id: crypto.randomUUID(),
      actor: launch.actor,
      verb: verb(name),
      object: { id: launch.activityId, objectType: 'Activity' },
      ...(result && { result }),
      timestamp: new Date(time).toISOString(),
      context: {
        ...template,
        registration: launch.registration,
        contextActivities: { ...template.contextActivities, ...(category.length && { category }) },
        ...((template.extensions || extensions) && { extensions: { ...template.extensions, ...extensions } }),
      },
    };
  };
  const send = (statements, opts) => xapi('POST', 'statements', { body: statements, ...opts });
  const masteryExt = mastery === null ? undefined : { [MASTERY]: mastery };

  let judged = Boolean(session.judged),
    lastScore = session.lastScore ?? null,
    saving = Promise.resolve();
  const saveState = async () => {
    const code = await encodeCode(host.getCode());
    saving = saving
      .catch(() => {})
      .then(() =>
        xapi('PUT', 'activities/state', {
          query: stateQuery(STATE_ID),
          body: { code, passed: !!ours.passed, completed: !!ours.completed },
        }),
      );
    return saving;
  };

  // Exit (when the LMS gave a returnURL): terminates the session, then goes back to the course.
  const exit = returnURL && document.createElement('button');
  if (exit) {
    exit.type = 'button';
    exit.id = 'lms-exit';
    exit.textContent = strings().exit;
    note.after(exit);
  }

  await host.ready;
  if (session.terminated) {
    // A reload after the session ended: cmi5 allows no statement after terminated; the code is shown.
    root.dataset.lms = 'ended';
    if (exit) exit.addEventListener('click', () => location.assign(returnURL));
    return say([strings().ended, saved !== null ? strings().restored : ''].filter(Boolean).join(' '));
  }
  if (!session.initialized) {
    try {
      await send([statement('initialized')]);
    } catch (e) {
      return fail(e);
    }
    session.initialized = true;
    session.started = Date.now();
    keep();
  }
  started = performance.now() - (Date.now() - (session.started ?? Date.now()));
  root.dataset.lms = 'connected';

  addEventListener('attnlab:checked', async ({ detail: { passed, total } }) => {
    const scaled = total ? Math.round((10000 * passed) / total) / 10000 : 0;
    const score = { scaled, raw: passed, min: 0, max: total };
    lastScore = session.lastScore = score;
    const out = [statement('scored', { defined: false, result: { score, success: passed === total } })];
    const duration = isoDuration(performance.now() - started);
    if (normal && !judged && !ours.passed && scaled >= (mastery ?? 1)) {
      out.push(statement('passed', { result: { score, success: true, duration }, extensions: masteryExt }));
      judged = session.judged = ours.passed = true;
      if (!ours.completed) {
        out.push(statement('completed', { result: { completion: true, duration } }));
        ours.completed = true;
      }
    }
    keep();
    let ok = true;
    try {
      await send(out);
      await saveState();
    } catch (e) {
      ok = false;
      say(strings().notSent(e.message));
    }
    if (ok) say(strings().sent(passed, total));
    dispatchEvent(new CustomEvent('attnlab:lms', { detail: { passed, total, ok } }));
  });

  let timer = null;
  addEventListener('attnlab:edited', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      saveState().catch(() => {});
    }, 1500);
  });

  // terminated, once per session (a reload after it records nothing: above), on leaving or on Exit.
  const terminate = () => {
    if (session.terminated) return Promise.resolve();
    session.terminated = true;
    keep();
    const duration = isoDuration(performance.now() - started);
    const out = [];
    if (normal && !judged && !ours.passed && lastScore)
      out.push(statement('failed', { result: { score: lastScore, success: false, duration }, extensions: masteryExt }));
    out.push(statement('terminated', { result: { duration } }));
    return send(out, { keepalive: true }).catch(() => {});
  };
  addEventListener('pagehide', terminate);
  exit?.addEventListener('click', async () => {
    exit.disabled = true;
    await terminate();
    location.assign(returnURL);
  });
}
