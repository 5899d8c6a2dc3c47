// The service's database: SQLite (better-sqlite3, a file in the data folder) or PostgreSQL (pg), behind
// one small async interface, with the same migrations on both. SQL is written once with `?` placeholders
// (numbered $1, $2… for PostgreSQL) and portable types: times are BIGINT milliseconds since the epoch,
// JSON is TEXT; `{id}` in a migration is the dialect's auto-increment primary key.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** Every migration, in order; a migration is never edited once released: a change is a new one. */
export const MIGRATIONS = [
  `CREATE TABLE platforms (
     id {id}, issuer TEXT NOT NULL, client_id TEXT NOT NULL, name TEXT NOT NULL,
     auth_login_url TEXT NOT NULL, auth_token_url TEXT NOT NULL, jwks_url TEXT NOT NULL,
     token_audience TEXT, frame_origin TEXT NOT NULL, created_at BIGINT NOT NULL,
     UNIQUE (issuer, client_id));
   CREATE TABLE deployments (
     platform_id BIGINT NOT NULL REFERENCES platforms(id), deployment_id TEXT NOT NULL,
     PRIMARY KEY (platform_id, deployment_id));
   CREATE TABLE oidc_states (
     state TEXT PRIMARY KEY, nonce TEXT NOT NULL, platform_id BIGINT NOT NULL REFERENCES platforms(id),
     created_at BIGINT NOT NULL, used_at BIGINT);
   CREATE TABLE nonces (
     platform_id BIGINT NOT NULL, nonce TEXT NOT NULL, used_at BIGINT NOT NULL,
     PRIMARY KEY (platform_id, nonce));
   CREATE TABLE users (
     id {id}, platform_id BIGINT NOT NULL REFERENCES platforms(id), sub TEXT NOT NULL, name TEXT,
     UNIQUE (platform_id, sub));
   CREATE TABLE courses (
     id {id}, platform_id BIGINT NOT NULL REFERENCES platforms(id), deployment_id TEXT NOT NULL,
     context_id TEXT NOT NULL, title TEXT, UNIQUE (platform_id, deployment_id, context_id));
   CREATE TABLE placements (
     id {id}, course_id BIGINT NOT NULL REFERENCES courses(id), resource_link_id TEXT NOT NULL,
     exercise TEXT NOT NULL, track TEXT NOT NULL, title TEXT, lineitem_url TEXT,
     UNIQUE (course_id, resource_link_id));
   CREATE TABLE sessions (
     token_hash TEXT PRIMARY KEY, user_id BIGINT NOT NULL REFERENCES users(id),
     course_id BIGINT NOT NULL REFERENCES courses(id), placement_id BIGINT REFERENCES placements(id),
     role TEXT NOT NULL, kind TEXT NOT NULL, deep_link TEXT, lang TEXT NOT NULL,
     created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);
   CREATE TABLE submissions (
     id {id}, placement_id BIGINT NOT NULL REFERENCES placements(id), user_id BIGINT NOT NULL REFERENCES users(id),
     exercise TEXT NOT NULL, track TEXT NOT NULL, code TEXT NOT NULL, lang TEXT NOT NULL, created_at BIGINT NOT NULL,
     status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, pack_version TEXT, report TEXT,
     passed INTEGER, total INTEGER, graded_at BIGINT, graded_by TEXT,
     score_state TEXT NOT NULL DEFAULT 'none', score_sent_at BIGINT, score_error TEXT);
   CREATE INDEX submissions_status ON submissions (status, id);
   CREATE INDEX submissions_owner ON submissions (placement_id, user_id, id);
   CREATE TABLE causes (
     submission_id BIGINT NOT NULL REFERENCES submissions(id), test_id TEXT NOT NULL, status TEXT NOT NULL,
     cause_key TEXT, cause_params TEXT, PRIMARY KEY (submission_id, test_id));
   CREATE TABLE overrides (
     id {id}, placement_id BIGINT NOT NULL REFERENCES placements(id), user_id BIGINT NOT NULL REFERENCES users(id),
     score DOUBLE PRECISION NOT NULL, reason TEXT NOT NULL, by_user_id BIGINT NOT NULL REFERENCES users(id),
     created_at BIGINT NOT NULL, score_state TEXT NOT NULL DEFAULT 'pending', score_error TEXT);
   CREATE TABLE regrades (
     id {id}, placement_id BIGINT NOT NULL REFERENCES placements(id), by_user_id BIGINT NOT NULL REFERENCES users(id),
     created_at BIGINT NOT NULL, diff TEXT NOT NULL);`,
  // LTI Dynamic Registration: an invitation (a registration URL given to an LMS's administrator, single
  // use); a platform registered without a deployment id takes the deployments its signed launches name.
  `CREATE TABLE registration_invites (
     token_hash TEXT PRIMARY KEY, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, used_at BIGINT,
     platform_id BIGINT REFERENCES platforms(id));
   ALTER TABLE platforms ADD COLUMN deployments_open INTEGER NOT NULL DEFAULT 0;`,
  // Late policies (late.mjs): a placement's due time, penalty per day and cap (percent); what the LMS was sent.
  `ALTER TABLE placements ADD COLUMN due_at BIGINT;
   ALTER TABLE placements ADD COLUMN late_per_day DOUBLE PRECISION;
   ALTER TABLE placements ADD COLUMN late_cap DOUBLE PRECISION;
   ALTER TABLE submissions ADD COLUMN score_given DOUBLE PRECISION;`,
];

const ID = { sqlite: 'INTEGER PRIMARY KEY AUTOINCREMENT', postgres: 'BIGSERIAL PRIMARY KEY' };

/** Opens the database named by `url` (`postgres://…`) or the SQLite file `file`, and runs the migrations. */
export async function openDb({ url = null, file = null }) {
  const db = url ? await postgres(url) : await sqlite(file);
  await migrate(db);
  return db;
}

async function sqlite(file) {
  const { default: Database } = await import('better-sqlite3');
  mkdirSync(dirname(file), { recursive: true });
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL'); // readers do not wait for the writer
  raw.pragma('synchronous = NORMAL'); // WAL + NORMAL: a committed transaction survives a killed process
  raw.pragma('busy_timeout = 5000');
  raw.pragma('foreign_keys = ON');
  const cache = new Map();
  const stmt = (sql) => cache.get(sql) ?? cache.set(sql, raw.prepare(sql)).get(sql);
  const on = {
    dialect: 'sqlite',
    async all(sql, params = []) {
      return stmt(sql).all(...params);
    },
    async get(sql, params = []) {
      return stmt(sql).get(...params) ?? null;
    },
    async run(sql, params = []) {
      return { changes: stmt(sql).run(...params).changes };
    },
    async exec(sql) {
      raw.exec(sql);
    },
  };
  // One connection: while a transaction is open (its body may await), every other call waits for it,
  // so nothing of another request runs inside it; the body itself uses the handle it is given.
  let open = Promise.resolve();
  const after = (f) =>
    async function (...args) {
      await open;
      return f.apply(on, args);
    };
  const db = {
    dialect: 'sqlite',
    all: after(on.all),
    get: after(on.get),
    run: after(on.run),
    exec: after(on.exec),
    async tx(fn) {
      const prev = open;
      let done;
      open = new Promise((r) => (done = r));
      await prev;
      raw.exec('BEGIN IMMEDIATE');
      try {
        const r = await fn(on);
        raw.exec('COMMIT');
        return r;
      } catch (e) {
        raw.exec('ROLLBACK');
        throw e;
      } finally {
        done();
      }
    },
    isUniqueViolation: (e) => e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE',
    async close() {
      await open;
      raw.close();
    },
  };
  return db;
}

async function postgres(url) {
  const { default: pg } = await import('pg');
  pg.types.setTypeParser(20, Number); // BIGINT (ids, times in ms) as numbers: they stay below 2^53
  pg.types.setTypeParser(701, Number);
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  const numbered = (sql) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  const on = (client) => ({
    dialect: 'postgres',
    async all(sql, params = []) {
      return (await client.query(numbered(sql), params)).rows;
    },
    async get(sql, params = []) {
      return (await client.query(numbered(sql), params)).rows[0] ?? null;
    },
    async run(sql, params = []) {
      return { changes: (await client.query(numbered(sql), params)).rowCount };
    },
    async exec(sql) {
      await client.query(sql);
    },
    isUniqueViolation: (e) => e?.code === '23505',
  });
  const db = {
    ...on(pool),
    url,
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const r = await fn(on(client));
        await client.query('COMMIT');
        return r;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
  return db;
}

/**
 * Registers a platform (an LMS) and its deployments, or updates the one with the same issuer and client
 * id, in `t` (a transaction); `deployments_open`: no deployment was given (dynamic registration), the
 * platform's signed launches name theirs. Returns the platform's row.
 */
export async function storePlatform(t, p) {
  await t.run(
    `INSERT INTO platforms (issuer, client_id, name, auth_login_url, auth_token_url, jwks_url, token_audience, frame_origin, created_at, deployments_open)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (issuer, client_id) DO UPDATE SET name = excluded.name, auth_login_url = excluded.auth_login_url,
       auth_token_url = excluded.auth_token_url, jwks_url = excluded.jwks_url, token_audience = excluded.token_audience,
       frame_origin = excluded.frame_origin, deployments_open = excluded.deployments_open`,
    [
      p.issuer,
      p.client_id,
      p.name ?? p.issuer,
      p.auth_login_url,
      p.auth_token_url,
      p.jwks_url,
      p.token_audience ?? null,
      p.frame_origin ?? new URL(p.issuer).origin,
      Date.now(),
      p.deployments?.length ? 0 : 1,
    ],
  );
  const row = await t.get('SELECT * FROM platforms WHERE issuer = ? AND client_id = ?', [p.issuer, p.client_id]);
  for (const d of p.deployments ?? [])
    await t.run('INSERT INTO deployments (platform_id, deployment_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [
      row.id,
      d,
    ]);
  return row;
}

/** Runs the migrations not applied yet, each in a transaction; on PostgreSQL under an advisory lock (a server and workers may start together). */
export async function migrate(db) {
  const body = async (t) => {
    if (db.dialect === 'postgres') await t.exec('SELECT pg_advisory_xact_lock(3131)');
    await t.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)',
    );
    const done = new Set((await t.all('SELECT version FROM schema_migrations')).map((r) => Number(r.version)));
    for (const [i, sql] of MIGRATIONS.entries()) {
      if (done.has(i + 1)) continue;
      await t.exec(sql.replaceAll('{id}', ID[db.dialect]));
      await t.run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', [i + 1, Date.now()]);
    }
  };
  await db.tx(body);
}
