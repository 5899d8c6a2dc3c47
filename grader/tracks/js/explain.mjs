// The JavaScript track's explanations (its `explain` field, read by grader/core/explain.mjs): np
// refuses JS operators and Math functions on arrays, and the error's line and column say which one it
// was; the message names the np function to call instead. Broadcasts and matmuls are the core's.
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
/** → { key, params } naming the operator or Math function at the error's position, or null. */
export function explainError({ message, line, column }, source) {
  if (!/do not work on arrays/.test(message) || !line || !column) return null;
  const text = source.split('\n')[line - 1] ?? '';
  const at = text.slice(column - 1);
  const op = /^(\*\*|<=|>=|[/*\-+%<>])/.exec(at)?.[1];
  if (op && OPERATORS[op]) return { key: 'explain.operator', params: { op, fix: OPERATORS[op] } };
  const math = /^(?:Math\.)?(\w+)\s*\(/.exec(at) ?? /Math\.(\w+)\s*\($/.exec(text.slice(0, column - 1));
  if (math && MATH[math[1]] && /Math\.\w+\s*\(/.test(text))
    return { key: 'explain.math', params: { name: math[1], np: MATH[math[1]] } };
  return null;
}
