// <attnlab-exercise>: one exercise of attnlab inside any page, in two lines of HTML.
//
//   <script type="module" src="https://example.org/attnlab/embed.js"></script>
//   <attnlab-exercise exercise="SLUG" track="python" lang="en"></attnlab-exercise>   (SLUG: a pack, `node grader/cli.mjs list`)
//
// Attributes: exercise (a pack's slug), track (js | python), lang (ru | en), theme (light | dark | auto:
// the course page's look, default auto: the reader's system), solution (after-pass | always | never: when the
// reference solution is offered, default the pack's; web/README.md), src (the folder of the attnlab page; by
// default the one this script came from). The element frames the page in embed mode
// (web/README.md, "Embedding") with this page's origin as its parent, keeps the frame as tall as the
// exercise, and re-dispatches the page's messages as DOM events on itself:
//   attnlab-ready   (detail {type, exercise, track})
//   attnlab-checked (detail {type, exercise, track, passed, total, score, tests: [{id, name, status}]})
// Methods: check(), setCode(code), getCode() → Promise<string>.
// A frame that stays silent SILENT_MS after it loaded (the server unreachable, the URL a 404, embed mode
// refused there) is hidden and a short message takes its place, in the element's language (its `lang`,
// else the course page's), with a link that opens the exercise in a tab of its own; should the frame
// speak later after all, it comes back.
// Served from another origin than the page, this module needs `Access-Control-Allow-Origin` (web/server.mjs sends `*`).
const EVENTS = { 'attnlab:ready': 'attnlab-ready', 'attnlab:checked': 'attnlab-checked' };
const MAX_HEIGHT = 100_000;
const SILENT_MS = 10_000;
// The fallback's texts (this module is served alone, so they live here, not in web/src/i18n.js).
const FALLBACK = {
  ru: { text: 'Упражнение не удалось загрузить.', link: 'Открыть его в новой вкладке' },
  en: { text: 'The exercise could not be loaded.', link: 'Open it in a new tab' },
};

class AttnlabExercise extends HTMLElement {
  static observedAttributes = ['exercise', 'track', 'lang', 'theme', 'solution', 'src'];
  #frame = null;
  #origin = null;
  #codeWaiters = [];
  #ready = false;
  #queue = []; // messages asked for before the page listens (until attnlab:ready)
  #silence = null; // the timer started when the frame loads, stopped by its first message
  #fallback = null;
  #heard = false; // a message came from the frame since it was made

  connectedCallback() {
    this.style.display ||= 'block';
    addEventListener('message', this.#onMessage);
    this.#load();
  }

  disconnectedCallback() {
    removeEventListener('message', this.#onMessage);
    clearTimeout(this.#silence);
    for (const w of this.#codeWaiters.splice(0)) w.reject(new Error('attnlab-exercise: removed from the page'));
  }

  attributeChangedCallback() {
    if (this.#frame) this.#load();
  }

  /** The URL of the exercise's frame: the page in embed mode, with this page as its parent. */
  get frameUrl() {
    const base = new URL(
      this.getAttribute('src') ?? './',
      this.getAttribute('src') ? document.baseURI : import.meta.url,
    );
    if (!base.pathname.endsWith('/') && !base.pathname.endsWith('.html')) base.pathname += '/';
    const url = new URL(base);
    const q = new URLSearchParams({ embed: '1' });
    for (const a of ['exercise', 'track', 'lang', 'theme', 'solution'])
      if (this.getAttribute(a)) q.set(a, this.getAttribute(a));
    q.set('parent-origin', location.origin);
    url.search = q.toString();
    return url;
  }

  #load() {
    const url = this.frameUrl;
    this.#origin = url.origin;
    const frame = document.createElement('iframe');
    frame.src = url.href;
    frame.title = `attnlab: ${this.getAttribute('exercise') ?? ''}`.trim();
    frame.allow = 'cross-origin-isolated'; // in an isolated page the exercise may run its threaded build
    frame.loading = 'lazy'; // a lesson with many exercises loads each as the reader comes near it
    Object.assign(frame.style, { display: 'block', width: '100%', height: '40rem', border: '0' });
    frame.addEventListener('load', () => {
      clearTimeout(this.#silence);
      if (!this.#heard) this.#silence = setTimeout(() => this.#showFallback(), SILENT_MS);
    });
    this.#frame?.remove();
    clearTimeout(this.#silence);
    this.#frame = frame;
    this.#ready = false;
    this.#heard = false;
    this.#fallback = null;
    this.replaceChildren(frame);
  }

  /** The exercise could not be reached: a plain message with a link to the page itself, in place of the frame. */
  #showFallback() {
    if (this.#heard || this.#fallback) return;
    // the element's lang, else the course page's (the nearest lang attribute), else the browser's
    const lang = /^ru\b/i.test(this.closest('[lang]')?.getAttribute('lang') || navigator.language || '') ? 'ru' : 'en';
    const t = FALLBACK[lang];
    const url = this.frameUrl;
    for (const k of ['embed', 'parent-origin']) url.searchParams.delete(k);
    const box = document.createElement('p');
    box.className = 'attnlab-fallback';
    box.setAttribute('role', 'status');
    box.lang = lang;
    Object.assign(box.style, {
      margin: '0',
      padding: '0.75rem 1rem',
      border: '1px solid currentColor',
      borderRadius: '0.5rem',
      font: 'inherit',
      color: 'inherit',
    });
    const a = document.createElement('a');
    a.href = url.href;
    a.target = '_blank';
    a.rel = 'noopener';
    a.textContent = t.link;
    box.append(`${t.text} `, a);
    this.#fallback = box;
    this.#frame.hidden = true;
    this.#frame.style.display = 'none';
    this.prepend(box);
  }

  #onMessage = (e) => {
    if (!this.#frame || e.source !== this.#frame.contentWindow || e.origin !== this.#origin) return;
    const m = e.data;
    if (!m || typeof m !== 'object' || typeof m.type !== 'string') return;
    if (!this.#heard) {
      // The frame speaks: it was reached (a fallback shown while it was slow gives way to it).
      this.#heard = true;
      clearTimeout(this.#silence);
      this.#fallback?.remove();
      this.#fallback = null;
      this.#frame.hidden = false;
      this.#frame.style.display = 'block';
    }
    if (m.type === 'attnlab:resize' && Number.isFinite(m.height) && m.height > 0) {
      this.#frame.style.height = `${Math.min(Math.ceil(m.height), MAX_HEIGHT)}px`;
    } else if (m.type === 'attnlab:code' && typeof m.code === 'string') {
      this.#codeWaiters.shift()?.resolve(m.code);
    } else if (EVENTS[m.type]) {
      if (m.type === 'attnlab:ready') {
        this.#ready = true;
        for (const q of this.#queue.splice(0)) this.#send(q);
      }
      this.dispatchEvent(new CustomEvent(EVENTS[m.type], { detail: m, bubbles: true }));
    }
  };

  #send(msg) {
    if (!this.#frame?.contentWindow) throw new Error('attnlab-exercise: not on the page yet');
    if (this.#ready) this.#frame.contentWindow.postMessage(msg, this.#origin);
    else this.#queue.push(msg);
  }

  // Each of these waits for attnlab-ready if asked earlier.
  /** Checks the editor's code; the result comes as an attnlab-checked event. */
  check() {
    this.#send({ type: 'attnlab:check' });
  }

  /** Replaces the editor's code (kept as the student's). */
  setCode(code) {
    this.#send({ type: 'attnlab:set-code', code: String(code) });
  }

  /** → Promise of the editor's code. */
  getCode() {
    return new Promise((resolve, reject) => {
      this.#codeWaiters.push({ resolve, reject });
      this.#send({ type: 'attnlab:get-code' });
    });
  }
}

if (!customElements.get('attnlab-exercise')) customElements.define('attnlab-exercise', AttnlabExercise);
