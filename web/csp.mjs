// Content Security Policies of the page and of the sandbox worker, the one place they are written:
// web/server.mjs sends them as headers (the service worker caches the responses whole, so they hold
// offline too), and web/build.mjs writes the page's into index.html as a <meta> for hosts that send none.
// - page: nothing from another origin, no plugins, no framing; WebAssembly compiled from our own files.
// - sandbox worker: its own policy (workers get theirs from their response): no network at all, no
//   script URLs (no importScripts, no import()), only the eval that runs the student's code.
const PAGE = [
  "default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:", "connect-src 'self'", "worker-src 'self'", "object-src 'none'", "base-uri 'none'",
  "form-action 'none'",
];
/** For the <meta> form, which cannot say frame-ancestors. */
export const PAGE_META_CSP = PAGE.join('; ');
export const PAGE_CSP = [...PAGE, "frame-ancestors 'none'"].join('; ');

export const WORKER_CSP = "default-src 'none'; script-src 'unsafe-eval'";

/** The file the sandbox worker is built to (web/build.mjs), which gets WORKER_CSP. */
export const SANDBOX_WORKER = 'sandbox-worker.js';

/** Security headers of a response for `path` (a URL path of web/dist). */
export function securityHeaders(path) {
  return {
    'content-security-policy': path.endsWith(`/${SANDBOX_WORKER}`) ? WORKER_CSP : PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}
