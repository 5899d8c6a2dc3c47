// A track is one folder (grader/tracks/README.md, "Adding a track"): in a copy of the tree, a toy third
// track (tests/fixtures/toy-track/: Toy JS, `.tjs`, JavaScript without loops) is added as
// grader/tracks/toy/ and nothing else but the pack content in its language (exercises/sdpa/starter.tjs
// and solution.tjs: a pack offers a track when it has both), and the CLI grades in it: the solution 7/7,
// a fixture's mistake with the very report the JavaScript track gives (its expected_results.json,
// reviewed when it was written), a loop refused with its line. The page: tests/browser/toy-track.test.mjs.
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

test('a loop is refused by the track on the trusted side, with its line, and no test runs', () => {
  const file = join(copy.dir, 'loops.tjs');
  cpSync(fixture('pass-loops', 'submission.js'), file);
  const r = cliIn(copy.dir, 'grade', file, '--exercise', 'sdpa', '--format', 'json', '--lang', 'en');
  const report = JSON.parse(r.stdout);
  assert.equal(report.status, 'error', r.stdout + r.stderr);
  assert.match(report.message, /Toy JS has no loops: `while` is not allowed/);
  assert.match(report.message, /line 10\b/);
  assert.ok(report.tests.every((t) => t.status === 'error'));
  // The same file is a passing JavaScript submission (its fixture): only the track differs.
  const js = cliIn(copy.dir, 'grade', file, '--exercise', 'sdpa', '--track', 'js', '--format', 'json');
  assert.equal(JSON.parse(js.stdout).status, 'pass', js.stdout + js.stderr);
});
