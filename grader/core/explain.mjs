// An error the student's code raised, explained in the student's language (the raw NumPy-style
// message stays as it was): which JavaScript operator or Math function met an array (found at the
// error's line and column in the source), a broadcast that lost a reduced axis (keepdims), a matmul
// whose inner axes differ. → a message key and its params, or null when there is nothing to add.

// What each operator means for arrays, in the JS track's np.
const OPERATORS = {
  '/': 'np.divide(a, b)',
  '*': 'np.multiply(a, b)',
  '-': 'np.subtract(a, b)',
  '+': 'np.add(a, b)',
  '**': 'np.power(a, b)',
  '%': 'np.mod(a, b)',
  '<': 'np.less(a, b)',
  '<=': 'np.less_equal(a, b)',
  '>': 'np.greater(a, b)',
  '>=': 'np.greater_equal(a, b)',
  '@': 'np.matmul(a, b)',
};
const MATH = {
  exp: 'exp',
  log: 'log',
  sqrt: 'sqrt',
  abs: 'abs',
  max: 'max',
  min: 'min',
  pow: 'power',
  round: 'round',
  tanh: 'tanh',
  sin: 'sin',
  cos: 'cos',
};
const SHAPE = '\\(([\\d, ]*)\\)';
const parseShape = (s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map(Number);
const fmt = (dims) => `(${dims.join(',')}${dims.length === 1 ? ',' : ''})`;

/**
 * @param {{ message: string, line?: number, column?: number }} error as the sandbox answered
 * @param {string} source the prepared source (lines and columns as the student's)
 * @param {string} track 'js' | 'python'
 * @returns {{ key: string, params: object } | null}
 */
export function explainError({ message, line, column }, source, track = 'js') {
  if (typeof message !== 'string') return null;
  // np refuses JS operators and Math functions on arrays; the position says which one it was.
  if (track === 'js' && /do not work on arrays/.test(message) && line && column) {
    const text = source.split('\n')[line - 1] ?? '';
    const at = text.slice(column - 1);
    const op = /^(\*\*|<=|>=|[/*\-+%<>])/.exec(at)?.[1];
    if (op && OPERATORS[op]) return { key: 'explain.operator', params: { op, fix: OPERATORS[op] } };
    const math = /^(?:Math\.)?(\w+)\s*\(/.exec(at) ?? /Math\.(\w+)\s*\($/.exec(text.slice(0, column - 1));
    if (math && MATH[math[1]] && /Math\.\w+\s*\(/.test(text))
      return { key: 'explain.math', params: { name: math[1], np: MATH[math[1]] } };
  }
  const broadcast = new RegExp(`could not be broadcast together with shapes ${SHAPE} ${SHAPE}`).exec(message);
  if (broadcast) {
    const [a, b] = [parseShape(broadcast[1]), parseShape(broadcast[2])];
    // One operand is the other with its last axis gone: a max or sum without keepdims.
    const [big, small] = a.length === b.length + 1 ? [a, b] : b.length === a.length + 1 ? [b, a] : [null, null];
    if (big && small.every((d, i) => d === big[i])) {
      return {
        key: 'explain.keepdims',
        params: {
          a: fmt(big),
          b: fmt(small),
          keepdims: track === 'python' ? 'keepdims=True' : '{ axis: -1, keepdims: true }',
        },
      };
    }
    return { key: 'explain.broadcast', params: { a: fmt(a), b: fmt(b) } };
  }
  const matmul = new RegExp(`matmul: .*?${SHAPE}.*?${SHAPE}`).exec(message);
  if (matmul && /core dimension|mismatch|does not match/i.test(message)) {
    const [a, b] = [parseShape(matmul[1]), parseShape(matmul[2])];
    if (a.length && b.length)
      return {
        key: 'explain.matmul',
        params: { a: fmt(a), b: fmt(b), n: a.at(-1), m: b.length > 1 ? b.at(-2) : b[0] },
      };
  }
  return null;
}

/**
 * A syntax error the track's compiler reports in its own words, explained where a NumPy user would
 * not expect it: MicroPython refuses `*x` inside a tuple or list display.
 * @returns {string | null} a message key
 */
export function explainSyntax({ message }, track) {
  if (track === 'python' && /\*x must be assignment target/.test(String(message))) return 'syntax.star_display';
  return null;
}
