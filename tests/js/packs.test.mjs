// Exercise packs as a course author meets them (exercises/README.md):
// - every pack loads and passes packProblems(); the CLI lists them all;
// - each pack's solution passes every test and its starter fails every test with "not implemented", on
//   each track it offers, with valid Exercism (v3) and Gradescope reports;
// - a broken pack is an author error: exit 2 with a sentence naming the file and the key (a misspelled
//   test id, a message key missing in one language, an unknown field, JSON that does not parse);
// - no file of the grader, the page, the tools or the core names a pack (`git grep`);
// - `tools/new-exercise demo`, run in a copy of this tree, builds a pack that grades its own solution and
//   whose doctest passes, touching nothing outside exercises/demo/ (built small: the new pack's doctest and
//   the WASM flavours Node loads, not the whole tree); killed during its first build it resumes when run
//   again, keeping a file the author edited meanwhile; then on that pack tools/check-pack --no-page prints
//   its table, shows a changed snapshot as a diff and accepts it with --update, refuses a bad slug, option
//   or broken pack (exit 2); tools/serve --no-build refuses the core the page would load (the other
//   flavours lack the pack), and tools/grade rebuilds the CLI's flavour after the reference changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TRACKS } from '../../grader/tracks/index.mjs';
import { cli, cliIn } from './cli.mjs';
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync,
  rmSync,
  existsSync,
  statSync,
  symlinkSync,
  utimesSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listExercises, loadExercise, readPack } from '../../grader/hosts/node/exercise.mjs';
import { packProblems } from '../../grader/index.mjs';
import { boundFunctions, PackError } from '../../grader/core/pack.mjs';
import * as esbuild from 'esbuild';
import { packsPlugin, rawPlugin } from '../../web/build.mjs';
import { FLAVOURS, bestFlavour, loadCore } from '../../wasm/index.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const slugs = listExercises();

test('every pack loads without problems, and the CLI lists them in course order', async () => {
  for (const slug of slugs) assert.deepEqual(packProblems(await readPack(slug)), [], slug);
  const r = cli('list');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(
    r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/)[0]),
    slugs,
  );
});

// The report formats' contracts, as Exercism's (results.json v3) and Gradescope's (results.json) runners read them.
function exercismProblems(doc, ids, names) {
  const p = [];
  if (doc.version !== 3) p.push(`version ${doc.version}`);
  if (!['pass', 'fail', 'error'].includes(doc.status)) p.push(`status ${doc.status}`);
  if (!Array.isArray(doc.tests) || doc.tests.length !== ids.length) return [...p, `tests ${doc.tests?.length}`];
  doc.tests.forEach((t, i) => {
    if (t.name !== names[i]) p.push(`test ${i} name ${t.name}`);
    if (!['pass', 'fail', 'error'].includes(t.status)) p.push(`test ${i} status ${t.status}`);
    if (t.status !== 'pass' && typeof t.message !== 'string') p.push(`test ${i} has no message`);
    if (typeof t.test_code !== 'string' || !t.test_code) p.push(`test ${i} has no test_code`);
  });
  return p;
}
function gradescopeProblems(doc, n, passed) {
  const p = [];
  if (!Array.isArray(doc.tests) || doc.tests.length !== n) return [`tests ${doc.tests?.length}`];
  for (const t of doc.tests)
    if (
      typeof t.name !== 'string' ||
      t.max_score !== 1 ||
      ![0, 1].includes(t.score) ||
      !['passed', 'failed'].includes(t.status)
    )
      p.push(JSON.stringify(t).slice(0, 120));
  if (doc.score !== passed || doc.tests.reduce((a, t) => a + t.score, 0) !== passed)
    p.push(`score ${doc.score}, expected ${passed}`);
  // the causes as data, one per test not passed (extra_data: "extra data to be stored")
  const causes = doc.extra_data?.causes;
  if (!Array.isArray(causes) || causes.length !== n - passed || causes.some((c) => typeof c.key !== 'string'))
    p.push(`extra_data.causes ${JSON.stringify(causes)?.slice(0, 120)}`);
  return p;
}

const offered = Object.fromEntries(await Promise.all(slugs.map(async (s) => [s, (await readPack(s)).tracks])));
for (const slug of slugs) {
  for (const track of offered[slug].map((n) => TRACKS[n])) {
    test(`${slug} (${track.name}): the solution passes every test, the starter fails every test as not implemented; Exercism and Gradescope reports valid`, async () => {
      const { spec } = await loadExercise(slug);
      const ids = spec.tests.map((t) => t.id),
        names = spec.tests.map((t) => t.name.en);
      const grade = (file, format) =>
        cli('grade', join(ROOT, 'exercises', slug, file), '--format', format, '--lang', 'en');
      const ok = grade(track.files.solution, 'json');
      assert.equal(ok.status, 0, ok.stdout);
      const okDoc = JSON.parse(ok.stdout);
      assert.deepEqual(exercismProblems(okDoc, ids, names), []);
      assert.equal(okDoc.status, 'pass');
      assert.deepEqual(
        gradescopeProblems(JSON.parse(grade(track.files.solution, 'gradescope').stdout), ids.length, ids.length),
        [],
      );
      const starter = grade(track.files.starter, 'json');
      assert.equal(starter.status, 1);
      const stDoc = JSON.parse(starter.stdout);
      assert.deepEqual(exercismProblems(stDoc, ids, names), []);
      for (const t of stDoc.tests) assert.match(t.message, /not implemented/, `${slug}: ${t.name}`);
      assert.deepEqual(
        gradescopeProblems(JSON.parse(grade(track.files.starter, 'gradescope').stdout), ids.length, 0),
        [],
      );
    });
  }
}

test('a broken pack is an author error: exit 2 with the file and the key', () => {
  const copy = mkdtempSync(join(tmpdir(), 'attnlab-packs-'));
  try {
    for (const dir of ['grader', 'wasm', 'exercises'])
      cpSync(join(ROOT, dir), join(copy, dir), { recursive: true, filter: (p) => !p.includes('node_modules') });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    writeFileSync(join(copy, 'package.json'), readFileSync(join(ROOT, 'package.json')));
    const pack = join(copy, 'exercises', 'sdpa');
    const spec = readFileSync(join(pack, 'spec.json'), 'utf8');
    const messages = readFileSync(join(pack, 'messages.json'), 'utf8');
    const solution = join(pack, 'solution.js');
    const broken = (what, file, text, expect) => {
      writeFileSync(join(pack, file), text);
      const r = cliIn(copy, 'grade', solution);
      writeFileSync(join(pack, 'spec.json'), spec);
      writeFileSync(join(pack, 'messages.json'), messages);
      assert.equal(r.status, 2, `${what}: exit ${r.status}\n${r.stdout}${r.stderr}`);
      assert.match(r.stderr, expect, what);
      assert.doesNotMatch(r.stderr, /\n\s+at /, `${what}: a stack trace`);
    };
    broken(
      'a misspelled test id',
      'spec.json',
      spec.replace('"id": "scaling"', '"id": "scalingg"'),
      /exercises\/sdpa\/spec\.json: test "scalingg" has no function in exercises\/sdpa\/suite\.mjs/,
    );
    broken(
      'an unknown field',
      'spec.json',
      spec.replace('"seed": 2017,', '"seed": 2017, "sede": 1,'),
      /exercises\/sdpa\/spec\.json has an unknown field "sede"/,
    );
    const m = JSON.parse(messages);
    delete m.ru['d.no_scaling'];
    broken(
      'a message key missing in ru',
      'messages.json',
      JSON.stringify(m),
      /exercises\/sdpa\/messages\.json: key "d\.no_scaling" is in "en" but missing in "ru"/,
    );
    broken('JSON that does not parse', 'spec.json', spec.slice(0, -5), /exercises\/sdpa\/spec\.json is not valid JSON/);
    const unknown = cliIn(copy, 'grade', solution, '--exercise', 'nope', '--lang', 'en');
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown exercise "nope" \(exercises: /);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

test('a misspelled reference function is a pack problem at load and build: in spec.json "mistakes" and in suite.mjs', async () => {
  const sdpa = await readPack('sdpa');
  const spec = structuredClone(sdpa.spec);
  spec.mistakes[0].function = 'atention';
  spec.tests.find((t) => t.id === 'softmax').mistakes[0].function = 'sofmax';
  const suiteSource = sdpa.suiteSource.replace('ctx.ref.causal_mask(', 'ctx.ref.causal_mask_(');
  const binds =
    'is not bound in exercises/sdpa/reference/bind.cpp (def("sdpa.<name>", …) binds: causal_mask, softmax, attention, causal_self_attention)';
  assert.deepEqual(packProblems({ ...sdpa, spec, suiteSource }), [
    `exercises/sdpa/spec.json: mistakes[0].function "atention" ${binds}`,
    `exercises/sdpa/suite.mjs calls the reference function "causal_mask_", which ${binds}`,
    `exercises/sdpa/spec.json: tests[1].mistakes[0].function "sofmax" ${binds}`,
  ]);
  // A name held in a constant (mha: ctx.ref[MHA], ctx.diagnose(got, MHA, …)) is read through it.
  const mha = await readPack('mha');
  const misspelt = mha.suiteSource.replace("const MHA = 'multi_head_attention'", "const MHA = 'multi_head_atention'");
  assert.match(
    packProblems({ ...mha, suiteSource: misspelt }).join('\n'),
    /exercises\/mha\/suite\.mjs calls the reference function "multi_head_atention", which is not bound/,
  );
});

test('the functions read from each bind.cpp are those the loaded core registers for its pack', async () => {
  const core = await loadCore();
  for (const slug of slugs) {
    const registered = core
      .functions()
      .filter((n) => n.startsWith(`${slug}.`))
      .map((n) => n.slice(slug.length + 1));
    assert.deepEqual([...boundFunctions(await readPack(slug))].sort(), registered.sort(), slug);
  }
});

test('no file of the grader, the page, the tools or the engine names a pack', () => {
  const pattern = slugs.flatMap((s) => ['-e', `\\b${s}\\b`]);
  const r = spawnSync(
    'git',
    ['grep', '-n', '-P', ...pattern, '-e', 'lesson_example', '--', 'grader', 'web', 'tools', 'wasm', ':!*.md'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  assert.equal(r.stdout, '', `these lines name a pack:\n${r.stdout}`);
});

test('the pack layout is spelled once (grader/core/pack-layout.mjs): no other code of the grader or the page names a pack file', () => {
  const names = /['"`/](?:spec\.json|suite\.mjs|messages\.json|hints\.json|bind\.cpp|aims\.json|task\.\$?\{?\w+\}?\.)/;
  const r = spawnSync('git', ['ls-files', '--', 'grader', 'web/*.mjs', 'web/src'], { cwd: ROOT, encoding: 'utf8' });
  const found = [];
  for (const f of r.stdout.split('\n').filter((x) => /\.m?js$/.test(x) && x !== 'grader/core/pack-layout.mjs'))
    readFileSync(join(ROOT, f), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (!/^\s*(\/\/|\*|\/\*)/.test(line) && names.test(line)) found.push(`${f}:${i + 1}: ${line.trim()}`);
      });
  assert.deepEqual(found, []);
});

test('a pack missing a required file, or with JSON that does not parse, is refused with the pack and the file named, by the Node loader and by the page build', async () => {
  const root = mkdtempSync(join(tmpdir(), 'attnlab-packs-'));
  const pack = join(root, 'sdpa');
  const build = () =>
    esbuild.build({
      stdin: { contents: "export { packs } from 'attnlab:packs';", resolveDir: ROOT },
      bundle: true,
      write: false,
      format: 'esm',
      external: ['node:*'],
      logLevel: 'silent',
      plugins: [rawPlugin, packsPlugin({ root })],
    });
  try {
    cpSync(join(ROOT, 'exercises', 'sdpa'), pack, { recursive: true, filter: (p) => !p.includes('fixtures') });
    // The copy's suite imports the kit of this tree by its path.
    const suite = readFileSync(join(pack, 'suite.mjs'), 'utf8');
    writeFileSync(join(pack, 'suite.mjs'), suite.replaceAll('../../grader/', `${join(ROOT, 'grader')}/`));
    // The copy as it is: both readers take it, the page's chunk with the pack's texts and starters.
    assert.deepEqual((await loadExercise('sdpa', root)).tracks, ['js', 'python']);
    const { outputFiles } = await build();
    assert.match(outputFiles[0].text, /Scaled dot-product|scaled dot-product|causal_mask/);
    const cases = [
      ['hints.json', null, /exercises\/sdpa\/hints\.json is missing/],
      ['texts/task.en.md', null, /exercises\/sdpa\/texts\/task\.en\.md is missing/],
      ['suite.mjs', null, /exercises\/sdpa\/suite\.mjs is missing/],
      ['messages.json', '{ "ru": ', /exercises\/sdpa\/messages\.json is not valid JSON/],
      ['hints.json', '[1, ]', /exercises\/sdpa\/hints\.json is not valid JSON/],
      ['solution.py', null, /exercises\/sdpa\/solution\.py is missing or empty \(the Python track needs/],
    ];
    for (const [file, text, expect] of cases) {
      const saved = readFileSync(join(pack, file));
      if (text === null) rmSync(join(pack, file));
      else writeFileSync(join(pack, file), text);
      try {
        await assert.rejects(loadExercise('sdpa', root), (e) => e instanceof PackError && expect.test(e.message), file);
        await assert.rejects(build(), (e) => expect.test(e.message) && !/\n\s+at /.test(e.message), file);
      } finally {
        writeFileSync(join(pack, file), saved);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test(
  'tools/new-exercise demo in a copy of the tree: interrupted, resumed, then tools/check-pack, tools/serve and tools/grade on it',
  { timeout: 20 * 60 * 1000 },
  async (t) => {
    const copy = mkdtempSync(join(tmpdir(), 'attnlab-new-exercise-'));
    try {
      const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean);
      // timestamps kept, so that tools/build-wasm finds this tree's compiled objects up to date
      for (const f of files)
        if (existsSync(join(ROOT, f))) cpSync(join(ROOT, f), join(copy, f), { preserveTimestamps: true });
      // This tree's packages, one link per entry (never one link to the folder: tools/grade runs tools/setup,
      // whose `npm ci` would empty this tree's node_modules through it), and the lock file dated as their
      // install, so that tools/setup finds them up to date.
      mkdirSync(join(copy, 'node_modules'));
      for (const e of readdirSync(join(ROOT, 'node_modules')))
        symlinkSync(join(ROOT, 'node_modules', e), join(copy, 'node_modules', e));
      const installed = join(ROOT, 'node_modules', '.package-lock.json');
      if (existsSync(installed)) {
        const { atime, mtime } = statSync(installed);
        utimesSync(join(copy, 'package-lock.json'), atime, mtime);
      }
      // A tree built before the pack was added: this tree's WASM builds and compiled objects (ignored by git),
      // so only the new pack's reference is compiled. The build is then kept to what proves the point: the WASM
      // flavours Node grades with (FLAVOURS), the ones the new pack's reference must be compiled into and
      // linked, and the new pack's doctest (NATIVE_TARGETS), run below.
      for (const dir of [
        ['wasm', 'dist'],
        ['build', 'wasm-obj'],
      ])
        cpSync(join(ROOT, ...dir), join(copy, ...dir), { recursive: true, preserveTimestamps: true });
      const git = (...a) => spawnSync('git', a, { cwd: copy, encoding: 'utf8' });
      git('init', '-q');
      git('add', '-A');
      git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'copy');
      const nodeFlavours = [...new Set([FLAVOURS[bestFlavour()].file, FLAVOURS[bestFlavour({ threads: 1 })].file])];
      const env = {
        ...process.env,
        JOBS: '2',
        // the flavours Node grades with: loadCore()'s default (the fixtures) and the CLI's single-threaded one
        FLAVOURS: nodeFlavours.join(' '),
        NATIVE_TARGETS: 'demo_test_demo',
      };
      // Each run's wall time is noted (a diagnostic line: the author's loop as measured, never judged).
      const toolIn = (environment, name, ...args) => {
        const t0 = performance.now();
        const r = spawnSync(join(copy, 'tools', name), args, {
          cwd: copy,
          encoding: 'utf8',
          env: environment,
          maxBuffer: 64 << 20,
        });
        t.diagnostic(`tools/${name} ${args.join(' ')}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        return r;
      };
      const tool = (name, ...args) => toolIn(env, name, ...args);
      const pack = join(copy, 'exercises', 'demo');
      const state = join(pack, '.new-exercise.json');

      // Interrupted: killed (its whole process group) once its first build step has begun.
      const first = spawn(join(copy, 'tools', 'new-exercise'), ['demo'], { cwd: copy, env, detached: true });
      let out = '';
      const killed = await new Promise((resolve) => {
        first.stdout.on('data', (d) => {
          out += d;
          if (/WebAssembly core/.test(out)) process.kill(-first.pid, 'SIGKILL');
        });
        first.on('exit', (code, signal) => resolve({ code, signal }));
      });
      assert.equal(killed.signal, 'SIGKILL', `it ended before its first step: ${out}`);
      assert.ok(existsSync(state), 'no .new-exercise.json after the interruption');
      // The author meanwhile edits one file and deletes another.
      writeFileSync(join(pack, 'README.md'), `${readFileSync(join(pack, 'README.md'), 'utf8')}\nMy notes.\n`);
      rmSync(join(pack, 'hints.json'));
      const resumed = tool('new-exercise', 'demo');
      assert.equal(resumed.status, 0, resumed.stdout.slice(-2000) + resumed.stderr.slice(-2000));
      assert.match(
        resumed.stdout,
        /resuming the scaffold of exercises\/demo \(\.new-exercise\.json found; --resume is implied\): 1 missing file written/,
      );
      assert.match(resumed.stdout, /kept exercises\/demo\/README\.md: changed since the scaffold wrote it/);
      assert.match(resumed.stdout, /fixtures: pass ✓, py-starter ✓, py-wrong-axis ✓, starter ✓, wrong-axis ✓\n/);
      assert.match(readFileSync(join(pack, 'README.md'), 'utf8'), /My notes\./);
      assert.ok(!existsSync(state), 'the state file stays after a complete run');
      const hints = JSON.parse(readFileSync(join(pack, 'hints.json'), 'utf8'));
      assert.deepEqual(Object.keys(hints.functions), ['row_sums'], 'hints.json in the per-function form');
      // Every sentence the scaffold wrote that shows code has its Python spelling.
      const messages = JSON.parse(readFileSync(join(pack, 'messages.json'), 'utf8'));
      assert.match(messages.en['d.wrong_axis.py'], /axis=-1/);
      assert.match(hints.functions.row_sums['en.py'].at(-1), /axis=-1/);
      const again = tool('new-exercise', 'demo');
      assert.equal(again.status, 2);
      assert.match(again.stderr, /exercises\/demo already exists and is not a scaffold in progress/);

      const changed = git('status', '--porcelain', '--untracked-files=all')
        .stdout.trim()
        .split('\n')
        .map((l) => l.slice(3));
      assert.deepEqual(
        changed.filter((f) => !f.startsWith('exercises/demo/')),
        [],
        'files outside the new pack',
      );
      const ctest = spawnSync('ctest', ['--output-on-failure', '-R', '^demo_'], {
        cwd: join(copy, 'build'),
        encoding: 'utf8',
      });
      assert.equal(ctest.status, 0, ctest.stdout.slice(-2000) + ctest.stderr.slice(-2000));
      assert.match(ctest.stdout, /100% tests passed, 0 tests failed out of 1/);
      const r = tool('grade', join(pack, 'solution.js'), '--format', 'json');
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.equal(JSON.parse(r.stdout).status, 'pass');

      // tools/check-pack: its table; a changed snapshot shown as a diff, then accepted with --update.
      const checked = tool('check-pack', 'demo', '--no-page');
      assert.equal(checked.status, 0, checked.stdout + checked.stderr);
      for (const line of [
        /✓ pack +loads without problems/,
        /✓ build +up to date \(2 flavours, doctest\)|✓ build +up to date \(1 flavour, doctest\)/,
        /✓ doctest +passed \(2\/2\)/,
        /✓ oracle +passed \(1\/1\)/,
        /✓ fixtures \(Node\) +passed \(aims 1\/1, js 3\/3, python 2\/2\)/,
      ])
        assert.match(checked.stdout, line);
      const en = messages.en['d.wrong_axis'];
      messages.en['d.wrong_axis'] = en.replace('Looks like', 'It seems');
      writeFileSync(join(pack, 'messages.json'), JSON.stringify(messages, null, 2));
      const differs = tool('check-pack', 'demo', '--no-page');
      assert.equal(differs.status, 1, differs.stdout + differs.stderr);
      assert.match(differs.stdout, /✗ fixtures \(Node\) +1 failed \(aims 1\/1, js 2\/3, python 2\/2\)/);
      assert.match(differs.stdout, /snapshot changed \(tools\/check-pack --update accepts it\): demo\/wrong-axis/);
      assert.match(differs.stdout, /^-.*Looks like the sum runs over the first axis/m);
      assert.match(differs.stdout, /^\+.*It seems the sum runs over the first axis/m);
      const snapshot = join(pack, 'fixtures', 'wrong-axis', 'expected_results.json');
      assert.match(readFileSync(snapshot, 'utf8'), /Looks like/, 'a snapshot written without --update');
      const accepted = tool('check-pack', 'demo', '--no-page', '--update');
      assert.equal(accepted.status, 0, accepted.stdout + accepted.stderr);
      assert.match(accepted.stdout, /snapshot updated: demo\/wrong-axis/);
      assert.match(readFileSync(snapshot, 'utf8'), /It seems the sum/);
      // A bad slug, a bad option and a broken pack: exit 2 with a sentence, no stack trace.
      const spec = readFileSync(join(pack, 'spec.json'), 'utf8');
      writeFileSync(join(pack, 'spec.json'), spec.slice(0, -3));
      for (const [args, expected] of [
        [['dmeo'], /unknown exercise "dmeo" \(did you mean demo\?\) \(exercises: .*demo/],
        [['demo', '--no-pgae'], /unknown option --no-pgae \(did you mean --no-page\?\)/],
        [['demo'], /exercises\/demo is broken:\nexercises\/demo\/spec\.json is not valid JSON/],
      ]) {
        const bad = tool('check-pack', ...args);
        assert.equal(bad.status, 2, `${args}: ${bad.stdout}${bad.stderr}`);
        assert.match(bad.stderr, expected);
        assert.doesNotMatch(bad.stderr, /\n\s+at /, 'a stack trace');
      }
      writeFileSync(join(pack, 'spec.json'), spec);

      // tools/serve --no-build refuses a core that lacks the new pack (the page's other flavours were not
      // built), naming the command; tools/grade rebuilds the CLI's flavour after a reference source changed.
      const serve = tool('serve', '--no-build', '--port', '0');
      assert.equal(serve.status, 2, serve.stdout + serve.stderr);
      assert.match(
        serve.stderr,
        /^tools\/serve: the WebAssembly core is out of date \(.+\); run: tools\/build-wasm attnlab-relaxed-mt attnlab-relaxed attnlab-simd-mt attnlab-simd attnlab\n$/,
      );
      const stale = spawnSync(join(copy, 'tools', 'build-wasm'), ['attnlab-relaxed'], {
        cwd: copy,
        encoding: 'utf8',
        env: { ...env, CHECK: '1', FLAVOURS: '' },
      });
      assert.equal(stale.status, 3, stale.stdout + stale.stderr);
      assert.match(stale.stdout, /^build-wasm: stale: exercises\/demo\/reference\/bind\.cpp for attnlab-relaxed$/m);
      // The header is touched now, not in the future: a compile that ended before a future stamp left its object
      // older than the header, and the next grade rebuilt again (CI's first failure of this test). Every object
      // was built seconds ago, so now is newer than them, and the rebuild's object newer than now.
      const cliFlavour = FLAVOURS[bestFlavour({ threads: 1 })].file;
      const header = join(pack, 'reference', 'demo.hpp');
      const object = join(copy, 'build', 'wasm-obj', `${cliFlavour}-O3`, 'exercises_demo_reference_bind.cpp.o');
      const now = new Date();
      utimesSync(header, now, now);
      assert.ok(statSync(object).mtimeMs < statSync(header).mtimeMs, 'the object is older than the touched header');
      const regraded = tool('grade', join(pack, 'solution.js'), '--lang', 'en');
      assert.equal(regraded.status, 0, regraded.stdout + regraded.stderr);
      assert.match(
        regraded.stderr,
        new RegExp(
          `setup: building the WebAssembly core \\(${cliFlavour}: exercises/demo/reference/bind\\.cpp for ${cliFlavour} is out of date\\) … `,
        ),
      );
      const quiet = tool('grade', join(pack, 'solution.js'), '--lang', 'en');
      assert.equal(quiet.status, 0, quiet.stdout + quiet.stderr);
      assert.equal(quiet.stderr, '', 'a second grade rebuilt again');

      // The guide's walk (exercises/README.md, "From the scaffold to your own function"): row_sums becomes
      // rms_norm(x, weight, eps=1e-6), an argument more and one with a default, with the files an author
      // following it writes (tests/fixtures/guide-pack/; the snapshots are not among them). Then one command,
      // tools/check-pack with the page, builds what changed and grades every fixture in Node and in the page,
      // and the CLI grades both solutions: no other command.
      const walk = join(ROOT, 'tests', 'fixtures', 'guide-pack');
      const { order } = JSON.parse(readFileSync(join(pack, 'spec.json'), 'utf8'));
      rmSync(join(pack, 'fixtures'), { recursive: true });
      for (const name of ['reference/test_demo.cpp', 'reference/oracle.json']) rmSync(join(pack, name));
      cpSync(walk, pack, { recursive: true, filter: (src) => src !== join(walk, 'README.md') });
      const walked = JSON.parse(readFileSync(join(pack, 'spec.json'), 'utf8'));
      writeFileSync(join(pack, 'spec.json'), JSON.stringify({ ...walked, order }, null, 2));
      const pageEnv = { ...env };
      delete pageEnv.ATTNLAB_CHROMIUM; // the copy's own page, not the shared chromium's build of this tree
      delete pageEnv.FLAVOURS; // check-pack names the five the page needs
      const whole = toolIn(pageEnv, 'check-pack', 'demo', '--update');
      assert.equal(whole.status, 0, whole.stdout + whole.stderr);
      for (const line of [
        /✓ build +relinked .*\(5 flavours, doctest\)/,
        /✓ doctest +passed \(2\/2\)/,
        /✓ oracle +passed \(1\/1\)/,
        /✓ fixtures \(Node\) +passed \(aims 1\/1, js 3\/3, python 3\/3\)/,
        /✓ fixtures \(page\) +passed \(js 3\/3, python 3\/3\)/,
      ])
        assert.match(whole.stdout, line);
      for (const file of ['solution.js', 'solution.py']) {
        const graded = toolIn(pageEnv, 'grade', join(pack, file), '--format', 'json');
        assert.equal(graded.status, 0, graded.stdout + graded.stderr);
        const report = JSON.parse(graded.stdout);
        assert.deepEqual([report.status, report.tests.map((x) => x.status)], ['pass', ['pass', 'pass']], file);
        assert.equal(graded.stderr, '', `${file}: tools/grade rebuilt what check-pack had built`);
      }
      const eps = JSON.parse(readFileSync(join(pack, 'fixtures', 'py-eps-outside', 'expected_results.json'), 'utf8'));
      assert.deepEqual(
        eps.tests.map((x) => x.status),
        ['pass', 'fail'],
        'eps outside the root: only the test that gives eps fails',
      );
      assert.match(eps.tests[1].message, /eps is added after the square root/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  },
);
