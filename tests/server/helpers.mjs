// What the service's tests share: a platform and the service started together (in this process, or the
// service as `node server/cli.mjs` in a child), the flows every database runs (a teacher deep-links, a
// student submits), and a throwaway PostgreSQL cluster (initdb/pg_ctl on 127.0.0.1, stopped after).
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { ROLE, nodeBrowser, startPlatform } from './platform.mjs';
import { addPlatform, startService } from '../../server/main.mjs';
import { loadConfig } from '../../server/config.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(root, 'server', 'cli.mjs');
/** A wrong solution of sdpa that passes 2 of its 7 tests (its fixture's expected_results.json says so). */
export const FIXTURE = (name) => join(root, 'exercises', 'sdpa', 'fixtures', name);
export const read = (file) => readFileSync(file, 'utf8');
export const expectedPassed = (name) =>
  JSON.parse(read(join(FIXTURE(name), 'expected_results.json'))).tests.filter((t) => t.status === 'pass').length;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const tempDir = (prefix) => mkdtempSync(join(tmpdir(), `attnlab-${prefix}-`));

/**
 * A platform, the service in this process (SQLite in a temp folder, or `database`), the platform
 * registered (`register: false`: not; a test registers it dynamically).
 */
export async function startStack(overrides = {}, { register = true } = {}) {
  const data = tempDir('server');
  const platform = await startPlatform();
  const config = loadConfig({ data, port: 0, workers: 2, ...overrides }, {});
  if (register) await addPlatform(config, platform.registration());
  const logger = silentLogger();
  const svc = await startService(config, { logger });
  if (register) platform.register(svc.url);
  return {
    data,
    /** What the service logged at warn or above (for a failing test's message). */
    warnings: () => logger.lines.filter((l) => l.level !== 'info').map((l) => JSON.stringify(l)),
    config,
    platform,
    svc,
    url: svc.url,
    async close() {
      await svc.close();
      await platform.close();
      rmSync(data, { recursive: true, force: true });
    },
  };
}

/** A pino-compatible logger that keeps its lines (the tests read what was logged). */
export function silentLogger() {
  return pinoTo([]);
}
function pinoTo(lines) {
  const make = (bindings) => {
    const log = (level) => (obj, msg) =>
      lines.push({ level, ...bindings, ...(typeof obj === 'object' ? obj : { msg: obj }), msg });
    const l = {
      level: 'info',
      lines,
      info: log('info'),
      warn: log('warn'),
      error: log('error'),
      debug: () => {},
      trace: () => {},
      fatal: log('fatal'),
      silent: () => {},
      child: (b) => make({ ...bindings, ...b }),
    };
    return l;
  };
  return make({});
}

/** A teacher deep-links `exercise` on `track`: the platform's line item ({ id, scoreMaximum, custom… }). */
export async function deepLink(stack, { exercise = 'sdpa', track = 'python', hint = 'teacher', context } = {}) {
  const b = nodeBrowser();
  stack.platform.prepare(hint, { sub: hint, roles: [ROLE.instructor], type: 'LtiDeepLinkingRequest', context });
  const r = await b.launch(stack.url, stack.platform, hint);
  if (!r.ok) throw new Error(`deep linking launch refused: ${r.check}`);
  const dl = await b.api(stack.url, r.token, '/api/deep-link', { method: 'POST', json: { exercise, track } });
  if (dl.status !== 200) throw new Error(`deep link: ${dl.status} ${JSON.stringify(dl.body)}`);
  const back = await b.request(dl.body.return_url, { method: 'POST', form: { JWT: dl.body.jwt } });
  const id = /<p id="placed">([^<]+)</.exec(await back.text())?.[1];
  return [...stack.platform.state.lineitems.values()].find((l) => l.id === id);
}

/** A launch of the placed item by `sub` (a learner unless roles say otherwise): { browser, token }. */
export async function launchItem(
  stack,
  item,
  sub,
  { roles = [ROLE.learner], link = 'link-1', context, browser = nodeBrowser() } = {},
) {
  const hint = `${sub}-${Math.random().toString(36).slice(2)}`;
  stack.platform.prepare(hint, { sub, roles, custom: item.custom, lineitem: item.id, link, context });
  const r = await browser.launch(stack.url, stack.platform, hint);
  if (!r.ok) throw new Error(`launch of ${sub} refused: ${r.check}`);
  return { browser, token: r.token };
}

/** Submits `code` and waits until it is graded and its score sent (or not to be sent): the submission. */
export async function submitAndWait(url, { browser, token }, code, { timeoutMs = 120_000 } = {}) {
  const r = await browser.api(url, token, '/api/submissions', { method: 'POST', json: { code } });
  if (r.status !== 202) throw new Error(`submit: ${r.status} ${JSON.stringify(r.body)}`);
  return waitScored(url, { browser, token }, r.body.id, { timeoutMs });
}

export async function waitScored(url, { browser, token }, id, { timeoutMs = 120_000 } = {}) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const g = await browser.api(url, token, `/api/submissions/${id}`);
    if (g.status !== 200) throw new Error(`submission ${id}: ${g.status} ${JSON.stringify(g.body)}`);
    if (g.body.status === 'graded' && !['pending', 'sending'].includes(g.body.score_state)) return g.body;
    if (Date.now() > until)
      throw new Error(`submission ${id} not scored in ${timeoutMs} ms: ${JSON.stringify(g.body)}`);
    await sleep(150);
  }
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const PG_BIN = '/usr/lib/postgresql/15/bin';
/** Whether Debian's PostgreSQL 15 is installed (the PostgreSQL tests need it: tools/setup installs it). */
export const havePostgres = () => spawnSync(`${PG_BIN}/pg_ctl`, ['--version']).status === 0;

/**
 * A throwaway PostgreSQL cluster on 127.0.0.1 (initdb, pg_ctl; as the postgres user when run as root,
 * which initdb refuses): { url, stop() }. fsync off: a test cluster.
 */
export async function startPostgres() {
  const dir = tempDir('pg');
  const asRoot = process.getuid?.() === 0;
  if (asRoot)
    chownSync(
      dir,
      Number(spawnSync('id', ['-u', 'postgres']).stdout),
      Number(spawnSync('id', ['-g', 'postgres']).stdout),
    );
  const run = (bin, args) => {
    const r = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', `${PG_BIN}/${bin}`, ...args], { encoding: 'utf8' })
      : spawnSync(`${PG_BIN}/${bin}`, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${bin} failed: ${r.stderr}`);
    return r.stdout;
  };
  const port = await freePort();
  run('initdb', ['-D', join(dir, 'data'), '-U', 'attnlab', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  run('pg_ctl', [
    '-D',
    join(dir, 'data'),
    '-o',
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=60`,
    '-l',
    join(dir, 'log'),
    '-w',
    '-t',
    '30',
    'start',
  ]);
  const url = `postgres://attnlab@127.0.0.1:${port}/postgres`;
  return {
    url,
    async stop() {
      try {
        run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', '-w', '-t', '30', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** `node server/cli.mjs …args` in a child; lines of its stdout kept. Returns { child, lines, exited, waitFor(re) }. */
export function spawnCli(args, { env = {} } = {}) {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = [];
  let buf = '';
  const waiters = [];
  const onData = (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      lines.push(line);
      for (const w of [...waiters]) if (w.re.test(line)) (waiters.splice(waiters.indexOf(w), 1), w.resolve(line));
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
  return {
    child,
    lines,
    exited,
    waitFor(re, timeoutMs = 60_000) {
      const hit = lines.find((l) => re.test(l));
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const w = { re, resolve };
        waiters.push(w);
        const t = setTimeout(
          () => reject(new Error(`no line ${re} in ${timeoutMs} ms:\n${lines.slice(-20).join('\n')}`)),
          timeoutMs,
        );
        t.unref();
        exited.then(({ code }) => reject(new Error(`exited (${code}) before ${re}:\n${lines.slice(-20).join('\n')}`)));
      });
    },
  };
}
