// How the page was opened: as itself; in embed mode (`?embed=1`: a frame in a course's page, talking to
// the parent named by `&parent-origin=`, web/src/embed.js); or as a SCORM package's page, whose
// index.html was written by tools/package-scorm with the exercise, track, language and SCORM version
// fixed in <html data-package-exercise data-package-track data-package-lang data-scorm> (web/src/scorm.js).
import { parseOrigin } from '../csp.mjs';

/** → { embed, parentOrigin (a valid origin or null), pkg: { exercise, track, lang, scorm } | null } */
export function pageMode(search, root = document.documentElement) {
  const params = new URLSearchParams(search);
  const d = root.dataset;
  const pkg = d.scorm ? { exercise: d.packageExercise, track: d.packageTrack, lang: d.packageLang, scorm: d.scorm } : null;
  const embed = Boolean(pkg) || params.get('embed') === '1';
  return { embed, parentOrigin: embed && !pkg ? parseOrigin(params.get('parent-origin')) : null, pkg };
}
