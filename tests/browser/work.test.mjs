// The work count in the page (grader/tracks/work.mjs): the same submissions as tests/js/work.test.mjs
// give the same verdicts, the same results.json and the same `work` in the page's Web Worker as in
// the Node sandbox. JavaScript: a correct loop solution, and an endless causal_mask stopped by the count
// (1000 ms and 2000 ms of budget in units), never by the page's wall clock. Python the same: the solution,
// a loop solution, and an endless causal_mask (4000 ms and 8000 ms of budget), one of them catching every
// stop with `except BaseException`, in the page's Python worker that already graded other requests as in
// a fresh Node child.
// Run: node --test tests/browser/work.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, check, setCode } from '../../tools/lib/chromium.mjs';
import { grade } from '../../grader/core/grade.mjs';
import { exercism } from '../../grader/reporters/index.mjs';
import { loadExercise } from '../../grader/hosts/node/exercise.mjs';
import { NodeSandbox } from '../../grader/hosts/node/sandbox.mjs';
import { trackNamed } from '../../grader/tracks/index.mjs';
import { loadCore } from '../../wasm/index.mjs';
import { WORK_SOURCES, PY_WORK_SOURCES } from '../fixtures/work.mjs';

const core = await loadCore();
const exercise = await loadExercise('sdpa');
let b;
before(async () => {
  b = await launch();
});
after(async () => {
  await b?.close();
});

async function inNode(source, track) {
  const sandbox = await NodeSandbox.create({ track });
  try {
    return await grade({ exercise, source, track, sandbox, core, lang: 'en' });
  } finally {
    await sandbox.close();
  }
}

async function inPage(source, track) {
  await open(b.page, `${b.url}?lang=en&exercise=sdpa&track=${track.name}`);
  await b.page.waitForFunction((tr) => document.documentElement.dataset.track === tr, track.name);
  await setCode(b.page, source);
  await check(b.page);
  return b.page.evaluate(() => window.attnlab.state.report);
}

const CASES = [
  ['js', 'a correct loop solution', WORK_SOURCES.sdpaLoops, 'pass'],
  ['js', 'an endless causal_mask, stopped by the count', WORK_SOURCES.sdpaEndless, 'fail'],
  ['python', 'the solution', PY_WORK_SOURCES.solution, 'pass'],
  ['python', 'a correct loop solution', PY_WORK_SOURCES.sdpaLoops, 'pass'],
  ['python', 'an endless causal_mask, stopped by the count', PY_WORK_SOURCES.sdpaEndless, 'fail'],
  ['python', 'an endless causal_mask catching every stop, stopped by the count', PY_WORK_SOURCES.sdpaCaught, 'fail'],
];
for (const [name, what, source, status] of CASES) {
  test(`${name}: ${what}: the same verdicts, results.json and work in the page as in Node`, async () => {
    const track = trackNamed(name);
    const node = await inNode(source, track);
    const page = await inPage(source, track);
    assert.equal(node.status, status);
    assert.equal(page.status, status);
    assert.deepEqual(
      page.tests.map((t) => [t.status, t.message]),
      node.tests.map((t) => [t.status, t.message]),
    );
    assert.equal(exercism(page), exercism(node));
    assert.ok(Number.isSafeInteger(node.work) && node.work > 0, `work ${node.work}`);
    assert.equal(page.work, node.work, 'the same units in both hosts');
    if (status === 'fail') {
      const [first, second] = name === 'js' ? [1000, 2000] : [4000, 8000];
      assert.match(
        node.tests.find((t) => t.status === 'fail').message,
        new RegExp(`ran for ${first} ms without finishing, and again for ${second} ms`),
      );
      assert.ok(node.work >= (first + second) * track.workPerMs, 'stopped by the count');
    }
  });
}
