// The CLI speaking for itself: --help (every option, its default, the exit codes, examples), the
// spelling check behind "did you mean", usage errors in --lang, and a syntax error said once with its
// source line and a caret (both tracks); only a regular file of at most 1 MiB is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, cliWith } from './cli.mjs';
import { closest, editDistance } from '../../grader/cli-text.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'attnlab-cli-'));
const file = (name, text) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};
const CYRILLIC = /[\u0400-\u04FF]/;

test('--help: every option of the usage lines explained with its default, the exit codes and three examples, in --lang', () => {
  for (const [lang, words] of [
    ['ru', { def: 'по умолчанию', codes: 'Коды выхода', examples: 'Примеры' }],
    ['en', { def: 'default', codes: 'Exit codes', examples: 'Examples' }],
  ]) {
    const r = cli('--help', '--lang', lang);
    assert.equal(r.status, 0, r.stderr);
    const help = r.stdout;
    const usage = help.slice(0, help.indexOf('\n\n', help.indexOf('node grader/cli.mjs')));
    const options = new Set([...usage.matchAll(/--[a-z-]+/g)].map((m) => m[0]));
    assert.ok(options.size >= 12, [...options].join(' '));
    const body = help.slice(usage.length);
    for (const o of options)
      assert.match(body, new RegExp(`^  (?:-h, )?${o}\\b|, ${o}\\b`, 'm'), `${lang}: ${o} is not explained`);
    // each option line of grade (the first options section) names its default or says it is required
    const grade = body.slice(body.indexOf('\n  --exercise'), body.indexOf('grade-batch:'));
    for (const o of [
      '--exercise',
      '--track',
      '--format',
      '--lang',
      '--seed',
      '--timeout-ms',
      '--deadline-ms',
      '--backend',
      '--verbose',
    ]) {
      const entry = grade.slice(grade.indexOf(`  ${o}`)).split(/\n {2}(?=-)/)[0];
      assert.ok(entry.includes(words.def), `${lang}: ${o} has no default: ${entry}`);
    }
    assert.match(body, new RegExp(`${words.codes}:\\n  0 .+\\n  1 .+\\n  2 .+`));
    const examples = body
      .slice(body.indexOf(words.examples))
      .split('\n')
      .filter((l) => l.startsWith('  node grader/cli.mjs'));
    assert.equal(examples.length, 3);
    assert.equal(CYRILLIC.test(help), lang === 'ru');
  }
  assert.equal(cli('-h').stdout, cli('--help', '--lang', 'ru').stdout, 'Russian by default');
});

test("--help's first example grades as it says", () => {
  const help = cli('--help').stdout;
  const first = help
    .slice(help.indexOf('Примеры:'))
    .split('\n')
    .find((l) => l.startsWith('  node grader/cli.mjs grade '));
  const r = cli(...first.trim().split(/\s+/).slice(2), '--lang', 'en');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /7 of 7 tests passed/);
});

test('edit distance: a transposition is one slip; suggestions only for near misses', () => {
  assert.equal(editDistance('fromat', 'format'), 1);
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(closest('--fromat', ['--format', '--seed', '--lang']), '--format');
  assert.equal(closest('--tiemout-ms', ['--timeout-ms', '--deadline-ms']), '--timeout-ms');
  assert.equal(closest('--verb', ['--verbose', '--exercise']), '--verbose', 'the one option it begins');
  assert.equal(closest('--colour', ['--format', '--seed', '--lang']), null);
  assert.equal(closest('-x', ['-h']), null, 'one or two letters suggest nothing');
});

test('unknown options, commands and exercises: "did you mean", in --lang, exit 2, no parser text or stack', () => {
  const sub = file('w.js', 'function foo() {}\n');
  const cases = [
    [
      ['grade', sub, '--fromat', 'json'],
      /неизвестный параметр --fromat; может быть, --format\?/,
      /unknown option --fromat; did you mean --format\?/,
    ],
    [
      ['grade', sub, '--format', 'jsno'],
      /у параметра --format значение должно быть text, json или gradescope, а не «jsno»; может быть, json\?/,
      /--format must be text, json or gradescope, got "jsno"; did you mean json\?/,
    ],
    [
      ['grdae', sub],
      /неизвестная команда «grdae»; может быть, grade\?/,
      /unknown command "grdae"; did you mean grade\?/,
    ],
    [
      ['grade', sub, '--exercise', 'kvcache'],
      /нет упражнения «kvcache».*может быть, kv_cache\?/,
      /unknown exercise "kvcache".*did you mean kv_cache\?/,
    ],
    [['grade-batch', tmp, '--out', join(tmp, 'o'), '--jbos', '2'], /может быть, --jobs\?/, /did you mean --jobs\?/],
  ];
  for (const [args, ru, en] of cases) {
    for (const [lang, re] of [
      ['ru', ru],
      ['en', en],
    ]) {
      const r = cli(...args, '--lang', lang);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, re);
      assert.doesNotMatch(r.stderr, /To specify a positional argument|\n\s+at /);
    }
  }
});

test("a negative number after an option is its value, refused with the option's range", () => {
  const sub = file('w3.js', 'function foo() {}\n');
  for (const args of [['--seed', '-5'], ['--seed=-5']]) {
    const r = cli('grade', sub, ...args, '--lang', 'en');
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^attnlab: --seed must be an integer from 0 to 4294967295, got "-5"\n/);
  }
  const r = cli('grade', sub, '--timeout-ms', '-1', '--lang', 'en');
  assert.match(r.stderr, /^attnlab: --timeout-ms must be an integer from 10 to 600000, got "-1"\n/);
});

test('every usage error of the CLI speaks --lang (Russian by default)', () => {
  const sub = file('w2.js', 'function foo() {}\n');
  const bad = [
    [],
    ['grade'],
    ['grade', join(tmp, 'missing.js')],
    ['grade', sub, '--format', 'xml'],
    ['grade', sub, '--seed', 'abc'],
    ['grade', sub, '--format'],
    ['grade', sub, '--verbose=yes'],
    ['grade', sub, '--backend', 'cuda'],
    ['grade', sub, '--track', 'ruby'],
    ['grade', sub, 'extra'],
    ['grade', sub],
    ['list', 'extra'],
    ['grade-batch', tmp, '--out', join(tmp, 'o')],
    ['grade-batch', tmp, '--exercise', 'sdpa', '--out', join(tmp, 'o'), '--shard', '4/3'],
    ['grade-batch', 'merge', '--out', join(tmp, 'o')],
  ];
  for (const args of bad) {
    const ru = cli(...args),
      en = cli(...args, '--lang', 'en');
    for (const [lang, r] of [
      ['ru', ru],
      ['en', en],
    ]) {
      assert.equal(r.status, 2, `${lang} ${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^attnlab: .+\n/);
      const sentence = r.stderr
        .split('\n')[0]
        .replace(/--?[\w-]+|«[^»]*»|"[^"]*"|\S*[/\\]\S*|<[^>]*>|\b(?:grade-batch|grade|merge|gradebook|list)\b/g, '');
      if (lang === 'ru')
        assert.doesNotMatch(sentence, /\b[a-z]{3,}\s+[a-z]{3,}\b/i, `English prose in Russian: ${r.stderr}`);
      else assert.doesNotMatch(r.stderr, CYRILLIC, `Russian in English: ${r.stderr}`);
    }
    assert.match(ru.stderr, CYRILLIC, args.join(' '));
  }
});

// A syntax error in the text report: [source, the line and column of the mistake, the words, the source line shown].
const SYNTAX = [
  // np.tril's `(` is never closed: the parser stops at line 3's `}`, the mistake is line 2, column 17
  [
    'js-unclosed.js',
    'function causal_mask(T) {\n  return np.tril(np.ones([T, T])\n}\n',
    2,
    17,
    /скобка `\(`, открытая здесь, нигде не закрыта/,
    '  return np.tril(np.ones([T, T])',
  ],
  // a line that ends with `+`: the parser stops at line 3's `}`
  [
    'js-unfinished.js',
    'function causal_mask(T) {\n  return T +\n}\n',
    2,
    12,
    /строка кончается на `\+`/,
    '  return T +',
  ],
  // a stray token, where the parser says it is
  ['js-token.js', 'function causal_mask(T) {\n  return T + ;\n}\n', 2, 14, /неожиданный символ/, '  return T + ;'],
  // MicroPython stops on line 5; np.exp's `(` on line 4 is never closed
  [
    'py-unclosed.py',
    'import numpy as np\n\ndef softmax(x):\n    e = np.exp(x - 1\n    return e\n',
    4,
    15,
    /скобка `\(`/,
    '    e = np.exp(x - 1',
  ],
  // MicroPython stops on line 3; line 2 ends with `+`
  ['py-unfinished.py', 'import numpy as np\nx = 1 +\ny = 2\n', 2, 7, /строка кончается на `\+`/, 'x = 1 +'],
];

test('a syntax error: the line and column of the mistake, its source line with a caret, and the tests not run said once (both tracks)', () => {
  for (const [name, source, line, column, words, shown] of SYNTAX) {
    const r = cli('grade', file(name, source), '--exercise', 'sdpa');
    assert.equal(r.status, 1, `${name}: ${r.stderr}`);
    const out = r.stdout.split('\n');
    assert.match(out[0], new RegExp(`^Синтаксическая ошибка в строке ${line}, столбец ${column}: `), name);
    assert.match(out[0], words, name);
    const at = out.indexOf(`  ${line} | ${shown}`);
    assert.ok(at > 0, `${name}: the source line is not shown:\n${r.stdout}`);
    assert.equal(
      out[at + 1],
      `  ${' '.repeat(String(line).length)} | ${' '.repeat(column - 1)}^`,
      `${name}: the caret`,
    );
    assert.deepEqual(
      out.filter((l) => /^[!✗✓]/.test(l)),
      ['! Не запускались (7 тестов): файл не разбирается.'],
      name,
    );
    assert.doesNotMatch(r.stdout, /Не запускался:/);
    // JSON keeps every test with its own message
    const doc = JSON.parse(
      cli('grade', file(name, source), '--exercise', 'sdpa', '--format', 'json', '--lang', 'en').stdout,
    );
    assert.equal(doc.tests.length, 7);
    for (const t of doc.tests)
      assert.equal(t.message, `Not run: the file does not parse (a syntax error at line ${line}, column ${column}).`);
  }
});

test('the caret stays under its column when the line holds a control character (shown escaped)', () => {
  const r = cli(
    'grade',
    file('esc.js', 'function causal_mask(T) {\n  const s = "\x1b[2J"; return s +;\n}\n'),
    '--exercise',
    'sdpa',
    '--lang',
    'en',
  );
  const out = r.stdout.split('\n');
  const at = out.findIndex((l) => l.startsWith('  2 | '));
  assert.equal(out[at], '  2 |   const s = "\\x1b[2J"; return s +;');
  assert.equal(out[at + 1].indexOf('^'), out[at].lastIndexOf(';'));
  assert.doesNotMatch(r.stdout, /\x1b/);
});

test('tools/grade: its set-up is silent once everything is built; the CLI gets its arguments and gives its exit code', () => {
  const ROOT = new URL('../../', import.meta.url).pathname;
  const sh = (...args) =>
    spawnSync(join(ROOT, 'tools', 'grade'), args, {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
  spawnSync(join(ROOT, 'tools', 'setup'), ['--grade'], { cwd: ROOT }); // builds whatever is missing (nothing, after tools/setup)
  const ok = sh('exercises/sdpa/solution.js', '--lang', 'en');
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(ok.stderr, '', 'nothing to set up: nothing said');
  assert.match(ok.stdout, /7 of 7 tests passed/);
  const bad = sh('exercises/sdpa/solution.js', '--fromat', 'json', '--lang', 'en');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /did you mean --format\?/);
});

test('progress on a terminal: a status line on stderr as each test finishes, erased before the report; none in --format json or through a pipe', () => {
  // util-linux `script` gives the CLI a terminal (stdout and stderr both a tty, merged into one stream).
  const onTty = (...args) =>
    spawnSync('script', ['-qec', ['node', 'grader/cli.mjs', ...args].join(' '), '/dev/null'], {
      cwd: new URL('../../', import.meta.url),
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
  const tty = onTty('grade', 'exercises/sdpa/solution.js', '--lang', 'en');
  assert.equal(tty.status, 0, tty.stdout);
  for (let i = 1; i <= 7; i++) assert.match(tty.stdout, new RegExp(`checked ${i} of 7: \\w+ — passed`));
  assert.match(tty.stdout, /checking 1 of 7…/);
  // the last status line is erased before the report begins
  assert.match(tty.stdout, /checked 7 of 7: batching — passed\r\x1b\[2K/);
  const ru = onTty('grade', 'exercises/sdpa/solution.js');
  assert.match(ru.stdout, /проверено 7 из 7: batching — пройден/);
  const json = onTty('grade', 'exercises/sdpa/solution.js', '--format', 'json');
  assert.doesNotMatch(json.stdout, /checked|проверено|\x1b\[2K/);
  assert.equal(JSON.parse(json.stdout).status, 'pass');
  const piped = cli('grade', 'exercises/sdpa/solution.js', '--lang', 'en');
  assert.equal(piped.stderr, '');
  assert.doesNotMatch(piped.stdout, /checked 1 of 7/);
});

test('grade reads only a regular file of at most 1 MiB: a FIFO, /dev/zero through a link, a folder, a 2 MiB file each exit 2 with a message in --lang', () => {
  const fifo = join(tmp, 'fifo.js');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  const zero = join(tmp, 'zero.js');
  symlinkSync('/dev/zero', zero);
  const folder = join(tmp, 'folder.js');
  mkdirSync(folder);
  const big = file('big.js', Buffer.alloc(2 * 2 ** 20, 0x20));
  const cases = [
    [
      fifo,
      /fifo\.js is a named pipe \(FIFO\), not a regular file/,
      /fifo\.js — именованный канал \(FIFO\), а не обычный файл/,
    ],
    [zero, /zero\.js is a character device, not a regular file/, /zero\.js — символьное устройство, а не обычный файл/],
    [folder, /folder\.js is a folder, not a regular file/, /folder\.js — папка, а не обычный файл/],
    [
      big,
      /big\.js is 2097152 bytes, more than the limit of 1048576/,
      /big\.js занимает 2097152 байт, больше предела 1048576/,
    ],
  ];
  for (const [path, en, ru] of cases) {
    // the timeout only guards against a hang (a FIFO read would wait for a writer forever)
    const r = cliWith({ timeout: 60000 }, 'grade', path, '--exercise', 'sdpa', '--lang', 'en');
    assert.equal(r.signal, null, `${path}: killed by the guard`);
    assert.equal(r.status, 2, `${path}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, en);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    const rr = cliWith({ timeout: 60000 }, 'grade', path, '--exercise', 'sdpa');
    assert.equal(rr.status, 2);
    assert.match(rr.stderr, ru);
  }
});
