// The service's HTTP side (fastify): LTI endpoints, the launch page, the exercise page under /app/, the
// JSON API, health and readiness. JSON-lines logs (fastify's pino). Every error answers a sentence in
// the session's or the browser's language; a launch that fails any check gets a page naming it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { staticFiles } from '../web/server.mjs';
import { escapeHtml } from '../grader/index.mjs';
import { LaunchError, deepLinkResponse, loginInitiation, verifyLaunch } from './lti.mjs';
import { registerPlatform } from './registration.mjs';
import { ApiError } from './service.mjs';
import { langOf, t, uiWords } from './messages.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const PUBLIC = {
  'session.js': 'text/javascript; charset=utf-8',
  'session.css': 'text/css; charset=utf-8',
  'registered.js': 'text/javascript; charset=utf-8',
};
const SESSION_HEADER = 'x-attnlab-session';

/** The Cookie header's pairs. */
function cookies(header) {
  const out = {};
  for (const part of String(header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
  }
  return out;
}

/** A cookie for a page framed by the LMS (another site): SameSite=None needs Secure. */
const cookie = (name, value, maxAgeS) =>
  `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeS}; HttpOnly; Secure; SameSite=None`;

/**
 * The fastify app. `service`: service.mjs; `ready()`: whether the queue runs. Returns the app (not listening).
 */
export function createApp({ config, service, db, key, logger, ready = () => true, fetchImpl = fetch }) {
  const app = Fastify({
    loggerInstance: logger,
    trustProxy: config.trust_proxy,
    bodyLimit: config.max_code_bytes * 2 + 16_384, // a submission's JSON (escaped code) and a little more
  });
  /** The registered platforms' origins: the LMS pages that frame the launch page (and, through it, the exercise). */
  const platformOrigins = async () =>
    (await db.all('SELECT DISTINCT frame_origin FROM platforms ORDER BY frame_origin')).map((r) => r.frame_origin);
  const pageHeaders = async () => {
    const origins = await platformOrigins();
    return {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "frame-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        `form-action 'self' ${origins.join(' ')}`.trim(),
        `frame-ancestors 'self' ${origins.join(' ')}`.trim(),
      ].join('; '),
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    };
  };

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body)));
  });

  app.setErrorHandler(async (err, req, reply) => {
    const lang = req.session?.lang ?? langOf(req.headers['accept-language']);
    if (err instanceof ApiError)
      return reply.code(err.status).send({ error: err.key, message: t(lang, `api.${err.key}`, err.params) });
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return reply.code(413).send({
        error: 'code_size',
        message: t(lang, 'api.code_size', {
          bytes: Number(req.headers['content-length']) || '?',
          max: config.max_code_bytes,
        }),
      });
    if (err.validation || (err.statusCode >= 400 && err.statusCode < 500))
      return reply
        .code(err.statusCode ?? 400)
        .send({ error: 'body', message: t(lang, 'api.body', { detail: String(err.message).slice(0, 200) }) });
    req.log.error({ err: String(err?.stack ?? err) }, 'internal error');
    return reply.code(500).send({ error: 'internal', message: t(lang, 'api.internal') });
  });

  // ---- operations ----
  app.get('/health', async () => ({ ok: true }));
  app.get('/ready', async (req, reply) => {
    try {
      await db.get('SELECT 1 AS one');
    } catch (e) {
      return reply.code(503).send({ ready: false, reason: `database: ${e.message}` });
    }
    if (!ready()) return reply.code(503).send({ ready: false, reason: 'queue not started' });
    return { ready: true };
  });

  // ---- LTI ----
  app.get('/lti/jwks', async () => ({ keys: [key.publicJwk] }));

  /** A page of a few paragraphs, escaped; `script`: a file of public/ it runs (the page's CSP allows only 'self'). */
  const page = (reply, { status = 200, lang, title, paragraphs, check = null, script = null }) =>
    reply
      .code(status)
      .headers({
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; script-src 'self'; base-uri 'none'; form-action 'none'",
        'referrer-policy': 'no-referrer',
        ...(check ? { 'x-attnlab-check': check } : {}),
      })
      .send(
        `<!doctype html><html lang="${lang}"><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
          `<body><main><h1>${escapeHtml(title)}</h1>${paragraphs.map(([id, text]) => `<p${id ? ` id="${id}"` : ''}>${escapeHtml(text)}</p>`).join('')}</main>` +
          `${script ? `<script src="/lti/${script}"></script>` : ''}</body></html>`,
      );

  /** A failed launch or registration (a LaunchError's `prefix` names its messages: lti.* or reg.*). */
  const launchFailed = (reply, lang, e) => {
    const check = e instanceof LaunchError ? e.check : e instanceof ApiError ? e.key : 'internal';
    const prefix = e instanceof LaunchError ? e.prefix : 'lti';
    const reason =
      e instanceof LaunchError
        ? t(lang, `${prefix}.${e.check}`, { detail: e.detail })
        : e instanceof ApiError
          ? t(lang, `api.${e.key}`, e.params)
          : t(lang, 'api.internal');
    const status = e instanceof LaunchError ? e.status : e instanceof ApiError ? e.status : 500;
    return page(reply, {
      status,
      lang,
      check,
      title: t(lang, `${prefix}.title`),
      paragraphs: [
        ['reason', reason],
        [null, t(lang, 'lti.check', { check })],
        [null, t(lang, `${prefix}.nothing`)],
      ],
    });
  };

  const login = async (req, reply) => {
    const params = { ...(req.query ?? {}), ...(typeof req.body === 'object' ? req.body : {}) };
    const lang = langOf(req.headers['accept-language']);
    try {
      const { redirect, state } = await loginInitiation(db, params, { launchUrl: `${config.base_url}/lti/launch` });
      req.log.info({ iss: String(params.iss).slice(0, 200) }, 'lti login');
      return reply.header('set-cookie', cookie('attnlab_state', state, 600)).redirect(redirect, 302);
    } catch (e) {
      req.log.warn({ check: e.check ?? 'internal', err: String(e.message) }, 'lti login refused');
      return launchFailed(reply, lang, e);
    }
  };
  app.get('/lti/login', login);
  app.post('/lti/login', login);

  app.post('/lti/launch', async (req, reply) => {
    const body = typeof req.body === 'object' && req.body ? req.body : {};
    let lang = langOf(req.headers['accept-language']);
    try {
      const launch = await verifyLaunch(db, body, { cookieState: cookies(req.headers.cookie).attnlab_state ?? null });
      const locale = launch.claims['https://purl.imsglobal.org/spec/lti/claim/launch_presentation']?.locale;
      if (typeof locale === 'string') lang = /^ru\b/i.test(locale) ? 'ru' : 'en';
      const { token } = await service.startSession(launch, { lang });
      req.log.info({ platform: launch.platform.id, sub: launch.claims.sub }, 'lti launch');
      // The token travels in the fragment (never sent to a server, never in a Referer), and in a cookie
      // where the browser keeps cookies in the LMS's frame.
      return reply
        .header('set-cookie', [
          cookie('attnlab_session', token, config.session_hours * 3600),
          cookie('attnlab_state', '', 0),
        ])
        .redirect(`${config.base_url}/lti/session#s=${token}`, 303);
    } catch (e) {
      req.log.warn({ check: e.check ?? e.key ?? 'internal', err: String(e.message) }, 'lti launch refused');
      if (!(e instanceof LaunchError) && !(e instanceof ApiError))
        req.log.error({ err: String(e?.stack ?? e) }, 'launch fault');
      return launchFailed(reply, lang, e);
    }
  });

  // ---- LTI Dynamic Registration: the URL of an invitation (`tools/server platform invite`), opened by the LMS ----
  app.get('/lti/register/:invite', async (req, reply) => {
    const lang = langOf(req.headers['accept-language']);
    try {
      const r = await registerPlatform(
        db,
        { invite: req.params.invite, query: req.query ?? {} },
        { baseUrl: config.base_url, fetchImpl, timeoutMs: config.platform_timeout_ms },
      );
      req.log.info(
        { platform: r.platform.id, issuer: r.platform.issuer, deployment: r.deployment },
        'lti dynamic registration',
      );
      const paragraphs = [
        ['registered', t(lang, 'reg.done', { name: r.platform.name, client: r.platform.client_id })],
        [
          null,
          r.deployment ? t(lang, 'reg.done_deployment', { deployment: r.deployment }) : t(lang, 'reg.deployments_open'),
        ],
      ];
      if (!r.scores) paragraphs.push(['warning', t(lang, 'reg.no_scores')]);
      return page(reply, { lang, title: t(lang, 'reg.done_title'), paragraphs, script: 'registered.js' });
    } catch (e) {
      req.log.warn({ check: e.check ?? 'internal', err: String(e.message).slice(0, 300) }, 'lti registration refused');
      if (!(e instanceof LaunchError)) req.log.error({ err: String(e?.stack ?? e) }, 'registration fault');
      return launchFailed(reply, lang, e);
    }
  });

  // ---- the launch page and the exercise page ----
  const shell = readFileSync(join(here, 'public', 'session.html'), 'utf8');
  app.get('/lti/session', async (req, reply) => reply.headers(await pageHeaders()).send(shell));
  for (const [file, type] of Object.entries(PUBLIC)) {
    const body = readFileSync(join(here, 'public', file));
    app.get(`/lti/${file}`, async (req, reply) =>
      reply.headers({ 'content-type': type, 'cache-control': 'no-cache' }).send(body),
    );
  }
  // The exercise page in embed mode is framed by the launch page (its parent-origin, this service), which
  // the LMS frames: frame-ancestors is checked against every ancestor, so the platforms' origins too.
  const pageFiles = new Map(); // the platforms' origins → web/server.mjs's handler with them
  const servePage = async (req, reply) => {
    const origins = await platformOrigins();
    // this service's own origin (the launch page, the page's parent-origin) and the platforms'
    const ancestors = [new URL(config.base_url).origin, ...origins].join(' ');
    if (!pageFiles.has(ancestors))
      pageFiles.set(ancestors, staticFiles({ dir: config.web_dist, isolated: false, embedAncestors: ancestors }));
    reply.hijack();
    return pageFiles.get(ancestors)(
      req.raw,
      reply.raw,
      decodeURIComponent(new URL(req.url, 'http://x').pathname).slice('/app'.length) || '/',
    );
  };
  app.get('/app/*', servePage);

  // ---- the API: the session from the X-Attnlab-Session header (the fragment's token), or on GETs the cookie ----
  const auth = async (req) => {
    const header = req.headers[SESSION_HEADER];
    if (typeof header === 'string') req.session = await service.session(header);
    else if (req.method === 'GET' || req.method === 'HEAD')
      req.session = await service.session(cookies(req.headers.cookie).attnlab_session);
    else throw new ApiError(403, 'csrf'); // a state change needs the header, which another site's form or fetch cannot send
  };
  const body = (req, fields) => {
    const b = req.body;
    if (!b || typeof b !== 'object' || Array.isArray(b))
      throw new ApiError(400, 'body', { detail: 'a JSON object is needed' });
    const extra = Object.keys(b).filter((k) => !fields.includes(k));
    if (extra.length)
      throw new ApiError(400, 'body', {
        detail: `unknown field "${extra[0].slice(0, 40)}" (known: ${fields.join(', ')})`,
      });
    return b;
  };

  app.register(async (api) => {
    api.addHook('onRequest', async (req) => auth(req));
    api.get('/api/state', async (req) => ({ ...(await service.state(req.session)), words: uiWords(req.session.lang) }));
    api.post('/api/submissions', async (req, reply) => {
      const { code } = body(req, ['code']);
      return reply.code(202).send(await service.submit(req.session, code));
    });
    api.get('/api/submissions/:id', async (req) => service.submission(req.session, req.params.id));
    api.get('/api/class', async (req) => service.classView(req.session));
    api.get('/api/students/:id/submissions', async (req) => service.history(req.session, req.params.id));
    api.post('/api/overrides', async (req) => service.override(req.session, body(req, ['user', 'score', 'reason'])));
    api.post('/api/regrade', async (req) => service.regrade(req.session));
    api.get('/api/report.html', async (req, reply) => {
      const html = await service.classReport(req.session);
      // The report's own inline style and scripts, allowed by their hashes: nothing else runs in it.
      const hashes = (tag) =>
        [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))]
          .map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`)
          .join(' ');
      return reply
        .headers({
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-security-policy': `default-src 'none'; script-src ${hashes('script') || "'none'"}; style-src ${hashes('style') || "'none'"}; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'`,
          'referrer-policy': 'no-referrer',
          'x-content-type-options': 'nosniff',
        })
        .send(html);
    });
    api.post('/api/late-policy', async (req) =>
      service.setLatePolicy(req.session, body(req, ['due', 'per_day', 'cap'])),
    );
    api.get('/api/gradebook.csv', async (req, reply) =>
      reply
        .headers({
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': 'attachment; filename="gradebook.csv"',
        })
        .send(await service.gradebook(req.session)),
    );
    api.post('/api/deep-link', async (req) => {
      const item = await service.deepLinkItem(req.session, body(req, ['exercise', 'track', 'title']));
      const jwt = await deepLinkResponse({ key, ...item });
      req.log.info({ items: item.items.length }, 'deep link response');
      return { return_url: item.returnUrl, jwt };
    });
  });
  return app;
}
