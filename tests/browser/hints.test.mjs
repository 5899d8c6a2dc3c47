// Hints per function in the page (issue 35 item 2; grader/core/hints.mjs): the Hint button shows the
// hints of the function that fails first in the last Check (before one, the first function), headed by
// its name, from a nudge to nearly the answer, and never another function's; the list starts again
// when another function fails first. The expected lists are computed here in Node, from the pack's
// hints.json and the fixture's expected_results.json (the Node grader's report): the page and the CLI
// agree. Both languages and both tracks (kv_cache's mask bug, in JavaScript and in Python).
// Run: node --test tests/browser/hints.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launch, open, check, setCode } from '../../tools/lib/chromium.mjs';
import { hintsFor, failingFunction } from '../../grader/core/hints.mjs';
import { STRINGS } from '../../web/src/i18n.js';

const root = new URL('../../', import.meta.url);
const read = (p) => readFile(new URL(p, root), 'utf8');
const json = async (p) => JSON.parse(await read(p));

let b, page;
before(async () => {
  b = await launch();
  page = b.page;
});
after(async () => {
  await b?.close();
  assert.deepEqual(b?.errors.map(String) ?? [], [], 'uncaught errors in the page');
});

/** Presses Hint until the page says there are no more: → { heading, hints: [text of each] }. */
async function allHints() {
  const n = await page.evaluate(() => window.attnlab.hints().list.length);
  for (let i = 0; i <= n; i++) await page.click('#hint');
  const shown = await page.$$eval('#hints .hint', (els) => els.map((e) => e.textContent));
  const heading = await page.$eval('#hints', (el) => el.querySelector('.hints-for')?.textContent ?? null);
  const note = await page.$eval('#hints', (el) => el.lastElementChild.textContent);
  await page.click('#hints-close');
  return { heading, shown, note };
}

/** The text of a hint as the page shows it: Markdown's backticks gone. */
const plain = (md) => md.replace(/`/g, '');

for (const [lang, track, fixture] of [
  ['en', 'js', 'mask-top-left'],
  ['ru', 'python', 'py-mask-top-left'],
]) {
  test(`kv_cache, ${lang}, ${track}: a mask bug gets attend_with_cache's hints only, never repeat_kv's code`, async () => {
    const [hints, spec, expected] = await Promise.all([
      json('exercises/kv_cache/hints.json'),
      json('exercises/kv_cache/spec.json'),
      json(`exercises/kv_cache/fixtures/${fixture}/expected_results.json`),
    ]);
    const variant = track === 'python' ? 'py' : null;
    const code = await read(`exercises/kv_cache/fixtures/${fixture}/submission.${track === 'python' ? 'py' : 'js'}`);
    await open(page, `${b.url}?lang=${lang}&exercise=kv_cache&track=${track}`);
    // before a Check: the first function's
    const fresh = await page.evaluate(() => window.attnlab.hints());
    assert.deepEqual(fresh, { fn: 'kv_cache_bytes', list: hintsFor(hints, { lang, variant, fn: 'kv_cache_bytes' }) });

    await setCode(page, code);
    await check(page);
    // the Node grader's report says which function fails first; the page follows it
    const fn = failingFunction(expected, spec);
    assert.equal(fn, 'attend_with_cache');
    const want = hintsFor(hints, { lang, variant, fn });
    assert.equal(want.length, hints.functions.attend_with_cache[variant ? `${lang}.py` : lang].length);
    const { heading, shown, note } = await allHints();
    assert.equal(heading, STRINGS[lang].hintsFor(fn));
    assert.equal(shown.length, want.length);
    for (const [i, h] of want.entries()) {
      assert.ok(shown[i].startsWith(STRINGS[lang].hintN(i + 1, want.length)), shown[i]);
      assert.ok(shown[i].includes(plain(h).slice(0, 60)), `hint ${i + 1}: ${shown[i]}`);
    }
    assert.equal(note, STRINGS[lang].hintsDone(want.length));
    const others = ['repeat_kv', 'kv_cache_bytes'].flatMap((f) =>
      hintsFor({ functions: hints.functions }, { lang, variant, fn: f }),
    );
    for (const h of others)
      assert.ok(!shown.some((s) => s.includes(plain(h).slice(0, 60))), `another function's hint: ${h}`);
    assert.ok(!shown.some((s) => /np\.(stack|repeat)\(/.test(s)), "repeat_kv's code");
  });
}

test('sdpa: the hints follow the function that fails first, and start again from the nudge when it changes', async () => {
  const [hints, spec] = await Promise.all([json('exercises/sdpa/hints.json'), json('exercises/sdpa/spec.json')]);
  await open(page, `${b.url}?lang=en&exercise=sdpa&track=js`);
  await setCode(page, await read('exercises/sdpa/fixtures/mask-upper/submission.js'));
  await check(page);
  assert.equal((await page.evaluate(() => window.attnlab.hints())).fn, 'causal_mask');
  await page.click('#hint');
  await page.click('#hint');
  assert.equal(await page.locator('#hints .hint').count(), 2);
  await page.click('#hints-close');

  const expected = await json('exercises/sdpa/fixtures/softmax-axis-0/expected_results.json');
  assert.equal(failingFunction(expected, spec), 'softmax');
  await setCode(page, await read('exercises/sdpa/fixtures/softmax-axis-0/submission.js'));
  await check(page);
  await page.click('#hint');
  assert.equal(await page.locator('#hints .hint').count(), 1, 'another function: from its first hint again');
  await page.click('#hints-close');
  const { heading, shown } = await allHints();
  const want = hintsFor(hints, { lang: 'en', fn: 'softmax' });
  assert.equal(heading, STRINGS.en.hintsFor('softmax'));
  assert.deepEqual(
    shown.map((s) => s.replace(/^Hint \d+ of \d+/, '').slice(0, 40)),
    want.map((h) => plain(h).slice(0, 40)),
  );
  for (const h of hints.functions.attention.en) assert.ok(!shown.some((s) => s.includes(plain(h).slice(0, 60))));
});
