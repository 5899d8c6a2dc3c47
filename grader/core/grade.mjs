// The grader core, shared by the CLI (Node) and the exercise page (browser): it knows the tests and
// the messages, and nothing about its host. The host hands in a sandbox (grader/README.md) and the
// WASM core, whose C++ reference gives every expected value.
import { parse, tokenizer } from 'acorn';
import { Rng, deriveSeed } from './prng.mjs';
import { say, kindName } from './messages.mjs';
import { toTensor, wire, fmtShape } from './tensor.mjs';
import { compare, DEFAULT_TOL } from './compare.mjs';
import { fmtNum } from './format.mjs';
import * as suites from './suites/index.mjs';

/** A test's verdict on the student's code; anything else thrown is a grader bug (status 'error'). */
export class Failure extends Error {}

/**
 * Syntax check and `export` removal, on the trusted side (acorn), so both hosts report the same
 * line and column. Returns { ok: true, source } or { ok: false, error: { message, line, column } }.
 */
export function prepareSource(source) {
  let ast;
  try {
    ast = parse(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
  } catch (moduleError) {
    try {
      parse(source, { ecmaVersion: 'latest', sourceType: 'script' });
      return { ok: true, source, members: memberNames(source) };
    } catch {
      const { line, column } = moduleError.loc || { line: 1, column: 0 };
      return { ok: false, error: { message: moduleError.message.replace(/\s*\(\d+:\d+\)$/, ''), line, column: column + 1 } };
    }
  }
  for (const node of ast.body) {
    if (node.type === 'ImportDeclaration') {
      return { ok: false, error: { message: 'import is not available here: np is already global', line: node.loc.start.line, column: node.loc.start.column + 1 } };
    }
  }
  return { ok: true, source: stripExports(source, ast), members: memberNames(source) };
}

/** Property names the code reads with a dot (`K.T` → 'T'), comments and strings excluded. */
function memberNames(source) {
  const names = new Set();
  let afterDot = false;
  try {
    for (const tok of tokenizer(source, { ecmaVersion: 'latest', sourceType: 'module' })) {
      if (afterDot && tok.type.label === 'name') names.add(tok.value);
      afterDot = tok.type.label === '.' || tok.type.label === '?.';
    }
  } catch { /* the parse above already accepted it; a tokenizer quirk only loses a hint */ }
  return names;
}

/** Blank out `export`, `export default` and `export { … }`, keeping every other character in place. */
function stripExports(source, ast) {
  const units = source.split(''); // acorn offsets count UTF-16 code units, as split('') does
  const blank = (from, to) => { for (let i = from; i < to; i++) if (units[i] !== '\n') units[i] = ' '; };
  for (const node of ast.body) {
    if (node.type === 'ExportNamedDeclaration' && node.declaration) blank(node.start, node.declaration.start);
    else if (node.type === 'ExportDefaultDeclaration' && /Declaration$/.test(node.declaration.type) && node.declaration.id) blank(node.start, node.declaration.start);
    else if (node.type.startsWith('Export')) blank(node.start, node.end);
  }
  return units.join('');
}

const OUTPUT_LIMIT = 500; // Exercism's limit for a test's output

export function capOutput(text, lang) {
  if (text.length <= OUTPUT_LIMIT) return text;
  const note = lang === 'en' ? '\n… output truncated' : '\n… вывод обрезан';
  return text.slice(0, OUTPUT_LIMIT - note.length) + note;
}

/**
 * Grade one submission. Returns the report:
 * { exercise, seed, lang, status: 'pass'|'fail'|'error', message, passed, total,
 *   tests: [{ id, name, task_id, status, message, output, test_code }] }
 */
export async function grade({ exercise, source, sandbox, core, fast, lang = 'ru', seed, timeoutMs, memoryMb = 512 }) {
  // `fast`: the float32 fast path for large hidden cases ({ name, attentionF32 }, e.g. chooseBackend()'s
  // result); by default the core's own (WASM SIMD or plain WASM).
  fast = fast ?? { name: core.flavour === 'baseline' ? 'wasm' : 'simd', attentionF32: (args) => core.attentionF32(args) };
  const spec = exercise.spec;
  seed = seed ?? spec.seed;
  timeoutMs = timeoutMs ?? spec.timeout_ms;
  const report = { exercise: spec.slug, seed, lang, backend: fast.name, status: 'fail', message: null, passed: 0, total: spec.tests.length, tests: [] };
  const t = (key, params) => say(lang, key, params);

  const prepared = prepareSource(source);
  if (!prepared.ok) {
    report.status = 'error';
    report.message = t('syntax', prepared.error);
    report.error = prepared.error;
    return report;
  }
  // A script that stops or hangs at top level still has its function declarations (they are hoisted):
  // say so once, and grade what is there.
  const load = await sandbox.load(prepared.source, { functions: spec.functions, timeoutMs: timeoutMs * 2 });
  if (!load.ok && load.kind !== 'timeout') {
    report.status = 'error';
    report.message = t('error', { fn: 'submission', where: '', message: load.message });
    return report;
  }
  const loadNote = !load.ok ? t('load.timeout', { ms: timeoutMs * 2 })
    : load.error ? t('load.error', { line: load.error.line ?? '?', message: load.error.message }) : null;
  if (loadNote) report.message = loadNote;
  report.output = capOutput(load.output || '', lang); // what the script printed at top level (its demo lines)

  const suite = suites[spec.suite];
  for (const [index, test] of spec.tests.entries()) {
    const ctx = makeContext({ spec, test, index, seed, lang, core, fast, sandbox, timeoutMs, memoryMb, source: prepared.source, members: prepared.members, loadNote });
    let status = 'pass', message = null;
    try {
      await suite[test.id](ctx);
    } catch (e) {
      if (e instanceof Failure) { status = 'fail'; message = e.message; }
      else { status = 'error'; message = `grader error: ${e && e.stack ? e.stack : e}`; }
    }
    if (status === 'pass') report.passed++;
    report.tests.push({
      id: test.id, name: test.name[lang] || test.name.en, task_id: test.task_id, status, message,
      output: capOutput(ctx.output, lang), test_code: test.test_code,
    });
  }
  report.status = report.passed === report.total && report.total > 0 ? 'pass'
    : report.tests.some((x) => x.status === 'error') ? 'error' : 'fail';
  if (report.status === 'error' && !report.message) report.message = report.tests.find((x) => x.status === 'error').message;
  return report;
}

function makeContext({ spec, test, index, seed, lang, core, fast, sandbox, timeoutMs, memoryMb, source, members, loadNote }) {
  const t = (key, params) => say(lang, key, params);
  const sentence = (p) => (/[.!?…:]$/.test(p) ? p : `${p}.`);
  const fail = (...parts) => { throw new Failure(parts.filter(Boolean).map(sentence).join(' ')); };
  const ctx = {
    test, params: test.params || {}, lang, core, fast, source, members, t, fail,
    tol: { ...DEFAULT_TOL, ...spec.tolerance, ...test.tolerance },
    rng: new Rng(deriveSeed(seed, `${spec.slug}/${test.id}`)), // each test its own stream, independent of its position
    output: '',

    /** Call a student function; any way it can go wrong becomes a Failure naming it. */
    async call(fn, ...args) {
      const res = await sandbox.call(fn, args.map((a) => (a && a.data ? wire(a) : a)), { timeoutMs });
      if (res.output) ctx.output += res.output;
      if (!res.ok) {
        if (res.kind === 'timeout') fail(t('timeout', { fn, ms: timeoutMs }));
        if (res.kind === 'memory') fail(t('memory', { fn, mb: memoryMb }));
        if (res.kind === 'missing') fail(t('missing', { fn }), loadNote);
        const err = new Failure(t('error', { fn, message: res.message, where: res.line ? t('error.where', { line: res.line }) : '' }));
        err.raised = res.message;
        throw err;
      }
      if (res.value && res.value.$undef) fail(t('not_implemented', { fn }));
      return res.value;
    },

    /** A returned value as a tensor, or a Failure saying why it is not an array. */
    array(value, fn) {
      const r = toTensor(value);
      if (r.tensor) return r.tensor;
      if (r.error === 'not-array') fail(t('not_array', { fn, kind: kindName(lang, r.kind === 'object' && value && value.$other ? 'object' : r.kind) }));
      fail(t(r.error, { fn, kind: kindName(lang, r.kind) }));
    },

    /** A returned [a, b] pair as two tensors. */
    pair(value, fn) {
      if (!Array.isArray(value) || value.length !== 2 || value.some((v) => !v || !(Array.isArray(v) || v.$nd))) {
        const kind = value && value.$nd ? `${lang === 'en' ? 'one array of shape' : 'один массив формы'} ${fmtShape(value.$nd.shape)}`
          : Array.isArray(value) ? `${lang === 'en' ? 'a list of length' : 'список длины'} ${value.length}` : kindName(lang, value === null ? 'null' : typeof value);
        fail(t('not_pair', { fn, kind }));
      }
      return [ctx.array(value[0], fn), ctx.array(value[1], fn)];
    },

    /** Fail with a message describing how `actual` differs from `expected` (null when equal). */
    mismatch(actual, expected, what, tol = ctx.tol) {
      const r = compare(actual, expected, tol);
      if (r.ok) return null;
      if (r.reason === 'shape') return t('shape', { what, actual: fmtShape(r.actualShape), expected: fmtShape(r.expectedShape) });
      if (r.reason === 'dtype') return t(expected.dtype === 'bool' ? 'dtype.bool' : 'dtype.float', { what });
      const show = (x) => (expected.dtype === 'bool' ? String(Boolean(x)) : fmtNum(x));
      const params = { what, index: `[${r.index.join(', ')}]`, actual: show(r.actual), expected: show(r.expected), count: r.count, total: r.total, maxAbsErr: fmtNum(r.maxAbsErr) };
      return t(r.reason, params);
    },
  };
  return ctx;
}
