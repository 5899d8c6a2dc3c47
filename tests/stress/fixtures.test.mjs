// Verdicts that do not depend on the machine's load: every fixture of every pack (on both tracks) graded in
// Node, STRESS_JOBS (default 4) at a time, on a busy machine (`tools/test` runs it beside the Node suites and
// then two CPU hogs, `tools/test --stress` beside two hogs). Each case's Exercism results.json must
// equal its committed expected_results.json (the snapshot UPDATE_FIXTURES=1 node --test
// tests/js/fixtures.test.mjs writes on a quiet machine), and its report must meet its aim (aimProblems,
// the check the Node and page fixture suites apply): the same statuses and the same messages, however
// busy the machine is. This is where the full tools/test grades every pack's fixture in Node; its
// tests/js/fixtures.test.mjs grades one case per set and track (ATTNLAB_FIXTURE_SAMPLE=1). The sandbox's
// attacks are graded beside it through the CLI, against the same snapshots (attacks.test.mjs). Here each
// case's sandbox is a copy of its track's fork server (grader/hosts/node/zygote.mjs), as grade-batch's
// and the service's are; the CLI and tests/js/fixtures.test.mjs start theirs from nothing.
// Run: tools/test --stress (the hogs included), or node --test tests/stress/ alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { grade } from '../../grader/core/grade.mjs';
import { exercism } from '../../grader/reporters/index.mjs';
import { loadExercise } from '../../grader/hosts/node/exercise.mjs';
import { NodeSandbox } from '../../grader/hosts/node/sandbox.mjs';
import { loadCore } from '../../wasm/index.mjs';
import { fixtureSets, fixtureCases, aimProblems } from '../fixtures/cases.mjs';

// With the attacks' ATTACK_JOBS (2) and two hogs or two Node suites beside them: about 8 processes wanting
// the 2 cores, each graded call billed CPU time against a wall backstop of 10× its limit.
const JOBS = Number(process.env.STRESS_JOBS) || 4;
const core = await loadCore();

const cases = [];
for (const set of fixtureSets().filter((s) => s.name !== 'sandbox')) {
  // the sandbox set: attacks.test.mjs
  const exercise = await loadExercise(set.exercise);
  for (const c of fixtureCases(set).cases) cases.push({ ...c, id: `${set.name}/${c.name}`, exercise });
}

const LANG = 'en';

/** Grades one case → its Exercism results text and what its aim says of the report. */
async function results({ name, aim, exercise, track, source }) {
  const sandbox = await NodeSandbox.create({ track, forked: true });
  try {
    const report = await grade({ exercise, source: source(), track, sandbox, core, lang: LANG });
    const problems = aimProblems(name, aim, report, {
      lang: LANG,
      cpuSeconds: sandbox.clock === 'cpu' ? report.time_ms / 1000 : undefined,
      messages: exercise.messages,
      track,
    });
    return { text: exercism(report) + '\n', problems };
  } finally {
    await sandbox.close();
  }
}

/** Every case graded, JOBS at a time → Map id → results text (or the grader's own error). */
async function gradeAll() {
  const out = new Map();
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      try {
        out.set(c.id, await results(c));
      } catch (e) {
        out.set(c.id, { text: `grader error: ${e.stack}`, problems: [] });
      }
    }
  };
  await Promise.all(Array.from({ length: JOBS }, worker));
  return out;
}

const graded = gradeAll();

for (const c of cases) {
  test(`${c.id}: the same report graded ${JOBS} at a time on a busy machine`, async () => {
    const got = (await graded).get(c.id);
    assert.equal(
      got.text,
      readFileSync(c.expectedFile, 'utf8'),
      `${c.id}: results differ from expected_results.json under load`,
    );
    assert.deepEqual(got.problems, [], `${c.id}: the report misses its aim (aims.json)`);
  });
}
