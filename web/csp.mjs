// Content Security Policies of the page and of the sandbox worker, the one place they are written:
// web/server.mjs sends them as headers (the service worker caches the responses whole, so they hold
// offline too), and web/build.mjs writes the page's into index.html as a <meta> for hosts that send none.
// - page: nothing from another origin, no plugins, no framing; WebAssembly compiled from our own files.
// - sandbox workers: their own policies (workers get theirs from their response): no network at all, no
//   script URLs (no importScripts, no import()); only what the track's realm needs (workerCsp below).
import { DEFAULT_TRACK, TRACKS, workerFile } from '../grader/browser.mjs';

const PAGE = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
];
/** For the <meta> form, which cannot say frame-ancestors. */
export const PAGE_META_CSP = PAGE.join('; ');
/** The page's CSP header; `frameAncestors`: who may frame it (by default nobody). */
export const pageCsp = (frameAncestors = "'none'") => [...PAGE, `frame-ancestors ${frameAncestors}`].join('; ');
export const PAGE_CSP = pageCsp();

// Embed mode (`?embed=1`, web/README.md "Embedding") is the one page that may be framed. Who may frame
// it is the host's configuration: a list of CSP source expressions where the word `parent` stands for
// the origin the URL names in `parent-origin` (default: `parent` alone, so a page that names itself as
// the parent, as <attnlab-exercise> does, can frame it and nobody else can). `*` allows everyone.
const ANCESTOR = /^(?:\*|parent|'self'|https?:|https?:\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::(?:\d{1,5}|\*))?)$/i;
export const DEFAULT_EMBED_ANCESTORS = 'parent';

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
  const sources = String(text).trim().split(/\s+/).filter(Boolean);
  if (!sources.length) throw new Error('the embed ancestors list is empty: name origins, or parent');
  const bad = sources.find((s) => !ANCESTOR.test(s));
  if (bad)
    throw new Error(
      `embed ancestors: "${bad}" is not an origin (https://lms.example.org, https://*.example.org:8443), a scheme (https:), 'self', * or parent`,
    );
  return sources;
}

/** The frame-ancestors sources of an embed-mode page whose URL names `parentOrigin` (raw text, may be bad). */
export function embedFrameAncestors(parentOrigin, sources = [DEFAULT_EMBED_ANCESTORS]) {
  const parent = parseOrigin(parentOrigin);
  const list = sources.flatMap((s) => (s === 'parent' ? (parent ? [parent] : []) : [s]));
  return list.length ? [...new Set(list)].join(' ') : "'none'";
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
 * that may frame it (embed mode's page, embedFrameAncestors()); by default nobody.
 */
export function securityHeaders(path, { frameAncestors = "'none'" } = {}) {
  const worker = Object.keys(WORKER_CSPS).find((t) => path.endsWith(`/${workerFile(t)}`));
  return {
    'content-security-policy': worker ? WORKER_CSPS[worker] : pageCsp(frameAncestors),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}
