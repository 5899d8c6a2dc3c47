// How well sdpa's feedback names mistakes, counted on its fixture set (exercises/sdpa/fixtures/):
// - every one-bug fixture (aim status "fail") fails the tests its aim names;
// - a cause is named for at least 90% of them: every failing aimed test carries a cause sentence
//   (one of the pack's `d.*` diagnoses, or the grader's explanation of an error), or refers to the
//   test that said it first; a "check this step" sentence does not count;
// - no message states a cause that is not the bug (each aim's `never` list), at any of three seeds;
// - every correct variant (aim status "pass") passes at three seeds.
// Counted per track (the JavaScript cases and their Python twins `py-*`, each against the same
// criteria), with one table each (per fixture: caught, named, misleading): the closing note's "after" column.
// Run: node --test tests/js/diagnosis.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { grade } from '../../grader/core/grade.mjs';
import { SENTENCES, say } from '../../grader/core/messages.mjs';
import { loadExercise } from '../../grader/hosts/node/exercise.mjs';
import { NodeSandbox } from '../../grader/hosts/node/sandbox.mjs';
import { TRACKS } from '../../grader/tracks/index.mjs';
import { loadCore } from '../../wasm/index.mjs';
import { fixtureSets, fixtureCases, sentenceMark } from '../fixtures/cases.mjs';

const LANG = 'en';
const SEEDS = [2017, 1, 2];
const NAMED_AT_LEAST = 0.9;
const core = await loadCore();
const set = fixtureSets().find((s) => s.name === 'sdpa');
const exercise = await loadExercise(set.exercise);
const { cases } = fixtureCases(set);

// Every sentence that names a cause: the pack's diagnoses, the grader's explanations of errors and
// of a result that is not [out, weights] (each in every track's spelling), and the references to an earlier test that said one.
const CAUSES = [
  ...Object.entries(exercise.messages[LANG])
    .filter(([k]) => k.startsWith('d.'))
    .map(([, v]) => v),
  ...[SENTENCES[LANG], ...Object.values(TRACKS).map((t) => t.messages?.[LANG] ?? {})].flatMap((table) =>
    Object.entries(table)
      .filter(([k]) => k.startsWith('explain.') || k === 'not_tuple' || k === 'not_tuple.py')
      .map(([, v]) => v),
  ),
  say(LANG, 'cause.same', {}),
  say(LANG, 'error.same', {}),
  say(LANG, 'cause.callee', {}), // the function the test calls calls one that an earlier test explained
].map(sentenceMark);
const namesCause = (message) => CAUSES.some((c) => message.includes(c));

async function gradeAt({ source, track }, seed) {
  const sandbox = await NodeSandbox.create({ track });
  try {
    return await grade({ exercise, source: source(), track, sandbox, core, lang: LANG, seed });
  } finally {
    await sandbox.close();
  }
}

const mistakes = cases.filter((c) => c.aim.status === 'fail' && c.aim.fails?.length && !c.aim.submission); // (not the starter)
const correct = cases.filter((c) => c.aim.status === 'pass');

for (const track of [...new Set(mistakes.map((c) => c.track.name))]) {
  test(`sdpa feedback (${track}): every mistake caught, causes named for ≥ ${NAMED_AT_LEAST * 100}%, nothing misleading (seeds ${SEEDS.join(', ')})`, async (t) => {
    const rows = [];
    for (const c of mistakes.filter((m) => m.track.name === track)) {
      const row = { name: c.name, caught: true, named: true, misleading: [] };
      for (const seed of SEEDS) {
        const report = await gradeAt(c, seed);
        const aimed = c.aim.fails.map((id) => report.tests.find((x) => x.id === id));
        if (!aimed.every((x) => x?.status === 'fail')) row.caught = false;
        if (!aimed.every((x) => x && namesCause(x.message || ''))) row.named = false;
        const said = [report.message, ...report.tests.map((x) => x.message)].filter(Boolean).join('\n');
        for (const w of c.aim.never ?? []) if (said.includes(w) && !row.misleading.includes(w)) row.misleading.push(w);
      }
      rows.push(row);
    }
    const count = (f) => rows.filter(f).length;
    t.diagnostic(`${'fixture'.padEnd(26)} caught named misleading`);
    for (const r of rows)
      t.diagnostic(
        `${r.name.padEnd(26)} ${(r.caught ? 'yes' : 'NO').padEnd(6)} ${(r.named ? 'yes' : 'no').padEnd(5)} ${r.misleading.join('; ') || '-'}`,
      );
    const named = count((r) => r.named) / rows.length;
    t.diagnostic(
      `${track} mistakes ${rows.length}: caught ${count((r) => r.caught)}, cause named ${count((r) => r.named)} (${(100 * named).toFixed(0)}%), misleading ${count((r) => r.misleading.length)}`,
    );
    assert.deepEqual(
      rows.filter((r) => !r.caught).map((r) => r.name),
      [],
      'mistakes not caught by their aimed tests',
    );
    assert.deepEqual(
      rows.filter((r) => r.misleading.length).map((r) => `${r.name}: ${r.misleading.join('; ')}`),
      [],
      'messages that state a wrong cause',
    );
    assert.ok(
      named >= NAMED_AT_LEAST,
      `causes named for ${(100 * named).toFixed(0)}% of the mistakes, want ≥ ${NAMED_AT_LEAST * 100}%: not named for ${rows
        .filter((r) => !r.named)
        .map((r) => r.name)
        .join(', ')}`,
    );
  });
}

test(`sdpa: every correct variant passes at seeds ${SEEDS.join(', ')}`, async () => {
  const failing = [];
  for (const c of correct)
    for (const seed of SEEDS) {
      const report = await gradeAt(c, seed);
      if (report.status !== 'pass')
        failing.push(
          `${c.name} at seed ${seed}: ${report.tests
            .filter((x) => x.status !== 'pass')
            .map((x) => `${x.id}: ${x.message}`)
            .join(' | ')}`,
        );
    }
  assert.deepEqual(failing, []);
});
