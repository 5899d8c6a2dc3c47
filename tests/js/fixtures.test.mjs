// Fixture submissions of every set (tests/fixtures/cases.mjs: each pack's exercises/<slug>/fixtures/
// and the sandbox's tests/fixtures/sandbox/), Exercism style:
// 1. each case's Exercism results.json must equal its committed expected_results.json; a missing
//    snapshot is a failure. UPDATE_FIXTURES=1 writes them and prints each change as a diff, for review
//    before committing; ATTNLAB_FIXTURE_DIFFS=DIR writes each change into DIR as <set>/<case>.diff too
//    (tools/check-pack); ATTNLAB_FIXTURE_SETS=a,b grades only those sets (tests/fixtures/cases.mjs);
// 2. aims.json states, independently of those snapshots, what each case must show (aimProblems in
//    tests/fixtures/cases.mjs, the same check the page's fixture suite applies).
// 3. the report's data (causeProblems): every test not passed carries its cause, the data renders back
//    to the report's texts, and the same case graded in Russian and rendered in English
//    (reporters renderReport) gives the very results.json of the snapshot.
// ATTNLAB_FIXTURE_SAMPLE=1 grades one case per set and track: the first that names a mistake (a name not
// starting with "pass"), else the first. tools/test sets it, in --quick and in the full run, whose stress
// phase (tests/stress/fixtures.test.mjs) grades every case against the same snapshot and aim.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grade } from '../../grader/core/grade.mjs';
import { exercism, renderReport } from '../../grader/reporters/index.mjs';
import { loadExercise } from '../../grader/hosts/node/exercise.mjs';
import { NodeSandbox } from '../../grader/hosts/node/sandbox.mjs';
import { loadCore } from '../../wasm/index.mjs';
import { fixtureSets, fixtureCases, aimProblems, causeProblems } from '../fixtures/cases.mjs';

const LANG = 'en';
const UPDATE = Boolean(process.env.UPDATE_FIXTURES);
const SAMPLE = Boolean(process.env.ATTNLAB_FIXTURE_SAMPLE);
const DIFFS = process.env.ATTNLAB_FIXTURE_DIFFS;
const core = await loadCore();
const scratch = mkdtempSync(join(tmpdir(), 'attnlab-fixtures-'));

/** What changed from the committed snapshot to `results`: a unified diff, the whole new snapshot, or '' when none. */
function snapshotChange(name, file, results) {
  if (!existsSync(file)) return `${name}: new snapshot\n${results}`;
  const fresh = join(scratch, `${name.replace('/', '_')}.json`);
  writeFileSync(fresh, results);
  return spawnSync('diff', ['-u', '--label', `${name} (committed)`, '--label', `${name} (new)`, file, fresh], {
    encoding: 'utf8',
  }).stdout;
}

/** One case per track: the first naming a mistake, else the first. */
function sampleCases(cases) {
  const byTrack = new Map();
  for (const c of cases) {
    const had = byTrack.get(c.track.name);
    if (!had || (had.name.startsWith('pass') && !c.name.startsWith('pass'))) byTrack.set(c.track.name, c);
  }
  return [...byTrack.values()];
}

// Everything is read before any test is registered (see tests/browser/fixtures.test.mjs).
const sets = await Promise.all(
  fixtureSets().map(async (set) => ({ set, ...fixtureCases(set), exercise: await loadExercise(set.exercise) })),
);
for (const { set, aims, cases, exercise } of sets) {
  test(`${set.name}: every fixture folder has an aim and every aim a folder`, () => {
    assert.deepEqual(
      Object.keys(aims).sort(),
      cases.map((c) => c.name),
    );
  });
  const picked = SAMPLE ? sampleCases(cases) : cases;
  for (const { name, aim, track, expectedFile: file, source: read } of picked) {
    test(`fixture ${set.name}/${name}`, async () => {
      const source = read();
      const graded = async (lang) => {
        const sandbox = await NodeSandbox.create({ track });
        try {
          return { report: await grade({ exercise, source, track, sandbox, core, lang }), clock: sandbox.clock };
        } finally {
          await sandbox.close();
        }
      };
      const { report, clock } = await graded(LANG);

      const results = exercism(report) + '\n';
      const change = snapshotChange(`${set.name}/${name}`, file, results);
      // ATTNLAB_FIXTURE_DIFFS=DIR: each change also as DIR/<set>/<case>.diff (tools/check-pack shows them)
      if (change && DIFFS) {
        mkdirSync(join(DIFFS, set.name), { recursive: true });
        writeFileSync(join(DIFFS, set.name, `${name}.diff`), change);
      }
      if (UPDATE && change) {
        console.log(change);
        writeFileSync(file, results);
      }
      assert.ok(
        existsSync(file),
        `${name}: no expected_results.json; run UPDATE_FIXTURES=1 node --test tests/js/fixtures.test.mjs and review it`,
      );
      assert.equal(results, readFileSync(file, 'utf8'), `${name}: results.json differs from expected_results.json`);
      assert.deepEqual(
        aimProblems(name, aim, report, {
          lang: LANG,
          cpuSeconds: clock === 'cpu' ? report.time_ms / 1000 : undefined,
          messages: exercise.messages,
          track,
        }),
        [],
      );
      assert.deepEqual(causeProblems(name, report, { exercise, track }), []);
      // Graded in Russian, rendered in English: the same results.json.
      const ru = (await graded('ru')).report;
      assert.deepEqual(causeProblems(name, ru, { exercise, track }), []);
      assert.equal(
        exercism(renderReport(ru, { lang: LANG, exercise, track })) + '\n',
        results,
        `${name}: graded in Russian and rendered in English, the results differ`,
      );
    });
  }
}
