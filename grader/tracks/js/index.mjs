// The JavaScript track (grader/tracks/README.md): submissions are scripts with a global `np`
// (grader/np), prepared on the trusted side with acorn (./source.mjs) and run by ./guest.mjs.
import { prepareSource, tokens } from './source.mjs';
import { explainError } from './explain.mjs';
import info from './info.mjs';

// The whole track: its description (./info.mjs) and its code.
export default Object.freeze({
  ...info,
  prepareSource,
  tokens, // for the grader's reading of a syntax error (core/syntax.mjs)
  // Errors explained (grader/core/explain.mjs): the operator or Math function that met an array; a
  // lost axis is put back with this spelling; the parser's words (grader/core/syntax.mjs).
  explain: {
    error: explainError,
    keepdims: '{ axis: -1, keepdims: true }',
    // acorn's messages students meet most → its sentences (./messages.mjs), read by grader/core/syntax.mjs
    parser: [
      [/^Unexpected token$/, 'parser.unexpected_token'],
      [/^Unexpected character '(.*)'$/, 'parser.unexpected_character'],
      [/^Unterminated string constant$/, 'parser.unterminated_string'],
      [/^Unterminated template$/, 'parser.unterminated_template'],
      [/^Unterminated comment$/, 'parser.unterminated_comment'],
      [/^Identifier '(.*)' has already been declared$/, 'parser.redeclared'],
      [/^Unexpected keyword '(.*)'$/, 'parser.unexpected_keyword'],
      [/^'return' outside of function$/, 'parser.return_outside'],
    ],
  },
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
