// The JavaScript track (grader/tracks/README.md): submissions are scripts with a global `np`
// (grader/np), prepared on the trusted side with acorn (./source.mjs) and run by ./guest.mjs.
import { prepareSource, tokens } from './source.mjs';
import { explainError } from './explain.mjs';
import { WORK_PER_MS } from './tick.mjs';

export default Object.freeze({
  name: 'js',
  order: 0, // the first track: the default (a file of no known extension; storage keys without a suffix)
  label: 'JavaScript',
  short: 'JS', // where space is short (the Scale panel's legend)
  extensions: ['.js'],
  files: { starter: 'starter.js', solution: 'solution.js', submission: 'submission.js' },
  prepareSource,
  tokens, // for the grader's reading of a syntax error (core/syntax.mjs)
  // Errors explained (grader/core/explain.mjs): the operator or Math function that met an array; a
  // lost axis is put back with this spelling.
  explain: { error: explainError, keepdims: '{ axis: -1, keepdims: true }' },
  // The batch's similarity (grader/batch/similarity.mjs, one linear pass): comments [open, close] (close
  // "\n": to the end of the line), strings [open, close, multi-line], the characters of a name.
  lexicon: {
    comments: [
      ['//', '\n'],
      ['/*', '*/'],
    ],
    strings: [
      ['`', '`', true],
      ['"', '"', false],
      ["'", "'", false],
    ],
    name: { start: /[\p{L}_$]/u, part: /[\p{L}\p{N}_$]/u },
    keywords:
      'break case catch class const continue default delete do else export extends finally for function if import in instanceof let new of return switch this throw try typeof var void while yield async await null undefined true false'.split(
        ' ',
      ),
  },
  // The guest bundle's entry (relative to this folder) and what its realm must allow: strings are
  // evaluated (the student's script), nothing is compiled to WebAssembly, and a realm whose request
  // was interrupted can take the next request.
  guest: { entry: 'guest-entry.mjs', wasm: null },
  realm: { strings: true, wasm: false, reusable: true },
  // The whole submission's budget, ms of CPU (grader/core/grade.mjs): two functions that never end
  // (1 + 2 s each to confirm) and the rest of the tests still fit; a file whose every function loops
  // has three confirmed, and 2 s to spare for the host's own work in between (a page on a busy
  // machine counts wall time) before a fourth could be.
  budgetMs: 11000,
  // The guest counts work (grader/tracks/work.mjs): a request's budget is its limit × this many units,
  // the same verdict on any machine; the hosts' clocks back it at LIMITS.workBackstop × the limit.
  workPerMs: WORK_PER_MS,
  // Messages: a pack's `key.js` is used before `key` on this track (none needs one yet).
  variant: 'js',
  // A program a host may load into a spare realm before it is needed, so that the first real load
  // does not pay for compiling np and the guest (it declares no globals).
  warmUp: `(() => {
  const a = np.array([[2, 0], [0, 2], [1, 1]]), m = np.tril(np.ones([3, 3], { dtype: 'bool' }));
  let s = np.divide(np.matmul(a, np.swapaxes(a, -1, -2)), Math.sqrt(2));
  s = np.where(m, s, -Infinity);
  const e = np.exp(np.subtract(s, np.max(s, { axis: -1, keepdims: true })));
  print(np.round(np.divide(e, np.sum(e, { axis: -1, keepdims: true })), 3), m, a.T.tolist());
})();`,
  // Appended after the student's script (its line numbers stay): `name(Q, K, V, minMs)` times `fn(Q, K,
  // V, mask)` inside the sandbox and answers [ms per call, calls], or null when fn does not return a
  // pair (the page's Scale panel, web/src/scale.js).
  scaleProbe: (fn, name) => `
;function ${name}(Q, K, V, minMs) {
  const T = Q.shape[0], mask = np.tril(np.ones([T, T], { dtype: 'bool' }));
  const once = () => { const r = ${fn}(Q, K, V, mask); return Array.isArray(r) && r.length === 2; };
  let t0 = performance.now();
  if (!once()) return null;
  const first = performance.now() - t0;
  if (first >= minMs) return [first, 1];
  const n = Math.min(1000, Math.ceil(minMs / Math.max(first, 0.05)));
  let best = Infinity;
  for (let b = 0; b < 3; b++) {
    t0 = performance.now();
    for (let i = 0; i < n; i++) once();
    best = Math.min(best, (performance.now() - t0) / n);
  }
  return [best, 3 * n];
}`,
});
