// The track contract (grader/tracks/README.md) and the Python track's own pieces: the table, the CLI's
// choice of track (one rule, trackFor; a grade loading its own track's code and no other's), the Python source preparation (declarations copy, names, members), message
// variants, packs with and without a track's files, and the Python guest's answers in the Node host
// (None → not implemented, tuples and lists, errors with the student's line, handles released between
// calls, arrays kept in globals, names outside numpy's scope); a child's timing of its start, and the
// guest's .py files compiled to bytecode at build time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli } from './cli.mjs';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { explainError, explainSyntax } from '../../grader/core/explain.mjs';
import { join } from 'node:path';
import { TRACKS, TRACK_NAMES, DEFAULT_TRACK, trackOfFile, trackNamed, trackFor } from '../../grader/tracks/index.mjs';
import { catalog } from '../../grader/tracks/catalog.mjs';
import {
  trackFile,
  trackFolders,
  guestPlugins,
  guestWasm,
  workerGuest,
  workerShell,
  workerFile,
  WORKER_GUEST,
  LANGS,
} from '../../grader/index.mjs';
import { workerCsp, WORKER_CSPS, WORKER_CSP, securityHeaders } from '../../web/csp.mjs';
import { prepareSource } from '../../grader/tracks/python/source.mjs';
import { grade, sayForTrack } from '../../grader/core/grade.mjs';
import { packProblems } from '../../grader/index.mjs';
import { loadExercise, readPack } from '../../grader/hosts/node/exercise.mjs';
import { loadCore } from '../../wasm/index.mjs';
import { NodeSandbox } from '../../grader/hosts/node/sandbox.mjs';

const EX = new URL('../../exercises/sdpa/', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'attnlab-tracks-'));
const file = (name, text) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};
const nd = (shape, data, dtype = 'float64') => ({ $array: { dtype, shape, data } });

test('the table: the tracks found by listing their folders, in their order, each with the fields the rooms read', () => {
  // Every folder with an index.mjs is a track (this tree has two; tests/js/toy-track.test.mjs adds a third).
  assert.deepEqual([...TRACK_NAMES].sort(), trackFolders);
  assert.ok(TRACK_NAMES.length >= 2);
  assert.deepEqual(
    TRACK_NAMES,
    [...TRACK_NAMES].sort((a, b) => TRACKS[a].order - TRACKS[b].order),
    'in their order',
  );
  assert.equal(DEFAULT_TRACK, TRACKS[TRACK_NAMES[0]]);
  assert.equal(DEFAULT_TRACK, TRACKS.js);
  for (const t of Object.values(TRACKS)) {
    for (const k of [
      'name',
      'label',
      'short',
      'extensions',
      'files',
      'prepareSource',
      'guest',
      'realm',
      'variant',
      'warmUp',
      'scaleProbe',
      'order',
      'explain',
      'lexicon',
    ])
      assert.ok(k in t, `${t.name}.${k}`);
    assert.ok(Object.isFrozen(t));
    // Its own sentences (messages.mjs, through its description): every key in every language.
    assert.deepEqual(Object.keys(t.messages ?? {}).sort(), [...LANGS].sort(), `${t.name}.messages`);
    for (const l of LANGS)
      assert.deepEqual(Object.keys(t.messages[l]).sort(), Object.keys(t.messages.en).sort(), `${t.name}.messages.${l}`);
  }
  assert.equal(trackOfFile('a/b/solution.PY'), TRACKS.python);
  assert.equal(trackOfFile('x.js'), TRACKS.js);
  assert.equal(trackOfFile('x.txt'), null);
  assert.equal(trackNamed('python'), TRACKS.python);
  assert.equal(trackNamed('__proto__'), null);
  assert.deepEqual(TRACKS.python.realm, { strings: false, wasm: true, release: true });
  assert.deepEqual(TRACKS.js.realm, { strings: true, wasm: false, release: false });
});

test("errors explained by the track's hooks: JS names the operator, each spells keepdims its way, Python's `*x`", () => {
  const op = { message: 'TypeError: JS operators do not work on arrays', line: 1, column: 13 };
  assert.deepEqual(explainError(op, 'const a = x / y;', TRACKS.js), {
    key: 'explain.operator',
    params: { op: '/', fix: 'np.divide(a, b)' },
  });
  assert.equal(explainError(op, 'const a = x / y;', TRACKS.python), null);
  const lost = { message: 'ValueError: operands could not be broadcast together with shapes (3,4) (3,)' };
  const keepdims = (track) => explainError(lost, '', track)?.params.keepdims;
  assert.equal(keepdims(TRACKS.js), '{ axis: -1, keepdims: true }');
  assert.equal(keepdims(TRACKS.python), 'keepdims=True');
  assert.equal(keepdims({ name: 'bare' }), 'keepdims'); // a track with no explain hooks still gets the core's
  const star = { message: 'SyntaxError: *x must be assignment target' };
  assert.deepEqual(explainSyntax(star, TRACKS.python), { key: 'syntax.star_display', params: {} });
  assert.equal(explainSyntax(star, TRACKS.js), null);
});

test("one rule decides a submission's track (tracks/table.mjs trackFor), the same on whole tracks and on their descriptions", () => {
  for (const table of [catalog, { trackFor }]) {
    assert.equal(table.trackFor({ file: 'a/b.py' }).name, 'python');
    assert.equal(table.trackFor({ file: 'B.PY' }).name, 'python');
    assert.equal(table.trackFor({ file: 'b.js' }).name, 'js');
    assert.equal(table.trackFor({ track: 'js', file: 'b.py' }).name, 'js'); // --track wins
    assert.equal(table.trackFor({ file: 'notes.txt' }).name, DEFAULT_TRACK.name); // no known extension
    assert.equal(table.trackFor({ track: 'cobol', file: 'b.py' }), null); // a name no track has
  }
  assert.deepEqual(catalog.TRACK_NAMES, TRACK_NAMES);
  for (const name of TRACK_NAMES) {
    const { prepareSource: _p, tokens: _t, explain: _e, scaleProbe: _s, ...data } = TRACKS[name];
    assert.deepEqual({ ...catalog.TRACKS[name] }, data, `${name}: its info.mjs is its index.mjs without the code`);
  }
  // The CLI's entry and its commands both ask trackFor, and nothing else there reads a track's extensions.
  for (const f of ['cli.mjs', 'cli-main.mjs']) {
    const text = readFileSync(new URL(`../../grader/${f}`, import.meta.url), 'utf8');
    assert.match(text, /catalog\.trackFor\(\{ track: /, f);
    assert.doesNotMatch(text, /trackOfFile|trackNamed|\.extensions/, f);
  }
});

test('a CLI grade loads its own track and host and no other track: the modules of its process (tools/lib/cold-stats.mjs)', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const hook = new URL('../../tools/lib/cold-stats.mjs', import.meta.url).href;
  const stats = mkdtempSync(join(tmpdir(), 'attnlab-modules-'));
  const modulesOf = (file) => {
    // A grade first, so that a guest bundle older than its sources is rebuilt (which needs the build-time modules).
    spawnSync(process.execPath, [join(root, 'grader/cli.mjs'), 'grade', file], { cwd: root });
    const env = { ...process.env, ATTNLAB_COLD_STATS: stats, ATTNLAB_COLD_MODULES: '1' };
    const r = spawnSync(process.execPath, ['--import', hook, join(root, 'grader/cli.mjs'), 'grade', file], {
      cwd: root,
      env,
    });
    assert.equal(r.status, 0, r.stderr.toString());
    return readFileSync(join(stats, `${r.pid}.modules`), 'utf8')
      .split('\n')
      .filter((u) => u.startsWith('file:'))
      .map((u) => fileURLToPath(u).replace(root, ''));
  };
  try {
    for (const [file, own, other] of [
      ['exercises/sdpa/solution.py', 'python', 'js'],
      ['exercises/sdpa/solution.js', 'js', 'python'],
    ]) {
      const modules = modulesOf(file);
      assert.ok(modules.includes(`grader/tracks/${own}/index.mjs`), `${file}: its track`);
      assert.ok(modules.includes('grader/hosts/node/sandbox.mjs'), `${file}: its host`);
      // Of the other track only its description (and the sentences it carries); no build-time module, no batch, no page host.
      assert.deepEqual(
        modules.filter((m) => m.startsWith(`grader/tracks/${other}/`)),
        [`grader/tracks/${other}/info.mjs`, `grader/tracks/${other}/messages.mjs`],
        file,
      );
      const extra = modules.filter((m) =>
        /^grader\/(tracks\/(list|index|bundle)\.mjs|tracks\/\w+\/build\.mjs|batch\/|hosts\/browser\/)|node_modules\/esbuild\//.test(
          m,
        ),
      );
      assert.deepEqual(extra, [], file);
      assert.equal(
        modules.some((m) => m.includes('node_modules/acorn/')),
        own === 'js',
        `${file}: acorn`,
      );
    }
  } finally {
    rmSync(stats, { recursive: true, force: true });
  }
});

test("a track's folder: its worker's guest, its editor mode for the page, its build plugins; the worker CSP from its realm", async () => {
  for (const name of TRACK_NAMES) {
    assert.ok(trackFile(name, 'worker.js'), `${name}/worker.js`);
    assert.ok(trackFile(name, 'guest-entry.mjs'), `${name}/guest-entry.mjs`);
    assert.equal(fileURLToPath(workerGuest(name)), fileURLToPath(trackFile(name, 'worker.js')));
    assert.equal(workerFile(name), `sandbox-worker-${name}.js`);
    // The track's worker.js is its guest (a default export), not a worker: it imports no host.
    const text = readFileSync(workerGuest(name), 'utf8');
    assert.match(text, /^export default /m, `${name}/worker.js`);
    assert.doesNotMatch(text, /from '[^']*hosts\//, `${name}/worker.js`);
  }
  // The host owns the worker's shell, which imports the track's guest by the specifier the build resolves.
  assert.match(readFileSync(workerShell, 'utf8'), new RegExp(`import install from '${WORKER_GUEST}'`));
  assert.equal(trackFile('js', 'build.mjs'), null);
  assert.equal(guestPlugins.length, 2); // the Python track's build.mjs: glue and bytecode
  assert.equal(guestWasm(TRACKS.js), null);
  assert.match(guestWasm(TRACKS.python), /micropython\.wasm$/);
  // CSP source expressions of CSP Level 3: eval needs 'unsafe-eval', WebAssembly 'wasm-unsafe-eval'.
  assert.equal(workerCsp({ strings: true, wasm: false }), "default-src 'none'; script-src 'unsafe-eval'");
  assert.equal(workerCsp({ strings: false, wasm: true }), "default-src 'none'; script-src 'wasm-unsafe-eval'");
  assert.equal(
    workerCsp({ strings: true, wasm: true }),
    "default-src 'none'; script-src 'unsafe-eval' 'wasm-unsafe-eval'",
  );
  assert.equal(workerCsp({ strings: false, wasm: false }), "default-src 'none'; script-src 'none'");
  assert.equal(WORKER_CSPS.python, workerCsp(TRACKS.python.realm));
  assert.equal(WORKER_CSP, "default-src 'none'; script-src 'unsafe-eval'");
  assert.equal(securityHeaders('/sandbox-worker-python.js')['content-security-policy'], WORKER_CSPS.python);
  assert.match(securityHeaders('/index.html')['content-security-policy'], /^default-src 'self'/);
});

test('CLI: solution.py 7/7 (exit 0), starter.py 0/7 "not implemented" (exit 1)', () => {
  const ok = cli('grade', join(EX, 'solution.py'), '--format', 'json', '--lang', 'en');
  assert.equal(ok.status, 0, ok.stderr);
  assert.deepEqual(
    JSON.parse(ok.stdout).tests.map((t) => t.status),
    Array(7).fill('pass'),
  );
  const st = cli('grade', join(EX, 'starter.py'), '--format', 'json', '--lang', 'en');
  assert.equal(st.status, 1);
  for (const t of JSON.parse(st.stdout).tests) assert.match(t.message, /not implemented/);
});

test('CLI: --track overrides the extension; a bad --track is a usage error (exit 2)', () => {
  const py = file(
    'lesson.txt',
    `import numpy as np\n\ndef causal_mask(T):\n    return np.tril(np.ones((T, T), dtype=bool))\n`,
  );
  const r = cli('grade', py, '--track', 'python', '--exercise', 'sdpa', '--format', 'json', '--lang', 'en');
  assert.equal(r.status, 1, r.stderr);
  assert.equal(JSON.parse(r.stdout).tests[0].status, 'pass');
  const js = cli('grade', py, '--track', 'js', '--exercise', 'sdpa', '--format', 'json', '--lang', 'en');
  assert.equal(JSON.parse(js.stdout).status, 'error', 'Python read as JavaScript is a syntax error');
  const bad = cli('grade', py, '--track', 'ruby', '--lang', 'en');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--track must be js or python/);
});

test('CLI: a Python syntax error lists every test as an error with the line (exit 1)', () => {
  const r = cli(
    'grade',
    file('bad.py', 'import numpy as np\n\ndef softmax(x):\n    return (x\n\nprint(1)\n'),
    '--exercise',
    'sdpa',
    '--format',
    'json',
    '--lang',
    'en',
  );
  assert.equal(r.status, 1);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.status, 'error');
  assert.match(doc.message, /^Syntax error at line \d+, column \d+: /);
  assert.ok(doc.tests.every((t) => t.status === 'error'));
});

test('Python prepareSource: the declarations copy keeps definitions, imports and simple assignments, in place', () => {
  const src = [
    'import numpy as np',
    'from math import sqrt',
    'EPS = 1e-9; print(EPS)',
    'print(1); NEG = -np.inf',
    '@staticmethod',
    'def f(x):',
    '    """K.T in a docstring"""',
    '    return x.T  # x.S in a comment',
    '',
    'class A:',
    '    n = 1',
    'W = np.ones(3)',
    'g = lambda x: np.exp(x)',
    'a, b = 1, (2, 3)',
    'obj.attr = 1',
    'if __name__ == "__main__":',
    '    f(W)',
    's = """multi',
    'line"""',
    'x: int = 5',
    'for i in range(2):',
    '    pass',
    '',
  ].join('\n');
  const p = prepareSource(src);
  assert.ok(p.ok);
  assert.equal(p.source, src);
  const kept = p.declarations.split('\n');
  assert.equal(kept.length, src.split('\n').length, 'lines keep their numbers');
  assert.deepEqual(
    kept.map((l) => l.trimEnd()),
    [
      'import numpy as np',
      'from math import sqrt',
      'EPS = 1e-9',
      'NEG = -np.inf',
      '@staticmethod',
      'def f(x):',
      '    """K.T in a docstring"""',
      '    return x.T  # x.S in a comment',
      '',
      'class A:',
      '    n = 1',
      '',
      'g = lambda x: np.exp(x)',
      'a, b = 1, (2, 3)',
      '',
      '',
      '',
      's = """multi',
      'line"""',
      'x: int = 5',
      '',
      '',
      '',
    ],
  );
  assert.ok(p.names.includes('f') && p.names.includes('A') && p.names.includes('W'));
  assert.ok(p.members.has('T') && p.members.has('inf') && p.members.has('exp'));
  assert.ok(!p.members.has('S'), 'a comment is not code');
});

test('Python prepareSource: reads(fn) holds what a function and the functions it calls read, nothing of the others', () => {
  const src = [
    'import numpy as np',
    '',
    'def flip(K):',
    '    return K.swapaxes(0, 1)',
    '',
    'async def unused(X):',
    '    return X.T, X.shape[0]',
    '',
    'def attention(Q, K, V, mask=None):',
    '    d = K.shape[1]  # K.shape[0] in a comment',
    '    s = Q @ flip(K) / np.sqrt(d)',
    '    t = np.where(mask, s, -np.inf) if mask is not None else s',
    '    return t @ V, np.dot(t, V).shape[-1]',
    '',
    'def loop(n):',
    '    return loop(n - 1) if n else attention',
    '',
    'print(Q.T)',
  ].join('\n');
  const { reads } = prepareSource(src);
  const a = reads('attention');
  assert.deepEqual(
    a.shapeAxes,
    ['K.shape[1]'],
    'a shape indexed from the front with a literal; shape[-1] is right in Python',
  );
  assert.deepEqual(a.shapeNegative, []);
  assert.ok(a.calls.has('K.swapaxes(0, 1)'), 'from flip, which attention calls');
  assert.ok(['shape', 'swapaxes', 'sqrt', 'where', 'inf', 'dot'].every((m) => a.members.has(m)));
  assert.ok(!a.members.has('T'), 'unused() and the top level are not on its path');
  assert.deepEqual(reads('unused').shapeAxes, ['X.shape[0]']);
  assert.ok(reads('unused').members.has('T'));
  assert.deepEqual(
    [...reads('loop').calls].sort(),
    ['K.swapaxes(0, 1)', 'loop(n - 1)'],
    'recursion ends; a name of a function counts as its use',
  );
  assert.equal(reads('print'), null, 'not a function of the submission');
});

test("messages: a track's spelling (key.py) first on that track, the base key elsewhere", () => {
  const pack = {
    en: { 'd.x': 'JS `np.swapaxes(K, -1, -2)`', 'd.x.py': 'Python `K.swapaxes(-1, -2)`', 'd.y': 'both' },
    ru: { 'd.x': 'JS', 'd.x.py': 'Py', 'd.y': 'оба' },
  };
  assert.equal(sayForTrack(TRACKS.python, 'en', 'd.x', {}, pack), 'Python `K.swapaxes(-1, -2)`');
  assert.equal(sayForTrack(TRACKS.js, 'en', 'd.x', {}, pack), 'JS `np.swapaxes(K, -1, -2)`');
  assert.equal(sayForTrack(TRACKS.python, 'en', 'd.y', {}, pack), 'both');
  assert.match(
    sayForTrack(TRACKS.python, 'en', 'not_tuple', { fn: 'attention', names: 'out, weights', kind: 'x' }),
    /must return \(out, weights\)/,
  );
  assert.match(
    sayForTrack(TRACKS.js, 'en', 'not_tuple', { fn: 'attention', names: 'out, weights', kind: 'x' }),
    /must return \[out, weights\]/,
  );
});

test('packs: a track is offered with its starter and solution; half a pair, or a variant without its base, is a problem', async () => {
  const pack = await readPack('sdpa');
  assert.deepEqual(pack.tracks, ['js', 'python']);
  assert.deepEqual(packProblems(pack), []);
  const jsOnly = { ...pack, files: { js: pack.files.js, python: { starter: null, solution: null } } };
  assert.deepEqual(packProblems(jsOnly), [], 'a pack without Python files is fine');
  const half = { ...pack, files: { ...pack.files, python: { starter: 'x', solution: null } } };
  assert.match(
    packProblems(half).join('\n'),
    /solution\.py is missing or empty \(the Python track needs a starter and a solution\)/,
  );
  const none = { ...pack, files: { js: { starter: null, solution: null }, python: { starter: null, solution: null } } };
  assert.match(packProblems(none).join('\n'), /at least one track/);
  const orphan = {
    ...pack,
    messages: { en: { ...pack.messages.en, 'd.nope.py': 'x' }, ru: { ...pack.messages.ru, 'd.nope.py': 'x' } },
  };
  assert.match(packProblems(orphan).join('\n'), /"d\.nope\.py" is a track's spelling of "d\.nope", which is missing/);
  const withTests = (code) => ({
    ...pack,
    spec: { ...pack.spec, tests: pack.spec.tests.map((t, i) => (i ? t : { ...t, test_code: code })) },
  });
  assert.deepEqual(packProblems(withTests({ js: 'f(x)', python: 'f(x)  # py' })), []);
  for (const bad of [{ python: 'f(x)' }, { js: 'f(x)', ruby: 'f x' }, { js: 1 }, 7]) {
    assert.match(
      packProblems(withTests(bad)).join('\n'),
      /test_code.*must be a string, or an object of strings per track \(js, python; js required\)/,
      JSON.stringify(bad),
    );
  }
});

test('a test_code per track: the report shows the one of the graded track', async () => {
  const exercise = await loadExercise('sdpa'),
    core = await loadCore();
  const code = exercise.spec.tests[0].test_code;
  assert.equal(typeof code.python, 'string');
  const starter = {
    js: readFileSync(join(EX, 'starter.js'), 'utf8'),
    python: readFileSync(join(EX, 'starter.py'), 'utf8'),
  };
  for (const track of [TRACKS.js, TRACKS.python]) {
    const sandbox = await NodeSandbox.create({ track });
    try {
      const report = await grade({ exercise, source: starter[track.name], track, sandbox, core, lang: 'en' });
      assert.equal(report.tests[0].test_code, code[track.name]);
    } finally {
      await sandbox.close();
    }
  }
});

test('the Python guest in the Node host: None, tuples, lists, errors with lines, names outside numpy', async () => {
  const sb = await NodeSandbox.create({ track: TRACKS.python });
  try {
    const src = [
      'import numpy as np',
      'KEPT = []',
      '',
      'def none(x):',
      '    pass',
      '',
      'def pair(x):',
      '    return x * 2, (x > 0).tolist()',
      '',
      'def raises(x):',
      '    return x @ np.ones((7, 7))',
      '',
      'def einsum(x):',
      '    return np.einsum("ij->ji", x)',
      '',
      'def roll(x):',
      '    return np.roll(x, 1)',
      '',
      'def keep(x):',
      '    KEPT.append(x + 1)',
      '    return len(KEPT)',
      '',
      'def kept():',
      '    return KEPT[0]',
      '',
      'def big(x):',
      '    return np.ones((1024, 1024, 4)).sum()',
      '',
    ].join('\n');
    const load = await sb.load(src, {
      functions: ['none', 'pair', 'raises', 'einsum', 'roll', 'keep', 'kept', 'big', 'absent'],
      timeoutMs: 5000,
    });
    assert.deepEqual(load.functions.sort(), ['big', 'einsum', 'keep', 'kept', 'none', 'pair', 'raises', 'roll']);
    const x = nd([2, 2], [1, -2, 3, 4]);
    assert.deepEqual((await sb.call('none', [x])).value, { $undef: true });
    const p = await sb.call('pair', [x]);
    assert.equal(p.value.length, 2);
    assert.deepEqual(Array.from(p.value[0].$array.data), [2, -4, 6, 8]);
    assert.deepEqual(p.value[1], [
      [true, false],
      [true, true],
    ]);
    const e = await sb.call('raises', [x]);
    assert.equal(e.kind, 'error');
    assert.match(e.message, /^ValueError: matmul: /);
    assert.equal(e.line, 11);
    assert.deepEqual(Array.from((await sb.call('einsum', [x])).value.$array.data), [1, 3, -2, 4]);
    const u = await sb.call('roll', [x]);
    assert.match(u.message, /^AttributeError: numpy\.roll is not available in this runtime; use np\.concatenate/);
    assert.equal((await sb.call('absent', [])).kind, 'missing');
    for (let i = 1; i <= 3; i++) assert.equal((await sb.call('keep', [x])).value, i);
    assert.deepEqual(
      Array.from((await sb.call('kept', [])).value.$array.data),
      [2, -1, 4, 5],
      'an array kept in a global outlives its call',
    );
    // 32 MiB per call, 40 calls: past the 512 MiB budget unless each call's arrays are released.
    for (let i = 0; i < 40; i++) {
      const r = await sb.call('big', [x], { timeoutMs: 5000 });
      assert.ok(r.ok, `call ${i}: ${r.kind} ${r.message}`);
      assert.equal(r.value, 1024 * 1024 * 4);
    }
  } finally {
    await sb.close();
  }
});

test('the Python guest frees during a call the arrays Python no longer reaches, and keeps those it does (heapscan.mjs)', async () => {
  const sb = await NodeSandbox.create({ track: TRACKS.python });
  try {
    const src = [
      'import numpy as np',
      '',
      'class Box:',
      '    pass',
      '',
      'def churn(x):',
      '    # 1.6 GiB made in one call, 16 MiB alive at a time: past the 512 MiB limit unless freed during it',
      '    keep = x + 1',
      '    lst = [np.full((2,), float(i)) for i in range(5)]',
      '    tup = (np.arange(3.0),)',
      '    box = Box()',
      '    box.a = np.ones((3,))',
      '    seen = {"k": np.ones((2,))}',
      '    for i in range(100):',
      '        junk = np.zeros((1024, 1024)) + i',
      "    # a running total that only sum()'s C frame holds, used at every item: kept across scans",
      '    total = sum(np.ones((512, 1024)) for _ in range(40))',
      '    return [keep.sum(), sum(v.sum() for v in lst), tup[0].sum(), box.a.sum(), seen["k"].sum(), total[0, 0], junk[0, 0]]',
      '',
    ].join('\n');
    const load = await sb.load(src, { functions: ['churn'], timeoutMs: 5000 });
    assert.deepEqual(load.functions, ['churn']);
    const r = await sb.call('churn', [nd([2], [1, 2])], { timeoutMs: 60000 });
    assert.ok(r.ok, `${r.kind} ${r.message}`);
    assert.deepEqual(r.value, [5, 20, 3, 3, 2, 40, 99]);
  } finally {
    await sb.close();
  }
});

test('the Python guest: NumPy scalars from the left, what MicroPython cannot do is said, np.random.seed keeps its stream', async () => {
  const sb = await NodeSandbox.create({ track: TRACKS.python });
  try {
    const src = [
      'from typing import Generic, TypeVar',
      'import numpy as np',
      'Shape = TypeVar("Shape")',
      '',
      'class Array(np.ndarray, Generic[Shape]):',
      '    pass',
      '',
      'np.random.seed(3)',
      'FIRST = np.random.rand(2)',
      '',
      'def left(x):',
      '    return [1 / np.sqrt(x.shape[-1]), 2 * x.sum(), 1 - x.max(), min(np.int64(3), 2)]',
      '',
      'def compare(x):',
      '    return 3 < x.sum()',
      '',
      'def fmt(x):',
      '    return f"{x.sum():.2f}"',
      '',
      'def again():',
      '    np.random.seed(3)',
      '    return bool((np.random.rand(2) == FIRST).all())',
      '',
    ].join('\n');
    const load = await sb.load(src, { functions: ['left', 'compare', 'fmt', 'again'], timeoutMs: 5000 });
    assert.ok(!load.error, JSON.stringify(load.error));
    const x = nd([2, 2], [1, -2, 3, 4]);
    assert.deepEqual((await sb.call('left', [x])).value, [1 / Math.sqrt(2), 12, -3, 2]);
    const c = await sb.call('compare', [x]);
    assert.match(c.message, /^TypeError: unsupported types for __lt__: 'int', 'float64' \(.*`x\.sum\(\) > 3`/);
    assert.equal(c.line, 15);
    assert.match((await sb.call('fmt', [x])).message, /^ValueError: unknown format code 'f' .*f'\{float\(x\):\.3f\}'/);
    assert.equal((await sb.call('again', [])).value, true);
  } finally {
    await sb.close();
  }
});

test('the Python guest: an error at load always has a text', async () => {
  const sb = await NodeSandbox.create({ track: TRACKS.python });
  try {
    const load = await sb.load('class A(len, 1):\n    pass\n', { functions: [], timeoutMs: 5000 });
    assert.match(load.error.message, /^TypeError: \S/);
  } finally {
    await sb.close();
  }
});

test('the Node host takes limits with fractions of a millisecond (what is left of a billed budget)', async () => {
  const sb = await NodeSandbox.create({ track: TRACKS.js });
  try {
    const load = await sb.load('function f() { return 1; }', {
      functions: ['f'],
      timeoutMs: 123.4,
      deadlineMs: 5000.7,
    });
    assert.equal(load.ok, true);
    // a wall deadline below ten times the CPU limit, with a fraction: vm's `timeout` wants whole ms (seconds
    // of it: a busy machine's round trip must not reach it)
    const r = await sb.call('f', [], { timeoutMs: 1000, deadlineMs: 7777.3 });
    assert.deepEqual([r.ok, r.value], [true, 1], r.message);
  } finally {
    await sb.close();
  }
});

test("a child times its start, in order, with the Python guest's own steps (tools/sandbox-cost --breakdown)", async () => {
  const steps = {
    js: [],
    python: ['wasm compiled', 'interpreter started', 'runtime.py imported', 'numpy.py imported, runtime installed'],
  };
  for (const track of Object.values(TRACKS)) {
    const s = await NodeSandbox.create({ track });
    try {
      const phases = await s.started();
      assert.deepEqual(
        phases.map(([name]) => name),
        ['node started', 'guest files read', 'guest bundle evaluated', ...steps[track.name], 'ready'],
        track.name,
      );
      for (let i = 1; i < phases.length; i++) {
        assert.ok(
          phases[i][1] >= phases[i - 1][1] && phases[i][2] >= phases[i - 1][2],
          `${track.name}: ${phases[i][0]} before ${phases[i - 1][0]}`,
        );
      }
      // The start's timing changes nothing: the child grades as before.
      const load = await s.load(
        track.name === 'python' ? 'def f(x):\n    return x + 1\n' : 'function f(x) { return x + 1; }',
        { functions: ['f'] },
      );
      assert.ok(load.ok && !load.error, JSON.stringify(load));
      assert.equal((await s.call('f', [41])).value, 42);
    } finally {
      await s.close();
    }
  }
});

test("the Python guest's own modules are bundled as bytecode; a syntax error in one fails the build with its name", async () => {
  const { compilePython } = await import('../../grader/tracks/python/bytecode.mjs');
  const mpy = await compilePython('ok.py', 'def f():\n    return 1\n');
  assert.deepEqual([...mpy.subarray(0, 2)], [0x4d, 6]); // 'M', .mpy version 6
  await assert.rejects(compilePython('broken.py', 'def f(:\n'), /mpy-cross could not compile broken\.py/);
});
