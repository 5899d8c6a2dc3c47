// The real-code corpus (tests/realcode/): whole files written in the style of public NumPy GPT-2 and
// Llama implementations, homework and tutorials. CPython + Debian's NumPy judges each against its
// pack's solution.py (tests/realcode/verdicts.py); the Python track's grader must give the same verdict
// for every file, and a file that fails must fail for its own mistake, never for something this
// runtime lacks. Needs /usr/bin/python3 with python3-numpy (tools/setup installs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NodeSandbox } from '../../grader/hosts/node/sandbox.mjs';
import { loadExercise } from '../../grader/hosts/node/exercise.mjs';
import { grade } from '../../grader/core/grade.mjs';
import { loadCore } from '../../wasm/index.mjs';
import { TRACKS } from '../../grader/tracks/index.mjs';

const DIR = fileURLToPath(new URL('../realcode/', import.meta.url));
const PYTHON = '/usr/bin/python3';
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.py') && f !== 'verdicts.py')
  .sort();
// What the track must never blame: its own gaps.
const RUNTIME_GAP = /not available in this runtime|in this runtime|MicroPython|no module named/i;

const r = spawnSync(PYTHON, ['-W', 'ignore', `${DIR}verdicts.py`], {
  encoding: 'utf8',
  env: { PATH: '/usr/bin:/bin' },
});
assert.equal(
  r.status,
  0,
  `${PYTHON} tests/realcode/verdicts.py failed (is python3-numpy installed? tools/setup installs it): ${r.stderr}`,
);
const cpython = JSON.parse(r.stdout);
const core = await loadCore();

test(`the real-code corpus: ${files.length} files, both verdicts among them`, () => {
  assert.ok(files.length >= 10, `only ${files.length} files`);
  assert.deepEqual(Object.keys(cpython).sort(), files);
  const verdicts = new Set(Object.values(cpython));
  assert.ok(
    verdicts.has('pass') && verdicts.has('fail'),
    'the corpus needs correct files and files with a real mistake',
  );
});

for (const file of files) {
  test(`real code ${file}: the Python track's verdict is CPython's (${cpython[file]})`, async () => {
    const source = readFileSync(`${DIR}${file}`, 'utf8');
    const slug = source.split('\n')[0].split('exercise:')[1].trim();
    const exercise = await loadExercise(slug);
    const sandbox = await NodeSandbox.create({ track: TRACKS.python });
    let report;
    // Generous limits: a loaded machine must not turn a verdict into a time-out.
    try {
      report = await grade({
        exercise,
        source,
        track: TRACKS.python,
        sandbox,
        core,
        lang: 'en',
        timeoutMs: 20000,
        deadlineMs: 120000,
      });
    } finally {
      await sandbox.close();
    }
    const messages = [report.message, ...report.tests.map((t) => t.message)].filter(Boolean).join('\n');
    assert.equal(
      report.status === 'pass' ? 'pass' : 'fail',
      cpython[file],
      `${file} on the Python track: ${report.status}\n${messages}`,
    );
    assert.doesNotMatch(messages, RUNTIME_GAP, `${file} failed on something the runtime lacks`);
  });
}
