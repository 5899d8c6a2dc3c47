// The page's own Content Security Policy (web/csp.mjs has the rest: the header form, framing, the sandbox
// workers'), in a module that imports nothing, so that the page's first script (web/src/page-csp.js) can
// carry it in a few hundred bytes.
// `connect`: the origins a cmi5 launch names (launchConnectSources), allowed in connect-src besides 'self'.
export const page = (connect = []) => [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  ['connect-src', "'self'", ...connect].join(' '),
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
];
/** The page's policy in the <meta> form (which cannot say frame-ancestors); `connect` as for page(). */
export const pageMetaCsp = (connect = []) => page(connect).join('; ');
/** For the <meta> form, without a launch. */
export const PAGE_META_CSP = pageMetaCsp();

// A cmi5 launch (web/README.md, "cmi5") names the LMS's LRS (`endpoint`) and its one-time token URL
// (`fetch`), often on origins other than the one serving the page. The page's policy is written when it
// is served, from its own URL: exactly those two origins join connect-src, nothing else. Two places
// write it: web/server.mjs's header, and for a static host or an LMS serving a package (no header of
// ours) index.html itself. There a <meta> can only tighten what an earlier one allows, so index.html
// carries STATIC_META_CSP, every directive of the page's policy but default-src and connect-src (each
// fetch directive default-src covered is spelled out), and its first script, `page-csp.js` (its own,
// from web/src/page-csp.js, before any other script), adds pageMetaCsp(launchConnectSources(location.search)):
// the two enforced together are the page's policy with the launch's origins in connect-src.
/** index.html's static <meta> policy: pageMetaCsp() less default-src and connect-src (page-csp.js adds them). */
export const STATIC_META_CSP = [
  ...page().filter((d) => !/^(default|connect)-src /.test(d)),
  "font-src 'self'",
  "media-src 'self'",
  "manifest-src 'self'",
  "frame-src 'self'",
  "child-src 'self'",
].join('; ');
/** The script index.html runs first (web/build.mjs builds it from web/src/page-csp.js). */
export const PAGE_CSP_SCRIPT = 'page-csp.js';

/**
 * The origins a cmi5 launch in `search` (a URL's query) asks the page to talk to: those of `endpoint` and
 * `fetch`, when both are there and each is an http(s) URL (of at most 2000 characters, without user
 * info); else none. web/src/mode.js cmi5Launch checks the rest of the launch.
 */
export function launchConnectSources(search) {
  const p = new URLSearchParams(search);
  const origins = ['endpoint', 'fetch'].map((name) => {
    const text = p.get(name);
    if (!text || text.length > 2000) return null;
    try {
      const u = new URL(text);
      return /^https?:$/.test(u.protocol) && !u.username && !u.password ? u.origin : null;
    } catch {
      return null;
    }
  });
  return origins.every(Boolean) ? [...new Set(origins)] : [];
}
