// When the page offers a pack's reference solution (web/src/solution.js; issue 35 item 3): the pack's
// spec.json "solution" (checked when the pack loads), the course's ?solution= over it, a bad value named
// and capped; per track after a pass; the English twin on the English page where a pack has one.
// The page itself (hidden before a pass, shown after, the files fetched only then): tests/browser/solution.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readPack, packProblems, SOLUTION_WHEN } from '../../grader/index.mjs';
import { solutionSetting, solutionOffered, solutionFile } from '../../web/src/solution.js';

test('spec.json "solution": one of after-pass, always, never, else the pack is refused naming the field', async () => {
  assert.deepEqual(SOLUTION_WHEN, ['after-pass', 'always', 'never']);
  const pack = await readPack('sdpa');
  assert.deepEqual(packProblems(pack), []);
  for (const when of SOLUTION_WHEN)
    assert.deepEqual(packProblems({ ...pack, spec: { ...pack.spec, solution: when } }), []);
  for (const bad of ['sometimes', true, 1, null, ['always']])
    assert.deepEqual(packProblems({ ...pack, spec: { ...pack.spec, solution: bad } }), [
      'exercises/sdpa/spec.json: "solution" must be one of "after-pass", "always", "never"',
    ]);
});

test('the setting: the course’s ?solution= over the pack’s, the pack’s over after-pass; a bad value named, capped', () => {
  const spec = (solution) => (solution === undefined ? { slug: 'x' } : { slug: 'x', solution });
  assert.deepEqual(solutionSetting(spec(), null), { when: 'after-pass', bad: null });
  assert.deepEqual(solutionSetting(spec('never'), null), { when: 'never', bad: null });
  assert.deepEqual(solutionSetting(spec('never'), 'always'), { when: 'always', bad: null });
  assert.deepEqual(solutionSetting(spec('always'), 'never'), { when: 'never', bad: null });
  assert.deepEqual(solutionSetting(spec(), 'after-pass'), { when: 'after-pass', bad: null });
  assert.deepEqual(solutionSetting(spec('always'), 'sometimes'), { when: 'always', bad: 'sometimes' });
  assert.deepEqual(solutionSetting(spec('always'), ''), { when: 'always', bad: '' });
  assert.equal(solutionSetting(spec(), 'x'.repeat(5000)).bad.length, 40);
  // A spec the pack check would refuse never reaches the page; were it to, the default holds.
  assert.deepEqual(solutionSetting(spec('sometimes'), null), { when: 'after-pass', bad: null });
});

test('offered: always; after a pass on this track; never', () => {
  assert.deepEqual(
    SOLUTION_WHEN.map((w) => [w, solutionOffered(w, false), solutionOffered(w, true)]),
    [
      ['after-pass', false, true],
      ['always', true, true],
      ['never', false, false],
    ],
  );
});

test('the file: the track’s, its English twin on the English page where the pack has one', () => {
  const solutions = {
    js: { file: 'solutions/p/solution.js', en: 'solutions/p/solution.en.js' },
    python: { file: 'solutions/p/solution.py', en: null },
  };
  assert.equal(solutionFile(solutions, 'js', 'ru'), 'solutions/p/solution.js');
  assert.equal(solutionFile(solutions, 'js', 'en'), 'solutions/p/solution.en.js');
  assert.equal(solutionFile(solutions, 'python', 'en'), 'solutions/p/solution.py');
  assert.equal(solutionFile(solutions, 'toy', 'ru'), null);
  assert.equal(solutionFile(undefined, 'js', 'ru'), null);
});
