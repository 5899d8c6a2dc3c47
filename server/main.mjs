// The service's entry: `tools/server` (serve), `tools/server worker`, `tools/server platform add|invite|list`.
// startService() is what the command runs and what the tests start in-process.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { ensureBuilt } from '../web/server.mjs';
import { distDir } from '../web/build.mjs';
import { ConfigError, loadConfig, toolKey } from './config.mjs';
import { openDb, storePlatform } from './db.mjs';
import { createGrader } from './grading.mjs';
import { createQueue } from './queue.mjs';
import { createService } from './service.mjs';
import { createApp } from './app.mjs';
import { createInvite } from './registration.mjs';

const SCORE_RETRY_MS = 15_000;

/** The common part of a server and a worker: config's database opened and migrated, the key, the grader, the service. */
async function open(config, { logger, fetchImpl, createKey = true }) {
  const log = logger ?? pino({ level: config.log_level ?? 'info' });
  const key = await toolKey(config.data, { create: createKey });
  const db = await openDb({ url: config.database, file: join(config.data, 'attnlab.db') });
  const grader = createGrader({ exercises: config.exercises ?? undefined });
  const service = createService({ db, config, grader, key, log, fetchImpl });
  return { log, db, key, grader, service };
}

/**
 * Starts the service: database, queue (config.workers grading jobs at a time here), HTTP on host:port.
 * Returns { url, port, db, service, close() }. `logger`: a pino logger (default: JSON lines on stdout).
 */
export async function startService(config, { logger = null, fetchImpl = fetch } = {}) {
  if (!config.web_dist) {
    if (!existsSync(join(distDir, 'index.html'))) await ensureBuilt({ quiet: true });
    config.web_dist = distDir;
  }
  const { log, db, key, service } = await open(config, { logger, fetchImpl });
  const queue = await createQueue({ db, workers: config.workers, handle: service.gradeJob, log });
  service.setQueue(queue);
  let started = false,
    pruned = 0;
  const app = createApp({ config, service, db, key, logger: log, ready: () => started, fetchImpl });
  await app.listen({ port: config.port, host: config.host });
  const port = app.server.address().port;
  config.base_url = config.public_url ?? `http://${config.host}:${port}`;
  // One process on SQLite: a score left pending or sending by a stopped process is sent before new work starts.
  if (db.dialect === 'sqlite') await service.resendScores({ olderThanMs: -1 });
  await queue.start();
  started = true;
  if (db.dialect === 'postgres') await requeueStray(db, queue, log);
  const retry = setInterval(() => {
    service.resendScores().catch((e) => log.warn({ err: String(e.message) }, 'score retry'));
    if (Date.now() - pruned > 3600_000)
      service.prune().then(
        () => (pruned = Date.now()),
        (e) => log.warn({ err: String(e.message) }, 'prune'),
      );
  }, SCORE_RETRY_MS);
  retry.unref();
  log.info(
    { url: config.base_url, database: db.dialect, queue: queue.kind, workers: config.workers },
    'attnlab service started',
  );
  return {
    url: config.base_url,
    port,
    db,
    service,
    async close() {
      clearInterval(retry);
      await app.close();
      await queue.stop();
      await db.close();
    },
  };
}

/** PostgreSQL: a submission stored but never handed to pg-boss (the process died between the two) gets its job. */
async function requeueStray(db, queue, log) {
  const stray = await db.all("SELECT id FROM submissions WHERE status = 'queued' AND created_at < ? ORDER BY id", [
    Date.now() - 60_000,
  ]);
  for (const r of stray) await queue.enqueue(r.id);
  if (stray.length) log.info({ requeued: stray.length }, 'queued submissions handed to the queue again');
}

/** A worker: no HTTP, takes grading jobs from PostgreSQL's queue. Returns { close() }. */
export async function startWorker(config, { logger = null, fetchImpl = fetch } = {}) {
  if (!config.database) throw new ConfigError('a worker needs --database postgres://… (the queue is in PostgreSQL)');
  const { log, db, service } = await open(config, { logger, fetchImpl, createKey: false });
  const queue = await createQueue({ db, workers: Math.max(1, config.workers), handle: service.gradeJob, log });
  service.setQueue(queue);
  await queue.start();
  const retry = setInterval(() => service.resendScores().catch(() => {}), SCORE_RETRY_MS);
  retry.unref();
  log.info({ queue: queue.kind, workers: config.workers }, 'attnlab worker started');
  return {
    async close() {
      clearInterval(retry);
      await queue.stop();
      await db.close();
    },
  };
}

/** Registers a platform (an LMS) and its deployments. Returns the platform's row. */
export async function addPlatform(config, p) {
  const need = ['issuer', 'client_id', 'auth_login_url', 'auth_token_url', 'jwks_url'];
  for (const k of need) if (!p[k]) throw new ConfigError(`platform add: --${k.replaceAll('_', '-')} is required`);
  for (const k of ['issuer', 'auth_login_url', 'auth_token_url', 'jwks_url']) {
    try {
      new URL(p[k]);
    } catch {
      throw new ConfigError(`platform add: --${k.replaceAll('_', '-')} is not a URL: ${p[k]}`);
    }
  }
  if (!p.deployments?.length) throw new ConfigError('platform add: at least one --deployment is required');
  const db = await openDb({ url: config.database, file: join(config.data, 'attnlab.db') });
  try {
    return await db.tx((t) => storePlatform(t, p));
  } finally {
    await db.close();
  }
}

const USAGE = `Usage:
  tools/server [--port N] [--host H] [--data DIR] [--database postgres://…] [--workers N] [--public-url URL]
  tools/server worker --database postgres://… [--data DIR] [--workers N]
  tools/server platform add --issuer URL --client-id ID --auth-login-url URL --auth-token-url URL --jwks-url URL
                            --deployment ID [--deployment ID…] [--name NAME] [--token-audience URL] [--frame-origin ORIGIN]
                            [--data DIR] [--database postgres://…]
  tools/server platform invite [--hours N] [--data DIR] [--database postgres://…] [--public-url URL]
  tools/server platform list [--data DIR] [--database postgres://…]
Configuration: <data>/config.json, then ATTNLAB_* variables, then these options (server/README.md).`;

/** Parses `--name value` pairs (a repeated --deployment gathers a list). */
function parseArgs(argv) {
  const opts = { deployments: [] },
    words = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') opts.help = true;
    else if (a.startsWith('--')) {
      const k = a.slice(2).replaceAll('-', '_'),
        v = argv[++i];
      if (v === undefined) throw new ConfigError(`${a} needs a value`);
      if (k === 'deployment') opts.deployments.push(v);
      else opts[k] = v;
    } else words.push(a);
  }
  return { opts, words };
}

export async function main(argv) {
  let parsed;
  try {
    parsed = parseArgs(argv);
  } catch (e) {
    console.error(`tools/server: ${e.message}\n${USAGE}`);
    return 2;
  }
  const { opts, words } = parsed;
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  const cmd = words[0] ?? 'serve';
  const known = ['port', 'host', 'data', 'database', 'workers', 'public_url'];
  const { deployments, ...rest } = opts;
  const overrides = Object.fromEntries(known.filter((k) => rest[k] !== undefined).map((k) => [k, rest[k]]));
  try {
    if (cmd === 'platform') {
      const config = loadConfig(overrides);
      if (words[1] === 'add') {
        const row = await addPlatform(config, { ...rest, deployments });
        console.log(
          `platform ${row.id} registered: ${row.issuer} (client ${row.client_id}), deployments ${deployments.join(', ')}`,
        );
        console.log(
          `tool URLs: login ${config.public_url ?? '<public url>'}/lti/login, launch …/lti/launch, keys …/lti/jwks`,
        );
        return 0;
      }
      if (words[1] === 'invite') {
        const hours = Number(rest.hours ?? 24);
        if (!(hours > 0 && hours <= 24 * 30))
          throw new ConfigError(`platform invite: --hours needs a number of hours up to 720, got ${rest.hours}`);
        const db = await openDb({ url: config.database, file: join(config.data, 'attnlab.db') });
        try {
          const token = await createInvite(db, { hours });
          console.log(`${config.public_url ?? `http://${config.host}:${config.port}`}/lti/register/${token}`);
          console.log(
            `paste it into the LMS as the tool's dynamic registration URL; it registers one platform, within ${hours} h`,
          );
        } finally {
          await db.close();
        }
        return 0;
      }
      if (words[1] === 'list') {
        const db = await openDb({ url: config.database, file: join(config.data, 'attnlab.db') });
        for (const p of await db.all('SELECT * FROM platforms ORDER BY id')) {
          const ds = (
            await db.all('SELECT deployment_id FROM deployments WHERE platform_id = ? ORDER BY deployment_id', [p.id])
          ).map((d) => d.deployment_id);
          const open = Number(p.deployments_open) ? 'any its launches name' : ds.join(', ');
          console.log(`${p.id}\t${p.issuer}\tclient ${p.client_id}\tdeployments ${open}`);
        }
        await db.close();
        return 0;
      }
      throw new ConfigError(`platform: use add, invite or list, got ${words[1] ?? 'nothing'}`);
    }
    const extra = Object.keys(rest).filter((k) => !known.includes(k));
    if (extra.length) throw new ConfigError(`unknown option --${extra[0].replaceAll('_', '-')}`);
    if (cmd !== 'serve' && cmd !== 'worker') throw new ConfigError(`unknown command ${cmd}`);
    const config = loadConfig(overrides);
    const running = cmd === 'worker' ? await startWorker(config) : await startService(config);
    const stop = async () => {
      await running.close();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return null; // keeps running
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`tools/server: ${e.message}\n${USAGE}`);
      return 2;
    }
    console.error(`tools/server: ${e?.stack ?? e}`);
    return 1;
  }
}
