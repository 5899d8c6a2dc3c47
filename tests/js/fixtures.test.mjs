// Fixture submissions (tests/fixtures/<exercise>/<case>/submission.js), Exercism style:
// 1. each case's Exercism results.json must equal its committed expected_results.json (the diff is
//    printed); regenerate with UPDATE_FIXTURES=1 and review the diff before committing;
// 2. aims.json states, independently of those snapshots, what each case must show: its status and,
//    for a classic mistake, the tests that must fail and the diagnosis their message must carry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { grade } from '../../grader/core/grade.mjs';
import { say } from '../../grader/core/messages.mjs';
import { exercism } from '../../grader/reporters/index.mjs';
import { loadExercise } from '../../grader/node/exercise.mjs';
import { NodeSandbox } from '../../grader/node/sandbox.mjs';
import { loadCore } from '../../wasm/index.mjs';
import { fixtureCases } from '../fixtures/cases.mjs';

const LANG = 'en';
const { aims, cases } = fixtureCases('sdpa');
const exercise = loadExercise('sdpa');
const core = await loadCore();

test('every fixture folder has an aim and every aim a folder', () => {
  assert.deepEqual(Object.keys(aims).sort(), cases.map((c) => c.name));
});

for (const { name, aim, expectedFile: file, source: read } of cases) {
  test(`fixture ${name}`, async () => {
    const source = read();
    const sandbox = await NodeSandbox.create();
    let report;
    const started = performance.now();
    try { report = await grade({ exercise, source, sandbox, core, lang: LANG }); } finally { await sandbox.close(); }
    const seconds = (performance.now() - started) / 1000;

    const results = exercism(report) + '\n';
    if (process.env.UPDATE_FIXTURES || !existsSync(file)) writeFileSync(file, results);
    assert.equal(results, readFileSync(file, 'utf8'), `${name}: results.json differs from expected_results.json`);

    assert.equal(report.status, aim.status, `${name}: status`);
    for (const id of aim.fails || []) {
      const t = report.tests.find((x) => x.id === id);
      assert.equal(t.status, 'fail', `${name}: test ${id} must fail`);
      if (aim.diagnosis) assert.ok(t.message.includes(say(LANG, aim.diagnosis)), `${name}: ${id} must say "${say(LANG, aim.diagnosis)}", said: ${t.message}`);
      for (const s of aim.mentions || []) assert.ok(t.message.includes(s), `${name}: ${id} must mention "${s}", said: ${t.message}`);
    }
    if (aim.passes) for (const id of aim.passes) assert.equal(report.tests.find((x) => x.id === id).status, 'pass', `${name}: ${id} must pass`);
    if (aim.max_seconds) assert.ok(seconds < aim.max_seconds, `${name}: took ${seconds.toFixed(1)} s, limit ${aim.max_seconds} s`);
  });
}
