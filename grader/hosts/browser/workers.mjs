// Which worker runs a track's guest in the page: the file web/build.mjs builds it to (and web/csp.mjs
// serves with the track's worker CSP), and what it is built from: this host's shell, ./worker.js (on
// ./worker-core.js), with the track's guest for a worker, the track folder's worker.js
// (grader/tracks/<name>/worker.js), in the place of the shell's import of WORKER_GUEST. A leaf: no imports.

/** The file a track's sandbox worker is built to, beside the page's bundle. */
export const workerFile = (track) => `sandbox-worker-${track}.js`;

/** The module every track's sandbox worker is built from: the host's shell (a file: URL, for the build). */
export const workerShell = new URL('./worker.js', import.meta.url);

/** The specifier by which the shell imports the track's guest; the build resolves it to workerGuest(track). */
export const WORKER_GUEST = 'attnlab:worker-guest';

/** The track's guest for a worker (a file: URL, for the build): its folder's worker.js, `export default install`. */
export const workerGuest = (track) => new URL(`../../tracks/${track}/worker.js`, import.meta.url);
