// One cause, said once, in the right place (issue 35 item 2), on the grader itself:
// - a test that fails because a function the student's code calls failed an earlier test refers to
//   that test (`same_as`), with its cause as data; only along the student's real calls, only where the
//   test found no explanation of its own or names that function's mistake, never for what is wrong with
//   the function itself (it returns nothing) or an error raised on a line of its own (the fixtures softmax-axis-0, mask-upper, mask-diagonal-closed and their py-
//   mirrors show the report end to end);
// - hints per function (grader/core/hints.mjs): both forms of hints.json read, checked when a pack
//   loads, and the CLI's `--hints N` shows those of the function that fails first, never another's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cli } from './cli.mjs';
import { grade } from '../../grader/core/grade.mjs';
import { say } from '../../grader/core/messages.mjs';
import { hintsFor, failingFunction } from '../../grader/core/hints.mjs';
import { packProblems } from '../../grader/core/pack.mjs';
import { loadExercise } from '../../grader/hosts/node/exercise.mjs';
import { NodeSandbox } from '../../grader/hosts/node/sandbox.mjs';
import { TRACKS } from '../../grader/tracks/index.mjs';
import { loadCore } from '../../wasm/index.mjs';

const core = await loadCore();
const sdpa = await loadExercise('sdpa');
const SOLUTION = readFileSync(new URL('../../exercises/sdpa/solution.js', import.meta.url), 'utf8');

/** sdpa's solution.js with each [from, to] replaced (each `from` must be there). */
function variant(...edits) {
  let s = SOLUTION;
  for (const [from, to] of edits) {
    assert.ok(s.includes(from), `solution.js has ${from}`);
    s = s.replace(from, to);
  }
  return s;
}
async function gradeJs(source) {
  const sandbox = await NodeSandbox.create({ track: TRACKS.js });
  try {
    const report = await grade({ exercise: sdpa, source, track: TRACKS.js, sandbox, core, lang: 'en' });
    return Object.fromEntries(report.tests.map((t) => [t.id, t]));
  } finally {
    await sandbox.close();
  }
}

const AXIS_0 = [
  ['np.max(x, { axis: -1, keepdims: true })', 'np.max(x, { axis: 0, keepdims: true })'],
  ['np.sum(e, { axis: -1, keepdims: true })', 'np.sum(e, { axis: 0, keepdims: true })'],
];
const NO_SCALE = ['Math.sqrt(d_k)', '1'];
// attention with softmax written out in its body (right), not calling the student's softmax
const INLINE = [
  'const weights = softmax(scores);',
  `const ex = np.exp(np.subtract(scores, np.max(scores, { axis: -1, keepdims: true })));
  const weights = np.divide(ex, np.sum(ex, { axis: -1, keepdims: true }));`,
];

test('a test whose function calls the student softmax that failed earlier refers to that test, with its cause', async () => {
  const r = await gradeJs(variant(...AXIS_0));
  assert.equal(r.softmax.status, 'fail');
  assert.equal(r.softmax.cause.key, 'd.softmax_axis_front');
  assert.equal(r.softmax.same_as, undefined);
  for (const id of ['lesson_example', 'scaling', 'causality', 'loop_reference', 'batching']) {
    assert.equal(r[id].status, 'fail', id);
    assert.equal(r[id].same_as, 'softmax', `${id}: ${r[id].message}`);
    assert.deepEqual(r[id].cause, r.softmax.cause, id);
    const fn = id === 'causality' ? 'causal_self_attention' : 'attention';
    const refers = say('en', 'cause.callee', { fn, callee: 'softmax', test: 'Softmax over the last axis' });
    assert.ok(r[id].message.endsWith(refers), r[id].message);
  }
});

test('no reference where the failing function does not call the broken one', async () => {
  const r = await gradeJs(variant(...AXIS_0, INLINE, NO_SCALE));
  assert.equal(r.softmax.cause.key, 'd.softmax_axis_front');
  assert.equal(r.lesson_example.status, 'fail');
  assert.equal(r.lesson_example.same_as, undefined, r.lesson_example.message);
  assert.equal(r.lesson_example.cause.key, 'd.no_scaling', r.lesson_example.message);
});

test("a mistake of the function's own is named, not blamed on a callee that failed for another reason", async () => {
  // softmax without the max shift fails only on large scores; attention's own mistake is the missing scale
  const r = await gradeJs(variant(['np.subtract(x, np.max(x, { axis: -1, keepdims: true }))', 'x'], NO_SCALE));
  assert.equal(r.softmax.status, 'fail');
  assert.equal(r.lesson_example.status, 'fail');
  assert.equal(r.lesson_example.cause.key, 'd.no_scaling', r.lesson_example.message);
  assert.equal(r.lesson_example.same_as, undefined, r.lesson_example.message);
  assert.equal(r.scaling.same_as, 'lesson_example', r.scaling.message);
});

test('an error raised on a line of its own is said in full, even when a callee failed earlier', async () => {
  const r = await gradeJs(
    variant(...AXIS_0, ['const weights = softmax(scores);', 'const weights = softmax(scores, oops);']),
  );
  assert.equal(r.lesson_example.status, 'fail');
  assert.equal(r.lesson_example.same_as, undefined, r.lesson_example.message);
  assert.match(r.lesson_example.message, /raised an error at line \d+: ReferenceError/);
});

test('what is wrong with the function itself (it returns nothing) is said as it is, not blamed on its callee', async () => {
  const r = await gradeJs(variant(...AXIS_0, ['return [np.matmul(weights, V), weights];', 'np.matmul(weights, V);']));
  assert.equal(r.lesson_example.status, 'fail');
  assert.equal(r.lesson_example.same_as, undefined, r.lesson_example.message);
  assert.equal(r.lesson_example.cause.key, 'not_implemented', r.lesson_example.message);
});

test('hints per function: the general ones, then those of the function; the old single list still read', () => {
  const perFn = {
    general: { ru: ['формы'], en: ['shapes'], 'en.py': ['shapes (py)'], 'ru.py': ['формы (py)'] },
    functions: { softmax: { ru: ['м1', 'м2'], en: ['s1', 's2'] }, attention: { ru: ['а1'], en: ['a1'] } },
  };
  assert.deepEqual(hintsFor(perFn, { lang: 'en', fn: 'softmax' }), ['shapes', 's1', 's2']);
  assert.deepEqual(hintsFor(perFn, { lang: 'en', variant: 'py', fn: 'attention' }), ['shapes (py)', 'a1']);
  assert.deepEqual(hintsFor(perFn, { lang: 'ru', fn: 'causal_mask' }), ['формы']);
  const old = { ru: ['а', 'б'], en: ['a', 'b'], 'en.py': ['a.py', 'b.py'], 'ru.py': ['а.py', 'б.py'] };
  assert.deepEqual(hintsFor(old, { lang: 'en', variant: 'py', fn: 'softmax' }), ['a.py', 'b.py']);
  const report = {
    tests: [
      { status: 'pass', task_id: 1 },
      { status: 'fail', task_id: 2 },
      { status: 'fail', task_id: 3 },
    ],
  };
  assert.equal(failingFunction(report, sdpa.spec), 'softmax');
  assert.equal(failingFunction({ tests: [{ status: 'pass', task_id: 1 }] }, sdpa.spec), null);
  assert.equal(failingFunction(null, sdpa.spec), null);
});

test('a per-function hints.json is checked when the pack loads: functions known, both languages', () => {
  const problems = (hints) => packProblems({ ...sdpa, hints }, TRACKS).filter((p) => p.includes('hints.json'));
  assert.deepEqual(problems(sdpa.hints), []);
  const bad = JSON.parse(JSON.stringify(sdpa.hints));
  bad.functions.sofmax = bad.functions.softmax;
  bad.functions.attention.en.pop();
  const said = problems(bad).join('\n');
  assert.match(said, /functions\."sofmax" is not in spec\.json "functions"/);
  assert.match(said, /functions\."attention": 2 hints in "ru" but 1 in "en"/);
});

test("the CLI's --hints shows the failing function's hints only (kv_cache: a mask bug never gets repeat_kv's code)", () => {
  const file = 'exercises/kv_cache/fixtures/mask-top-left/submission.js';
  const kv = JSON.parse(readFileSync('exercises/kv_cache/hints.json', 'utf8'));
  const all = cli('grade', file, '--lang', 'en', '--hints', '100');
  assert.equal(all.status, 1, all.stderr);
  const own = kv.functions.attend_with_cache.en;
  for (const h of own) assert.ok(all.stdout.includes(h), `shows: ${h}`);
  assert.match(all.stdout, new RegExp(`Hint 1 of ${own.length} for \`attend_with_cache\`:`));
  for (const h of [...kv.functions.repeat_kv.en, ...kv.functions.kv_cache_bytes.en])
    assert.ok(!all.stdout.includes(h), `never another function's hint: ${h}`);
  assert.doesNotMatch(all.stdout, /np\.stack\(/);
  const one = cli('grade', file, '--lang', 'en', '--hints', '1');
  assert.ok(one.stdout.includes(own[0]) && !one.stdout.includes(own[1]), one.stdout);
  assert.match(one.stdout, /`--hints 2` shows the next one\./);
  const none = cli('grade', file, '--lang', 'ru');
  assert.match(
    none.stdout,
    new RegExp(`Подсказок к \`attend_with_cache\`: ${own.length} \\(\`--hints 1\` покажет первую\\)\\.`),
  );
  const en = cli('grade', file, '--lang', 'en');
  assert.match(
    en.stdout,
    new RegExp(`Hints for \`attend_with_cache\`: ${own.length} \\(\`--hints 1\` shows the first\\)\\.`),
  );
  const json = cli('grade', file, '--format', 'json', '--hints', '2');
  assert.doesNotMatch(json.stdout, /Hint 1 of/);
  JSON.parse(json.stdout);
  const bad = cli('grade', file, '--hints', 'many', '--lang', 'en');
  assert.equal(bad.status, 2);
});
