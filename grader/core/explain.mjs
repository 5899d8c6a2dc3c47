// An error the student's code raised, explained in the student's language (the raw NumPy-style
// message stays as it was): first what the track itself explains (its `explain.error` hook: the
// JavaScript track names the operator or Math function that met an array), then what every track
// shares: a broadcast that lost a reduced axis (keepdims, spelled as the track's `explain.keepdims`),
// a matmul whose inner axes differ. → a message key and its params, or null when there is nothing to add.

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
 * @param {{ explain?: { error?: Function, syntax?: Function, keepdims?: string } }} track the track the source is
 *   written in (grader/tracks/index.mjs)
 * @returns {{ key: string, params: object } | null}
 */
export function explainError(error, source, track) {
  const { message } = error;
  if (typeof message !== 'string') return null;
  const own = track?.explain?.error?.(error, source);
  if (own) return own;
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
          keepdims: track?.explain?.keepdims ?? 'keepdims',
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
 * A syntax error the track reports in its own words (its compiler, or its own reading of the source),
 * explained where a student would not expect it: the track's `explain.syntax` hook (Python: MicroPython
 * refuses `*x` inside a tuple), which returns a message key, or a key and its params, or null.
 * @param {{ message: string }} error
 * @param {{ explain?: { syntax?: Function } }} track
 * @returns {{ key: string, params: object } | null}
 */
export function explainSyntax(error, track) {
  const why = track?.explain?.syntax?.(error) ?? null;
  return typeof why === 'string' ? { key: why, params: {} } : why;
}
