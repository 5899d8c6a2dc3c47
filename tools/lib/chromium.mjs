// Shared by the browser tests and tools/measure-page: build the page if needed, serve web/dist on a
// free 127.0.0.1 port in this process, and drive Debian's chromium with playwright-core.
// One page build and one browser for a whole run: `node tools/lib/chromium.mjs` (tools/test starts it)
// builds the page (ensureBuilt), launches a browser server per flag set (SHARED_ARGS) and prints one line
// of JSON, { "<flags>": wsEndpoint }; with that line in ATTNLAB_CHROMIUM, launch() and openBrowser() connect
// to the server of their flags, each call with a fresh context of its own; without it (a file run alone,
// tools/measure-page) each call launches a chromium of its own. Either way launch() asks web/build.mjs for
// the page once per process, which is a look at the inputs' times when it is up to date (and a real build
// in a tree copy, as the toy-track test's).
import { chromium } from 'playwright-core';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt, startServer } from '../../web/server.mjs';
import { catalog } from '../../grader/index.mjs';

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

/** The flag sets the shared servers are started with: the plain page's and WebGPU's. */
export const SHARED_ARGS = [[], WEBGPU];
const flagsKey = (args) => [...args].sort().join(' ');
const shared = process.env.ATTNLAB_CHROMIUM ? JSON.parse(process.env.ATTNLAB_CHROMIUM) : {};

let built = null;

/**
 * → a playwright Browser with these extra flags: connected to the run's shared server for them
 * (ATTNLAB_CHROMIUM), else a chromium of its own. browser.close() disconnects from a shared one (closing
 * the contexts this connection made) and ends one of its own.
 */
export async function openBrowser({ args = [] } = {}) {
  const endpoint = shared[flagsKey(args)];
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...ARGS, ...args] });
}

/**
 * → { server, context, page, url, served, errors, close() }. A new empty browser context per call, in
 * the run's shared chromium for these flags (ATTNLAB_CHROMIUM: a fresh context, its own storage, cache
 * and service workers), else in a chromium of its own with a new empty user-data-dir (a persistent
 * context). Either way service workers and localStorage behave as for a student.
 * `args`: extra chromium flags, e.g. WEBGPU (SwiftShader's WebGPU on machines without a GPU).
 * `isolated`: false serves the page without COOP/COEP (not cross-origin isolated: one thread).
 * `embedAncestors`: the course origins that may frame embed mode (web/server.mjs; default none: embed mode off).
 */
export async function launch({ build = true, args = [], isolated = true, embedAncestors = null } = {}) {
  if (build) built ??= ensureBuilt({ quiet: true });
  await built;
  const served = []; // every file response: { path, status, bytes }
  const server = await startServer({ port: 0, onResponse: (r) => served.push(r), isolated, embedAncestors });
  const viewport = { width: 1400, height: 1000 };
  const endpoint = shared[flagsKey(args)];
  const connected = endpoint ? await chromium.connect(endpoint) : null;
  const profile = connected ? null : await mkdtemp(join(tmpdir(), 'attnlab-chromium-'));
  const context = connected
    ? await connected.newContext({ viewport })
    : await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: [...ARGS, ...args],
        viewport,
      });
  // Playwright's 30 s default for a wait is short for a busy 2-core machine loading the core; a wait that
  // is the point of a test names its own timeout.
  context.setDefaultTimeout(120_000);
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
      await connected?.close();
      await server.close();
      if (profile) await rm(profile, { recursive: true, force: true });
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

/**
 * Resolves when the page has next drawn the student's heatmap (`attnlab:heatmap`), which after Check comes
 * a worker's round trip after the verdict. Ask before the action: `const map = heatmapped(page); await
 * check(page); await map;` (a pack without a heatmap never draws one).
 */
export const heatmapped = (page) => nextEvent(page, 'attnlab:heatmap');

/** Resolves at the page's next event `type` (asked before the action that causes it). */
const nextEvent = (page, type) =>
  page.evaluate((t) => new Promise((r) => addEventListener(t, () => r(), { once: true })), type);

/** Clicks Run (or presses a key) and resolves once the output (and heatmap) are updated. */
export async function run(page, trigger = () => page.click('#run')) {
  const done = nextEvent(page, 'attnlab:ran');
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
 * A correct but slow JavaScript submission for the test-only-parameter tests (a `?timeout=` that embed mode
 * and packages must ignore): `solution` (the first pack's) whose first call of causal_mask in a realm spins
 * a loop of three times the work the pack's limit allows (the work count, grader/README.md "Work": an
 * iteration is a unit, a request's budget its limit × the track's `workPerMs`). That is over the grader's
 * own limit (the pack's 1 s, then once more at twice that in a fresh realm) on any machine, busy or not,
 * and well within a `?timeout=600000` (a few seconds of spinning there). (A slow top level would not do:
 * the grader then grades the declarations alone.)
 */
export const slowSolution = (solution, limitMs = 1000) =>
  `${solution.replace('function causal_mask(', 'function causal_mask_fast(')}
let first = true;
function causal_mask(T) {
  if (first) {
    first = false;
    for (let i = 0; i < ${3 * limitMs * catalog.TRACKS.js.workPerMs}; i++) {}
  }
  return causal_mask_fast(T);
}
`;

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

/**
 * The run's page and shared browsers: the page built if needed, then a chromium server per flag set in
 * SHARED_ARGS → { env, close() }, where env is the value for ATTNLAB_CHROMIUM.
 */
export async function startShared() {
  await ensureBuilt({ quiet: true });
  const servers = await Promise.all(
    SHARED_ARGS.map((args) =>
      chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: [...ARGS, ...args] }),
    ),
  );
  const endpoints = Object.fromEntries(SHARED_ARGS.map((args, i) => [flagsKey(args), servers[i].wsEndpoint()]));
  return { env: JSON.stringify(endpoints), close: () => Promise.all(servers.map((s) => s.close())) };
}

// `node tools/lib/chromium.mjs`: build the page, start the shared browsers, print ATTNLAB_CHROMIUM's value on one line, and
// keep them until a SIGTERM or SIGINT (tools/test sends it), or until the process that started this one is gone.
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const run = await startShared();
  process.stdout.write(`${run.env}\n`);
  let closing = null;
  const end = () => (closing ??= run.close().then(() => process.exit(0)));
  process.on('SIGTERM', end);
  process.on('SIGINT', end);
  const parent = process.ppid;
  setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      end();
    }
  }, 2000);
}
