// Which worker runs a track's guest in the page: the file web/build.mjs builds it to (and web/csp.mjs
// serves with the track's worker CSP), and the module it is built from, the track folder's worker.js
// (grader/tracks/<name>/worker.js, on ./worker-core.js). A leaf: no imports.

/** The file a track's sandbox worker is built to, beside the page's bundle. */
export const workerFile = (track) => `sandbox-worker-${track}.js`;

/** The module a track's sandbox worker is built from (a file: URL, for the build). */
export const workerEntry = (track) => new URL(`../../tracks/${track}/worker.js`, import.meta.url);
