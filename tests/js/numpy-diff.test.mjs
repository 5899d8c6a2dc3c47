// The differential corpus (tests/numpy-diff/corpus.py): every case run by Debian's CPython with real
// NumPy and by the Python track (MicroPython + numpy.py over the np engine, in the Node sandbox, one
// call per case); each case's printed output, and the kind of error it raises, must be identical.
// Needs /usr/bin/python3 with python3-numpy (tools/setup installs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NodeSandbox } from '../../grader/hosts/node/sandbox.mjs';
import { TRACKS } from '../../grader/tracks/index.mjs';

const CORPUS = fileURLToPath(new URL('../numpy-diff/corpus.py', import.meta.url));
const PYTHON = '/usr/bin/python3';

/** "=== name\n…" blocks → Map(name → text). */
function cases(text) {
  const out = new Map();
  let name = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('=== ')) {
      name = line.slice(4);
      out.set(name, []);
    } else if (name !== null) out.get(name).push(line);
  }
  return new Map([...out].map(([k, v]) => [k, v.join('\n').replace(/\n+$/, '')]));
}

function numpyOutput() {
  const r = spawnSync(PYTHON, ['-W', 'ignore', CORPUS], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
  assert.equal(
    r.status,
    0,
    `${PYTHON} ${CORPUS} failed (is python3-numpy installed? tools/setup installs it): ${r.stderr}`,
  );
  return cases(r.stdout);
}

async function trackOutput() {
  const sandbox = await NodeSandbox.create({ track: TRACKS.python });
  try {
    // prepared as the grader prepares a submission (the track's rewrite of CPython-only syntax included)
    const source = TRACKS.python.prepareSource(`ATTNLAB_TRACK = True\n${readFileSync(CORPUS, 'utf8')}`).source;
    const load = await sandbox.load(source, {
      functions: ['run_case'],
      timeoutMs: 30000,
    });
    assert.ok(
      load.ok && !load.error,
      `the corpus does not load on the Python track: ${JSON.stringify(load.error ?? load.message)}`,
    );
    let text = '';
    for (let i = 0, n = 1; i < n; i++) {
      const r = await sandbox.call('run_case', [i], { timeoutMs: 10000 });
      assert.ok(r.ok, `case ${i}: ${r.kind} ${r.message}`);
      n = r.value;
      text += r.output;
    }
    return cases(text);
  } finally {
    await sandbox.close();
  }
}

const [expected, actual] = [numpyOutput(), await trackOutput()];

test(`the corpus has its cases in both (${expected.size} snippets)`, () => {
  assert.ok(expected.size >= 100, `only ${expected.size} cases`);
  assert.deepEqual([...actual.keys()], [...expected.keys()]);
});

// Asked once, and only when a case differs: a message argument is built before assert.equal looks.
let numpyVersion;
const versionOfNumpy = () =>
  (numpyVersion ??= spawnSync(PYTHON, ['-c', 'import numpy; print(numpy.__version__)'], {
    encoding: 'utf8',
  }).stdout.trim());

for (const [name, want] of expected) {
  test(`numpy-diff ${name}`, () => {
    const got = actual.get(name);
    if (got !== want)
      assert.equal(got, want, `${name}: the Python track prints otherwise than NumPy ${versionOfNumpy()}`);
  });
}
