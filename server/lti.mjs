// LTI 1.3 on jose: OIDC login initiation, the launch's id_token checks (each failure named), the Deep
// Linking 2.0 response, and AGS scores with the OAuth 2 client-credentials grant (a JWT assertion, RFC
// 7523). Specs: IMS LTI Core 1.3 and IMS Security Framework 1.0 (§5.1.3: the id_token checks), Deep
// Linking 2.0, AGS 2.0 (Score service). Nothing here writes to the database except the OIDC state at
// login and, in launch(), the nonce and state marked used — only once every check has passed.
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';

export const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
export const DL_CLAIM = 'https://purl.imsglobal.org/spec/lti-dl/claim/';
export const AGS_CLAIM = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
export const SCORE_SCOPE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';
const INSTRUCTOR =
  /#(Instructor|TeachingAssistant|ContentDeveloper|Administrator)$|\/institution\/person#Administrator$/;
const STATE_MS = 10 * 60_000; // a login's state is good for 10 minutes
const MAX_AGE_S = 60 * 60; // an id_token issued more than an hour ago is refused, whatever its exp
const SKEW_S = 60;

/** A launch that failed a check: `check` names it (a key of the messages `lti.<check>`); `status`: the HTTP answer. */
export class LaunchError extends Error {
  constructor(check, detail = '') {
    super(`${check}${detail ? `: ${detail}` : ''}`);
    this.check = check;
    this.detail = detail;
    this.prefix = 'lti'; // its messages: lti.title, lti.<check>, lti.nothing
    this.status = 401;
  }
}

export const randomToken = (bytes = 24) => randomBytes(bytes).toString('base64url');
export const sha256 = (text) => createHash('sha256').update(text).digest('hex');

const jwksCache = new Map();
function platformKeys(url) {
  if (!jwksCache.has(url))
    jwksCache.set(url, createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 1000 }));
  return jwksCache.get(url);
}

/** The platforms registered under an issuer (and a client id, when the login names one). */
async function platformsOf(db, iss, clientId = null) {
  return clientId
    ? db.all('SELECT * FROM platforms WHERE issuer = ? AND client_id = ?', [iss, clientId])
    : db.all('SELECT * FROM platforms WHERE issuer = ?', [iss]);
}

/**
 * OIDC login initiation (Security Framework §5.1.1): the LMS sends iss, login_hint, target_link_uri and
 * maybe lti_message_hint, client_id, lti_deployment_id. Returns { redirect, state } — the URL of the
 * platform's authorization endpoint — after storing the state with a fresh nonce.
 */
export async function loginInitiation(db, params, { launchUrl }) {
  const { iss, login_hint: loginHint, target_link_uri: target } = params;
  if (!iss || !loginHint || !target)
    throw new LaunchError('login_params', 'iss, login_hint and target_link_uri are required');
  const platforms = await platformsOf(db, String(iss), params.client_id ? String(params.client_id) : null);
  if (platforms.length === 0) throw new LaunchError('iss', String(iss));
  if (platforms.length > 1)
    throw new LaunchError('client_id', 'several clients are registered for this issuer: the login must name one');
  const platform = platforms[0];
  const state = randomToken(),
    nonce = randomToken();
  await db.run('INSERT INTO oidc_states (state, nonce, platform_id, created_at) VALUES (?, ?, ?, ?)', [
    state,
    nonce,
    platform.id,
    Date.now(),
  ]);
  const url = new URL(platform.auth_login_url);
  const q = {
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: platform.client_id,
    redirect_uri: launchUrl,
    login_hint: String(loginHint),
    state,
    nonce,
  };
  if (params.lti_message_hint) q.lti_message_hint = String(params.lti_message_hint);
  for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
  return { redirect: url.href, state };
}

/**
 * The launch (Security Framework §5.1.3, LTI Core §5.3, Deep Linking §4.4): every check of the id_token,
 * in order, each failure a LaunchError naming it. `cookieState`: the state cookie set at login (null where
 * the browser blocks cookies in the LMS's frame: then the state stored server-side, single use and bound
 * to the nonce, is the proof that this browser started the login).
 * Returns { platform, claims } and marks the state and the nonce used (in `t`, the caller's transaction).
 */
export async function verifyLaunch(db, { id_token: idToken, state }, { cookieState }) {
  if (typeof idToken !== 'string' || !idToken) throw new LaunchError('id_token', 'the form has no id_token');
  if (typeof state !== 'string' || !state) throw new LaunchError('state', 'the form has no state');
  const stored = await db.get('SELECT * FROM oidc_states WHERE state = ?', [state]);
  if (!stored || Date.now() - stored.created_at > STATE_MS) throw new LaunchError('state', 'unknown or expired');
  if (cookieState != null && cookieState !== state)
    throw new LaunchError('state', 'it differs from the state this browser was given');
  let unverified;
  try {
    unverified = decodeJwt(idToken);
  } catch {
    throw new LaunchError('id_token', 'not a JWT');
  }
  const platform = await db.get('SELECT * FROM platforms WHERE id = ?', [stored.platform_id]);
  if (unverified.iss !== platform.issuer) throw new LaunchError('iss', String(unverified.iss));
  let claims;
  try {
    ({ payload: claims } = await jwtVerify(idToken, platformKeys(platform.jwks_url), {
      algorithms: ['RS256'],
      issuer: platform.issuer,
      audience: platform.client_id,
      clockTolerance: SKEW_S,
      maxTokenAge: MAX_AGE_S,
      requiredClaims: ['iss', 'aud', 'exp', 'iat', 'sub', 'nonce'],
    }));
  } catch (e) {
    throw joseFailure(e);
  }
  // azp: required when aud has several values, and when present it must be this tool (OIDC Core §3.1.3.7).
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if ((aud.length > 1 || claims.azp !== undefined) && claims.azp !== platform.client_id)
    throw new LaunchError('azp', String(claims.azp ?? 'missing'));
  if (claims.nonce !== stored.nonce) throw new LaunchError('nonce', 'it is not the nonce this login was given');
  const used = await db.get('SELECT 1 AS used FROM nonces WHERE platform_id = ? AND nonce = ?', [
    platform.id,
    claims.nonce,
  ]);
  if (used || stored.used_at) throw new LaunchError('nonce_replay');
  // A platform registered dynamically without a deployment id (deployments_open) takes the one its signed launch names.
  const deployment = claims[`${CLAIM}deployment_id`];
  if (
    typeof deployment !== 'string' ||
    !deployment ||
    deployment.length > 255 ||
    (!Number(platform.deployments_open) &&
      !(await db.get('SELECT 1 AS ok FROM deployments WHERE platform_id = ? AND deployment_id = ?', [
        platform.id,
        deployment,
      ])))
  )
    throw new LaunchError('deployment', String(deployment ?? 'missing'));
  const type = claims[`${CLAIM}message_type`];
  if (type !== 'LtiResourceLinkRequest' && type !== 'LtiDeepLinkingRequest')
    throw new LaunchError('message_type', String(type));
  if (claims[`${CLAIM}version`] !== '1.3.0') throw new LaunchError('version', String(claims[`${CLAIM}version`]));
  if (typeof claims.sub !== 'string' || !claims.sub) throw new LaunchError('claims', 'sub');
  if (!Array.isArray(claims[`${CLAIM}roles`])) throw new LaunchError('claims', 'roles');
  if (typeof claims[`${CLAIM}context`]?.id !== 'string') throw new LaunchError('claims', 'context.id');
  if (type === 'LtiResourceLinkRequest' && typeof claims[`${CLAIM}resource_link`]?.id !== 'string')
    throw new LaunchError('claims', 'resource_link.id');
  if (
    type === 'LtiDeepLinkingRequest' &&
    typeof claims[`${DL_CLAIM}deep_linking_settings`]?.deep_link_return_url !== 'string'
  )
    throw new LaunchError('claims', 'deep_linking_settings.deep_link_return_url');
  return { platform, claims, nonce: claims.nonce, state };
}

/** Marks a verified launch's state and nonce used; a second use of either (a race) fails with nonce_replay. */
export async function consumeLaunch(t, db, { platform, nonce, state }) {
  const r = await t.run('UPDATE oidc_states SET used_at = ? WHERE state = ? AND used_at IS NULL', [Date.now(), state]);
  if (r.changes !== 1) throw new LaunchError('nonce_replay');
  try {
    await t.run('INSERT INTO nonces (platform_id, nonce, used_at) VALUES (?, ?, ?)', [platform.id, nonce, Date.now()]);
  } catch (e) {
    if (db.isUniqueViolation(e)) throw new LaunchError('nonce_replay');
    throw e;
  }
}

function joseFailure(e) {
  switch (e?.code) {
    case 'ERR_JWT_EXPIRED':
      return new LaunchError('exp', e.message);
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (e.claim === 'aud') return new LaunchError('aud', e.message);
      if (e.claim === 'iss') return new LaunchError('iss', e.message);
      if (e.claim === 'iat' || e.claim === 'nbf') return new LaunchError('iat', e.message);
      return new LaunchError('claims', `${e.claim}: ${e.message}`);
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return new LaunchError('signature', e.message);
    case 'ERR_JWKS_TIMEOUT':
    case 'ERR_JWKS_INVALID':
      return new LaunchError('jwks', e.message);
    default:
      return new LaunchError(
        e?.code === 'ERR_JWS_INVALID' || e?.code === 'ERR_JWT_INVALID' ? 'id_token' : 'signature',
        String(e?.message ?? e),
      );
  }
}

/** A verified launch's role: 'instructor' for an Instructor, a TA, a content developer or an administrator, else 'learner'. */
export const roleOf = (claims) =>
  claims[`${CLAIM}roles`].some((r) => INSTRUCTOR.test(String(r))) ? 'instructor' : 'learner';

/**
 * The Deep Linking response (Deep Linking 2.0 §4.5): a JWT signed with the tool's key, for the form the
 * browser posts back to deep_link_return_url. `items`: content items (ltiResourceLink with a lineItem).
 */
export async function deepLinkResponse({ key, platform, deployment, settings, items }) {
  const body = {
    [`${CLAIM}message_type`]: 'LtiDeepLinkingResponse',
    [`${CLAIM}version`]: '1.3.0',
    [`${CLAIM}deployment_id`]: deployment,
    [`${DL_CLAIM}content_items`]: items,
  };
  if (settings.data !== undefined) body[`${DL_CLAIM}data`] = settings.data;
  return new SignJWT(body)
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setIssuer(platform.client_id)
    .setAudience(platform.issuer)
    .setIssuedAt()
    .setExpirationTime('5m')
    .setJti(randomToken())
    .sign(key.privateKey);
}

// The platform's token endpoint and our client id there → { token, until } (one scope: scores). Not the
// platform's row id: a process may hold services on several databases (the tests do), whose ids repeat.
const tokens = new Map();
const tokenKey = (platform) => `${platform.auth_token_url}\0${platform.client_id}`;

/** An AGS access token (client credentials with a signed JWT assertion, RFC 7523 §2.2), cached until a minute before it expires. */
export async function accessToken({ key, platform, fetchImpl = fetch }) {
  const cached = tokens.get(tokenKey(platform));
  if (cached && cached.until > Date.now()) return cached.token;
  const assertion = await new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setIssuer(platform.client_id)
    .setSubject(platform.client_id)
    .setAudience(platform.token_audience || platform.auth_token_url)
    .setIssuedAt()
    .setExpirationTime('5m')
    .setJti(randomToken())
    .sign(key.privateKey);
  const res = await fetchImpl(platform.auth_token_url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
      scope: SCORE_SCOPE,
    }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`token endpoint answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const body = await res.json();
  if (typeof body.access_token !== 'string') throw new Error('token endpoint answered without access_token');
  const ttl = Number(body.expires_in) || 3600;
  tokens.set(tokenKey(platform), { token: body.access_token, until: Date.now() + Math.max(0, ttl - 60) * 1000 });
  return body.access_token;
}

/** The line item's score service URL: `/scores` after the line item's path, before its query (AGS 2.0 §3.4). */
export function scoresUrl(lineitem) {
  const u = new URL(lineitem);
  u.pathname = `${u.pathname.replace(/\/$/, '')}/scores`;
  return u.href;
}

/** Posts one score (AGS 2.0 Score service). `score`: { userId, scoreGiven, scoreMaximum, comment?, timestamp }. */
export async function postScore({ key, platform, lineitem, score, fetchImpl = fetch }) {
  const token = await accessToken({ key, platform, fetchImpl });
  const res = await fetchImpl(scoresUrl(lineitem), {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.ims.lis.v1.score+json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ activityProgress: 'Completed', gradingProgress: 'FullyGraded', ...score }),
    signal: AbortSignal.timeout(10_000),
  });
  if (res.status === 401) tokens.delete(tokenKey(platform));
  if (!res.ok) throw new Error(`score service answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
}
