// A Python submission prepared on the trusted side, the same way for both hosts. There is no CPython
// here (and none on the page), so this never judges syntax: the guest's compiler does that at load,
// with the line (grade.mjs treats it like a JavaScript syntax error). What this does is read the
// source's structure from its tokens and indentation, leniently:
// - `names`: what the script defines at top level (functions, classes, assigned names), for the CLI's
//   guess of the exercise;
// - `members`: attribute names read with a dot (`K.T` → 'T'), for hints about constructs;
// - `declarations`: the copy the grader's top-level rule grades when the top level raises, hangs or
//   crashes: top-level `def` and `class` blocks with their decorators, imports, and assignments whose
//   values are literals, names, attribute reads, subscripts, operators, displays and lambdas (no call,
//   comprehension, yield or await outside a lambda). Everything else is blanked in place, so lines
//   keep their numbers (a kept statement after a `;` moves to the start of its line).

const COMPOUND = new Set([
  'def',
  'class',
  'if',
  'elif',
  'else',
  'for',
  'while',
  'try',
  'except',
  'finally',
  'with',
  'async',
  'match',
  'case',
]);
const KEEP_FIRST = new Set(['import', 'from', 'global', 'nonlocal', 'pass']);
const OPERATORS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '...',
  '->',
  ':=',
  '**',
  '//',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '@=',
];
const OPENERS = { '(': ')', '[': ']', '{': '}' };
const STRING_START = /(?:[rRbBuUfF]{1,2})?(?:'''|"""|'|")/y;
const NAME = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/uy;
const NUMBER = /(?:0[xXoObB][\w]*|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d[\d_]*)?[jJ]?|\d[\d_]*\.)/y;

/** Logical lines: [{ start, end, indented, tokens: [{ type: 'name'|'number'|'string'|'op', value, start, end }] }]. */
export function logicalLines(source) {
  const lines = [];
  const n = source.length;
  let i = 0,
    depth = 0,
    line = null;
  const at = (re, pos) => {
    re.lastIndex = pos;
    const m = re.exec(source);
    return m && m.index === pos ? m[0] : null;
  };
  const push = (type, value, start) => line.tokens.push({ type, value, start, end: start + value.length });
  while (i < n) {
    if (!line) {
      // the start of a physical line outside brackets: indentation, or a blank/comment line
      let j = i;
      while (j < n && ' \t\f'.includes(source[j])) j++;
      if (j >= n) break;
      if (source[j] === '\n' || source[j] === '\r' || source[j] === '#') {
        while (j < n && source[j] !== '\n') j++;
        i = j + 1;
        continue;
      }
      line = { start: j, end: n, indented: j > i, tokens: [] };
      i = j;
      continue;
    }
    const c = source[i];
    if (c === '\n') {
      if (depth === 0) {
        line.end = i;
        lines.push(line);
        line = null;
      }
      i++;
      continue;
    }
    if (c === '\\' && (source[i + 1] === '\n' || (source[i + 1] === '\r' && source[i + 2] === '\n'))) {
      i += source[i + 1] === '\n' ? 2 : 3;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\f' || c === '\r') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < n && source[i] !== '\n') i++;
      continue;
    }
    const quote = at(STRING_START, i);
    if (quote) {
      const q = quote.replace(/^[rRbBuUfF]+/, ''),
        raw = /[rR]/.test(quote.slice(0, quote.length - q.length));
      let j = i + quote.length;
      for (;;) {
        if (j >= n) break;
        if (!raw && source[j] === '\\') {
          j += 2;
          continue;
        }
        if (raw && source[j] === '\\' && j + 1 < n) {
          j += 2;
          continue;
        }
        if (source.startsWith(q, j)) {
          j += q.length;
          break;
        }
        if (q.length === 1 && source[j] === '\n') break; // unterminated: the compiler will say so
        j++;
      }
      push('string', source.slice(i, Math.min(j, n)), i);
      i = Math.min(j, n);
      continue;
    }
    const number = /[0-9]/.test(c) || (c === '.' && /[0-9]/.test(source[i + 1] ?? '')) ? at(NUMBER, i) : null;
    if (number) {
      push('number', number, i);
      i += number.length;
      continue;
    }
    const name = at(NAME, i);
    if (name) {
      push('name', name, i);
      i += name.length;
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i)) ?? c;
    if (OPENERS[op]) depth++;
    else if (')]}'.includes(op)) depth = Math.max(0, depth - 1);
    push('op', op, i);
    i += op.length;
  }
  if (line) lines.push(line);
  return lines;
}

/** The top-level statements: [{ lines: [logical lines], simple: bool, tokens, start, end }], decorators with what they decorate. */
function statements(lines) {
  const out = [];
  let decorators = [];
  for (const line of lines) {
    if (line.indented) {
      // the body of the top-level statement before it
      const last = out[out.length - 1];
      if (last) {
        last.end = line.end;
        last.block = true;
      }
      continue;
    }
    const first = line.tokens[0];
    if (first?.value === '@') {
      decorators.push(line);
      continue;
    }
    const lead = decorators;
    decorators = [];
    if (first && COMPOUND.has(first.value) && first.type === 'name') {
      out.push({
        tokens: line.tokens,
        start: (lead[0] ?? line).start,
        end: line.end,
        compound: true,
        decorated: lead.length > 0,
      });
      continue;
    }
    // Simple statements, split at top-level semicolons.
    let depth = 0,
      from = 0;
    const parts = [];
    line.tokens.forEach((tok, k) => {
      if (OPENERS[tok.value]) depth++;
      else if (')]}'.includes(tok.value)) depth--;
      else if (tok.value === ';' && depth === 0) {
        parts.push({ tokens: line.tokens.slice(from, k), semicolon: tok });
        from = k + 1;
      }
    });
    parts.push({ tokens: line.tokens.slice(from) });
    for (const [k, p] of parts.entries()) {
      if (!p.tokens.length) continue;
      out.push({
        tokens: p.tokens,
        start: k === 0 && lead.length ? lead[0].start : p.tokens[0].start,
        end: p.semicolon ? p.semicolon.end : k === parts.length - 1 ? line.end : p.tokens.at(-1).end,
        lineStart: line.start,
        first: k === 0,
      });
    }
  }
  return out;
}

const CALL_BEFORE = (prev) =>
  prev &&
  (prev.type === 'name' || prev.type === 'string' || prev.value === ')' || prev.value === ']' || prev.value === '}');
const KEYWORD_VALUES = new Set(['True', 'False', 'None', 'and', 'or', 'not', 'in', 'is', 'if', 'else', 'lambda']);
const STATEMENT_WORDS = new Set([
  'for',
  'yield',
  'await',
  'async',
  'del',
  'import',
  'from',
  'return',
  'raise',
  'assert',
  'global',
  'nonlocal',
  'pass',
  'break',
  'continue',
  'while',
  'with',
  'try',
  'def',
  'class',
]);

/** A value that evaluating runs none of the student's code beyond reading names (a call only inside a lambda). */
function isInert(tokens) {
  let lambda = false;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.type === 'name' && t.value === 'lambda') lambda = true;
    if (lambda) continue;
    if (t.type === 'name' && STATEMENT_WORDS.has(t.value)) return false;
    if (t.value === ':=') return false;
    if (t.value === '(' && CALL_BEFORE(tokens[k - 1])) return false;
  }
  return true;
}

/** A simple statement that only declares: an import, an assignment or annotation of names to an inert value, a docstring. */
function isDeclaration(st) {
  if (st.compound)
    return (
      st.tokens[0].value === 'def' ||
      st.tokens[0].value === 'class' ||
      (st.tokens[0].value === 'async' && st.tokens[1]?.value === 'def')
    );
  const [first] = st.tokens;
  if (first.type === 'name' && KEEP_FIRST.has(first.value)) return true;
  if (st.tokens.length === 1 && (first.type === 'string' || first.value === '...')) return true;
  let depth = 0,
    lambda = false;
  const eq = []; // top-level `=` and `:` before any lambda (whose defaults and colon are its own)
  st.tokens.forEach((t, k) => {
    if (t.value === 'lambda' && t.type === 'name') lambda = true;
    if (lambda) return;
    if (OPENERS[t.value]) depth++;
    else if (')]}'.includes(t.value)) depth--;
    else if (depth === 0 && (t.value === '=' || t.value === ':')) eq.push(k);
  });
  if (!eq.length) return false;
  const last = eq[eq.length - 1];
  const target = st.tokens.slice(0, eq[0]);
  if (
    !target.length ||
    !target.every((t) => t.type === 'name' || t.value === ',' || t.value === '(' || t.value === ')' || t.value === '*')
  )
    return false;
  if (target.some((t) => t.type === 'name' && (STATEMENT_WORDS.has(t.value) || KEYWORD_VALUES.has(t.value))))
    return false;
  // `x: T = v`, `x: T`, `a = b = v`: every part after the targets is inert.
  return isInert(st.tokens.slice(eq[0] + 1, last)) && isInert(st.tokens.slice(last + 1));
}

/**
 * What each top-level function reads, as the JavaScript track's `reads(fn)` (grader/tracks/js/source.mjs):
 * `fn` and the top-level functions it calls (transitively) → { members: Set of names after a dot,
 * shapeAxes: ['K.shape[1]', …] (a shape indexed from the front with a literal), shapeNegative: []
 * (a negative index is right in Python), functions: Set of the top-level functions it calls (transitively, `fn`
 * itself left out), calls: Set of call texts with a literal argument, such as
 * 'K.swapaxes(0, 1)' }, or null for a name that is not a top-level function.
 */
function functionReads(sts, lines, source) {
  const bodies = new Map(); // name → its logical lines (the `def` line and its indented body)
  for (const st of sts) {
    if (!st.compound) continue;
    const at = st.tokens[0].value === 'async' ? 1 : 0;
    if (st.tokens[at]?.value !== 'def' || st.tokens[at + 1]?.type !== 'name') continue;
    bodies.set(
      st.tokens[at + 1].value,
      lines.filter((l) => l.start >= st.start && l.end <= st.end),
    );
  }
  const own = new Map();
  const info = (name) => {
    if (own.has(name)) return own.get(name);
    const r = { members: new Set(), shapeAxes: [], calls: new Set(), uses: new Set() };
    own.set(name, r);
    for (const { tokens } of bodies.get(name)) {
      tokens.forEach((t, k) => {
        const next = tokens[k + 1];
        if (t.value === '.' && next?.type === 'name') r.members.add(next.value);
        if (t.type === 'name' && bodies.has(t.value) && tokens[k - 1]?.value !== '.') r.uses.add(t.value);
        // `K.shape[0]`: the object, `.shape`, and a non-negative integer literal alone in the brackets
        if (
          t.value === 'shape' &&
          tokens[k - 1]?.value === '.' &&
          tokens[k - 2]?.type === 'name' &&
          next?.value === '[' &&
          tokens[k + 2]?.type === 'number' &&
          /^\d+$/.test(tokens[k + 2].value) &&
          tokens[k + 3]?.value === ']'
        ) {
          r.shapeAxes.push(source.slice(tokens[k - 2].start, tokens[k + 3].end));
        }
        // a call with a literal argument: from the dotted name before `(` to its `)`
        if (t.value === '(' && tokens[k - 1]?.type === 'name') {
          let from = k - 1;
          while (tokens[from - 1]?.value === '.' && tokens[from - 2]?.type === 'name') from -= 2;
          let depth = 0,
            to = k,
            literal = false;
          for (; to < tokens.length; to++) {
            if (OPENERS[tokens[to].value]) depth++;
            else if (')]}'.includes(tokens[to].value) && --depth === 0) break;
            else if (depth === 1 && tokens[to].type === 'number') literal = true;
          }
          if (literal && to < tokens.length)
            r.calls.add(source.slice(tokens[from].start, tokens[to].end).replace(/\s+/g, ' '));
        }
      });
    }
    return r;
  };
  return (fn) => {
    if (!bodies.has(fn)) return null;
    const all = { members: new Set(), shapeAxes: [], shapeNegative: [], calls: new Set() };
    const seen = new Set();
    const visit = (name) => {
      if (seen.has(name) || !bodies.has(name)) return;
      seen.add(name);
      const r = info(name);
      r.members.forEach((m) => all.members.add(m));
      all.shapeAxes.push(...r.shapeAxes);
      r.calls.forEach((c) => all.calls.add(c));
      r.uses.forEach(visit);
    };
    visit(fn);
    all.functions = new Set([...seen].filter((n) => n !== fn)); // the top-level functions `fn` reaches
    return all;
  };
}

/**
 * → { ok: true, source, declarations, aliases: {}, names, members, reads }. Never fails: syntax is the
 * guest compiler's to judge. `reads(fn)`: what function `fn` reads (functionReads above).
 */
export function prepareSource(source) {
  const lines = logicalLines(source);
  const members = new Set();
  for (const line of lines) {
    line.tokens.forEach((t, k) => {
      if (t.value === '.' && line.tokens[k + 1]?.type === 'name') members.add(line.tokens[k + 1].value);
    });
  }
  const sts = statements(lines);
  const names = new Set();
  for (const st of sts) {
    const [a, b] = st.tokens;
    if (st.compound && (a.value === 'def' || a.value === 'class') && b?.type === 'name') names.add(b.value);
    else if (st.compound && a.value === 'async' && st.tokens[2]?.type === 'name') names.add(st.tokens[2].value);
    else if (!st.compound && a.type === 'name' && (b?.value === '=' || b?.value === ':') && !KEEP_FIRST.has(a.value))
      names.add(a.value);
  }
  const units = source.split('');
  const blank = (from, to) => {
    for (let i = from; i < to; i++) if (units[i] !== '\n' && units[i] !== '\r') units[i] = ' ';
  };
  const byLine = new Map(); // simple statements sharing a line (`a = 1; print(a)`)
  for (const st of sts) {
    if (st.compound) {
      if (!isDeclaration(st)) blank(st.start, st.end);
      continue;
    }
    if (!byLine.has(st.lineStart)) byLine.set(st.lineStart, []);
    byLine.get(st.lineStart).push(st);
  }
  for (const [lineStart, group] of byLine) {
    const kept = group.filter(isDeclaration);
    if (kept.length === group.length) continue;
    blank(group[0].start, group[group.length - 1].end);
    // What is kept moves to the start of the line, unless that would move a line break.
    const text = kept
      .map((st) => source.slice(st.start, st.end))
      .join(' ')
      .replace(/;\s*$/, '');
    if (!/[\r\n]/.test(text)) for (let i = 0; i < text.length; i++) units[lineStart + i] = text[i];
  }
  return {
    ok: true,
    source,
    declarations: units.join(''),
    withoutLine,
    aliases: {},
    names: [...names],
    members,
    reads: functionReads(sts, lines, source),
  };
}

/**
 * `text` with the top-level statement that holds line `line` blanked in place (lines kept), or null if
 * no statement holds it: the grader leaves out a declaration that failed (grade.mjs).
 */
export function withoutLine(text, line) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const at = starts[line - 1];
  if (at === undefined) return null;
  const st = statements(logicalLines(text)).find((x) => x.start <= (starts[line] ?? text.length) - 1 && x.end >= at);
  if (!st) return null;
  return text.slice(0, st.start) + text.slice(st.start, st.end).replace(/[^\r\n]/g, ' ') + text.slice(st.end);
}

/** The module's tokens for the grader's reading of a syntax error (core/syntax.mjs): [{ value, offset, op }]. */
export const tokens = (source) =>
  logicalLines(source).flatMap((l) => l.tokens.map((t) => ({ value: t.value, offset: t.start, op: t.type === 'op' })));
