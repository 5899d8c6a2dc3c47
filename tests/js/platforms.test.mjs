// The platform images (platforms/README.md): Exercism's test runner and Gradescope's autograder, each
// run on fixtures the way its platform runs it.
// - Where Docker answers (`docker info`), each image is built and run (`--network none`, and Exercism's
//   `--read-only` with /tmp a tmpfs).
// - Elsewhere the image's files are laid out in a temporary folder as its Dockerfile's last stage says
//   (parsed here: WORKDIR, COPY, ENV, USER, ENTRYPOINT; `COPY --from=<stage>` takes the path below that
//   stage's WORKDIR from this checkout, which tools/setup built as the stage builds it; RUN lines are not
//   run), so that the test and the image cannot drift, and the entry script runs there: inside bubblewrap
//   where the kernel allows it (the layout mounted at the image's paths, the platform's mounts, no
//   network, a non-root uid, for Exercism a read-only root with /tmp a tmpfs, nothing of this checkout
//   visible), else as a plain process in the layout (the paths relocated).
// Checked: Exercism's results.json equals each fixture's expected_results.json, including a hostile
// submission whose every function loops (finished, its CPU time, every process of the run, within
// Exercism's 20 s window); an unknown exercise is a results.json with status error; Gradescope's
// results.json keeps Gradescope's schema, with the fixture's statuses, and an empty submission is a
// valid results.json that says so. Plus the Dockerfiles' own contract (the builds' outputs are not taken
// from the build context, a non-root user, Exercism's entry point and working directory).
// Run: node --test tests/js/platforms.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { casesFor } from '../fixtures/class.mjs';
import { guestBundle, TRACKS } from '../../grader/index.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'attnlab-platforms-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));
const cases = casesFor('sdpa');
const json = (file) => JSON.parse(readFileSync(file, 'utf8'));
// A guard against a hang only (an image build takes minutes); never a judge of speed.
const HANG_MS = 400_000;
// Exercism's window: 20 s of one CPU per solution (its test-runner interface, "Allowed run time").
const EXERCISM_CPU_S = 20;

// ---- the Dockerfile, read ------------------------------------------------------------------------

const KNOWN = ['FROM', 'ARG', 'RUN', 'WORKDIR', 'COPY', 'ENV', 'USER', 'ENTRYPOINT'];

/** A Dockerfile's words: `a b "c d"` → ['a', 'b', 'c d'] (the shell form's quoting, simply). */
const words = (s) => [...s.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1] : m[2]));

/**
 * The stages of a Dockerfile: [{ name, from, workdir, env, user, entrypoint, copies: [{ from, chmod, srcs, dest }] }].
 * An instruction this reader does not know is refused (teach it here, or the layout would not be the image's).
 */
export function parseDockerfile(text, file = 'Dockerfile') {
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  const stages = [];
  let st = null;
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const [, ins, rest] = line.match(/^(\S+)\s*(.*)$/);
    const op = ins.toUpperCase();
    if (!KNOWN.includes(op)) throw new Error(`${file}: ${op} is not known to the layout (line ${i + 1})`);
    if (op === 'FROM') {
      const w = words(rest);
      st = { from: w[0], name: w[2] ?? null, workdir: '/', env: {}, user: null, entrypoint: null, copies: [] };
      stages.push(st);
      return;
    }
    if (op === 'ARG' && !st) return; // before the first FROM: the base's tag
    if (!st) throw new Error(`${file}: ${op} before FROM`);
    if (op === 'WORKDIR') st.workdir = posix.resolve(st.workdir, rest);
    else if (op === 'USER') st.user = rest;
    else if (op === 'ENTRYPOINT') st.entrypoint = JSON.parse(rest);
    else if (op === 'ENV') {
      for (const [, k, q, v] of rest.matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|(\S*))/g)) st.env[k] = q ?? v;
    } else if (op === 'COPY') {
      const w = rest.startsWith('[') ? JSON.parse(rest) : words(rest);
      const copy = { from: null, chmod: null, srcs: [], dest: null };
      for (const a of w) {
        if (a.startsWith('--from=')) copy.from = a.slice(7);
        else if (a.startsWith('--chmod=')) copy.chmod = parseInt(a.slice(8), 8);
        else if (a.startsWith('--')) throw new Error(`${file}: COPY ${a} is not known to the layout (line ${i + 1})`);
        else copy.srcs.push(a);
      }
      copy.dest = copy.srcs.pop();
      if (copy.srcs.some((s) => /[*?[]/.test(s))) throw new Error(`${file}: COPY with a wildcard (line ${i + 1})`);
      if (copy.srcs.length > 1 && !copy.dest.endsWith('/'))
        throw new Error(`${file}: COPY of several sources needs a destination ending in / (line ${i + 1})`);
      copy.dest = posix.resolve(st.workdir, copy.dest) + (copy.dest.endsWith('/') ? '/' : '');
      st.copies.push(copy);
    }
  });
  return stages;
}

/**
 * The last stage's files under `root`, as Docker would copy them: a source of the build context from
 * `context`, a source of an earlier stage (below that stage's WORKDIR) from this checkout. Timestamps are
 * kept, as COPY keeps them. → the last stage.
 */
function layOut(stages, { context, root, file }) {
  const last = stages.at(-1);
  mkdirSync(join(root, last.workdir), { recursive: true });
  for (const c of last.copies) {
    for (const src of c.srcs) {
      let from;
      if (c.from) {
        const stage = stages.find((s) => s.name === c.from);
        if (!stage) throw new Error(`${file}: COPY --from=${c.from}: no such stage`);
        const rel = posix.relative(stage.workdir, src);
        if (rel.startsWith('..')) throw new Error(`${file}: ${src} is not below stage ${c.from}'s WORKDIR`);
        from = join(ROOT, rel);
      } else from = join(context, src);
      if (!existsSync(from)) throw new Error(`${file}: COPY ${src}: ${from} does not exist here`);
      const into = c.dest.endsWith('/') && !statIsDir(from) ? posix.join(c.dest, posix.basename(src)) : c.dest;
      const to = join(root, into);
      mkdirSync(statIsDir(from) ? to : dirname(to), { recursive: true });
      cpSync(from, to, { recursive: true, preserveTimestamps: true });
      if (c.chmod !== null) chmodSync(to, c.chmod);
    }
  }
  return last;
}
const statIsDir = (p) => statSync(p).isDirectory();

// ---- how an image is run here --------------------------------------------------------------------

// ATTNLAB_PLATFORMS=plain: the plain fallback even where Docker or bubblewrap would do (to test it).
const plainAsked = process.env.ATTNLAB_PLATFORMS === 'plain';
const docker = !plainAsked && spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0;
const bwrapOk =
  !docker &&
  !plainAsked &&
  spawnSync('bwrap', ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', 'true'], {
    stdio: 'ignore',
    timeout: 20_000,
  }).status === 0;
const MODE = docker ? 'docker' : bwrapOk ? 'bubblewrap' : 'plain';
// The node images' PATH (the grader's Node is found on it).
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** `bash -c 'cmd…; times'` → the CPU seconds of every process the command ran (the shell's children, user + system). */
function withCpu(argv) {
  return ['bash', '-c', '"$@"; s=$?; times >&2; exit $s', 'cpu', ...argv];
}
function cpuOf(stderr) {
  const last = stderr.trimEnd().split('\n').at(-1) ?? '';
  const m = [...last.matchAll(/(\d+)m([\d.]+)s/g)].map((x) => +x[1] * 60 + +x[2]);
  return m.length === 2 ? m[0] + m[1] : undefined;
}

/**
 * One platform's image, ready to run: { name, stage, run({ args, mounts }) → { status, stderr, cpuS } }.
 * `mounts`: image path → folder here (the platform's bind mounts); `readOnly`: Exercism's --read-only.
 * `relocate(layoutRoot)`: the environment that points the entry script at the layout where nothing
 * can be mounted at the image's paths (the plain fallback).
 */
function image({ name, dockerfile, context, readOnly, relocate }) {
  const file = relative(ROOT, dockerfile);
  const stages = parseDockerfile(readFileSync(dockerfile, 'utf8'), file);
  const root = join(tmp, `${name}-image`);
  const stage = layOut(stages, { context, root, file });
  const tag = `attnlab-${name}-test`;
  let built = false;
  const run = ({ args, mounts }) => {
    // The command, inside a shell that prints the CPU time of all it ran (the grader's sandbox children included).
    const command = withCpu([...(stage.entrypoint ?? []), ...args]);
    let r;
    if (MODE === 'docker') {
      if (!built) {
        const b = spawnSync('docker', ['build', '-q', '-f', dockerfile, '-t', tag, context], {
          encoding: 'utf8',
          timeout: 30 * 60_000,
        });
        assert.equal(b.status, 0, `docker build ${file}: ${b.stderr}`);
        built = true;
      }
      const flags = ['--rm', '--network', 'none'];
      if (readOnly) flags.push('--read-only', '--tmpfs', '/tmp:rw');
      for (const [at, dir] of Object.entries(mounts)) {
        chmodSync(dir, 0o777); // the image's user is not this one
        flags.push('--mount', `type=bind,src=${dir},dst=${at}`);
      }
      r = spawnSync('docker', ['run', ...flags, '--entrypoint', command[0], tag, ...command.slice(1)], {
        encoding: 'utf8',
        timeout: HANG_MS,
      });
    } else if (MODE === 'bubblewrap') {
      const b = ['--unshare-all', '--die-with-parent', '--new-session'];
      for (const d of ['usr', 'etc']) b.push('--ro-bind', `/${d}`, `/${d}`);
      for (const d of ['bin', 'lib', 'lib64', 'sbin']) {
        if (!existsSync(`/${d}`)) continue;
        if (lstatSync(`/${d}`).isSymbolicLink()) b.push('--symlink', readlinkSync(`/${d}`), `/${d}`);
        else b.push('--ro-bind', `/${d}`, `/${d}`);
      }
      for (const top of readdirSync(root)) b.push(readOnly ? '--ro-bind' : '--bind', join(root, top), `/${top}`);
      for (const [at, dir] of Object.entries(mounts)) b.push('--bind', dir, at);
      b.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
      if (stage.user) b.push('--uid', '999', '--gid', '999');
      b.push('--chdir', stage.workdir, '--clearenv');
      for (const [k, v] of Object.entries({ PATH, ...stage.env })) b.push('--setenv', k, v);
      if (readOnly) b.push('--remount-ro', '/');
      r = spawnSync('bwrap', [...b, ...command], { cwd: '/', env: {}, encoding: 'utf8', timeout: HANG_MS });
    } else {
      // No namespaces: the layout's paths stand in for the image's, the mounts are copied in and back.
      for (const [at, dir] of Object.entries(mounts)) {
        rmSync(join(root, at), { recursive: true, force: true });
        cpSync(dir, join(root, at), { recursive: true });
      }
      const argv = command.map((a) => (/^\/\w/.test(a) ? join(root, a) : a));
      r = spawnSync(argv[0], argv.slice(1), {
        cwd: join(root, stage.workdir),
        env: { PATH, ...stage.env, ...relocate?.(root) },
        encoding: 'utf8',
        timeout: HANG_MS,
      });
      for (const [at, dir] of Object.entries(mounts)) cpSync(join(root, at), dir, { recursive: true });
    }
    return { ...r, cpuS: cpuOf(r.stderr ?? '') };
  };
  return { name, stages, stage, root, run };
}

// The guests' bundles up to date before they are laid out (as the build stage's last RUN makes them).
for (const t of Object.values(TRACKS)) await guestBundle(t);

const exercism = image({
  name: 'exercism',
  dockerfile: join(ROOT, 'platforms/exercism/Dockerfile'),
  context: ROOT,
  readOnly: true,
});

// Gradescope's context: the autograder zip of tools/gradescope-autograder, unzipped into source/.
const gsContext = join(tmp, 'gradescope-context');
{
  const zip = join(tmp, 'autograder.zip');
  const b = spawnSync(join(ROOT, 'tools/gradescope-autograder'), ['--exercise', 'sdpa', '--lang', 'en', '--out', zip], {
    encoding: 'utf8',
  });
  if (b.status !== 0) throw new Error(`tools/gradescope-autograder: ${b.stderr}`);
  mkdirSync(join(gsContext, 'source'), { recursive: true });
  if (spawnSync('unzip', ['-q', zip, '-d', join(gsContext, 'source')]).status !== 0) throw new Error('unzip failed');
}
const gradescope = image({
  name: 'gradescope',
  dockerfile: join(ROOT, 'platforms/gradescope/Dockerfile'),
  context: gsContext,
  readOnly: false,
  relocate: (root) => ({ AUTOGRADER_ROOT: join(root, 'autograder') }),
});

// ---- the Dockerfiles' contract -------------------------------------------------------------------

test(`how the images run here: ${MODE}`, (t) => {
  t.diagnostic(
    {
      docker: 'each image built and run by Docker',
      bubblewrap: 'each layout run inside bubblewrap at the image paths, no network, a non-root uid',
      plain:
        'no Docker, no namespaces: each layout run as a plain process, paths relocated (read-only and network not checked)',
    }[MODE],
  );
  assert.ok(['docker', 'bubblewrap', 'plain'].includes(MODE));
});

test("Exercism's Dockerfile: Exercism's paths, a non-root user, a runtime on Node 20, the core and bundles built in the image", () => {
  const [build, last] = [exercism.stages[0], exercism.stage];
  assert.equal(exercism.stages.length, 2);
  assert.equal(last.workdir, '/opt/test-runner');
  assert.deepEqual(last.entrypoint, ['/opt/test-runner/bin/run.sh']);
  assert.ok(last.user && !['root', '0'].includes(last.user.split(':')[0]), `USER ${last.user}`);
  assert.match(last.from, /^node:20-bookworm/);
  assert.match(build.from, /^node:20-bookworm/);
  // What the build stage makes must not come from the build context: the ignore file beside the Dockerfile excludes it.
  const ignored = readFileSync(join(ROOT, 'platforms/exercism/Dockerfile.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const out of ['node_modules', 'wasm/dist', 'grader/dist', 'build'])
    assert.ok(ignored.includes(out), `${out} is built in the image, so the context must leave it out`);
  const fromBuild = last.copies.flatMap((c) => c.srcs.map((s) => posix.relative(build.workdir, s)));
  for (const need of ['bin', 'grader', 'wasm/dist', 'exercises', 'node_modules/acorn'])
    assert.ok(fromBuild.includes(need), `the runtime stage copies ${need}`);
  assert.ok(existsSync(join(exercism.root, 'opt/test-runner/grader/dist/guest/python.js')), 'the bundles are laid out');
});

test("Gradescope's Dockerfile: Gradescope's base image, the autograder in /autograder/source, run_autograder beside it", () => {
  const last = gradescope.stage;
  assert.match(last.from, /^\$\{BASE_REPO\}:\$\{TAG\}$|^gradescope\/autograder-base/);
  assert.match(
    readFileSync(join(ROOT, 'platforms/gradescope/Dockerfile'), 'utf8'),
    /ARG BASE_REPO=gradescope\/autograder-base/,
  );
  assert.equal(last.entrypoint, null, "the base image's entry point is Gradescope's harness");
  for (const f of [
    'autograder/run_autograder',
    'autograder/source/setup.sh',
    'autograder/source/attnlab/grader/cli.mjs',
  ])
    assert.ok(existsSync(join(gradescope.root, f)), `${f} laid out`);
  assert.ok(statMode(join(gradescope.root, 'autograder/run_autograder')) & 0o100, 'run_autograder is executable');
  // setup.sh, as the image's build runs it: with Node 20 here it installs nothing and lists the packs.
  const s = spawnSync('bash', [join(gradescope.root, 'autograder/source/setup.sh')], {
    encoding: 'utf8',
    timeout: HANG_MS,
  });
  assert.equal(s.status, 0, s.stderr);
  assert.match(s.stdout, /sdpa/);
});
const statMode = (p) => parseInt(spawnSync('stat', ['-c', '%a', p], { encoding: 'utf8' }).stdout, 8);

test('the layout reader refuses what it does not know', () => {
  assert.throws(() => parseDockerfile('FROM x\nADD a b\n'), /ADD is not known/);
  assert.throws(() => parseDockerfile('FROM x\nCOPY --link a b\n'), /COPY --link is not known/);
  assert.throws(() => parseDockerfile('FROM x\nCOPY a* b/\n'), /wildcard/);
  const [s] = parseDockerfile('FROM node:20 AS b\nWORKDIR /o\nWORKDIR t\nENV A=1 B="x y"\nCOPY a \\\n  c/ d/\nUSER u');
  assert.deepEqual(s, {
    from: 'node:20',
    name: 'b',
    workdir: '/o/t',
    env: { A: '1', B: 'x y' },
    user: 'u',
    entrypoint: null,
    copies: [{ from: null, chmod: null, srcs: ['a', 'c/'], dest: '/o/t/d/' }],
  });
});

// ---- Exercism ------------------------------------------------------------------------------------

/** A solution folder with `files` (name → a case's file), and an empty output folder. */
function solution(label, files, config) {
  const dir = join(tmp, `${label}-solution`),
    out = join(tmp, `${label}-output`);
  mkdirSync(join(dir, '.meta'), { recursive: true });
  mkdirSync(out, { recursive: true });
  for (const [name, from] of Object.entries(files)) cpSync(from, join(dir, name));
  if (config) writeFileSync(join(dir, '.meta', 'config.json'), JSON.stringify(config));
  return { dir, out };
}
const runExercism = (slug, { dir, out }) =>
  exercism.run({ args: [slug, '/solution/', '/output/'], mounts: { '/solution': dir, '/output': out } });

test("Exercism: each fixture's results.json is its expected_results.json, on both tracks; the file .meta/config.json names", () => {
  for (const name of ['pass', 'py-no-scaling', 'mask-added']) {
    const c = cases.get(name);
    const file = `attention${c.track.extensions[0]}`;
    // another file the runner must not take
    const sol = solution(
      name,
      { [file]: c.file, 'reference.js': join(ROOT, 'exercises/sdpa/solution.js') },
      {
        files: { solution: [file] },
      },
    );
    const r = runExercism('sdpa', sol);
    assert.equal(r.status, 0, `${name}: ${r.stderr}`);
    assert.equal(readFileSync(join(sol.out, 'results.json'), 'utf8'), readFileSync(c.expectedFile, 'utf8'), name);
  }
});

test('Exercism: an unknown exercise is a results.json with status error, exit 0', () => {
  const sol = solution('unknown', { 'attention.js': cases.get('pass').file });
  const r = runExercism('no-such-pack', sol);
  assert.equal(r.status, 0, r.stderr);
  const doc = json(join(sol.out, 'results.json'));
  assert.equal(doc.version, 3);
  assert.equal(doc.status, 'error');
  assert.match(doc.message, /unknown exercise "no-such-pack"/);
});

test("Exercism: every function an endless loop: finished with its expected results.json, within Exercism's 20 s of CPU", (t) => {
  const c = cases.get('sandbox-loop-every-function');
  const sol = solution('loops', { 'attention.js': c.file });
  const r = runExercism('sdpa', sol);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(existsSync(join(sol.out, 'results.json')), 'results.json written');
  assert.equal(readFileSync(join(sol.out, 'results.json'), 'utf8'), readFileSync(c.expectedFile, 'utf8'));
  assert.ok(r.cpuS !== undefined, `no CPU time printed: ${r.stderr}`);
  t.diagnostic(`CPU time of the whole run (${MODE}): ${r.cpuS.toFixed(1)} s`);
  assert.ok(r.cpuS < EXERCISM_CPU_S, `the run took ${r.cpuS.toFixed(1)} s of CPU, Exercism allows ${EXERCISM_CPU_S} s`);
});

// ---- Gradescope ----------------------------------------------------------------------------------

// Gradescope's results.json contract (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
// a numeric score, and per test a name, score ≤ max_score, status passed|failed, a visibility it knows.
function gradescopeProblems(doc) {
  const p = [],
    VIS = ['hidden', 'after_due_date', 'after_published', 'visible'];
  if (typeof doc.score !== 'number') p.push('score is not a number');
  if (!Array.isArray(doc.tests) || !doc.tests.length) p.push('no tests');
  for (const t of doc.tests ?? []) {
    if (typeof t.name !== 'string' || !t.name) p.push('a test without a name');
    if (typeof t.score !== 'number' || typeof t.max_score !== 'number' || t.score > t.max_score)
      p.push(`${t.name}: score ${t.score} / ${t.max_score}`);
    if (!['passed', 'failed'].includes(t.status)) p.push(`${t.name}: status ${t.status}`);
    if (t.visibility !== undefined && !VIS.includes(t.visibility)) p.push(`${t.name}: visibility ${t.visibility}`);
    if (t.output !== undefined && typeof t.output !== 'string') p.push(`${t.name}: output not a string`);
  }
  if (doc.visibility !== undefined && !VIS.includes(doc.visibility)) p.push(`visibility ${doc.visibility}`);
  if (Math.abs(doc.score - (doc.tests ?? []).reduce((a, t) => a + t.score, 0)) > 1e-9)
    p.push('score is not the sum of the tests');
  return p;
}

/** Gradescope's run: /autograder/submission (here `files` below work/) → /autograder/results/results.json. */
function runGradescope(label, files) {
  const sub = join(tmp, `${label}-submission`),
    results = join(tmp, `${label}-results`);
  mkdirSync(join(sub, 'work'), { recursive: true });
  mkdirSync(results, { recursive: true });
  for (const [name, from] of Object.entries(files)) cpSync(from, join(sub, 'work', name));
  const r = gradescope.run({
    args: ['/autograder/run_autograder'],
    mounts: { '/autograder/submission': sub, '/autograder/results': results },
  });
  assert.equal(r.status, 0, `${label}: ${r.stderr}`);
  return json(join(results, 'results.json'));
}

test("Gradescope: /autograder/submission graded into a results.json of Gradescope's schema with the fixture's statuses", () => {
  const c = cases.get('py-no-scaling');
  const doc = runGradescope('py-no-scaling', { 'attention.py': c.file });
  assert.deepEqual(gradescopeProblems(doc), []);
  assert.deepEqual(
    doc.tests.map((t) => t.status),
    json(c.expectedFile).tests.map((t) => (t.status === 'pass' ? 'passed' : 'failed')),
  );
  assert.equal(doc.score, 2);
});

test('Gradescope: no submission at all is still a valid results.json that says so', () => {
  const none = runGradescope('empty', {});
  assert.deepEqual(gradescopeProblems(none), []);
  assert.equal(none.score, 0);
  assert.match(none.tests[0].output, /no \.js, \.py or \.ipynb file found/);
});
