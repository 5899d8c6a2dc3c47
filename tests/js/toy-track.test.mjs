// A track is one folder (grader/tracks/README.md, "Adding a track"): in a copy of the tree, a toy third
// track (tests/fixtures/toy-track/: Toy JS, `.tjs`, JavaScript without loops) is added as
// grader/tracks/toy/ and nothing else but the pack content in its language (exercises/sdpa/starter.tjs
// and solution.tjs: a pack offers a track when it has both), and the CLI grades in it: the solution 7/7,
// a fixture's mistake with the very report the JavaScript track gives (its expected_results.json,
// reviewed when it was written), a loop refused with its line and explained in the track's own sentence
// (`toy.no_loops`, its messages.mjs: rendered in English and Russian, and rendered again from the report's
// data in the other language); its help words (--track's choices, its extension, its limits) are in
// `--help` from its description; its worker's guest is its own worker.js (the page builds it into the
// host's worker shell). The page: tests/browser/toy-track.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliIn } from './cli.mjs';
import { copyWithToyTrack, TOY_CHANGES } from '../fixtures/toy-copy.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const fixture = (name, file) => join(ROOT, 'exercises', 'sdpa', 'fixtures', name, file);
let copy;

before(() => {
  copy = copyWithToyTrack();
});
after(() => copy?.remove());

test('adding the track changed nothing outside its folder (and the pack content in its language)', () => {
  assert.deepEqual(copy.changed, TOY_CHANGES);
});

test('the copy lists the track after the others, with its worker CSP from its realm', () => {
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const g = await import('./grader/index.mjs'); const c = await import('./web/csp.mjs'); " +
        "console.log(JSON.stringify({ names: g.TRACK_NAMES, offered: (await g.readPack('sdpa')).tracks, csp: c.securityHeaders('/' + g.workerFile('toy'))['content-security-policy'] }))",
    ],
    { cwd: copy.dir, encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    names: ['js', 'python', 'toy'],
    offered: ['js', 'python', 'toy'],
    csp: "default-src 'none'; script-src 'unsafe-eval'",
  });
});

test("the toy track's own sentence is in its folder and nowhere else outside the tests", () => {
  const r = spawnSync('git', ['grep', '-l', '--untracked', 'toy.no_loops', '--', '.', ':!tests'], {
    cwd: copy.dir,
    encoding: 'utf8',
  });
  assert.deepEqual(r.stdout.split('\n').filter(Boolean).sort(), [
    'grader/tracks/toy/index.mjs',
    'grader/tracks/toy/messages.mjs',
  ]);
});

test('--help names the track from its description: --track, its extension, its label, its limits', () => {
  const en = cliIn(copy.dir, '--help', '--lang', 'en');
  assert.equal(en.status, 0, en.stderr);
  assert.match(en.stdout, /grade <submission\.js\|\.py\|\.tjs> /);
  assert.match(en.stdout, /\[--track js\|python\|toy\]/);
  assert.match(
    en.stdout,
    /^ {2}--track js\|python\|toy\n {25}the submission's language; default: from the extension \(\.py: python, \.tjs: toy, else js\)$/m,
  );
  assert.match(en.stdout, /\(JavaScript, Python or Toy JS submissions\)/);
  assert.match(en.stdout, /11000 on JavaScript, 14000 on Python, 11000 on Toy JS/);
  const ru = cliIn(copy.dir, '--help');
  assert.match(ru.stdout, /\(\.py — python, \.tjs — toy, иначе js\)/);
  assert.match(ru.stdout, /\(JavaScript, Python или Toy JS\)/);
  // and a usage error lists it among the choices
  const bad = cliIn(
    copy.dir,
    'grade',
    join(copy.dir, 'exercises', 'sdpa', 'solution.tjs'),
    '--track',
    'tyo',
    '--lang',
    'en',
  );
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /toy/);
});

test('the CLI grades the pack solution in Toy JS: 7/7', () => {
  const r = cliIn(copy.dir, 'grade', join(copy.dir, 'exercises', 'sdpa', 'solution.tjs'), '--format', 'json');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.status, 'pass');
  assert.deepEqual(
    report.tests.map((t) => t.status),
    Array(7).fill('pass'),
  );
});

test("a mistake in Toy JS gets the JavaScript track's report for it (no-scaling: the scaling tests fail)", () => {
  const file = join(copy.dir, 'no-scaling.tjs');
  cpSync(fixture('no-scaling', 'submission.js'), file);
  const r = cliIn(copy.dir, 'grade', file, '--exercise', 'sdpa', '--format', 'json', '--lang', 'en');
  assert.equal(r.status, 1, r.stdout + r.stderr);
  const expected = JSON.parse(readFileSync(fixture('no-scaling', 'expected_results.json'), 'utf8'));
  assert.deepEqual(JSON.parse(r.stdout), expected);
});

const NO_LOOPS = {
  en: 'Toy JS has no loops (`while` is one): compute over whole arrays with np, such as `np.sum(x, { axis: -1 })` instead of a loop that adds.',
  ru: 'В Toy JS нет циклов (`while` — цикл): считайте над целыми массивами через np, например `np.sum(x, { axis: -1 })` вместо цикла, который складывает.',
};

test("a loop is refused by the track on the trusted side, with its line, explained in the track's own sentence, and no test runs", () => {
  const file = join(copy.dir, 'loops.tjs');
  cpSync(fixture('pass-loops', 'submission.js'), file);
  const reports = {};
  for (const lang of ['en', 'ru']) {
    const r = cliIn(copy.dir, 'grade', file, '--exercise', 'sdpa', '--format', 'json', '--lang', lang);
    const report = (reports[lang] = JSON.parse(r.stdout));
    assert.equal(report.status, 'error', r.stdout + r.stderr);
    assert.match(report.message, /Toy JS has no loops: `while` is not allowed/);
    assert.match(report.message, /(line|строке) 10\b/);
    assert.ok(report.tests.every((t) => t.status === 'error'));
    // The track's sentence, rendered (never its raw key).
    assert.ok(report.message.endsWith(NO_LOOPS[lang]), `${lang}: ${report.message}`);
    assert.doesNotMatch(report.message, /toy\.no_loops/);
  }
  // The text report says it too.
  const text = cliIn(copy.dir, 'grade', file, '--exercise', 'sdpa', '--lang', 'en');
  assert.ok(text.stdout.includes(NO_LOOPS.en), text.stdout);
  // The report keeps it as data (its key and params), and renders again in the other language from that
  // data with the track's description (the catalog's: what grade-batch's report and a service have at hand).
  const again = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const g = await import('./grader/index.mjs'); const exercise = await g.loadExercise('sdpa'); " +
        "const source = (await import('node:fs')).readFileSync('loops.tjs', 'utf8'); " +
        "const report = await g.grade({ exercise, source, track: g.TRACKS.toy, sandbox: null, fast: { name: 'none' }, lang: 'en' }); " +
        "const ru = g.reporters.renderReport(report, { lang: 'ru', exercise, track: g.catalog.trackNamed('toy') }); " +
        'console.log(JSON.stringify({ said: report.said, en: report.message, ru: ru.message }))',
    ],
    { cwd: copy.dir, encoding: 'utf8' },
  );
  assert.equal(again.status, 0, again.stderr);
  const data = JSON.parse(again.stdout);
  assert.deepEqual(data.said.at(-1), { key: 'toy.no_loops', params: { keyword: 'while' } });
  assert.equal(data.en, reports.en.message);
  assert.equal(data.ru, reports.ru.message);
  // The same file is a passing JavaScript submission (its fixture): only the track differs.
  const js = cliIn(copy.dir, 'grade', file, '--exercise', 'sdpa', '--track', 'js', '--format', 'json');
  assert.equal(JSON.parse(js.stdout).status, 'pass', js.stdout + js.stderr);
});
