// Content Security Policies of the page and of the sandbox worker, the one place they are written:
// web/server.mjs sends them as headers (the service worker caches the responses whole, so they hold
// offline too), and web/build.mjs writes the page's into index.html as a <meta> for hosts that send none.
// - page: nothing from another origin, no plugins, no framing; WebAssembly compiled from our own files.
// - sandbox workers: their own policies (workers get theirs from their response): no network at all, no
//   script URLs (no importScripts, no import()); the JavaScript track's only the eval that runs the
//   student's code,
const PAGE = [
  "default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:", "connect-src 'self'", "worker-src 'self'", "object-src 'none'", "base-uri 'none'",
  "form-action 'none'",
];
/** For the <meta> form, which cannot say frame-ancestors. */
export const PAGE_META_CSP = PAGE.join('; ');
export const PAGE_CSP = [...PAGE, "frame-ancestors 'none'"].join('; ');

// - the Python track's worker: no network, no script URLs, no eval; only WebAssembly (MicroPython).
export const WORKER_CSPS = Object.freeze({
  js: "default-src 'none'; script-src 'unsafe-eval'",
  python: "default-src 'none'; script-src 'wasm-unsafe-eval'",
});
export const WORKER_CSP = WORKER_CSPS.js;

/** The file a track's sandbox worker is built to (web/build.mjs), which gets WORKER_CSPS[track]. */
export const workerFile = (track) => (track === 'js' ? 'sandbox-worker.js' : `sandbox-worker-${track}.js`);
export const SANDBOX_WORKER = workerFile('js');

/** Security headers of a response for `path` (a URL path of web/dist). */
export function securityHeaders(path) {
  const worker = Object.keys(WORKER_CSPS).find((t) => path.endsWith(`/${workerFile(t)}`));
  return {
    'content-security-policy': worker ? WORKER_CSPS[worker] : PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}
