// grader/tracks/python/README.md's coverage list cannot drift: every name it lists is what the Python
// track's numpy has (dir() of the module, ndarray, np.random, a Generator, np.linalg; nothing more,
// nothing less), each one occurs in the differential corpus (tests/numpy-diff/corpus.py, run against
// NumPy 1.24), each refused name is refused with a message naming what to use, and the README's
// corpus count is the corpus's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { NodeSandbox } from '../../grader/hosts/node/sandbox.mjs';
import { TRACKS } from '../../grader/tracks/index.mjs';

const read = (p) => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');
const README = read('grader/tracks/python/README.md');
const CORPUS = read('tests/numpy-diff/corpus.py');
const NUMPY = read('grader/tracks/python/numpy.py');

/** The backticked names of the README's list item that starts with "- **label**". */
function listed(label) {
  const line = README.split('\n').find((l) => l.startsWith(`- **${label}**`));
  assert.ok(line, `README: no "- **${label}**" line in the coverage list`);
  return [...line.slice(line.indexOf(':')).matchAll(/`([A-Za-z_][\w]*)`/g)].map((m) => m[1]).sort();
}

const PROBE = `import numpy as np
def names():
    pub = lambda xs: sorted(k for k in xs if not k.startswith('_'))
    return [pub(dir(np)), pub(dir(np.ndarray)), pub(dir(np.random)), pub(dir(np.random.default_rng(0))), pub(dir(np.linalg))]
def refused(name):
    try:
        getattr(np, name)
    except AttributeError as e:
        return str(e)
    return None
`;

const sandbox = await NodeSandbox.create({ track: TRACKS.python });
let actual, refusals;
try {
  const load = await sandbox.load(PROBE, { functions: ['names', 'refused'], timeoutMs: 30000 });
  assert.ok(load.ok && !load.error, JSON.stringify(load.error));
  actual = (await sandbox.call('names', [], { timeoutMs: 30000 })).value;
  const instead = [
    ...NUMPY.slice(NUMPY.indexOf('_INSTEAD = {'), NUMPY.indexOf('\n}\n', NUMPY.indexOf('_INSTEAD = {'))).matchAll(
      /'(\w+)':/g,
    ),
  ].map((m) => m[1]);
  refusals = {};
  for (const name of instead) refusals[name] = (await sandbox.call('refused', [name], { timeoutMs: 30000 })).value;
} finally {
  await sandbox.close();
}

const [moduleNames, methods, randomNames, generatorNames, linalgNames] = actual;
const GROUPS = [
  ['module', moduleNames.filter((n) => n !== 'random' && n !== 'linalg'), (n) => `np.${n}`],
  ['ndarray', methods, (n) => `.${n}`],
  ['np.random', randomNames, (n) => `np.random.${n}`],
  ['Generator', generatorNames, (n) => `.${n}(`],
  ['np.linalg', linalgNames, (n) => `np.linalg.${n}`],
];

for (const [label, names, spelled] of GROUPS) {
  test(`README lists exactly what the track's ${label} has, and the corpus uses each`, () => {
    assert.deepEqual(listed(label), names, `README "${label}" against dir() on the track`);
    const pattern = (n) => {
      const w = spelled(n);
      return new RegExp(w.replace(/[.()]/g, '\\$&') + (/\w$/.test(w) ? '(?!\\w)' : ''));
    };
    const unused = names.filter((n) => !pattern(n).test(CORPUS));
    assert.deepEqual(unused, [], `names of "${label}" that tests/numpy-diff/corpus.py never uses`);
  });
}

test('README lists every name numpy refuses, and each refusal says what to use', () => {
  assert.deepEqual(listed('refused'), Object.keys(refusals).sort());
  for (const [name, message] of Object.entries(refusals))
    assert.match(message ?? '', new RegExp(`^numpy\\.${name} is not available in this runtime; \\S`), name);
});

test("README's corpus count is the corpus's", () => {
  const r = spawnSync('/usr/bin/python3', ['-W', 'ignore', fileURLToPathOf('tests/numpy-diff/corpus.py')], {
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin' },
  });
  assert.equal(r.status, 0, r.stderr);
  const n = r.stdout.split('\n').filter((l) => l.startsWith('=== ')).length;
  assert.match(README, new RegExp(`\\b${n} snippets\\b`), `README should say "${n} snippets"`);
});

function fileURLToPathOf(p) {
  return new URL(`../../${p}`, import.meta.url).pathname;
}
