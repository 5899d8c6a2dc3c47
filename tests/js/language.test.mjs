// The second language in the packs: a starter's English twin (starter.en.js/.py, shown on ?lang=en,
// the same code as the starter), and labels given per language (the heatmap's tokens).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readPack, listExercises, packProblems, starterIn, labelsIn, TRACKS } from '../../grader/index.mjs';

const CYRILLIC = /[\u0400-\u04FF]/;

test('an English starter is the starter with its comments in English: no Cyrillic, the same names declared', async () => {
  let twins = 0;
  for (const slug of listExercises()) {
    const pack = await readPack(slug);
    for (const name of pack.tracks) {
      const { starter, starterEn } = pack.files[name];
      if (starterEn === null) continue;
      twins++;
      assert.doesNotMatch(starterEn, CYRILLIC, `${slug} ${name}`);
      const names = (src) => TRACKS[name].prepareSource(src).names;
      assert.deepEqual(names(starterEn), names(starter), `${slug} ${name}: the twin declares other names`);
      assert.equal(starterIn(pack.files, name, 'en'), starterEn);
      assert.equal(starterIn(pack.files, name, 'ru'), starter);
    }
  }
  assert.ok(twins >= 2, 'sdpa has an English starter on both tracks');
});

test('without a twin the starter is shown in both languages; an empty twin is a pack error', async () => {
  const pack = await readPack('sdpa');
  const files = { ...pack.files, js: { ...pack.files.js, starterEn: null } };
  assert.equal(starterIn(files, 'js', 'en'), pack.files.js.starter);
  const empty = { ...pack, files: { ...pack.files, js: { ...pack.files.js, starterEn: '  \n' } } };
  assert.deepEqual(packProblems(empty), [
    'exercises/sdpa/starter.en.js is empty (delete it, or write the English starter)',
  ]);
});

test('heatmap tokens: a list for every language, or one list per language of the same length', async () => {
  const pack = await readPack('mha');
  const tokens = pack.spec.panels.heatmap.tokens;
  assert.doesNotMatch(labelsIn(tokens, 'en').join(' '), CYRILLIC);
  assert.match(labelsIn(tokens, 'ru').join(' '), CYRILLIC);
  assert.deepEqual(labelsIn(['a', 'b'], 'en'), ['a', 'b']);
  const withTokens = (t) =>
    packProblems({ ...pack, spec: { ...pack.spec, panels: { heatmap: { ...pack.spec.panels.heatmap, tokens: t } } } });
  assert.deepEqual(withTokens(['a', 'b', 'c']), []);
  for (const bad of [{ ru: ['a', 'b'], en: ['a'] }, { ru: ['a'] }, { ru: ['a'], en: ['b'], de: ['c'] }, 'abc']) {
    assert.equal(withTokens(bad).length, 1, JSON.stringify(bad));
    assert.match(withTokens(bad)[0], /panels\.heatmap.*tokens.*must be a list of strings, or \{ "ru"/);
  }
});
