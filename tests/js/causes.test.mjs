// Causes as data (grader/types.d.ts): what a report says is kept as Sentences ({ key, params }) beside
// its text, so that it is counted by key and rendered in any language.
// - sentence(): params are plain JSON, capped (student text only ever as a capped string), and a
//   Sentence put into a string fails loudly instead of reading "[object Object]"; render() in each
//   language, a track's spelling, lists of sentences;
// - a student's error whose message is a diagnosis' very sentence is counted as the error it is, not as
//   that diagnosis (the batch counted causes by matching text before);
// - Gradescope's results.json carries the causes in its extra_data, Exercism's keeps to its spec's fields;
// - grade-batch counts the same causes in a Russian and an English run of the same class.
// (Every fixture's causes, and each graded in Russian and rendered in English, are checked in
// fixtures.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './cli.mjs';
import { casesFor, writeClass } from '../fixtures/class.mjs';
import { sentence, render, SENTENCES } from '../../grader/core/messages.mjs';
import { grade } from '../../grader/core/grade.mjs';
import { exercism, gradescope, renderReport } from '../../grader/reporters/index.mjs';
import { diagnosesOf } from '../../grader/batch/summary.mjs';
import { loadExercise } from '../../grader/hosts/node/exercise.mjs';
import { NodeSandbox } from '../../grader/hosts/node/sandbox.mjs';
import { TRACKS } from '../../grader/tracks/index.mjs';
import { catalog } from '../../grader/tracks/catalog.mjs';
import { LIMITS } from '../../grader/limits.mjs';
import { loadCore } from '../../wasm/index.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'attnlab-causes-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));

test('sentence(): params are plain JSON, capped; nested sentences, lists and { ru, en } texts kept as data', () => {
  const long = 'x'.repeat(3 * LIMITS.message);
  const s = sentence('error', {
    fn: 'attention',
    message: long,
    where: sentence('error.where', { line: 3 }),
    nan: NaN,
    inf: -Infinity,
    obj: { toString: () => 'forged' },
    fun: () => 1,
    big: 10n,
    name: { ru: 'Батч', en: 'Batching', de: 'x' },
  });
  assert.equal(s.key, 'error');
  assert.ok(s.params.message.length <= LIMITS.message);
  assert.deepEqual(s.params.where, { key: 'error.where', params: { line: 3 } });
  assert.equal(s.params.nan, 'NaN');
  assert.equal(s.params.inf, '-Infinity');
  assert.equal(typeof s.params.obj, 'string');
  assert.equal(typeof s.params.fun, 'string');
  assert.equal(s.params.big, '10');
  // { ru, en } with another key is not a text in every language: it becomes a string
  assert.equal(typeof s.params.name, 'string');
  assert.deepEqual(JSON.parse(JSON.stringify(s)), { key: s.key, params: s.params }, 'plain JSON');
  // Nesting is bounded: deeper sentences become strings.
  let deep = sentence('label.part', { what: 'a', name: 'b' });
  for (let i = 0; i < 10; i++) deep = sentence('label.part', { what: deep, name: 'b' });
  let depth = 0;
  for (let p = deep; p && typeof p === 'object'; p = p.params.what) depth++;
  assert.ok(depth <= 5, `nested ${depth} deep`);
  // Sixteen params at most.
  const many = sentence('label.part', Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, i])));
  assert.equal(Object.keys(many.params).length, 16);
  // A key is a message key, never text.
  assert.throws(() => sentence('Looks like the mask…'), /not a message key/);
  assert.throws(() => sentence(''), /not a message key/);
  // Used as text, a sentence says so instead of reading "[object Object]".
  assert.throws(() => `${sentence('missing', { fn: 'f' })}`, /used as text/);
});

test('render(): each language, a track spelling, a list of sentences each ended, { ru, en } texts', () => {
  const s = sentence('cause.same', { test: { ru: 'Батч', en: 'Batching' } });
  assert.equal(render('en', s), 'The same cause as in the test “Batching”.');
  assert.equal(render('ru', s), 'Причина та же, что и в тесте «Батч».');
  const tuple = sentence('not_tuple', {
    fn: 'attention',
    names: 'out, weights',
    kind: { ru: 'число', en: 'a number' },
  });
  assert.equal(render('en', tuple), '`attention` must return [out, weights]; it returned a number.');
  assert.equal(
    render('en', tuple, { track: TRACKS.python }),
    '`attention` must return (out, weights); it returned a number.',
  );
  assert.equal(
    render('en', tuple, { track: TRACKS.js }),
    '`attention` must return [out, weights]; it returned a number.',
  );
  // A track's own sentences (grader/tracks/<name>/messages.mjs) are found on that track, from its description alone.
  const op = sentence('explain.operator', { op: '/', fix: 'np.divide(a, b)' });
  const js = catalog.trackNamed('js');
  assert.equal(render('en', op, { track: js }), 'JavaScript’s `/` does not work on arrays: use `np.divide(a, b)`.');
  assert.equal(
    render('ru', op, { track: js }),
    'Оператор JavaScript `/` не работает с массивами: используйте `np.divide(a, b)`.',
  );
  assert.equal(
    render('en', [sentence('missing', { fn: 'f' }), sentence('error', { fn: 'g', message: 'boom', where: '' })]),
    '`f` is not defined in your code. `g` raised an error: boom.',
  );
  // Every key the grader itself says exists in both languages, and so does every key of a track's own.
  assert.deepEqual(Object.keys(SENTENCES.ru).sort(), Object.keys(SENTENCES.en).sort());
  for (const t of Object.values(catalog.TRACKS))
    assert.deepEqual(Object.keys(t.messages?.ru ?? {}).sort(), Object.keys(t.messages?.en ?? {}).sort(), t.name);
});

test("a student's error that reads as a diagnosis is counted as the error it is", async () => {
  const exercise = await loadExercise('sdpa');
  const forged = exercise.messages.en['d.mask_inverted'];
  const source = ['causal_mask', 'softmax', 'attention', 'causal_self_attention']
    .map((fn) => `function ${fn}() { throw new Error(${JSON.stringify(forged)}); }`)
    .join('\n');
  const sandbox = await NodeSandbox.create({ track: TRACKS.js });
  let report;
  try {
    report = await grade({ exercise, source, track: TRACKS.js, sandbox, core: await loadCore(), lang: 'en' });
  } finally {
    await sandbox.close();
  }
  const failed = report.tests.filter((t) => t.status !== 'pass');
  assert.ok(failed.length > 0);
  for (const t of failed) {
    if (!t.same_as) assert.ok(t.message.includes(forged), `${t.id}: the message quotes the error: ${t.message}`);
    assert.equal(t.cause.key, 'error', `${t.id}: ${JSON.stringify(t.cause)}`);
  }
  assert.deepEqual(diagnosesOf(report).keys, ['error']);
  // A later test that meets the same error refers to the first, with the same cause.
  const again = failed.find((t) => t.same_as);
  assert.ok(again, 'an error met again is said by reference');
  assert.deepEqual(again.cause, report.tests.find((t) => t.id === again.same_as).cause);
  assert.match(again.message, /the same error/);

  // Gradescope stores the causes in extra_data; Exercism's results keep to the fields its spec lists.
  const gs = JSON.parse(gradescope(report));
  assert.deepEqual(
    gs.extra_data.causes,
    failed.map((t) => ({ test: t.id, ...t.cause, ...(t.same_as && { same_as: t.same_as }) })),
  );
  const ex = JSON.parse(exercism(report));
  const allowed = new Set(['name', 'status', 'test_code', 'task_id', 'message', 'output']);
  for (const t of ex.tests) for (const k of Object.keys(t)) assert.ok(allowed.has(k), `Exercism test field ${k}`);
  // Rendered in Russian from the same data: the error's words stay the student's, the rest is Russian.
  const ru = renderReport(report, { lang: 'ru', exercise, track: TRACKS.js });
  assert.equal(ru.lang, 'ru');
  assert.match(ru.tests[0].message, /^В `causal_mask` возникла ошибка/);
  assert.equal(ru.tests[0].name, exercise.spec.tests[0].name.ru);
});

test('grade-batch: a class graded in Russian and in English counts the same causes', () => {
  const names = [
    'mask-added',
    'k-v-from-wq',
    'error-syntax',
    'dot-batch',
    'no-scaling',
    'softmax-no-max',
    'starter',
    'py-no-scaling',
    'py-mask-inverted',
    'py-swapped-return',
    'sandbox-cheat-globals',
  ];
  const cases = casesFor('sdpa');
  const input = join(tmp, 'class');
  writeClass(input, cases, names);
  const run = (lang) => {
    const out = join(tmp, lang);
    const r = cli(
      'grade-batch',
      input,
      '--exercise',
      'sdpa',
      '--out',
      out,
      '--lang',
      lang,
      '--jobs',
      '2',
      '--timeout-ms',
      '10000',
    );
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
  };
  const [ru, en] = [run('ru'), run('en')];
  const counted = (summary) =>
    summary.students.map((s) => ({
      student: s.student,
      diagnoses: s.diagnoses,
      tests: s.test_diagnoses,
      said: s.said_in,
    }));
  assert.deepEqual(counted(ru), counted(en));
  // Not trivially equal: the aims' diagnoses are among the keys counted, in both runs.
  const keys = new Set(en.students.flatMap((s) => s.diagnoses));
  for (const name of names) {
    const aim = cases.get(name).aim;
    if (aim.diagnosis)
      assert.ok(
        [aim.diagnosis].flat().some((k) => keys.has(k)),
        `${name}: ${aim.diagnosis} not among ${[...keys].join(' ')}`,
      );
  }
  assert.ok([...keys].some((k) => k.startsWith('d.')));
  // The text summaries name the same most common causes.
  const common = (lang) =>
    readFileSync(join(tmp, lang, 'summary.csv'), 'utf8')
      .split('\r\n')
      .map((l) => l.split(',').at(-1));
  assert.deepEqual(common('ru'), common('en'));
});
