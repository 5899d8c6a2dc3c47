// The syntax CPython has and MicroPython's compiler lacks, rewritten on the trusted side before the
// source is loaded (index.mjs: prepareSource runs on what this returns), so that code written for
// CPython runs unchanged. Every rewrite keeps each line where it was: a rewritten bracket keeps as many
// line breaks as it had (they move to its end), so an error's line number and every later line are the
// student's. The helpers the rewrites call (`__attnlab_…__`) are put in the submission's globals by the
// runtime (runtime.py, HELPERS).
// - PEP 448 displays: `(*lead, T, d)`, `[*a, *b]`, `{*s, x}`, `{**a, 'k': v}` →
//   `__attnlab_display__('t', (), lead, (T, d,))`: kind, then plain groups and unpacked items in turn
//   (plain groups as the display's own kind; evaluated left to right as CPython does).
// - `metaclass=M` in a class statement → a base `__attnlab_metabase__(M)`: MicroPython's class
//   statement takes no keywords; the runtime gives the base a metaclass stands for (abc.ABCMeta → ABC,
//   type → object) and names anything else as this runtime's limit.
// - a class that subclasses an Enum (`class Color(Enum)`) is decorated with `@__attnlab_enum__` on the
//   blank line above it (where there is one; else the runtime finishes top-level ones after loading):
//   MicroPython has no metaclass to turn its attributes into members when the class statement ends.
// - a class that subclasses `Generic[...]` or `Protocol` (or such a class), subscripted (`Stack[int]`),
//   → `__attnlab_generic__(Stack)[int]`: a class cannot be subscripted here (no `__class_getitem__`).
import { logicalLines } from './source.mjs';

const ENUMS = new Set(['Enum', 'IntEnum', 'StrEnum', 'Flag', 'IntFlag']);
const GENERIC_ROOTS = new Set(['Generic', 'Protocol']);
const KEYWORD_BEFORE_DISPLAY = new Set([
  'return',
  'in',
  'yield',
  'and',
  'or',
  'not',
  'if',
  'else',
  'elif',
  'await',
  'lambda',
  'assert',
  'del',
  'while',
  'is',
]);
const CLOSERS = { '(': ')', '[': ']', '{': '}' };

/** Is the bracket at token k a display (a tuple, list, set or dict written out), not a call or a subscript? */
function isDisplay(tokens, k) {
  const open = tokens[k].value;
  if (open === '{') return true;
  const prev = tokens[k - 1];
  if (!prev) return true;
  if (prev.type === 'op') return ![')', ']', '}'].includes(prev.value);
  if (prev.type === 'name') return KEYWORD_BEFORE_DISPLAY.has(prev.value);
  return false; // a string or a number before `(` or `[`: a call or a subscript (an error either way)
}

/** The index of the bracket closing the one at token k. */
function closing(tokens, k) {
  let depth = 0;
  for (let j = k; j < tokens.length; j++) {
    const v = tokens[j].value;
    if (tokens[j].type !== 'op') continue;
    if (CLOSERS[v]) depth++;
    else if (v === ')' || v === ']' || v === '}') {
      depth--;
      if (depth === 0) return j;
    }
  }
  return tokens.length - 1;
}

/** The comma-separated items of the bracket (k, end): [[from, to], …] token index ranges, `to` exclusive. */
function itemsOf(tokens, k, end) {
  const items = [];
  let depth = 0,
    from = k + 1;
  for (let j = k + 1; j < end; j++) {
    const t = tokens[j];
    if (t.type !== 'op') continue;
    if (CLOSERS[t.value]) depth++;
    else if (t.value === ')' || t.value === ']' || t.value === '}') depth--;
    else if (t.value === ',' && depth === 0) {
      items.push([from, j]);
      from = j + 1;
    }
  }
  if (from < end) items.push([from, end]);
  return items;
}

const countBreaks = (s) => (s.match(/\n/g) ?? []).length;

/**
 * `source` with the rewrites above → { source, rewrites: [{ line, construct }] }. Never fails: what it
 * cannot read it leaves as it is, for the compiler to judge.
 */
export function rewriteSyntax(source) {
  const lines = logicalLines(source);
  const edits = []; // { start, end, text }: non-overlapping, applied from the end
  const rewrites = [];
  const lineOf = (offset) => countBreaks(source.slice(0, offset)) + 1;

  // Text of tokens [from, to), inner star displays rewritten; line breaks are not kept here (the
  // outermost rewritten bracket pads them back at its end).
  const render = (tokens, from, to) => {
    let out = '';
    for (let j = from; j < to; j++) {
      const t = tokens[j];
      if (t.type === 'op' && CLOSERS[t.value]) {
        const end = closing(tokens, j);
        const display = isDisplay(tokens, j) ? displayText(tokens, j, end) : null;
        out += (out ? ' ' : '') + (display ?? `${t.value}${render(tokens, j + 1, end)}${tokens[end].value}`);
        j = end;
        continue;
      }
      out +=
        (out && !(t.type === 'op' && (t.value === ',' || t.value === ')' || t.value === ']')) ? ' ' : '') + t.value;
    }
    return out;
  };

  // A display with `*x` / `**x` items as one call, or null if it has none (or is a comprehension).
  const displayText = (tokens, k, end) => {
    const items = itemsOf(tokens, k, end);
    /** @param {number[]} item an item's [start, end) in tokens; only its start is read */
    const starred = ([a]) => tokens[a].type === 'op' && (tokens[a].value === '*' || tokens[a].value === '**');
    if (!items.some(starred)) return null;
    if (tokens.slice(k + 1, end).some((t) => t.type === 'name' && t.value === 'for')) return null;
    const open = tokens[k].value;
    const isDict = open === '{' && items.some(([a, b]) => tokens[a].value === '**' || tokenAtDepth0(tokens, a, b, ':'));
    const kind = open === '[' ? 'l' : open === '(' ? 't' : isDict ? 'd' : 's';
    const group = (parts) =>
      kind === 'd'
        ? `{${parts.join(', ')}}`
        : kind === 'l'
          ? `[${parts.join(', ')}]`
          : `(${parts.map((p) => p + ',').join(' ')})`;
    const args = [`'${kind}'`];
    let plain = [];
    for (const [a, b] of items) {
      if (starred([a, b])) {
        args.push(group(plain), render(tokens, a + 1, b));
        plain = [];
      } else plain.push(render(tokens, a, b));
    }
    if (plain.length) args.push(group(plain));
    rewrites.push({
      line: lineOf(tokens[k].start),
      construct: open === '{' ? (isDict ? '{**…}' : '{*…}') : `${open}*…${CLOSERS[open]}`,
    });
    return `__attnlab_display__(${args.join(', ')})`;
  };

  for (const line of lines) {
    const tokens = line.tokens;
    // displays with unpacking: the outermost such bracket is replaced as a whole
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k];
      if (t.type !== 'op' || !CLOSERS[t.value]) continue;
      const end = closing(tokens, k);
      if (tokens[end + 1]?.value === '=' || tokens[k - 1]?.value === 'for') {
        k = end; // an assignment or loop target (`[a, *rest] = x`): MicroPython unpacks into those
        continue;
      }
      const inner = tokens.slice(k + 1, end);
      if (!inner.some((x) => x.type === 'op' && (x.value === '*' || x.value === '**'))) continue;
      const text = isDisplay(tokens, k) ? displayText(tokens, k, end) : null;
      const whole =
        text ??
        (hasStarDisplay(tokens, k + 1, end) ? `${t.value}${render(tokens, k + 1, end)}${tokens[end].value}` : null);
      if (whole === null) continue;
      const start = t.start,
        stop = tokens[end].end;
      edits.push({ start, end: stop, text: whole + '\n'.repeat(countBreaks(source.slice(start, stop))) });
      k = end;
    }
  }

  // a bare tuple with unpacking after `return`, `yield` or the last top-level `=`: `return *lead, d`
  for (const line of lines) {
    const tokens = line.tokens;
    let from = -1,
      depth = 0;
    tokens.forEach((t, k) => {
      if (t.type === 'op' && CLOSERS[t.value]) depth++;
      else if (t.type === 'op' && (t.value === ')' || t.value === ']' || t.value === '}')) depth--;
      else if (
        depth === 0 &&
        ((t.type === 'op' && t.value === '=') || (k === 0 && (t.value === 'return' || t.value === 'yield')))
      )
        from = k + 1;
      else if (depth === 0 && t.type === 'op' && (t.value === ';' || t.value === ':')) from = -1;
    });
    if (from < 0 || from >= tokens.length) continue;
    const items = itemsOf(
      [{ value: '(', type: 'op' }, ...tokens.slice(from), { value: ')', type: 'op' }],
      0,
      tokens.length - from + 1,
    );
    const shifted = items.map(([a, b]) => [a - 1 + from, b - 1 + from]);
    if (shifted.length < 2 && !tokens.slice(from).some((t) => t.value === ',')) continue;
    if (!shifted.some(([a]) => tokens[a].type === 'op' && tokens[a].value === '*')) continue;
    if (edits.some((e) => e.start < tokens[tokens.length - 1].end && e.end > tokens[from].start)) continue;
    const args = [`'t'`];
    let plain = [];
    for (const [a, b] of shifted) {
      if (tokens[a].value === '*') {
        args.push(`(${plain.map((p) => p + ',').join(' ')})`, render(tokens, a + 1, b));
        plain = [];
      } else plain.push(render(tokens, a, b));
    }
    if (plain.length) args.push(`(${plain.map((p) => p + ',').join(' ')})`);
    const start = tokens[from].start,
      stop = tokens[tokens.length - 1].end;
    edits.push({
      start,
      end: stop,
      text: `__attnlab_display__(${args.join(', ')})` + '\n'.repeat(countBreaks(source.slice(start, stop))),
    });
    rewrites.push({ line: lineOf(start), construct: '*…, …' });
  }

  // class statements: metaclass=, Enum subclasses, Generic subclasses
  const generic = new Set();
  for (const line of lines) {
    const tokens = line.tokens;
    if (tokens[0]?.value !== 'class' || tokens[1]?.type !== 'name' || tokens[2]?.value !== '(') continue;
    const name = tokens[1].value;
    const end = closing(tokens, 2);
    const items = itemsOf(tokens, 2, end);
    const baseNames = tokens
      .slice(3, end)
      .filter((x) => x.type === 'name')
      .map((x) => x.value);
    if (baseNames.some((b) => GENERIC_ROOTS.has(b) || generic.has(b))) generic.add(name);
    const meta = items.find(([a]) => tokens[a].value === 'metaclass' && tokens[a + 1]?.value === '=');
    if (meta && !edits.some((e) => e.start <= tokens[2].start && e.end >= tokens[end].end)) {
      const positional = items.filter(
        ([a]) => !(tokens[a].type === 'name' && tokens[a + 1]?.value === '=') && tokens[a].value !== '**',
      );
      const keywords = items.filter((it) => it !== meta && !positional.includes(it));
      const parts = [
        ...positional.map(([a, b]) => render(tokens, a, b)),
        `__attnlab_metabase__(${render(tokens, meta[0] + 2, meta[1])})`,
        ...keywords.map(([a, b]) => render(tokens, a, b)),
      ];
      const start = tokens[2].start,
        stop = tokens[end].end;
      edits.push({
        start,
        end: stop,
        text: `(${parts.join(', ')})` + '\n'.repeat(countBreaks(source.slice(start, stop))),
      });
      rewrites.push({ line: lineOf(start), construct: 'metaclass=' });
    }
    if (baseNames.some((b) => ENUMS.has(b))) {
      const above = blankLineAbove(source, line.start);
      if (above) {
        const indent = source.slice(source.lastIndexOf('\n', line.start - 1) + 1, line.start);
        edits.push({ start: above.start, end: above.end, text: `${indent}@__attnlab_enum__` });
        rewrites.push({ line: lineOf(line.start), construct: 'Enum' });
      }
    }
  }
  if (generic.size) {
    for (const line of lines) {
      const tokens = line.tokens;
      tokens.forEach((t, k) => {
        if (t.type !== 'name' || !generic.has(t.value) || tokens[k + 1]?.value !== '[') return;
        const prev = tokens[k - 1];
        if (prev && (prev.value === '.' || prev.value === 'class' || prev.value === 'def')) return;
        if (edits.some((e) => e.start <= t.start && e.end >= t.end)) return;
        edits.push({ start: t.start, end: t.end, text: `__attnlab_generic__(${t.value})` });
        rewrites.push({ line: lineOf(t.start), construct: `${t.value}[…]` });
      });
    }
  }

  edits.sort((a, b) => b.start - a.start);
  let out = source;
  let floor = Infinity;
  for (const e of edits) {
    if (e.end > floor) continue; // overlapping: the earlier (outer) edit already covers it
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
    floor = e.start;
  }
  return { source: out, rewrites };
}

function tokenAtDepth0(tokens, a, b, value) {
  let depth = 0;
  for (let j = a; j < b; j++) {
    const t = tokens[j];
    if (t.type !== 'op') continue;
    if (CLOSERS[t.value]) depth++;
    else if (t.value === ')' || t.value === ']' || t.value === '}') depth--;
    else if (t.value === value && depth === 0) return true;
  }
  return false;
}

/** Does the token range hold a display with unpacking at any depth? */
function hasStarDisplay(tokens, from, to) {
  for (let k = from; k < to; k++) {
    const t = tokens[k];
    if (t.type !== 'op' || !CLOSERS[t.value]) continue;
    const end = closing(tokens, k);
    if (isDisplay(tokens, k)) {
      const items = itemsOf(tokens, k, end);
      if (items.some(([a]) => tokens[a].value === '*' || tokens[a].value === '**')) return true;
    }
    if (hasStarDisplay(tokens, k + 1, end)) return true;
    k = end;
  }
  return false;
}

/** The physical line above the statement at `start` (skipping its decorators), if it is blank: { start, end }. */
function blankLineAbove(source, start) {
  let lineStart = source.lastIndexOf('\n', start - 1) + 1;
  for (;;) {
    if (lineStart === 0) return null;
    const prevStart = source.lastIndexOf('\n', lineStart - 2) + 1;
    const text = source.slice(prevStart, lineStart - 1);
    if (/^\s*@/.test(text)) {
      lineStart = prevStart;
      continue;
    }
    return /^[ \t\r]*$/.test(text) ? { start: prevStart, end: lineStart - 1 - (text.endsWith('\r') ? 1 : 0) } : null;
  }
}

// ---- the work count's ticks (grader/tracks/work.mjs; runtime.py counts them): every `for` iterates
// over `__attnlab_tk__((…))` (a statement's up to its header's `:`, a comprehension's up to its next
// `if`, `for` or closing bracket at its depth) and every `while` tests `__attnlab_tw__() and (…)`.
// A function's entry calls `__attnlab_te__()` first in its body's first line: `__attnlab_te__(); stmt` before
// a simple statement (a one-line `def f(x): return x` too), `if __attnlab_te__() and (…):` in a body that
// starts with `if`; a body that starts with another compound statement is left unticked (its loops are
// ticked). Inserted within the line, never a line break: lines and indentation stay the student's (the
// runtime reports lines only).
export const TICK_FOR = '__attnlab_tk__';
export const TICK_WHILE = '__attnlab_tw__';
export const TICK_ENTRY = '__attnlab_te__';
const TICK_NAMES = new Set([TICK_FOR, TICK_WHILE, TICK_ENTRY]);
const NOT_SIMPLE = new Set([
  'def',
  'class',
  'for',
  'while',
  'try',
  'with',
  'async',
  'match',
  'elif',
  'else',
  'except',
  'finally',
  'if',
]);

/** The first student token naming a tick (a submission may not bind or read them), or null. */
export function tickNameUsed(source) {
  for (const line of logicalLines(source))
    for (const t of line.tokens) if (t.type === 'name' && TICK_NAMES.has(t.value)) return t;
  return null;
}

/** `source` with the loops ticked (offsets in `source`; lines kept). Never fails: what it cannot read it leaves. */
export function tickLoops(source) {
  const inserts = []; // [offset, text]
  const lines = logicalLines(source);
  lines.forEach((line, n) => {
    const tokens = line.tokens;
    // depth of each token (brackets opened before it on this logical line)
    const depth = [];
    let d = 0;
    for (const t of tokens) {
      if (t.type === 'op' && (t.value === ')' || t.value === ']' || t.value === '}')) d = Math.max(0, d - 1);
      depth.push(d);
      if (t.type === 'op' && CLOSERS[t.value]) d++;
    }
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k];
      if (t.type !== 'name' || (t.value !== 'for' && t.value !== 'while')) continue;
      if (tokens[k - 1]?.value === 'async') continue; // async for: left as it is
      const at = depth[k];
      const statement = k === 0;
      if (t.value === 'while') {
        if (!statement) continue;
        const colon = findAt(tokens, depth, k + 1, at, (x) => x.type === 'op' && x.value === ':');
        if (colon < 0 || colon === k + 1) continue;
        inserts.push([tokens[k + 1].start, `${TICK_WHILE}() and (`], [tokens[colon - 1].end, ')']);
        continue;
      }
      if (!statement && at === 0) continue; // a `for` outside brackets that does not start the line: not Python
      const inAt = findAt(tokens, depth, k + 1, at, (x) => x.type === 'name' && x.value === 'in');
      if (inAt < 0) continue;
      const end = statement
        ? findAt(tokens, depth, inAt + 1, at, (x) => x.type === 'op' && x.value === ':')
        : findEnd(tokens, depth, inAt + 1, at);
      if (end < 0 || end === inAt + 1) continue;
      inserts.push([tokens[inAt + 1].start, `${TICK_FOR}((`], [tokens[end - 1].end, '))']);
    }
    if (tokens[0]?.value === 'def' && tokens[1]?.type === 'name' && tokens[2]?.value === '(') {
      const colon = findAt(tokens, depth, closing(tokens, 2) + 1, 0, (x) => x.type === 'op' && x.value === ':');
      if (colon < 0) return;
      if (colon + 1 < tokens.length) {
        if (!NOT_SIMPLE.has(tokens[colon + 1].value)) inserts.push([tokens[colon + 1].start, `${TICK_ENTRY}(); `]);
        return;
      }
      const body = lines[n + 1];
      const first = body?.tokens[0];
      if (!first || !body.indented) return;
      if (first.type === 'op' && first.value === '@') return;
      if (!NOT_SIMPLE.has(first.value)) inserts.push([first.start, `${TICK_ENTRY}(); `]);
      else if (first.value === 'if') {
        const bt = body.tokens,
          bd = [];
        let d = 0;
        for (const t of bt) {
          if (t.type === 'op' && (t.value === ')' || t.value === ']' || t.value === '}')) d = Math.max(0, d - 1);
          bd.push(d);
          if (t.type === 'op' && CLOSERS[t.value]) d++;
        }
        const c = findAt(bt, bd, 1, 0, (x) => x.type === 'op' && x.value === ':');
        if (c > 1) inserts.push([bt[1].start, `${TICK_ENTRY}() and (`], [bt[c - 1].end, ')']);
      }
    }
  });
  inserts.sort((a, b) => a[0] - b[0]);
  let out = '',
    from = 0;
  for (const [offset, text] of inserts) {
    out += source.slice(from, offset) + text;
    from = offset;
  }
  return out + source.slice(from);
}

/** The first token from `k` at bracket depth `at` that `is` accepts, before the depth drops below `at`; -1 if none. */
function findAt(tokens, depth, k, at, is) {
  for (let j = k; j < tokens.length; j++) {
    if (depth[j] < at) return -1;
    if (depth[j] === at && is(tokens[j])) return j;
  }
  return -1;
}

/** Where a comprehension's iterable from token k ends: its next `if`, `for`, `async` or the closing bracket at its depth. */
function findEnd(tokens, depth, k, at) {
  for (let j = k; j < tokens.length; j++) {
    const t = tokens[j];
    if (depth[j] < at) return j; // the closing bracket (its depth is the one outside)
    if (depth[j] === at && t.type === 'name' && (t.value === 'if' || t.value === 'for' || t.value === 'async'))
      return j;
    if (depth[j] === at && t.type === 'op' && t.value === ',') return j; // `f(x for x in a, b)`: let the compiler judge
  }
  return tokens.length;
}
