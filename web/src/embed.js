// Embed mode's side of the postMessage API (web/README.md, "Embedding"). Messages go only to the
// parent window at the origin named by `&parent-origin=`, and only that window at that origin is
// listened to; anything else, or anything malformed, is ignored without an answer.
//   to the parent:   attnlab:ready {exercise, track} · attnlab:checked {exercise, track, passed, total,
//                    score, tests: [{id, name, status}]} · attnlab:resize {height} · attnlab:code {code}
//   from the parent: attnlab:check · attnlab:set-code {code} · attnlab:get-code
export const MAX_CODE = 200_000; // characters a set-code may carry (a solution is a few thousand)

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
