// The pack's reference solution beside the student's code (issue 35 item 3): offered after a Check that
// passes every test on that track (the pass is remembered), or always, or never, as the pack's spec.json
// "solution" says, unless the course's URL says otherwise (`?solution=`, mode.js URL_PARAMS: read in embed
// mode and packages too). The files are web/build.mjs's dist/solutions/<slug>/, fetched only when shown.
// This is pedagogy, not security: anyone can fetch those files (web/README.md, The reference solution).
import { SOLUTION_WHEN } from '../../grader/browser.mjs';

/**
 * When the page offers the solution: the course's `param` (`?solution=`) where it is one of SOLUTION_WHEN,
 * else the pack's spec.json "solution", else 'after-pass'.
 * → { when, bad }: `bad` is a `param` that is no setting (the page names it), else null.
 */
export function solutionSetting(spec, param) {
  const pack = SOLUTION_WHEN.includes(spec?.solution) ? spec.solution : SOLUTION_WHEN[0];
  if (param === null || param === undefined) return { when: pack, bad: null };
  return SOLUTION_WHEN.includes(param) ? { when: param, bad: null } : { when: pack, bad: String(param).slice(0, 40) };
}

/** Whether the solution is offered under `when` to a student who has (`passed`) or has not passed on this track. */
export const solutionOffered = (when, passed) => when === 'always' || (when === 'after-pass' && passed === true);

/**
 * The solution's path in dist for `track` in `lang`: its English twin on the English page where the pack
 * has one. `solutions`: the pack chunk's { <track>: { file, en } } (web/build.mjs). Null when there is none.
 */
export const solutionFile = (solutions, track, lang) =>
  (lang === 'en' && solutions?.[track]?.en) || solutions?.[track]?.file || null;

/** The text of a solution file (its path in dist, beside index.html); throws saying what went wrong. */
export async function fetchSolution(path) {
  const res = await fetch(new URL(path, document.baseURI));
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.text();
}
