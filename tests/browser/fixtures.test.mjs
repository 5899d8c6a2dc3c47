// The page grades exactly like the CLI: every fixture submission of every set (tests/fixtures/cases.mjs:
// each pack's exercises/<slug>/fixtures/ and tests/fixtures/sandbox/), checked in the browser (Web Worker
// sandbox, WASM core in the page, ?exercise=<slug>), must give the same Exercism results.json
// as the committed expected_results.json that the Node grader produces (tests/js/fixtures.test.mjs),
// and keep the same aims and the same causes as data (tests/fixtures/cases.mjs). One kind of case differs by
// design, as its aim says (`page: 'crash'`): a V8 fatal error takes the tab down in Chromium;
// tests/browser/network.test.mjs checks that the page then keeps the code and says what happened. (A JS
// heap piled up with plain arrays is stopped as `memory` in the page too: its worker counts them,
// grader/hosts/browser/worker-core.js; sandbox/heap-bomb is the case.)
// Run: node --test tests/browser/
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { exercism } from '../../grader/reporters/index.mjs';
import { launch, open, check, setCode } from '../../tools/lib/chromium.mjs';
import { fixtureSets, fixtureCases, aimProblems, causeProblems } from '../fixtures/cases.mjs';
import { loadExercise } from '../../grader/hosts/node/exercise.mjs';

const LANG = 'en';

// expected_results.json are in English, with the default time limits. A case's track (its file's
// extension) opens the page with ?track=, and the page is ready once that track's sandbox is warm.
const where = (exercise, track) => `?lang=${LANG}&exercise=${exercise}&track=${track}`;
const openOn = async (b, exercise, track) => {
  await open(b.page, `${b.url}${where(exercise, track)}`);
  await b.page.waitForFunction((tr) => document.documentElement.dataset.track === tr, track);
  Object.assign(b, { exercise, track });
};
const opened = async (exercise, track) => {
  const b = await launch();
  await openOn(b, exercise, track);
  return b;
};
let shared = null;
const browser = async (exercise, track) => {
  if (shared && !shared.page.isClosed() && (shared.exercise !== exercise || shared.track !== track))
    await openOn(shared, exercise, track);
  if (!shared || shared.page.isClosed()) {
    await shared?.close();
    shared = await opened(exercise, track);
  } // a tab that crashed is replaced
  return shared;
};
after(() => shared?.close());

// Everything is read before any test is registered: a top-level await between registrations would let
// the runner start (and end, closing the shared browser) before the later sets are known.
const sets = await Promise.all(
  fixtureSets().map(async (set) => ({
    set,
    ...fixtureCases(set),
    exercise: await loadExercise(set.exercise),
  })),
);
for (const { set, cases, exercise } of sets) {
  const { messages } = exercise;
  for (const { name, aim, source, expectedFile, track } of cases) {
    const skip = aim.page === 'crash' && 'takes the tab down: see network.test.mjs';
    test(`fixture ${set.name}/${name} grades in the browser as in Node`, { skip }, async () => {
      const b = await browser(set.exercise, track.name);
      await setCode(b.page, source());
      await check(b.page);
      const report = await b.page.evaluate(() => window.attnlab.state.report);
      assert.equal(exercism(report) + '\n', readFileSync(expectedFile, 'utf8'));
      assert.deepEqual(aimProblems(name, aim, report, { lang: LANG, messages, track }), []);
      assert.deepEqual(causeProblems(name, report, { exercise, track }), []);
      assert.equal(await b.page.textContent('#summary'), `${report.passed}/${report.total}`);
    });
  }
}
