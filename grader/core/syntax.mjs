// A syntax error made readable, the same on both hosts and tracks (grade.mjs): where the mistake is,
// not only where the parser gave up, the parser's words in the student's language, and the source
// line for a caret.
// - A bracket that is never closed is blamed where it opens: parsers notice it later (MicroPython on
//   the next line, acorn at the next token that cannot fit), so `np.exp(x` on line 10 was reported
//   on line 11.
// - The parser's own words (acorn's, MicroPython's) are each track's: its `explain.parser` patterns,
//   worded in its messages.mjs.
// - A line that ends with an operator the next line cannot continue (`return T +` then `}`) is blamed
//   at that operator, not at the next line's first token.
// Each track lists its tokens (`track.tokens(source)` → [{ value, offset, op }], `op`: punctuation),
// leniently: a source that does not tokenize to its end gives the tokens before the stop.

const PAIRS = { '(': ')', '[': ']', '{': '}', '${': '}' };
const CLOSERS = new Set([')', ']', '}']);
// What a line cannot end with when the statement goes on (both languages; `:` and `?` are JavaScript's).
const CONTINUES = new Set([
  '+',
  '-',
  '*',
  '/',
  '%',
  '**',
  '//',
  '@',
  '=',
  '==',
  '===',
  '!=',
  '!==',
  '<',
  '>',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '&',
  '|',
  '^',
  '<<',
  '>>',
  '>>>',
  ',',
  '.',
  '=>',
  '+=',
  '-=',
  '*=',
  '/=',
  '?',
]);

/**
 * The parser's message as { key, params: { name } } when it is one the track words itself (its
 * `explain.parser`: [pattern, message key] pairs, the first group a name; the keys in its messages.mjs),
 * else null.
 * @param {string} message
 * @param {{ explain?: { parser?: [RegExp, string][] } }} [track]
 */
export function parserMessage(message, track) {
  for (const [re, key] of track?.explain?.parser ?? []) {
    const m = re.exec(String(message));
    if (m) return { key, params: { name: m[1] ?? '' } };
  }
  return null;
}

const lineStarts = (source) => {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') starts.push(i + 1);
  return starts;
};

/**
 * Where a syntax error is: `error` is the parser's { message, line, column } (1-based; column may be
 * null). → { line, column, reason: null | { key: 'syntax.unclosed', params: { bracket } } |
 * { key: 'syntax.unfinished', params: { op } }, text: the source line (not capped, not escaped) }.
 */
export function locateSyntax(source, error, track) {
  const starts = lineStarts(source);
  const at = (offset) => {
    let l = starts.length - 1;
    while (starts[l] > offset) l--;
    return { line: l + 1, column: offset - starts[l] + 1 };
  };
  const textOf = (line) =>
    source.slice(starts[line - 1] ?? source.length, (starts[line] ?? source.length + 1) - 1).replace(/\r$/, '');
  const plain = {
    line: error.line,
    column: error.column ?? null,
    reason: null,
    text: error.line ? textOf(error.line) : '',
  };
  if (!error.line || (!starts[error.line - 1] && error.line !== 1)) return plain;
  let tokens;
  try {
    tokens = track.tokens ? track.tokens(source) : [];
  } catch {
    tokens = [];
  }
  const lineStart = starts[error.line - 1];
  const errorOffset = lineStart + Math.max(0, (error.column ?? 1) - 1);

  // Brackets: which openers are never closed, and which of them were still open where the parser stopped.
  const stack = [],
    unclosed = [];
  for (const t of tokens) {
    if (!t.op) continue;
    if (PAIRS[t.value]) stack.push({ ...t, closedAt: Infinity });
    else if (CLOSERS.has(t.value)) {
      while (stack.length && PAIRS[stack.at(-1).value] !== t.value && stack.some((o) => PAIRS[o.value] === t.value)) {
        const o = stack.pop(); // a closer of an outer bracket: the inner one was never closed
        o.closedAt = t.offset;
        unclosed.push(o);
      }
      if (stack.length && PAIRS[stack.at(-1).value] === t.value) stack.pop();
    }
  }
  unclosed.push(...stack);
  const culprit = unclosed
    .filter((o) => o.offset < errorOffset && o.closedAt >= errorOffset)
    .sort((a, b) => b.offset - a.offset)[0];
  if (culprit) {
    const { line, column } = at(culprit.offset);
    return { line, column, reason: { key: 'syntax.unclosed', params: { bracket: culprit.value } }, text: textOf(line) };
  }
  // A line that ends with an operator: when the parser stopped at the first token of the next line, or
  // at the start of the line that ends so (MicroPython gives a line only, its column is the line's start).
  const first = tokens.find((t) => t.offset >= lineStart);
  const before = tokens.filter((t) => t.offset < lineStart).at(-1);
  const last = tokens.filter((t) => t.offset >= lineStart && t.offset < (starts[error.line] ?? Infinity)).at(-1);
  const unfinished = (t) => {
    const { line, column } = at(t.offset);
    return { line, column, reason: { key: 'syntax.unfinished', params: { op: t.value } }, text: textOf(line) };
  };
  if (
    first &&
    before?.op &&
    CONTINUES.has(before.value) &&
    first.offset === errorOffset &&
    /^\s*$/.test(source.slice(lineStart, errorOffset))
  )
    return unfinished(before);
  if (first && errorOffset <= first.offset && last !== first && last?.op && CONTINUES.has(last.value))
    return unfinished(last);
  return plain;
}

/**
 * A syntax error as the student reads it, the same on Check (grade.mjs) and on the page's Run: where the
 * mistake is (locateSyntax) and what it is in the student's language (`t(key, params)`: a sentence of
 * core/messages.mjs or of the track's messages.mjs, in that language). → { ...error, line, column, message, sourceLine }
 */
export function readSyntax(source, error, track, t) {
  const found = locateSyntax(source, error, track),
    parser = parserMessage(error.message, track);
  const message = found.reason
    ? t(found.reason.key, found.reason.params)
    : parser
      ? t(parser.key, parser.params)
      : error.message;
  return { ...error, line: found.line, column: found.column ?? 1, message, sourceLine: found.text };
}
