// Shared by the browser tests and tools/measure-page: build the page if needed, serve web/dist on a
// free 127.0.0.1 port in this process, and drive Debian's chromium with playwright-core.
import { chromium } from 'playwright-core';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, startServer } from '../../web/server.mjs';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const WEBGPU = ['--enable-unsafe-webgpu'];

let built = null;

/**
 * → { server, context, page, url, served, errors, close() }. One browser per call, with a new empty
 * user-data-dir (a persistent context, so service workers and localStorage behave as for a student).
 * `args`: extra chromium flags, e.g. WEBGPU (SwiftShader's WebGPU on machines without a GPU).
 * `isolated`: false serves the page without COOP/COEP (not cross-origin isolated: one thread).
 */
export async function launch({ build = true, args = [], isolated = true } = {}) {
  if (build) built ??= ensureBuilt({ quiet: true });
  await built;
  const served = []; // every file response: { path, status, bytes }
  const server = await startServer({ port: 0, onResponse: (r) => served.push(r), isolated });
  const profile = await mkdtemp(join(tmpdir(), 'attnlab-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...ARGS, ...args],
    viewport: { width: 1400, height: 1000 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  return {
    server,
    context,
    page,
    url: server.url,
    served,
    errors,
    async close() {
      await context.close();
      await server.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Opens the page and waits until the editor is interactive and the WASM core has loaded. */
export async function open(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => /^core/.test(document.documentElement.dataset.ready ?? ''));
  if ((await page.evaluate(() => document.documentElement.dataset.ready)) !== 'core')
    throw new Error(`the page could not load the core: ${await page.textContent('#output')}`);
}

/** Clicks Check and resolves with { passed, total } once the results are on screen. */
export async function check(page) {
  const done = page.evaluate(
    () =>
      new Promise((r) =>
        addEventListener('attnlab:checked', ({ detail: d }) => r({ passed: d.passed, total: d.total }), { once: true }),
      ),
  );
  await page.click('#check');
  return done;
}

/** Clicks Run (or presses a key) and resolves once the output (and heatmap) are updated. */
export async function run(page, trigger = () => page.click('#run')) {
  const done = page.evaluate(() => new Promise((r) => addEventListener('attnlab:ran', () => r(), { once: true })));
  await trigger();
  await done;
  return page.textContent('#output');
}

export const getCode = (page) => page.evaluate(() => window.attnlab.editor.value);
export const setCode = (page, code) =>
  page.evaluate((c) => {
    window.attnlab.editor.value = c;
  }, code);

/**
 * Another origin for a test (a course page, an LMS): HTTP on a free 127.0.0.1 port, each request answered
 * by `respond(path, { method, query, headers, body })` → { body, type, headers, status } or null (404); it
 * may be async. → { origin, close() }.
 */
export async function otherOrigin(respond) {
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const url = new URL(req.url, 'http://x');
    const request = {
      method: req.method,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    const r = await Promise.resolve(respond(decodeURIComponent(url.pathname), request)).catch(() => null);
    if (!r) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(r.status ?? 200, { 'content-type': r.type, ...r.headers }).end(r.body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}
