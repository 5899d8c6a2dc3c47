// The docs against the code:
// - the top README's usage blocks name, per command, exactly the options `node grader/cli.mjs --help` names;
// - tests/README.md, tests/browser/README.md and tests/server/README.md list exactly the test files that exist;
// - grader/hosts/README.md (the sandbox contract) names every `invalid` reason the message tables have, and no other;
// - every folder of the source (grader/, server/, tools/, web/, wasm/, platforms/) has a README that names each of
//   its files, or is named by the nearest README above it;
// - grader/README.md's report shape names the fields of types.d.ts's Report and TestEntry, in order;
// - grader/tracks/README.md's contract table, grader/hosts/README.md's sandbox block and exercises/README.md's
//   table of ctx name exactly the members of types.d.ts's Track, Sandbox and Ctx;
// - every repo path written in backticks in a README exists (or is a build output git ignores);
// - every command in a README code block marked ```sh checked runs with exit 0 (keep them cheap).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './cli.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (f) => readFileSync(join(ROOT, f), 'utf8');
const READMES = spawnSync('git', ['ls-files', '--', '*README.md'], { cwd: ROOT, encoding: 'utf8' })
  .stdout.split('\n')
  .filter((f) => f && !f.includes('node_modules/'));

/** The fenced code blocks of a Markdown text: [{ info, lines }]. */
function codeBlocks(md) {
  const blocks = [];
  let open = null;
  for (const line of md.split('\n')) {
    const fence = /^```(.*)$/.exec(line);
    if (fence && !open) open = { info: fence[1].trim(), lines: [] };
    else if (fence) (blocks.push(open), (open = null));
    else if (open) open.lines.push(line);
  }
  return blocks;
}

/** Usage lines (`node grader/cli.mjs <command> …` and the indented lines that go on from them): command -> options. */
function usage(lines) {
  const commands = new Map();
  let current = null;
  for (const line of lines) {
    const m = /node grader\/cli\.mjs ((?:[a-z][\w-]*)(?: [a-z][\w-]*)*)(?= <| \[|$)(.*)$/.exec(line); // (not an example: its file names are not words)
    if (m) {
      current = m[1];
      if (!commands.has(current)) commands.set(current, new Set());
    } else if (!/^\s+\[/.test(line)) current = null;
    if (current) for (const o of line.match(/--[a-z][\w-]*/g) ?? []) commands.get(current).add(o);
  }
  return commands;
}

test("the README's usage blocks give each command exactly the options of `cli.mjs --help`", () => {
  const help = cli('--help');
  assert.equal(help.status, 0, help.stderr);
  const fromHelp = usage((help.stdout + help.stderr).split('\n'));
  assert.ok(fromHelp.size >= 2, `--help names too few commands:\n${help.stdout}`);
  const fromReadme = usage(codeBlocks(read('README.md')).flatMap((b) => b.lines));
  for (const cmd of fromReadme.keys())
    assert.ok(fromHelp.has(cmd), `README.md shows "${cmd}", which --help does not know`);
  // Every command shown in the README, and every command --help gives options to: the same options.
  const commands = new Set([...fromReadme.keys(), ...[...fromHelp].filter(([, o]) => o.size).map(([c]) => c)]);
  const table = (m) => Object.fromEntries([...commands].sort().map((c) => [c, [...(m.get(c) ?? [])].sort()]));
  assert.deepEqual(table(fromReadme), table(fromHelp));
});

/** The `*.test.mjs` names a text mentions in backticks. */
const testFilesIn = (text) => new Set([...text.matchAll(/`([\w.-]+\.test\.mjs)`/g)].map((m) => m[1]));
const testFilesOf = (dir) => new Set(readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.test.mjs')));

test('tests/README.md lists exactly the test files of tests/js/, tests/browser/ and tests/server/', () => {
  const rows = Object.fromEntries(
    read('tests/README.md')
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((l) => [/^\| `([^`]+)`/.exec(l)[1], l]),
  );
  for (const dir of ['js/', 'browser/', 'server/']) {
    assert.ok(rows[dir], `tests/README.md has no row for ${dir}`);
    assert.deepEqual(
      [...testFilesIn(rows[dir])].sort(),
      [...testFilesOf(`tests/${dir}`)].sort(),
      `tests/README.md, row ${dir}`,
    );
  }
});

test('tests/browser/README.md and tests/server/README.md list exactly their test files', () => {
  for (const dir of ['tests/browser', 'tests/server'])
    assert.deepEqual([...testFilesIn(read(`${dir}/README.md`))].sort(), [...testFilesOf(dir)].sort(), dir);
});

test('grader/hosts/README.md names exactly the `invalid` reasons of the message tables', () => {
  const keys = new Set([...read('grader/core/messages.mjs').matchAll(/'invalid\.(\w+)'/g)].map((m) => m[1]));
  const sentence = /`invalid` carries `reason` \(([^)]*)\)/.exec(read('grader/hosts/README.md').replace(/\s+/g, ' '));
  assert.ok(sentence, 'grader/hosts/README.md no longer says which reasons `invalid` carries');
  assert.deepEqual([...sentence[1].matchAll(/`(\w+)`/g)].map((m) => m[1]).sort(), [...keys].sort());
});

// The source's folders: where the project's code lives (tests/ has its own lists, checked above).
const SOURCE = /^(grader|server|tools|web|wasm|platforms)\//;
const isSource = (f) => SOURCE.test(f) && (/\.(mjs|cjs|js|cpp|hpp|h|py)$/.test(f) || /^tools\/[^/.]+$/.test(f));

test('every source folder has a README of its own that names each of its files, or its parent names it', () => {
  const files = spawnSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\n').filter(isSource);
  const byFolder = new Map();
  for (const f of files)
    byFolder.set(dirname(f), [...(byFolder.get(dirname(f)) ?? []), f.slice(dirname(f).length + 1)]);
  const problems = [];
  for (const [dir, names] of byFolder) {
    if (existsSync(join(ROOT, dir, 'README.md'))) {
      const text = read(`${dir}/README.md`);
      for (const name of names) if (!text.includes(name)) problems.push(`${dir}/README.md does not name ${name}`);
    } else {
      // A folder without a README of its own (a host's files, the stdlib modules): the nearest README above it says
      // what it holds, naming it by its path from there.
      let up = dirname(dir);
      while (up !== '.' && !existsSync(join(ROOT, up, 'README.md'))) up = dirname(up);
      const rel = dir.slice(up === '.' ? 0 : up.length + 1);
      if (!read(up === '.' ? 'README.md' : `${up}/README.md`).includes(`${rel}/`))
        problems.push(`${dir}/ has no README.md and ${up}/README.md does not name it`);
    }
  }
  assert.deepEqual(problems, []);
});

/** The fields of `interface name` in a .d.ts text, in order, an optional one with its `?`. */
function fieldsOf(dts, name) {
  const body = new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`).exec(dts);
  assert.ok(body, `grader/types.d.ts has no interface ${name}`);
  return [...body[1].matchAll(/^ {2}(\w+)(\?)?:/gm)].map((m) => m[1] + (m[2] ?? ''));
}

test("grader/README.md's report shape is the Report and TestEntry of grader/types.d.ts, field for field", () => {
  const dts = read('grader/types.d.ts');
  const test = fieldsOf(dts, 'TestEntry').join(', ');
  const report = fieldsOf(dts, 'Report').map((f) => (f === 'tests' ? `tests: [{ ${test} }]` : f));
  const readme = read('grader/README.md');
  const section = readme.slice(readme.indexOf('\n## Report\n'));
  const block = codeBlocks(section)[0];
  assert.ok(block, 'grader/README.md: the Report section has no code block');
  assert.equal(block.lines.join(' ').replace(/\s+/g, ' ').trim(), `{ ${report.join(', ')} }`);
});

/** The members of `interface name` in a .d.ts text (fields and methods at its top level), as a sorted list. */
function membersOf(dts, name) {
  const body = new RegExp(`export interface ${name}(?:<[^>]*>)? \\{([\\s\\S]*?)\\n\\}`).exec(dts);
  assert.ok(body, `grader/types.d.ts has no interface ${name}`);
  return [...body[1].matchAll(/^ {2}(?:readonly )?(\w+)\??[(:]/gm)].map((m) => m[1]).sort();
}

/** The section of a Markdown text that starts at `heading` and ends at the next heading of its level or above. */
function sectionOf(md, heading) {
  const at = md.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `no section ${heading}`);
  const level = /^#+/.exec(heading)[0].length;
  const rest = md.slice(at + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level}} `));
  return end < 0 ? rest : rest.slice(0, end);
}

test("grader/tracks/README.md's contract table names exactly the members of types.d.ts's Track", () => {
  const section = sectionOf(
    read('grader/tracks/README.md'),
    "## The contract (each track's `index.mjs`, a frozen object)",
  );
  const named = section
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .flatMap((l) => [...l.split('|')[1].matchAll(/`(\w+)/g)].map((m) => m[1]));
  assert.deepEqual([...new Set(named)].sort(), membersOf(read('grader/types.d.ts'), 'Track'));
});

test("grader/hosts/README.md's sandbox contract names exactly the members of types.d.ts's Sandbox", () => {
  const block = codeBlocks(sectionOf(read('grader/hosts/README.md'), '## The sandbox contract'))[0];
  assert.ok(block, 'the sandbox contract has no code block');
  const named = block.lines.map((l) => /^(\w+)[(:]/.exec(l)?.[1]).filter(Boolean);
  assert.deepEqual([...new Set(named)].sort(), membersOf(read('grader/types.d.ts'), 'Sandbox'));
});

test("exercises/README.md's table of ctx names exactly the members of types.d.ts's Ctx", () => {
  const md = read('exercises/README.md');
  const table = md.slice(md.indexOf('What a test gets in `ctx`'), md.indexOf('| kit: '));
  const named = table
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .flatMap((l) => [...l.split('|')[1].matchAll(/`(?:await )?ctx\.(\w+)/g)].map((m) => m[1]));
  assert.deepEqual([...new Set(named)].sort(), membersOf(read('grader/types.d.ts'), 'Ctx'));
});

test('every repo path in backticks in a README exists', () => {
  const top = new Set(readdirSync(ROOT));
  const missing = [];
  for (const readme of READMES) {
    const here = dirname(readme);
    for (const [, p] of read(readme).matchAll(/`([^`\s]+)`/g)) {
      // A path: slash-separated names, no placeholders (<slug>, …, *), no URL, no option value.
      if (!/^[\w.-]+(\/[\w.-]+)+\/?$/.test(p) || p.startsWith('..')) continue;
      const first = p.split('/')[0];
      const candidates = [join(ROOT, here, p), join(ROOT, p)];
      if (!top.has(first) && !existsSync(join(ROOT, here, first))) continue; // not a path of this repo (a MIME type, ru/en)
      if (candidates.some((c) => existsSync(c))) continue;
      // A build output that is not built yet: git knows it as ignored (a directory pattern needs the slash).
      const ignored = candidates.some((c) =>
        [c, `${c}/`].some((q) => spawnSync('git', ['check-ignore', '-q', q], { cwd: ROOT }).status === 0),
      );
      if (!ignored) missing.push(`${readme}: \`${p}\``);
    }
  }
  assert.deepEqual(missing, []);
});

test('every command in a README block marked ```sh checked runs', () => {
  let ran = 0;
  for (const readme of READMES) {
    for (const block of codeBlocks(read(readme)).filter((b) => b.info === 'sh checked')) {
      for (const line of block.lines.map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean)) {
        const r = spawnSync('bash', ['-c', line], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
        assert.equal(
          r.status,
          0,
          `${readme}: \`${line}\` exited ${r.status}\n${r.stdout.slice(-1000)}${r.stderr.slice(-1000)}`,
        );
        ran++;
      }
    }
  }
  assert.ok(ran >= 2, `only ${ran} checked commands in the READMEs`);
});
