// LTI Dynamic Registration 1.0 (IMS): an LMS administrator pastes the tool's registration URL (an
// invitation from `tools/server platform invite`); the LMS opens it with `openid_configuration` and
// `registration_token`; the tool fetches the platform's OpenID configuration, checks it, POSTs its own
// client registration (with `https://purl.imsglobal.org/spec/lti-tool-configuration`) to the
// platform's `registration_endpoint`, checks the answer, and stores the platform as `platform add` does
// (db.mjs storePlatform). Everything the platform answers is checked field by field: a bad or hostile
// answer is a RegistrationError naming the check, and nothing is stored.
import { LaunchError, SCORE_SCOPE, randomToken, sha256 } from './lti.mjs';
import { storePlatform } from './db.mjs';

export const TOOL_CONFIG = 'https://purl.imsglobal.org/spec/lti-tool-configuration';
export const PLATFORM_CONFIG = 'https://purl.imsglobal.org/spec/lti-platform-configuration';
const MAX_ANSWER_BYTES = 64 * 1024; // an OpenID configuration or a registration answer is a few KiB
const MAX_URL = 2048;
const MAX_ID = 255;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A registration that failed a check: `check` names it (the messages `reg.<check>`); `status` the HTTP answer. */
export class RegistrationError extends LaunchError {
  constructor(check, detail = '', status = 502) {
    super(check, detail);
    this.prefix = 'reg';
    this.status = status;
  }
}

/** A short, printable excerpt of what a platform sent, for a message (escaped where it is shown). */
const excerpt = (v) =>
  String(typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)))
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .slice(0, 120);

/**
 * A URL a platform gave: a string of at most 2048 characters, https (http only on a loopback host: a
 * platform on this machine), no user or password. Returns its href, or throws `check` naming `field`.
 */
export function webUrl(value, field, check = 'config', status = 502) {
  if (typeof value !== 'string' || !value || value.length > MAX_URL)
    throw new RegistrationError(check, `${field}: needs a URL, got ${excerpt(value)}`, status);
  let u;
  try {
    u = new URL(value);
  } catch {
    throw new RegistrationError(check, `${field}: not a URL: ${excerpt(value)}`, status);
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && LOOPBACK.has(u.hostname)))
    throw new RegistrationError(check, `${field}: needs https, got ${excerpt(value)}`, status);
  if (u.username || u.password) throw new RegistrationError(check, `${field}: a URL with a user or password`, status);
  return u.href;
}

/** An identifier a platform gave (client_id, deployment_id): a string of 1…255 printable characters. */
function identifier(value, field, check) {
  if (typeof value !== 'string' || !value || value.length > MAX_ID || /[\u0000-\u001f\u007f]/.test(value))
    throw new RegistrationError(check, `${field}: needs 1 to ${MAX_ID} printable characters, got ${excerpt(value)}`);
  return value;
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const stringList = (v) => Array.isArray(v) && v.every((s) => typeof s === 'string');

/**
 * A request to the platform, its answer read as JSON: at most 64 KiB, within `timeoutMs`, no redirect
 * followed. `check`: what a failure is named. Returns { status, body }.
 */
async function platformJson(url, init, { check, fetchImpl, timeoutMs }) {
  let res;
  try {
    res = await fetchImpl(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const why = e?.name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : excerpt(e?.cause?.code ?? e?.message);
    throw new RegistrationError(check, `${url}: ${why}`);
  }
  let text = '';
  try {
    const reader = res.body?.getReader();
    const decoder = new TextDecoder();
    let bytes = 0;
    for (;;) {
      const { done, value } = reader ? await reader.read() : { done: true };
      if (done) break;
      bytes += value.byteLength;
      if (bytes > MAX_ANSWER_BYTES) {
        await reader.cancel().catch(() => {});
        throw new RegistrationError(check, `${url}: the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (e) {
    if (e instanceof RegistrationError) throw e;
    const why = e?.name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : excerpt(e?.message);
    throw new RegistrationError(check, `${url}: ${why}`);
  }
  if (res.status >= 300 && res.status < 400)
    throw new RegistrationError(check, `${url} answered ${res.status} (a redirect, not followed)`);
  if (res.status < 200 || res.status >= 300)
    throw new RegistrationError(check, `${url} answered ${res.status}: ${excerpt(text)}`);
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RegistrationError(check, `${url}: the answer is not JSON: ${excerpt(text)}`);
  }
  if (!isObject(body)) throw new RegistrationError(check, `${url}: the answer is not a JSON object`);
  return { status: res.status, body };
}

/**
 * The platform's OpenID configuration (LTI-DR §3.4), checked: the issuer matches the configuration's URL
 * (same origin, and the URL under the issuer's path), the endpoints are URLs, RS256 and private_key_jwt
 * are supported, the LTI platform configuration is there, and AGS scores are offered.
 */
export function checkPlatformConfig(config, configUrl) {
  const issuer = config.issuer;
  webUrl(issuer, 'issuer', 'issuer');
  const iss = new URL(issuer),
    at = new URL(configUrl);
  if (iss.origin !== at.origin || !at.pathname.startsWith(iss.pathname.replace(/\/$/, '') + '/'))
    throw new RegistrationError('issuer', `${excerpt(issuer)} is not where the configuration was read (${configUrl})`);
  for (const field of ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'registration_endpoint'])
    webUrl(config[field], field);
  const must = [
    ['token_endpoint_auth_methods_supported', 'private_key_jwt'],
    ['id_token_signing_alg_values_supported', 'RS256'],
  ];
  for (const [field, value] of must) {
    if (!stringList(config[field]) || !config[field].includes(value))
      throw new RegistrationError('config', `${field}: needs a list with ${value}, got ${excerpt(config[field])}`);
  }
  if (!stringList(config.scopes_supported))
    throw new RegistrationError('config', `scopes_supported: needs a list, got ${excerpt(config.scopes_supported)}`);
  if (!config.scopes_supported.includes(SCORE_SCOPE)) throw new RegistrationError('scope', SCORE_SCOPE);
  const lti = config[PLATFORM_CONFIG];
  if (!isObject(lti)) throw new RegistrationError('config', `${PLATFORM_CONFIG}: missing`);
  if (typeof lti.product_family_code !== 'string' || !lti.product_family_code)
    throw new RegistrationError(
      'config',
      `product_family_code: needs a string, got ${excerpt(lti.product_family_code)}`,
    );
  if (!Array.isArray(lti.messages_supported) || !lti.messages_supported.every((m) => typeof m?.type === 'string'))
    throw new RegistrationError(
      'config',
      `messages_supported: needs a list of {type}, got ${excerpt(lti.messages_supported)}`,
    );
  return {
    issuer, // as the platform spells it: its id_tokens' iss
    auth_login_url: config.authorization_endpoint,
    auth_token_url: config.token_endpoint,
    jwks_url: config.jwks_uri,
    registration_endpoint: config.registration_endpoint,
    product: lti.product_family_code.slice(0, 60),
    deepLinking: lti.messages_supported.some((m) => m.type === 'LtiDeepLinkingRequest'),
  };
}

/** The tool's client registration (LTI-DR §3.5: OpenID Connect Dynamic Client Registration + the LTI tool configuration). */
export function toolRegistration(baseUrl, { deepLinking }) {
  const launch = `${baseUrl}/lti/launch`;
  return {
    application_type: 'web',
    response_types: ['id_token'],
    grant_types: ['implicit', 'client_credentials'],
    initiate_login_uri: `${baseUrl}/lti/login`,
    redirect_uris: [launch],
    client_name: 'attnlab',
    jwks_uri: `${baseUrl}/lti/jwks`,
    token_endpoint_auth_method: 'private_key_jwt',
    scope: SCORE_SCOPE,
    [TOOL_CONFIG]: {
      domain: new URL(baseUrl).host,
      target_link_uri: launch,
      claims: ['iss', 'sub', 'name'],
      messages: deepLinking ? [{ type: 'LtiDeepLinkingRequest', target_link_uri: launch, label: 'attnlab' }] : [],
    },
  };
}

/** The platform's answer to the registration (LTI-DR §3.6), checked: { client_id, deployment_id|null, scores }. */
export function checkRegistrationAnswer(answer) {
  const clientId = identifier(answer.client_id, 'client_id', 'client_id');
  const tool = answer[TOOL_CONFIG];
  if (tool !== undefined && !isObject(tool))
    throw new RegistrationError('registration', `${TOOL_CONFIG}: needs an object, got ${excerpt(tool)}`);
  const deployment =
    tool?.deployment_id === undefined ? null : identifier(tool.deployment_id, 'deployment_id', 'deployment');
  if (answer.scope !== undefined && typeof answer.scope !== 'string')
    throw new RegistrationError('registration', `scope: needs a string, got ${excerpt(answer.scope)}`);
  const scores = answer.scope === undefined || answer.scope.split(/\s+/).includes(SCORE_SCOPE);
  return { client_id: clientId, deployment_id: deployment, scores };
}

/** A new invitation: its token (shown once; only its SHA-256 is stored), good for `hours`. */
export async function createInvite(db, { hours = 24 } = {}) {
  const token = randomToken();
  const now = Date.now();
  await db.run('INSERT INTO registration_invites (token_hash, created_at, expires_at) VALUES (?, ?, ?)', [
    sha256(token),
    now,
    now + hours * 3600_000,
  ]);
  return token;
}

async function openInvite(db, invite) {
  const row =
    typeof invite === 'string' && invite.length <= 100
      ? await db.get('SELECT * FROM registration_invites WHERE token_hash = ?', [sha256(invite)])
      : null;
  if (!row) throw new RegistrationError('invite_unknown', '', 403);
  if (row.used_at) throw new RegistrationError('invite_used', '', 403);
  if (row.expires_at <= Date.now()) throw new RegistrationError('invite_expired', '', 403);
  return row;
}

/**
 * The whole registration: `query` is the registration URL's query ({ openid_configuration,
 * registration_token }), `invite` the invitation in its path. Returns { platform (the stored row),
 * deployment, scores }. Throws a RegistrationError naming the check; then nothing is stored.
 */
export async function registerPlatform(db, { invite, query }, { baseUrl, fetchImpl = fetch, timeoutMs = 10_000 }) {
  await openInvite(db, invite);
  const configUrl = webUrl(query.openid_configuration, 'openid_configuration', 'openid_configuration', 400);
  const regToken = query.registration_token;
  if (regToken !== undefined && (typeof regToken !== 'string' || regToken.length > 4096))
    throw new RegistrationError('registration_token', 'needs a string of at most 4096 characters', 400);
  const bearer = regToken ? { authorization: `Bearer ${regToken}` } : {};
  const io = { fetchImpl, timeoutMs };
  const { body: config } = await platformJson(
    configUrl,
    { headers: { accept: 'application/json', ...bearer } },
    { check: 'config_fetch', ...io },
  );
  const platform = checkPlatformConfig(config, configUrl);
  const { body: answer } = await platformJson(
    platform.registration_endpoint,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...bearer },
      body: JSON.stringify(toolRegistration(baseUrl, platform)),
    },
    { check: 'registration', ...io },
  );
  const got = checkRegistrationAnswer(answer);
  const row = await db.tx(async (t) => {
    const stored = await storePlatform(t, {
      ...platform,
      client_id: got.client_id,
      name: `${platform.product} (${new URL(platform.issuer).host})`,
      deployments: got.deployment_id ? [got.deployment_id] : [],
    });
    const used = await t.run(
      'UPDATE registration_invites SET used_at = ?, platform_id = ? WHERE token_hash = ? AND used_at IS NULL',
      [Date.now(), stored.id, sha256(invite)],
    );
    if (used.changes !== 1) throw new RegistrationError('invite_used', '', 403);
    return stored;
  });
  return { platform: row, deployment: got.deployment_id, scores: got.scores };
}
