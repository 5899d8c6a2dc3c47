// An LTI 1.3 platform (an LMS) written to the specs for the service's tests: its own RSA key and JWKS,
// an OIDC authorization endpoint that answers a tool's login with a signed id_token (form_post), a
// token endpoint (client credentials with a JWT assertion checked against the tool's JWKS, RFC 7523),
// a Deep Linking return endpoint that checks the tool's response JWT and creates the line item, and
// AGS score endpoints that check the token and record every score they receive, and LTI Dynamic
// Registration's side (an OpenID configuration, a registration endpoint that checks the tool's metadata).
// On 127.0.0.1.
// Also: a small browser for Node (cookies, redirects by hand, forms) that runs a launch.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { SignJWT, createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify } from 'jose';

export const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
const DL = 'https://purl.imsglobal.org/spec/lti-dl/claim/';
export const ROLE = {
  learner: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
  instructor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
};

const form = (action, fields) =>
  `<!doctype html><form method="post" action="${action}">${Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${k}" value="${String(v).replace(/"/g, '&quot;')}">`)
    .join('')}</form><script>document.forms[0].submit()</script>`;

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts the platform. Returns { url, issuer, clientId, deployment, register(toolUrl), prepare(hint, launch),
 * dynamicRegister(registrationUrl), state: { scores: [{ lineitem, body, at }], lineitems: Map, deepLinks: [], dr }, close() }.
 */
export async function startPlatform({ clientId = 'attnlab-client', deployment = 'dep-1' } = {}) {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const other = await generateKeyPair('RS256'); // a key the JWKS does not publish (a forged signature)
  const jwk = { ...(await exportJWK(publicKey)), kid: 'platform-1', alg: 'RS256', use: 'sig' };
  const pending = new Map(); // login_hint → what the launch is
  const state = { scores: [], lineitems: new Map(), deepLinks: [], tokens: new Set(), tokenRequests: 0, failScores: 0 };
  // LTI Dynamic Registration: registration tokens handed out (each good for one registration), the
  // registrations received, and what a test changes in the OpenID configuration or the answer: `config`
  // and `answer` map the platform's JSON to what is sent (an object, or { raw: { status, body, type,
  // location } }, or { hang: true }).
  state.dr = { tokens: new Set(), registrations: [], configReads: [], config: (c) => c, answer: (a) => a, deployment };
  let toolJwks = null,
    toolUrl = null,
    url = null;

  /** Signs an id_token for `launch` ({ sub, roles, type, context, link, custom, lineitem, deepLinkReturn, tamper }). */
  async function idToken(launch, nonce) {
    const tamper = launch.tamper ?? {};
    const claims = {
      nonce: tamper.nonce ?? nonce,
      [`${CLAIM}message_type`]: launch.type ?? 'LtiResourceLinkRequest',
      [`${CLAIM}version`]: tamper.version ?? '1.3.0',
      [`${CLAIM}deployment_id`]: tamper.deployment ?? deployment,
      [`${CLAIM}roles`]: launch.roles ?? [ROLE.learner],
      [`${CLAIM}context`]: launch.context ?? { id: 'course-1', title: 'Attention 101' },
      [`${CLAIM}target_link_uri`]: `${toolUrl}/lti/launch`,
      name: launch.name ?? launch.sub,
      [`${CLAIM}launch_presentation`]: { locale: launch.locale ?? 'en' },
    };
    if ((launch.type ?? 'LtiResourceLinkRequest') === 'LtiResourceLinkRequest') {
      claims[`${CLAIM}resource_link`] = { id: launch.link ?? 'link-1', title: 'Exercise' };
      if (launch.custom) claims[`${CLAIM}custom`] = launch.custom;
      if (launch.lineitem)
        claims['https://purl.imsglobal.org/spec/lti-ags/claim/endpoint'] = {
          scope: [
            'https://purl.imsglobal.org/spec/lti-ags/scope/score',
            'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
          ],
          lineitems: `${url}/lineitems`,
          lineitem: launch.lineitem,
        };
    } else {
      claims[`${DL}deep_linking_settings`] = {
        deep_link_return_url: `${url}/deep-link-return`,
        accept_types: ['ltiResourceLink'],
        accept_presentation_document_targets: ['iframe', 'window'],
        data: 'opaque-dl-data',
      };
    }
    const now = Math.floor(Date.now() / 1000) + (tamper.clock ?? 0);
    if (tamper.azp !== undefined) claims.azp = tamper.azp;
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'platform-1', typ: 'JWT' })
      .setIssuer(tamper.iss ?? url)
      .setSubject(launch.sub)
      .setAudience(tamper.aud ?? clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + (tamper.expiresIn ?? 300));
    return jwt.sign(tamper.key === 'other' ? other.privateKey : privateKey);
  }

  const server = createServer(async (req, res) => {
    const u = new URL(req.url, url);
    const send = (code, body, type = 'application/json') => {
      res.writeHead(code, { 'content-type': type });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    try {
      if (u.pathname === '/jwks') return send(200, { keys: [jwk] });
      /** A dynamic-registration answer as a test shaped it: JSON, a raw reply, or none at all (a hang). */
      const reply = (out) => {
        if (out?.hang) return; // never answered: the tool's timeout must end it
        if (out?.raw) {
          res.writeHead(out.raw.status ?? 200, {
            'content-type': out.raw.type ?? 'application/json',
            ...(out.raw.location ? { location: out.raw.location } : {}),
          });
          return res.end(out.raw.body ?? '');
        }
        send(200, out);
      };
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (u.pathname === '/.well-known/openid-configuration') {
        // The platform's OpenID configuration (LTI-DR §3.4; OpenID Connect Discovery), for a holder of a registration token.
        state.dr.configReads.push({ bearer });
        if (!bearer || !state.dr.tokens.has(bearer)) return send(401, { error: 'registration_token' });
        return reply(
          state.dr.config({
            issuer: url,
            authorization_endpoint: `${url}/auth`,
            token_endpoint: `${url}/token`,
            token_endpoint_auth_methods_supported: ['private_key_jwt'],
            token_endpoint_auth_signing_alg_values_supported: ['RS256'],
            jwks_uri: `${url}/jwks`,
            registration_endpoint: `${url}/register`,
            scopes_supported: [
              'openid',
              'https://purl.imsglobal.org/spec/lti-ags/scope/score',
              'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
            ],
            response_types_supported: ['id_token'],
            id_token_signing_alg_values_supported: ['RS256'],
            claims_supported: ['iss', 'sub', 'aud', 'name'],
            subject_types_supported: ['public'],
            'https://purl.imsglobal.org/spec/lti-platform-configuration': {
              product_family_code: 'simulated-lms',
              version: '1.0',
              messages_supported: [{ type: 'LtiResourceLinkRequest' }, { type: 'LtiDeepLinkingRequest' }],
            },
          }),
        );
      }
      if (u.pathname === '/register' && req.method === 'POST') {
        // The client registration (LTI-DR §3.5, §3.6): the token is single use; the tool's metadata is checked.
        if (!bearer || !state.dr.tokens.has(bearer)) return send(401, { error: 'registration_token' });
        state.dr.tokens.delete(bearer);
        if (req.headers['content-type'] !== 'application/json') return send(415, { error: 'content-type' });
        const body = JSON.parse(await readBody(req));
        const tool = body['https://purl.imsglobal.org/spec/lti-tool-configuration'];
        const isUrl = (v) => typeof v === 'string' && URL.canParse(v);
        const bad = [
          body.application_type !== 'web' && 'application_type',
          JSON.stringify(body.response_types) !== '["id_token"]' && 'response_types',
          !(body.grant_types?.includes('implicit') && body.grant_types?.includes('client_credentials')) &&
            'grant_types',
          !isUrl(body.initiate_login_uri) && 'initiate_login_uri',
          !(Array.isArray(body.redirect_uris) && body.redirect_uris.length && body.redirect_uris.every(isUrl)) &&
            'redirect_uris',
          !isUrl(body.jwks_uri) && 'jwks_uri',
          typeof body.client_name !== 'string' && 'client_name',
          body.token_endpoint_auth_method !== 'private_key_jwt' && 'token_endpoint_auth_method',
          typeof body.scope !== 'string' && 'scope',
          !tool && 'lti-tool-configuration',
          tool && typeof tool.domain !== 'string' && 'domain',
          tool && !isUrl(tool.target_link_uri) && 'target_link_uri',
          tool && !Array.isArray(tool.claims) && 'claims',
          tool && tool.messages !== undefined && !Array.isArray(tool.messages) && 'messages',
        ].filter(Boolean);
        if (bad.length) return send(400, { error: 'invalid_client_metadata', bad });
        state.dr.registrations.push({ body, bearer });
        const answer = {
          ...body,
          client_id: clientId,
          'https://purl.imsglobal.org/spec/lti-tool-configuration': {
            ...tool,
            ...(state.dr.deployment ? { deployment_id: state.dr.deployment } : {}),
          },
        };
        const out = state.dr.answer(answer);
        // The platform now knows the tool: its launches go to the registered URLs.
        if (!out?.raw && !out?.hang && typeof out?.client_id === 'string')
          b.register(body.initiate_login_uri.replace(/\/lti\/login$/, ''));
        return reply(out);
      }
      const course = /^\/course\/([^/]+)$/.exec(u.pathname);
      if (course) {
        // The LMS's course page: the tool in a frame, started by a login initiation (third-party initiated login).
        const login = `${toolUrl}/lti/login?${new URLSearchParams({ iss: url, login_hint: course[1], target_link_uri: `${toolUrl}/lti/launch`, client_id: clientId, lti_deployment_id: deployment })}`;
        return send(
          200,
          `<!doctype html><meta charset="utf-8"><title>LMS</title><h1>Attention 101</h1><iframe id="tool" src="${login.replace(/&/g, '&amp;')}" style="width:1200px;height:900px;border:0"></iframe>`,
          'text/html',
        );
      }
      if (u.pathname === '/admin/register') {
        // The LMS's administrator page: the tool's registration URL in a frame with the LMS's parameters
        // (LTI-DR §3.3); the frame is removed when the tool posts org.imsglobal.lti.close (§3.7).
        const token = randomBytes(16).toString('hex');
        state.dr.tokens.add(token);
        const tool = new URL(u.searchParams.get('url'));
        tool.searchParams.set('openid_configuration', `${url}/.well-known/openid-configuration`);
        tool.searchParams.set('registration_token', token);
        return send(
          200,
          `<!doctype html><meta charset="utf-8"><title>LMS admin</title><h1>Register a tool</h1>` +
            `<iframe id="reg" src="${tool.href.replace(/&/g, '&amp;')}"></iframe><script>window.received = [];` +
            `addEventListener('message', (e) => { received.push({ data: e.data, fromTool: e.source === document.getElementById('reg')?.contentWindow });` +
            ` if (e.data?.subject === 'org.imsglobal.lti.close') document.getElementById('reg').remove(); });</script>`,
          'text/html',
        );
      }
      if (u.pathname === '/auth') {
        // OIDC authentication request (Security Framework §5.1.1.2): the params a tool must send.
        const q = Object.fromEntries(u.searchParams);
        const bad = [
          q.scope !== 'openid' && 'scope',
          q.response_type !== 'id_token' && 'response_type',
          q.response_mode !== 'form_post' && 'response_mode',
          q.prompt !== 'none' && 'prompt',
          q.client_id !== clientId && 'client_id',
          q.redirect_uri !== `${toolUrl}/lti/launch` && 'redirect_uri',
          !q.state && 'state',
          !q.nonce && 'nonce',
        ].filter(Boolean);
        if (bad.length) return send(400, { error: 'invalid_request', bad });
        const launch = pending.get(q.login_hint);
        if (!launch) return send(400, { error: 'login_required' });
        const token = await idToken(launch, q.nonce);
        return send(
          200,
          form(q.redirect_uri, { id_token: token, state: launch.tamper?.state ?? q.state }),
          'text/html',
        );
      }
      if (u.pathname === '/token' && req.method === 'POST') {
        const p = new URLSearchParams(await readBody(req));
        state.tokenRequests++;
        if (p.get('grant_type') !== 'client_credentials') return send(400, { error: 'unsupported_grant_type' });
        if (p.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
          return send(400, { error: 'invalid_client' });
        try {
          const { payload } = await jwtVerify(p.get('client_assertion'), toolJwks, {
            issuer: clientId,
            subject: clientId,
            audience: `${url}/token`,
          });
          if (!payload.jti) throw new Error('no jti');
        } catch (e) {
          return send(401, { error: 'invalid_client', detail: e.message });
        }
        if (!p.get('scope').split(' ').includes('https://purl.imsglobal.org/spec/lti-ags/scope/score'))
          return send(400, { error: 'invalid_scope' });
        const token = randomBytes(16).toString('hex');
        state.tokens.add(token);
        return send(200, { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: p.get('scope') });
      }
      const scores = /^\/lineitems\/([^/]+)\/scores$/.exec(u.pathname);
      if (scores && req.method === 'POST') {
        const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
        if (!auth || !state.tokens.has(auth[1])) return send(401, { error: 'unauthorized' });
        if (req.headers['content-type'] !== 'application/vnd.ims.lis.v1.score+json')
          return send(415, { error: 'content-type' });
        const body = JSON.parse(await readBody(req));
        if (state.failScores > 0) {
          state.failScores--;
          return send(503, { error: 'unavailable' });
        }
        state.scores.push({ lineitem: `${url}/lineitems/${scores[1]}`, body, at: Date.now() });
        return send(204, '');
      }
      if (u.pathname === '/deep-link-return' && req.method === 'POST') {
        const p = new URLSearchParams(await readBody(req));
        const { payload } = await jwtVerify(p.get('JWT'), toolJwks, { issuer: clientId, audience: url });
        if (payload[`${CLAIM}message_type`] !== 'LtiDeepLinkingResponse') return send(400, { error: 'message_type' });
        if (payload[`${CLAIM}deployment_id`] !== deployment) return send(400, { error: 'deployment_id' });
        const items = payload[`${DL}content_items`];
        state.deepLinks.push({ payload, items });
        const made = items.map((item) => {
          const id = `li-${state.lineitems.size + 1}`;
          state.lineitems.set(id, {
            id: `${url}/lineitems/${id}`,
            ...item.lineItem,
            custom: item.custom,
            url: item.url,
          });
          return { ...state.lineitems.get(id) };
        });
        return send(200, `<!doctype html><p id="placed">${made.map((m) => m.id).join(' ')}</p>`, 'text/html');
      }
      send(404, { error: 'not found' });
    } catch (e) {
      send(500, { error: String(e.message) });
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${server.address().port}`;
  const b = {
    url,
    issuer: url,
    clientId,
    deployment,
    state,
    /** The tool's URL (its JWKS is read from <tool>/lti/jwks). */
    register(tool) {
      toolUrl = tool.replace(/\/$/, '');
      toolJwks = createRemoteJWKSet(new URL(`${toolUrl}/lti/jwks`));
    },
    /** The `tools/server platform add` arguments for this platform. */
    registration() {
      return {
        issuer: url,
        client_id: clientId,
        auth_login_url: `${url}/auth`,
        auth_token_url: `${url}/token`,
        jwks_url: `${url}/jwks`,
        deployments: [deployment],
        name: 'Simulated LMS',
      };
    },
    /** What the next login with `hint` launches. */
    prepare(hint, launch) {
      pending.set(hint, launch);
    },
    idToken,
    /**
     * The LMS's side of a dynamic registration: the administrator pasted `registrationUrl`; the LMS opens it
     * with its OpenID configuration's URL and a fresh registration token (LTI-DR §3.3). Returns the tool's answer.
     */
    async dynamicRegister(registrationUrl, { query } = {}) {
      const token = randomBytes(16).toString('hex');
      state.dr.tokens.add(token);
      const u = new URL(registrationUrl);
      const q = query ?? { openid_configuration: `${url}/.well-known/openid-configuration`, registration_token: token };
      for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
      const res = await fetch(u, { redirect: 'manual', headers: { 'accept-language': 'en' } });
      return { status: res.status, check: res.headers.get('x-attnlab-check'), html: await res.text(), token };
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
  return b;
}

/** A browser for Node: a cookie jar per instance, redirects followed by hand, forms parsed. */
export function nodeBrowser({ cookies = true } = {}) {
  const jar = new Map();
  const remember = (res) => {
    if (!cookies) return;
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim(),
        value = pair.slice(i + 1).trim();
      if (attrs.some((a) => /^\s*max-age=0$/i.test(a)) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  };
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const b = {
    jar,
    async request(url, { method = 'GET', form: fields, headers = {}, json } = {}) {
      const h = { ...headers };
      if (jar.size) h.cookie = cookieHeader();
      let body;
      if (fields) {
        h['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(fields).toString();
      } else if (json !== undefined) {
        h['content-type'] = 'application/json';
        body = JSON.stringify(json);
      }
      const res = await fetch(url, { method, headers: h, body, redirect: 'manual' });
      remember(res);
      return res;
    },
    /** The fields and action of the first form of an HTML page. */
    formOf(html) {
      const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
      const fields = {};
      for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
        fields[m[1]] = m[2].replace(/&quot;/g, '"');
      return { action, fields };
    },
    /**
     * A launch: the LMS's login initiation at the tool, the platform's auth answer, the form posted to the
     * tool. Returns { ok, status, check, token, html, res }. `replayForm`: post this form instead (a replay).
     */
    async launch(tool, platform, hint, { mangle = null } = {}) {
      const login = await b.request(
        `${tool}/lti/login?${new URLSearchParams({ iss: platform.issuer, login_hint: hint, target_link_uri: `${tool}/lti/launch`, client_id: platform.clientId, lti_deployment_id: platform.deployment })}`,
      );
      if (login.status !== 302)
        return {
          ok: false,
          status: login.status,
          check: login.headers.get('x-attnlab-check'),
          html: await login.text(),
        };
      const auth = await b.request(login.headers.get('location'));
      const html = await auth.text();
      if (auth.status !== 200) throw new Error(`platform auth answered ${auth.status}: ${html}`);
      const f = b.formOf(html);
      if (mangle) mangle(f.fields);
      return b.post(f.action, f.fields);
    },
    async post(action, fields) {
      const res = await b.request(action, { method: 'POST', form: fields });
      const out = { status: res.status, res, form: { action, fields } };
      if (res.status === 303) {
        const loc = res.headers.get('location');
        return { ...out, ok: true, token: new URLSearchParams(new URL(loc).hash.slice(1)).get('s'), location: loc };
      }
      return { ...out, ok: false, check: res.headers.get('x-attnlab-check'), html: await res.text() };
    },
    /** An API call with the session header. */
    async api(tool, token, path, { method = 'GET', json } = {}) {
      const res = await b.request(`${tool}${path}`, {
        method,
        json,
        headers: token ? { 'x-attnlab-session': token } : {},
      });
      const type = res.headers.get('content-type') ?? '';
      return { status: res.status, body: type.includes('json') ? await res.json() : await res.text() };
    },
  };
  return b;
}
