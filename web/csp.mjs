// Content Security Policies of the page and of the sandbox worker, the one place they are written (the
// page's own directives in web/page-policy.mjs): web/server.mjs sends them as headers (the service worker
// caches the responses whole, so they hold offline too), and web/build.mjs writes the page's into
// index.html as <meta>s for hosts that send none.
// - page: nothing from another origin (but a cmi5 launch's LRS, below), no plugins, no framing; WebAssembly
//   compiled from our own files.
// - sandbox workers: their own policies (workers get theirs from their response): no network at all, no
//   script URLs (no importScripts, no import()); only what the track's realm needs (workerCsp below).
import { DEFAULT_TRACK, TRACKS, workerFile } from '../grader/browser.mjs';
import { page } from './page-policy.mjs';

// The page's policy itself, and a cmi5 launch's origins in it: web/page-policy.mjs.
export { launchConnectSources, PAGE_CSP_SCRIPT, PAGE_META_CSP, pageMetaCsp, STATIC_META_CSP } from './page-policy.mjs';

/** The page's CSP header; `frameAncestors`: who may frame it (by default nobody); `connect` as for page(). */
export const pageCsp = (frameAncestors = "'none'", connect = []) =>
  [...page(connect), `frame-ancestors ${frameAncestors}`].join('; ');
export const PAGE_CSP = pageCsp();

// Embed mode (`?embed=1`, web/README.md "Embedding") is the one page that may be framed, and only by the
// course origins whoever serves it lists (tools/serve --embed-ancestors, startServer({ embedAncestors })):
// CSP source expressions. There is no default: without a list embed mode is off (frame-ancestors 'none',
// and the page refuses it). `*` allows everyone, explicitly. The page learns the list from
// EMBED_ANCESTORS_FILE, served beside it, and refuses a parent-origin the list does not allow
// (web/src/embed.js): a host that sends no CSP header is still covered.
const ANCESTOR = /^(?:\*|'self'|https?:|https?:\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::(?:\d{1,5}|\*))?)$/i;
/** The file beside index.html that publishes the list: { "ancestors": [sources…] } ([] or absent: embed mode off). */
export const EMBED_ANCESTORS_FILE = 'embed-ancestors.json';

/** A web origin exactly as `new URL(x).origin` writes it (http/https, no path, no trailing slash), else null. */
export function parseOrigin(text) {
  if (typeof text !== 'string' || text.length > 300) return null;
  try {
    const u = new URL(text);
    return /^https?:$/.test(u.protocol) && u.origin === text ? text : null;
  } catch {
    return null;
  }
}

/** Checks a host's embed-ancestors setting → its sources; throws naming the first bad one. */
export function parseEmbedAncestors(text) {
  const sources = String(text ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  if (!sources.length)
    throw new Error('the embed ancestors list is empty: name the course origins that may embed the page, or *');
  if (sources.includes('parent'))
    throw new Error(
      '"parent" is no longer a source: it let any page that names itself as the parent frame the exercise; name the course origins (https://lms.example.org), or * for anyone',
    );
  const bad = sources.find((s) => !ANCESTOR.test(s));
  if (bad)
    throw new Error(
      `embed ancestors: "${bad}" is not an origin (https://lms.example.org, https://*.example.org:8443), a scheme (https:), 'self' or *`,
    );
  return sources;
}

const DEFAULT_PORT = { 'http:': '80', 'https:': '443' };
/**
 * Whether `origin` (parseOrigin's form) is allowed by one of `sources` (parseEmbedAncestors' form), as CSP
 * matches a source expression: `*` any http(s) origin; `https:` that scheme; `'self'` the page's own
 * origin `self`; `https://*.example.org` its subdomains (not example.org itself); a port given must be
 * equal (`:*` any), else the scheme's default.
 */
export function originAllowed(origin, sources, self = null) {
  const o = parseOrigin(origin);
  if (!o || !Array.isArray(sources)) return false;
  const u = new URL(o);
  const port = u.port || DEFAULT_PORT[u.protocol];
  return sources.some((s) => {
    if (typeof s !== 'string' || !ANCESTOR.test(s)) return false;
    if (s === '*') return true;
    if (s === "'self'") return o === self;
    if (/^https?:$/i.test(s)) return u.protocol === s.toLowerCase();
    const m = /^(https?:)\/\/(\*\.)?([^:]+)(?::(\d+|\*))?$/i.exec(s);
    if (!m || m[1].toLowerCase() !== u.protocol) return false;
    const host = m[3].toLowerCase();
    if (m[2] ? !u.hostname.endsWith(`.${host}`) : u.hostname !== host) return false;
    return m[4] === '*' || (m[4] ?? DEFAULT_PORT[u.protocol]) === port;
  });
}

/**
 * The frame-ancestors of an embed-mode page whose URL names `parentOrigin` (raw text, may be bad): the
 * host's `sources` when they allow that origin, else 'none' (no list, a bad or unlisted parent).
 */
export function embedFrameAncestors(parentOrigin, sources = null, self = null) {
  return sources?.length && originAllowed(parentOrigin, sources, self) ? [...new Set(sources)].join(' ') : "'none'";
}

// Each track's worker policy comes from what its realm needs (grader/tracks/<name>/index.mjs `realm`):
// evaluating strings → 'unsafe-eval' (JavaScript), compiling WebAssembly → 'wasm-unsafe-eval'
// (Python's MicroPython); a realm that needs neither runs no script beyond its own file.
/** A sandbox worker's CSP for a realm { strings, wasm }. */
export function workerCsp({ strings, wasm }) {
  const script = [strings && "'unsafe-eval'", wasm && "'wasm-unsafe-eval'"].filter(Boolean);
  return `default-src 'none'; script-src ${script.length ? script.join(' ') : "'none'"}`;
}
/** Per track: its worker's CSP. */
export const WORKER_CSPS = Object.freeze(
  Object.fromEntries(Object.values(TRACKS).map((t) => [t.name, workerCsp(t.realm)])),
);
/** The default track's worker CSP. */
export const WORKER_CSP = WORKER_CSPS[DEFAULT_TRACK.name];

// The file a track's sandbox worker is built to (web/build.mjs), which gets WORKER_CSPS[track], is the
// browser host's workerFile.

/**
 * Security headers of a response for `path` (a URL path of web/dist). `frameAncestors`: the sources
 * that may frame it (embed mode's page, embedFrameAncestors()); by default nobody. `connect`: the origins
 * the page may also connect to (a cmi5 launch's, launchConnectSources()).
 */
export function securityHeaders(path, { frameAncestors = "'none'", connect = [] } = {}) {
  const worker = Object.keys(WORKER_CSPS).find((t) => path.endsWith(`/${workerFile(t)}`));
  return {
    'content-security-policy': worker ? WORKER_CSPS[worker] : pageCsp(frameAncestors, connect),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}
