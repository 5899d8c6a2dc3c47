// The service's configuration: defaults, then the data folder's config.json, then the environment
// (ATTNLAB_*), then the command line. Keys are never in the repository: the tool's signing key is
// generated into the data folder on the first start (keys/tool-key.json, mode 0600).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK } from 'jose';

export const DEFAULTS = {
  port: 8080,
  host: '127.0.0.1',
  data: 'server-data', // relative to the working directory
  database: null, // null: SQLite in <data>/attnlab.db; postgres://… : PostgreSQL
  public_url: null, // the service's URL as the LMS sees it (behind a proxy: https://attnlab.example.org); default http://host:port
  workers: Math.max(1, Math.min(4, availableParallelism() - 1)), // grading jobs at a time in this process (0: none, a separate worker grades)
  max_code_bytes: 200_000, // the page's own cap on set-code
  rate_per_minute: 20, // submissions per student and placement
  busy_queue: 100, // a queue longer than this: the page says the course will record the grade later
  session_hours: 8,
  trust_proxy: false, // behind a reverse proxy: true (X-Forwarded-For and -Proto are read)
  exercises: null, // the packs' folder (default: the tree's exercises/)
  platform_timeout_ms: 10_000, // how long a platform's answer is waited for (dynamic registration)
  log_level: 'info', // JSON lines on stdout: trace, debug, info, warn, error, fatal, silent
};

/** Keys of config.json and their environment variables (ATTNLAB_ + the key in capitals). */
const NUMBERS = new Set([
  'port',
  'workers',
  'max_code_bytes',
  'rate_per_minute',
  'busy_queue',
  'session_hours',
  'platform_timeout_ms',
]);

export class ConfigError extends Error {}

/** The configuration: DEFAULTS < <data>/config.json < ATTNLAB_* < `overrides` (the command line). */
export function loadConfig(overrides = {}, env = process.env) {
  const data = resolve(overrides.data ?? env.ATTNLAB_DATA ?? DEFAULTS.data);
  const file = join(data, 'config.json');
  let fromFile = {};
  if (existsSync(file)) {
    try {
      fromFile = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new ConfigError(`${file}: not valid JSON (${e.message})`);
    }
  }
  const config = { ...DEFAULTS, data };
  for (const [key, value] of Object.entries(fromFile)) {
    if (!(key in DEFAULTS))
      throw new ConfigError(`${file}: unknown key "${key}" (known: ${Object.keys(DEFAULTS).join(', ')})`);
    config[key] = value;
  }
  for (const key of Object.keys(DEFAULTS)) {
    const v = env[`ATTNLAB_${key.toUpperCase()}`];
    if (v !== undefined && v !== '') config[key] = v;
  }
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) config[key] = value;
  for (const key of NUMBERS) {
    const n = Number(config[key]);
    if (!Number.isInteger(n) || n < 0)
      throw new ConfigError(`${key}: needs a whole number ≥ 0, got ${JSON.stringify(config[key])}`);
    config[key] = n;
  }
  if (config.port > 65535) throw new ConfigError(`port: needs 0..65535, got ${config.port}`);
  config.trust_proxy = config.trust_proxy === true || config.trust_proxy === 'true' || config.trust_proxy === '1';
  if (config.database && !/^postgres(ql)?:\/\//.test(config.database))
    throw new ConfigError(`database: needs a postgres://… URL (or nothing, for SQLite), got ${config.database}`);
  if (config.public_url) {
    try {
      const u = new URL(config.public_url);
      config.public_url = u.href.replace(/\/$/, '');
    } catch {
      throw new ConfigError(`public_url: not a URL: ${config.public_url}`);
    }
  }
  return config;
}

/**
 * The tool's RS256 key pair (it signs Deep Linking responses and the AGS token requests; the LMS reads
 * its public half at /lti/jwks), generated into <data>/keys/ on the first start (`create`: false for a
 * worker, which must use the server's key).
 */
export async function toolKey(data, { create = true } = {}) {
  const dir = join(data, 'keys');
  const file = join(dir, 'tool-key.json');
  if (!existsSync(file) && !create)
    throw new ConfigError(`no tool key in ${dir}: copy the server's keys/ folder there (the LMS knows one tool key)`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const jwk = await exportJWK(privateKey);
    jwk.kid = await calculateJwkThumbprint(jwk);
    jwk.alg = 'RS256';
    jwk.use = 'sig';
    writeFileSync(file, JSON.stringify(jwk), { mode: 0o600, flag: 'wx' });
  }
  const jwk = JSON.parse(readFileSync(file, 'utf8'));
  const { d, p, q, dp, dq, qi, ...pub } = jwk;
  return { kid: jwk.kid, privateKey: await importJWK(jwk, 'RS256'), publicJwk: pub };
}
