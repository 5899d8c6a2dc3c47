// A tiny static file server for web/dist (used by tools/serve, the browser tests and
// tools/measure-page). Serves on 127.0.0.1 only: a secure context, so service workers and
// WebGPU are available without TLS.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, distDir, wasmFiles } from './build.mjs';
import {
  EMBED_ANCESTORS_FILE,
  embedFrameAncestors,
  launchConnectSources,
  parseEmbedAncestors,
  securityHeaders,
} from './csp.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

/**
 * Cross-origin isolation: with these two headers on every response the page (and its workers) may use
 * SharedArrayBuffer, which the threaded WASM build needs (wasm/README.md). The page loads nothing
 * from other origins, so COEP require-corp blocks nothing. Off with startServer({ isolated: false }).
 */
export const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

/** Builds the WASM core (tools/build-wasm) if wasm/dist lacks any of its files. */
export async function ensureWasm({ quiet = false } = {}) {
  if (wasmFiles.some((f) => !existsSync(join(root, 'wasm', 'dist', f)))) {
    const r = spawnSync(join(root, 'tools', 'build-wasm'), { stdio: quiet ? 'pipe' : 'inherit' });
    if (r.status !== 0) throw new Error(`tools/build-wasm failed (exit ${r.status})${quiet ? `:\n${r.stderr}` : ''}`);
  }
}

/** Builds what is missing: the WASM core if wasm/dist lacks it, then the page. */
export async function ensureBuilt({ quiet = false } = {}) {
  await ensureWasm({ quiet });
  return build({ quiet });
}

/**
 * The request handler behind startServer, for a host that routes requests itself (the course's service,
 * server/, serves the page under a prefix): `handle(req, res, path)` answers one GET or HEAD with the
 * file at `path` (the URL's path below the prefix; default the request's own), with the same headers as
 * startServer. Options as startServer's (below); `count(bytes)` sees each body sent.
 */
export function staticFiles({
  dir = distDir,
  onResponse = null,
  isolated = true,
  embedAncestors = null,
  count = () => {},
} = {}) {
  const ancestors = embedAncestors == null ? [] : parseEmbedAncestors(embedAncestors);
  const ancestorsJson = Buffer.from(JSON.stringify({ ancestors }));
  const gzipped = new Map();
  return async (req, res, pathname = null) => {
    try {
      const url = new URL(req.url, 'http://x');
      const path = decodeURIComponent(pathname ?? url.pathname);
      if (path === `/${EMBED_ANCESTORS_FILE}`) {
        res.writeHead(200, {
          'content-type': MIME['.json'],
          'cache-control': 'no-store',
          ...securityHeaders(path),
          ...(isolated && ISOLATION_HEADERS),
        });
        return res.end(req.method === 'HEAD' ? undefined : ancestorsJson);
      }
      let file = normalize(join(dir, path));
      if (file !== dir && !file.startsWith(dir + sep)) return send(res, 403, 'forbidden');
      let st = await stat(file).catch(() => null);
      if (st?.isDirectory()) st = await stat((file = join(file, 'index.html'))).catch(() => null);
      if (!st) return send(res, 404, 'not found');
      // The service worker decides what is cached; the HTTP cache only revalidates (ETag → 304),
      // so the worker's precache after the first visit does not download everything twice.
      const etag = `"${st.size.toString(36)}-${Math.floor(st.mtimeMs).toString(36)}"`;
      const html = extname(file) === '.html';
      const embed = html && url.searchParams.get('embed') === '1';
      const frameAncestors = embed
        ? embedFrameAncestors(url.searchParams.get('parent-origin'), ancestors, `http://${req.headers.host}`)
        : undefined;
      const headers = {
        etag,
        'cache-control': 'no-cache',
        'content-type': MIME[extname(file)] ?? 'application/octet-stream',
        // a cmi5 launch's LRS and fetch URL (their origins only) in connect-src (web/page-policy.mjs)
        ...securityHeaders(path, { frameAncestors, connect: html ? launchConnectSources(url.search) : [] }),
        ...(isolated && ISOLATION_HEADERS),
      };
      // Embed mode's page may be framed by a cross-origin isolated course page (COEP require-corp), which
      // accepts a frame of another origin only with this header.
      if (embed) headers['cross-origin-resource-policy'] = 'cross-origin';
      // <attnlab-exercise> (web/embed.js) is a module script loaded by pages of other origins.
      if (path === '/embed.js') headers['access-control-allow-origin'] = '*';
      if (req.headers['if-none-match'] === etag) {
        onResponse?.({ path, status: 304, bytes: 0 });
        res.writeHead(304, headers);
        return res.end();
      }
      let body = await readFile(file);
      // gzip, as any static host would (the measured first-load bytes depend on it).
      if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && body.length > 1024) {
        const key = `${file}:${etag}`;
        if (!gzipped.has(key)) gzipped.set(key, gzipSync(body, { level: 9 }));
        body = gzipped.get(key);
        Object.assign(headers, { 'content-encoding': 'gzip', vary: 'accept-encoding' });
      }
      res.writeHead(200, { ...headers, 'content-length': body.length });
      count(body.length);
      onResponse?.({ path, status: 200, bytes: body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      send(res, 500, String(e));
    }
  };
}

/**
 * Serves `dir` on http://127.0.0.1:port (port 0 = any free port).
 * onResponse({ path, status, bytes }) sees each file response (for measurements and debugging).
 * isolated: send ISOLATION_HEADERS (default true).
 * embedAncestors: the course origins that may frame the page in embed mode (`?embed=1&parent-origin=`), CSP
 * sources as text ("https://lms.example.org https://*.school.edu", or "*"); default none: embed mode off.
 * Sent as frame-ancestors to an embed-mode page whose parent-origin they allow (csp.mjs embedFrameAncestors),
 * and published to the page as /embed-ancestors.json (csp.mjs EMBED_ANCESTORS_FILE). The page is unframeable otherwise.
 * Returns { url, port, close(), bytesSent() } — bytesSent counts response bodies as sent (gzipped
 * where the client accepts it), for measurements.
 */
export function startServer({
  port = 0,
  dir = distDir,
  onResponse = null,
  isolated = true,
  embedAncestors = null,
} = {}) {
  let sent = 0;
  const handle = staticFiles({
    dir,
    onResponse,
    isolated,
    embedAncestors,
    count: (n) => {
      sent += n;
    },
  });
  const server = createServer((req, res) => handle(req, res));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const p = server.address().port;
      resolve({
        url: `http://127.0.0.1:${p}/`,
        port: p,
        bytesSent: () => sent,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(r);
          }),
      });
    });
  });
}

function send(res, code, text) {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}
