// Readable code and task (issue 35 item 4): the editor wraps long lines (no horizontal scroll with
// kv_cache's starter, whose lines are longer than the editor is wide), the task table never breaks inside
// a name or a number, the header keeps titles whole (the h1 and the picker) with the backend badge in the
// Scale panel, and on a phone Run, Check and Hint are on screen and clickable from every tab.
// Screenshots: tests/artifacts/readable-<w>x<h>-<lang>-{task,code}.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir, mkdir } from 'node:fs/promises';
import { launch, open, check, setCode } from '../../tools/lib/chromium.mjs';

const root = new URL('../../', import.meta.url);
const artifacts = new URL('tests/artifacts/', root);
const PHONE = [390, 844];
let b, page, slugs;

before(async () => {
  await mkdir(artifacts, { recursive: true });
  slugs = (await readdir(new URL('exercises/', root), { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  b = await launch();
  page = b.page;
});

after(async () => {
  await b?.close();
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the page');
});

const shot = (name) => page.screenshot({ path: new URL(`${name}.png`, artifacts).pathname });

/** A first visit at this size (nothing kept: the Task tab first on a phone). */
async function fresh([width, height], query = '') {
  await page.setViewportSize({ width, height });
  await page.goto(`${b.url}?nosw`);
  await page.evaluate(() => localStorage.clear());
  await open(page, `${b.url}?timeout=300&nosw${query}`);
}

const tabbed = () => page.isVisible('#tab-code');

for (const size of [[1280, 800], PHONE]) {
  test(`${size.join('×')}: the editor wraps kv_cache's long starter lines (no horizontal scroll)`, async () => {
    const starter = await readFile(new URL('exercises/kv_cache/starter.js', root), 'utf8');
    await fresh(size, '&exercise=kv_cache');
    if (await tabbed()) await page.click('#tab-code');
    const m = await page.evaluate(() => {
      const s = document.querySelector('#editor .cm-scroller');
      const line = document.querySelector('#editor .cm-line');
      const ch = document.querySelector('#editor .cm-content').getBoundingClientRect().width;
      // columns that fit: the width of the text area over one character's
      const probe = Object.assign(document.createElement('span'), { textContent: 'x'.repeat(100) });
      line.append(probe);
      const columns = Math.floor(ch / (probe.getBoundingClientRect().width / 100));
      probe.remove();
      return { scrollWidth: s.scrollWidth, clientWidth: s.clientWidth, columns, doc: window.attnlab.editor.value };
    });
    assert.equal(m.doc, starter, 'the kv_cache starter is in the editor');
    const longest = Math.max(...starter.split('\n').map((l) => l.length));
    assert.ok(longest > m.columns, `a starter line (${longest}) longer than the editor's ${m.columns} columns`);
    assert.ok(m.scrollWidth <= m.clientWidth, `the editor scrolls: ${m.scrollWidth} px in ${m.clientWidth}`);
  });
}

/**
 * Where the task table's text breaks between lines: each break that is not beside a space, and the
 * code spans' unbreakable words (markdown.js `.w`) that take more than one line box.
 */
const tableBreaks = () =>
  page.evaluate(() => {
    const bad = [];
    for (const cell of document.querySelectorAll('#task td, #task th, #task p, #task li')) {
      const inTable = !!cell.closest('td, th');
      const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let n; (n = walk.nextNode());) {
        const s = n.data,
          r = document.createRange();
        let top = null;
        for (let i = 0; i < s.length; i++) {
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          const rect = r.getClientRects()[0];
          if (!rect) continue;
          // a break beside a space, or after the hyphen of a compound word in prose ("KV-|голова"), not in code
          const compound =
            /\p{L}-$/u.test(s.slice(i - 2, i)) && /\p{L}/u.test(s[i]) && !n.parentElement.closest('code');
          const inWord = !/\s/.test(s[i - 1] + s[i]) && !compound;
          const inNumber = /\d\s$/.test(s.slice(i - 2, i)) && /\d/.test(s[i]); // "65 | 536"
          if (top !== null && rect.top > top + 2 && ((inTable && inWord) || inNumber))
            bad.push(`${s.slice(Math.max(0, i - 12), i)}|${s.slice(i, i + 12)}`);
          top = rect.top;
        }
      }
    }
    for (const w of document.querySelectorAll('#task td code .w'))
      if ([...w.getClientRects()].filter((r) => r.width > 0).length > 1) bad.push(`code word ${w.textContent}`);
    for (const w of document.querySelectorAll('#task .table-wrap'))
      if (w.scrollWidth > w.clientWidth + 1) bad.push(`a table scrolls: ${w.scrollWidth} px in ${w.clientWidth}`);
    const table = document.querySelector('#task table');
    return {
      bad,
      tables: document.querySelectorAll('#task table').length,
      right: table?.getBoundingClientRect().right,
    };
  });

for (const size of [[1280, 800], [1366, 768], PHONE])
  test(`${size.join('×')}: no task table breaks inside a name or a number (every pack, both languages)`, async () => {
    let tables = 0;
    for (const lang of ['ru', 'en'])
      for (const slug of slugs) {
        await fresh(size, `&exercise=${slug}&lang=${lang}`);
        const r = await tableBreaks();
        tables += r.tables;
        assert.deepEqual(r.bad, [], `${slug} (${lang})`);
        if (r.tables) assert.ok(r.right <= size[0], `${slug} (${lang}): the table ends at ${r.right}`);
      }
    assert.ok(tables >= 2, `${tables} task tables looked at`); // sdpa's in each language at least
  });

/** The header: the title not cut, the picker as wide as its longest title, the badge elsewhere. */
const header = () =>
  page.evaluate(() => {
    const h1 = document.getElementById('title'),
      sel = document.getElementById('exercise');
    const shown = sel.offsetWidth;
    const saved = sel.getAttribute('style');
    sel.style.cssText = 'width: auto; max-width: none; min-width: 0; flex: none';
    const natural = sel.offsetWidth; // Chrome sizes a select to its longest option
    if (saved === null) sel.removeAttribute('style');
    else sel.setAttribute('style', saved);
    const top = document.querySelector('header.top');
    const row =
      top.clientWidth - parseFloat(getComputedStyle(top).paddingLeft) - parseFloat(getComputedStyle(top).paddingRight);
    return {
      title: h1.textContent,
      titleCut: h1.scrollWidth > h1.clientWidth,
      picker: { shown, natural, row, inView: sel.getBoundingClientRect().right <= innerWidth },
      badgeInHeader: top.contains(document.getElementById('backend')),
      badgeInScale: document.getElementById('scale-panel').contains(document.getElementById('backend')),
      headerHeight: top.getBoundingClientRect().height,
    };
  });

for (const size of [[1280, 800], [1366, 768], PHONE])
  test(`${size.join('×')}: the header keeps every title whole; the backend badge is in the Scale panel`, async () => {
    for (const lang of ['ru', 'en'])
      for (const slug of slugs) {
        await fresh(size, `&exercise=${slug}&lang=${lang}`);
        const h = await header();
        const where = `${slug} (${lang}) "${h.title}"`;
        assert.equal(h.titleCut, false, `${where}: the title is cut`);
        // As wide as its longest title, or on a phone (where a native select cannot wrap) the whole row.
        const need = Math.min(h.picker.natural, Math.floor(h.picker.row));
        assert.ok(h.picker.shown >= need, `${where}: picker ${h.picker.shown} px < ${need} px`);
        assert.ok(h.picker.inView, `${where}: the picker runs past the window`);
        assert.equal(h.badgeInHeader, false, 'the badge is not in the header');
        assert.equal(h.badgeInScale, true, 'the badge is in the Scale panel');
        assert.ok(h.headerHeight <= (size[0] < 640 ? 160 : 120), `${where}: header ${h.headerHeight} px tall`);
      }
    await page.click('#scale');
    await page.waitForSelector('#backend[data-backend]', { state: 'visible' });
  });

test('390×844: Run, Check and Hint are on screen and clickable on every tab; "не пройден" on one line', async () => {
  const failing = await readFile(new URL('exercises/sdpa/fixtures/no-scaling/submission.js', root), 'utf8');
  await fresh(PHONE);
  for (const tab of ['task', 'code', 'results']) {
    await page.click(`#tab-${tab}`);
    // the bottom of a long panel: the bar stays under the tabs
    await page.evaluate(() => scrollTo(0, document.scrollingElement.scrollHeight));
    for (const id of ['run', 'check', 'hint']) {
      const r = await page.$eval(`#${id}`, (e) => {
        const b = e.getBoundingClientRect();
        const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
        return { top: b.top, bottom: b.bottom, height: innerHeight, onTop: e.contains(hit) };
      });
      assert.ok(r.top >= 0 && r.bottom <= r.height, `${tab} tab: #${id} at ${r.top}…${r.bottom}`);
      assert.ok(r.onTop, `${tab} tab: #${id} is covered`);
    }
    const tabs = await page.$eval('#tabs', (e) => e.getBoundingClientRect().bottom);
    const bar = await page.$eval('#check', (e) => e.getBoundingClientRect().top);
    assert.ok(bar >= tabs - 1, `${tab} tab: Check under the tabs (${bar} < ${tabs})`);
    if (tab === 'task') await shot('readable-390x844-ru-task-scrolled');
  }
  // Check from the Task tab grades and shows the results.
  await page.click('#tab-task');
  await setCode(page, failing);
  const { passed, total } = await check(page);
  assert.ok(passed < total, `${passed} of ${total}`);
  assert.equal(await page.getAttribute('#tab-results', 'aria-selected'), 'true');
  const st = await page.$$eval('#results .st', (els) =>
    els.map((e) => ({ text: e.textContent, lines: [...e.getClientRects()].filter((r) => r.width > 0).length })),
  );
  assert.ok(
    st.some((s) => s.text === 'не пройден'),
    JSON.stringify(st),
  );
  for (const s of st) assert.equal(s.lines, 1, `"${s.text}" on ${s.lines} lines`);
  // Hint from the Results tab opens the hints.
  await page.click('#hint');
  await page.waitForSelector('#hints-drawer:not([hidden])');
});

test('screenshots at 1280×800 and 390×844, both languages (task and code)', async () => {
  for (const size of [[1280, 800], PHONE])
    for (const lang of ['ru', 'en']) {
      await fresh(size, `&exercise=kv_cache&lang=${lang}`);
      const name = `readable-${size.join('x')}-${lang}`;
      await shot(`${name}-task`);
      if (await tabbed()) await page.click('#tab-code');
      else await page.evaluate(() => document.querySelector('#editor .cm-scroller').scrollTo(0, 400));
      await shot(`${name}-code`);
    }
});
