// The tools' command lines (tools/lib/args.mjs): every Node tool in tools/ refuses an option it does not
// know with exit 2 and a message that names it, before it builds or measures anything, and never with a
// stack trace; those on the shared parser also answer --help with their usage (exit 0) and refuse a bad
// value with the usage. tools/README.md lists them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOOLS = join(ROOT, 'tools');
const nodeTools = readdirSync(TOOLS).filter((f) => {
  const p = join(TOOLS, f);
  return statSync(p).isFile() && !f.includes('.') && readFileSync(p, 'utf8').startsWith('#!/usr/bin/env node');
});
const onParser = (name) => readFileSync(join(TOOLS, name), 'utf8').includes("from './lib/args.mjs'");
const run = (name, args) =>
  spawnSync(process.execPath, [join(TOOLS, name), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120000 });
const STACK = /^\s+at .+[:(]/m;

test('the Node tools are found, and the measuring ones are on the shared parser', () => {
  assert.ok(nodeTools.length >= 10, nodeTools.join(' '));
  for (const name of [
    'bench-batch',
    'cold-grade',
    'cpu-budget',
    'isolation-cost',
    'new-exercise',
    'sandbox-cost',
    'serve',
    'work-budget',
  ])
    assert.ok(onParser(name), `${name} parses its arguments with tools/lib/args.mjs`);
});

for (const name of nodeTools) {
  test(`tools/${name}: an unknown option is refused with exit 2 and its name, no stack trace`, () => {
    const r = run(name, ['--no-such-option']);
    assert.equal(r.status, 2, `${name}: exit ${r.status}\n${r.stderr}`);
    assert.match(r.stderr + r.stdout, /no-such-option/);
    assert.doesNotMatch(r.stderr, STACK, r.stderr);
  });
}

for (const name of nodeTools.filter(onParser)) {
  test(`tools/${name}: --help prints its usage (exit 0); a bad number is refused with the usage`, () => {
    const help = run(name, ['--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, new RegExp(`^usage: tools/${name}\\b`));
    // every tool on the parser takes some count; the first numeric option its usage names gets "x"
    const usage = help.stdout;
    const numeric = usage.match(/--(rounds|size|jobs|clicks|port|T|d) /);
    if (!numeric) return;
    const bad = run(name, [
      `--${numeric[1]}`,
      'x',
      ...(name === 'measure-memory' ? ['exercises/sdpa/solution.py'] : []),
    ]);
    assert.equal(bad.status, 2, `${name} --${numeric[1]} x: exit ${bad.status}\n${bad.stderr}`);
    assert.match(bad.stderr, new RegExp(`^tools/${name}: --${numeric[1]} needs .*"x"`, 'm'));
    assert.match(bad.stderr, /usage: tools\//);
    assert.doesNotMatch(bad.stderr, STACK);
  });
}

// A checkout that tools/grade set up has the CLI's WebAssembly flavour only: a tool that needs another
// says which build is missing and what to run (a copy of wasm/ whose dist/ holds no build).
test('a missing WebAssembly build ends a tool with what to build, exit 1, no stack trace', () => {
  const dir = mkdtempSync(join(tmpdir(), 'attnlab-notbuilt-'));
  try {
    mkdirSync(join(dir, 'wasm', 'dist'), { recursive: true });
    mkdirSync(join(dir, 'tools', 'lib'), { recursive: true });
    for (const f of ['index.mjs', 'fused.mjs']) copyFileSync(join(ROOT, 'wasm', f), join(dir, 'wasm', f));
    copyFileSync(join(ROOT, 'tools', 'lib', 'args.mjs'), join(dir, 'tools', 'lib', 'args.mjs'));
    const script = join(dir, 'tools', 'probe.mjs');
    writeFileSync(
      script,
      "import { toolArgs } from './lib/args.mjs';\nimport { loadCore } from '../wasm/index.mjs';\n" +
        "toolArgs('probe', 'usage: tools/probe', {});\nawait loadCore({ flavour: 'simd' });\nconsole.log('loaded');\n",
    );
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60000 });
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stderr,
      /^tools\/probe: the 'simd' build of the WebAssembly core is missing \(wasm\/dist\/attnlab-simd\.wasm\): run tools\/build\n$/,
    );
    assert.doesNotMatch(r.stderr, STACK);
    assert.equal(r.stdout, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// tools/test (bash) takes --quick or --stress or nothing: anything else is refused before it runs a test.
test('tools/test answers --help with its usage and refuses another argument, running nothing', () => {
  const sh = (...args) => spawnSync(join(TOOLS, 'test'), args, { cwd: ROOT, encoding: 'utf8', timeout: 20000 });
  const help = sh('--help');
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^usage: tools\/test \[--quick \| --stress\]/);
  for (const args of [['--bogus'], ['--quick', 'extra']]) {
    const r = sh(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /^tools\/test: unknown arguments? '.+'\nusage: tools\/test/);
    assert.equal(r.stdout, '', 'nothing was run');
  }
});
