// Embed mode's side of the postMessage API (web/README.md, "Embedding"). Messages go only to the
// parent window at the origin named by `&parent-origin=`, and only that window at that origin is
// listened to; anything else, or anything malformed, is ignored without an answer.
//   to the parent:   attnlab:ready {exercise, track} · attnlab:checked {exercise, track, passed, total,
//                    score, tests: [{id, name, status}]} · attnlab:resize {height} · attnlab:code {code}
//   from the parent: attnlab:check · attnlab:set-code {code} · attnlab:get-code
import { EMBED_ANCESTORS_FILE, originAllowed } from '../csp.mjs';

export const MAX_CODE = 200_000; // characters a set-code may carry (a solution is a few thousand)

/**
 * Whether the page may run in embed mode for `parentOrigin` (mode.js: the URL's parent-origin, null when
 * missing or bad). The host's list of course origins (EMBED_ANCESTORS_FILE beside the page, written by
 * web/server.mjs from --embed-ancestors) must allow it, and where the browser says who the parent really
 * is (location.ancestorOrigins, Chromium and Safari) it must be that origin. → null when allowed, else
 * { key, origin?, real? }: why, a key of the page's `embedRefused` strings.
 */
export async function embedRefusal(
  parentOrigin,
  {
    url = new URL(EMBED_ANCESTORS_FILE, location.href),
    ancestors = location.ancestorOrigins,
    self = location.origin,
  } = {},
) {
  if (!parentOrigin) return { key: 'noParent' };
  const real = ancestors?.length ? ancestors[0] : null;
  if (real && real !== 'null' && real !== parentOrigin) return { key: 'notParent', origin: parentOrigin, real };
  let list;
  try {
    const r = await fetch(url, { cache: 'no-store' });
    if (!r.ok) return { key: 'off' }; // a host that publishes no list
    list = (await r.json())?.ancestors;
  } catch {
    return { key: 'noList' };
  }
  if (!Array.isArray(list) || !list.length) return { key: 'off' };
  return originAllowed(parentOrigin, list, self) ? null : { key: 'notListed', origin: parentOrigin };
}

/**
 * page: { exercise, track (getter), getCode(), setCode(text), check(), busy(), ready (a promise) }.
 * `parent`: the window to talk to (window.parent; not this window itself).
 */
export function connectEmbed(page, parentOrigin, parent = window.parent) {
  if (!parentOrigin || parent === window) return;
  const send = (msg) => parent.postMessage(msg, parentOrigin);

  addEventListener('message', (e) => {
    if (e.origin !== parentOrigin || e.source !== parent) return;
    const m = e.data;
    if (!m || typeof m !== 'object' || Array.isArray(m) || typeof m.type !== 'string') return;
    if (m.type === 'attnlab:check') checkWhenIdle();
    else if (m.type === 'attnlab:get-code') send({ type: 'attnlab:code', code: page.getCode() });
    else if (m.type === 'attnlab:set-code' && typeof m.code === 'string' && m.code.length <= MAX_CODE)
      page.setCode(m.code);
  });

  // A Check asked for while another action runs (Run, Scale, a Check) starts once it is over.
  async function checkWhenIdle() {
    while (page.busy()) await new Promise((r) => setTimeout(r, 100));
    page.check();
  }

  addEventListener('attnlab:checked', ({ detail: d }) =>
    send({
      type: 'attnlab:checked',
      exercise: page.exercise,
      track: page.track,
      passed: d.passed,
      total: d.total,
      score: d.total ? d.passed / d.total : 0,
      tests: d.tests.map(({ id, name, status }) => ({ id, name, status })),
    }),
  );

  // Sized to its content: the parent sets the frame's height from these.
  let height = 0;
  new ResizeObserver(() => {
    const h = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (h !== height) send({ type: 'attnlab:resize', height: (height = h) });
  }).observe(document.documentElement);

  page.ready.then(() => send({ type: 'attnlab:ready', exercise: page.exercise, track: page.track }));
}
