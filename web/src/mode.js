// How the page was opened: as itself; in embed mode (`?embed=1`: a frame in a course's page, talking to
// the parent named by `&parent-origin=`, web/src/embed.js); as a package's page, whose index.html was
// written by tools/package-scorm with the exercise, track, language and SCORM version fixed in
// <html data-package-exercise data-package-track data-package-lang data-scorm> (web/src/scorm.js; no
// data-scorm in a cmi5 package); and launched by a cmi5 LMS (its five parameters, web/src/cmi5.js).
import { parseOrigin } from '../csp.mjs';

/**
 * → { embed, parentOrigin (a valid origin or null), pkg: { exercise, track, lang, scorm, attempt } | null,
 *     cmi5: cmi5Launch()'s result, or the Error naming a bad parameter, or null }
 */
export function pageMode(search, root = document.documentElement) {
  const params = new URLSearchParams(search);
  const d = root.dataset;
  const pkg = d.packageExercise
    ? {
        exercise: d.packageExercise,
        track: d.packageTrack,
        lang: d.packageLang,
        scorm: d.scorm ?? null,
        // a SCORM package's attempt options (tools/package-scorm --score, --failed-on-exit; scorm.js ATTEMPT_DEFAULTS)
        attempt: { score: d.scormScore === 'latest' ? 'latest' : 'best', failedOnExit: d.scormFailedOnExit === 'yes' },
      }
    : null;
  let cmi5;
  try {
    cmi5 = cmi5Launch(search);
  } catch (e) {
    cmi5 = e;
  }
  const embed = Boolean(pkg || cmi5) || params.get('embed') === '1';
  return { embed, parentOrigin: embed && !pkg && !cmi5 ? parseOrigin(params.get('parent-origin')) : null, pkg, cmi5 };
}

// Every URL parameter the page reads, by who may set it (cmi5's five launch parameters are cmi5Launch's;
// `embed` and `parent-origin` make embed mode):
// - `show`: what to open — the exercise, its track, the language, the theme. Read in every mode (a
//   package fixes the first three in its index.html, which wins).
// - `course`: a course's setting for its students — `solution` (when the reference solution is offered,
//   web/src/solution.js). Read in every mode: a course sets it in its embed or launch URL (or a link to
//   the page); it changes no score.
// - `page`: the page's own tuning and the tests' hooks, read only on the page opened as itself. `timeout`
//   (a call's limit) and `flavour` (the core's build) change grading; `backend`, `threads`, `scaleMax`,
//   `memoryMax` and `nosw` change the badge, the panels and the offline cache. In embed mode and in a
//   package the URL belongs to a course page or an LMS (which may show it to the student): ignored there,
//   so that a score never depends on it.
export const URL_PARAMS = {
  exercise: 'show',
  track: 'show',
  lang: 'show',
  theme: 'show',
  solution: 'course',
  timeout: 'page',
  flavour: 'page',
  backend: 'page',
  threads: 'page',
  scaleMax: 'page',
  memoryMax: 'page',
  nosw: 'page',
};

/** The parameters of `search` the page may read in `mode` (pageMode's result): all on the page itself, else the `show` and `course` ones. */
export function pageParams(search, mode) {
  const all = new URLSearchParams(search);
  if (!mode.embed) return all;
  return new URLSearchParams([...all].filter(([k]) => URL_PARAMS[k] === 'show' || URL_PARAMS[k] === 'course'));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The cmi5 launch parameters of `search`, checked (→ { endpoint, fetch, actor, registration, activityId }), or null when not all five are there. Throws naming a bad one. */
export function cmi5Launch(search) {
  const p = new URLSearchParams(search);
  const names = ['endpoint', 'fetch', 'actor', 'registration', 'activityId'];
  if (!names.every((n) => p.has(n))) return null;
  const url = (n) => {
    let u;
    try {
      u = new URL(p.get(n));
    } catch {
      u = null;
    }
    if (!u || !/^https?:$/.test(u.protocol)) throw new Error(`cmi5 launch: ${n} is not an http(s) URL`);
    return u.href;
  };
  let actor;
  try {
    actor = JSON.parse(p.get('actor'));
  } catch {
    actor = null;
  }
  if (!actor || typeof actor !== 'object' || Array.isArray(actor))
    throw new Error('cmi5 launch: actor is not a JSON object');
  const registration = p.get('registration');
  if (!UUID.test(registration)) throw new Error('cmi5 launch: registration is not a UUID');
  const activityId = p.get('activityId');
  if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(activityId)) throw new Error('cmi5 launch: activityId is not an IRI');
  const endpoint = url('endpoint');
  return {
    endpoint: endpoint.endsWith('/') ? endpoint : `${endpoint}/`,
    fetch: url('fetch'),
    actor,
    registration,
    activityId,
  };
}
