// The page in each language, on both tracks: on ?lang=en no Cyrillic in the visible text or in the
// attributes a reader meets (title, aria-label, placeholder, alt, SVG titles) outside the student's own
// code (the editor) — fresh, after Run of a failing file, after Check, with a hint open; on the Russian
// page no English prose there: a run of three or more English words outside <code>, <pre>, <kbd> and
// the editor, product names (WebGPU, JavaScript, Python, NumPy…) aside. Text marked with another
// `lang` (the language switch's "English" / "Русский") is that language's by design.
// Run: node --test tests/browser/language.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { launch, open, check, run, setCode } from '../../tools/lib/chromium.mjs';

const artifacts = new URL('../artifacts/', import.meta.url);
let b, page;

before(async () => {
  await mkdir(artifacts, { recursive: true });
  b = await launch();
  page = b.page;
});

after(async () => {
  await b?.close();
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the page');
});

// A file that fails on Run: np refuses a shape clash in matmul at the top level (its explanation is the grader's).
const FAILING = {
  js: 'function causal_mask(T) {\n  return np.tril(np.ones([T, T], { dtype: "bool" }));\n}\nconst a = np.ones([2, 3]);\nprint(np.matmul(a, a));\n',
  python:
    'import numpy as np\n\ndef causal_mask(T):\n    return np.tril(np.ones((T, T), dtype=bool))\n\na = np.ones((2, 3))\nprint(a @ a)\n',
};

/** What the page shows in a language other than `lang`: [{ where, text }] (Cyrillic on en, English prose on ru). */
const foreign = (lang) =>
  page.evaluate((lang) => {
    const PRODUCTS =
      /\b(?:WebGPU|WebAssembly|WASM|SIMD|JavaScript|Python|MicroPython|NumPy|SwiftShader|Chromium|Ctrl|Shift|Enter|Escape|Tab|T|d_k)\b/g;
    const wrong =
      lang === 'en'
        ? (s) => /[\u0400-\u04FF]/.test(s)
        : (s) =>
            /[A-Za-z]{2,}[a-z'’]*(?:[ ,]+[A-Za-z]{2,}[a-z'’]*){2,}/.test(
              s.replace(PRODUCTS, ' ').replace(/\S*[_.(=[\]/\\]\S*/g, ' '),
            );
    const outside = (el) =>
      !el.closest('#editor, code, pre, kbd') && (el.closest('[lang]')?.getAttribute('lang') ?? lang) === lang;
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !outside(el) || !n.textContent.trim()) continue;
      const svgTitle = el.closest('svg') && el.tagName.toLowerCase() === 'title';
      if (!svgTitle && !el.checkVisibility({ visibilityProperty: true })) continue;
      if (wrong(n.textContent))
        found.push({
          where: `${el.tagName.toLowerCase()}#${el.id || el.closest('[id]')?.id}`,
          text: n.textContent.trim().slice(0, 160),
        });
    }
    for (const el of document.body.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
      if (!outside(el) || !el.checkVisibility({ visibilityProperty: true })) continue;
      for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
        const v = el.getAttribute(a);
        if (v && wrong(v))
          found.push({
            where: `${el.tagName.toLowerCase()}#${el.id || el.closest('[id]')?.id}[${a}]`,
            text: v.slice(0, 160),
          });
      }
    }
    return found;
  }, lang);

for (const lang of ['en', 'ru']) {
  for (const track of ['js', 'python']) {
    test(`?lang=${lang}, ${track}: nothing in the other language outside the student's code (fresh, Run of a failing file, Check, a hint)`, async () => {
      await open(page, `${b.url}?lang=${lang}&exercise=sdpa&track=${track}`);
      await page.waitForFunction((t) => document.documentElement.dataset.track === t, track);
      const seen = {};
      seen.fresh = await foreign(lang);
      await setCode(page, FAILING[track]);
      const out = await run(page);
      assert.match(out, /matmul/, 'Run shows the error');
      seen.run = await foreign(lang);
      await check(page);
      seen.check = await foreign(lang);
      await page.click('#hint');
      seen.hint = await foreign(lang);
      await page.screenshot({ path: new URL(`language-${lang}-${track}.png`, artifacts).pathname, fullPage: true });
      assert.deepEqual(seen, { fresh: [], run: [], check: [], hint: [] });
    });
  }
}
