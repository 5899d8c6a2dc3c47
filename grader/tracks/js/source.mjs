// A JavaScript submission prepared on the trusted side (acorn), the same way for both hosts: syntax
// errors with line and column, `export` forms removed (aliases kept), module-only syntax refused with
// its position, and a declarations-only copy for the grader's top-level rule (grade.mjs): when the
// script's top level throws or does not finish, that copy is what gets graded.
// Every transformation blanks characters in place, so lines and columns stay those of the student.
import { parse, tokenizer } from 'acorn';
import { TICK, TICK_LOCAL, ENTER, ENTER_LOCAL } from './tick.mjs';
import info from './info.mjs';

/** @type {import('acorn').Options} */
const OPTIONS = { ecmaVersion: 'latest', locations: true };

/**
 * → { ok: true, source, declarations, aliases, names, members } or { ok: false, error: { message, line, column } }.
 * `names`: what the script declares at top level (functions, classes, variables, export aliases).
 * `reads(fn)`: what top-level function `fn` and the top-level functions it calls (transitively) read:
 * { members: Set of property names after a dot, shapeAxes: ['K.shape[1]', …] (a shape indexed from
 * the front with a literal), shapeNegative: ['K.shape[-1]', …] (undefined in JS), functions: Set of the top-level
 * functions it calls (transitively, `fn` itself left out), calls: Set of `obj.method(literal, literal)` texts such as
 * 'np.swapaxes(K, 0, 1)' } — for hints that only speak of constructs on the path that failed.
 * `aliases`: exported name → local name (`export { impl as softmax }`); `members`: property names the
 * code reads with a dot (`K.T` → 'T'), for hints.
 */
export function prepareSource(source) {
  let ast;
  try {
    ast = parse(source, { ...OPTIONS, sourceType: 'module' });
  } catch (moduleError) {
    try {
      ast = parse(source, { ...OPTIONS, sourceType: 'script' }); // sloppy-mode code a module refuses (010, `arguments.callee`; `with` is then refused: tickRefused)
    } catch {
      const { line, column } = moduleError.loc || { line: 1, column: 0 };
      return fail(moduleError.message.replace(/\s*\(\d+:\d+\)$/, ''), { line, column });
    }
  }
  const refused = moduleOnly(ast) ?? tickRefused(ast);
  if (refused) return fail(refused.message, refused.node.loc.start);
  const aliases = {};
  const edits = []; // [from, to, replacement]: applied to both copies
  for (const node of ast.body) {
    if (node.type === 'ExportNamedDeclaration' && node.declaration)
      edits.push([node.start, node.declaration.start, '']);
    else if (node.type === 'ExportNamedDeclaration') {
      for (const s of node.specifiers)
        if (s.exported.name !== s.local.name && s.exported.name !== 'default') aliases[s.exported.name] = s.local.name;
      edits.push([node.start, node.end, '']);
    } else if (node.type === 'ExportDefaultDeclaration') {
      const d = node.declaration;
      // `export default function f` keeps f; anything else becomes an expression that is evaluated and dropped.
      edits.push([node.start, d.start, /Declaration$/.test(d.type) && d.id ? '' : 'void']);
    }
  }
  const kept = new Set(ast.body.filter(isDeclaration));
  const declarationEdits = ast.body.filter((n) => !kept.has(n)).map((n) => [n.start, n.end, '']);
  const readable = applyEdits(source, edits);
  const bind = bindTick(ast);
  const ticks = [bind, ...tickInserts(ast)];
  const declarationTicks = [
    bind,
    ...ticks.slice(1).filter(([at]) => !declarationEdits.some(([from, to]) => from <= at && at < to)),
  ];
  return {
    ok: true,
    names: topLevelNames(ast, aliases),
    reads: functionReads(ast, source, aliases),
    source: readable,
    run: insertTexts(readable, ticks),
    declarations: insertTexts(
      applyEdits(source, [
        ...edits.filter(([from]) => ast.body.some((n) => kept.has(n) && n.start === from)),
        ...declarationEdits,
      ]),
      declarationTicks,
    ),
    ...positions(columnMap(source, ticks)),
    aliases,
    members: memberNames(source),
  };
}

function functionReads(ast, source, aliases) {
  const bodies = new Map(); // top-level function name → its node
  for (let node of ast.body) {
    if (/^Export(Named|Default)Declaration$/.test(node.type) && node.declaration) node = node.declaration;
    if (node.type === 'FunctionDeclaration' && node.id) bodies.set(node.id.name, node);
    if (node.type === 'VariableDeclaration')
      for (const d of node.declarations)
        if (d.id.type === 'Identifier' && d.init && /Function/.test(d.init.type)) bodies.set(d.id.name, d.init);
  }
  for (const [exported, local] of Object.entries(aliases))
    if (bodies.has(local)) bodies.set(exported, bodies.get(local));
  const own = new Map();
  const info = (name) => {
    if (own.has(name)) return own.get(name);
    const r = { members: new Set(), shapeAxes: [], shapeNegative: [], calls: new Set(), uses: new Set() };
    own.set(name, r);
    walk(bodies.get(name), (n) => {
      if (n.type === 'MemberExpression' && !n.computed && n.property.type === 'Identifier')
        r.members.add(n.property.name);
      if (
        n.type === 'MemberExpression' &&
        n.computed &&
        n.property.type === 'Literal' &&
        typeof n.property.value === 'number' &&
        n.property.value >= 0 &&
        n.object.type === 'MemberExpression' &&
        !n.object.computed &&
        n.object.property.name === 'shape'
      )
        r.shapeAxes.push(source.slice(n.start, n.end));
      if (
        n.type === 'MemberExpression' &&
        n.computed &&
        n.property.type === 'UnaryExpression' &&
        n.property.operator === '-' &&
        n.property.argument.type === 'Literal' &&
        n.object.type === 'MemberExpression' &&
        !n.object.computed &&
        n.object.property.name === 'shape'
      )
        r.shapeNegative.push(source.slice(n.start, n.end));
      if (n.type === 'CallExpression' && n.arguments.some((a) => a.type === 'Literal'))
        r.calls.add(source.slice(n.start, n.end).replace(/\s+/g, ' '));
      if (n.type === 'Identifier' && bodies.has(n.name)) r.uses.add(n.name);
    });
    return r;
  };
  return (fn) => {
    const all = { members: new Set(), shapeAxes: [], shapeNegative: [], calls: new Set() };
    const seen = new Set();
    const visit = (name) => {
      if (seen.has(name) || !bodies.has(name)) return;
      seen.add(name);
      const r = info(name);
      r.members.forEach((m) => all.members.add(m));
      all.shapeAxes.push(...r.shapeAxes);
      all.shapeNegative.push(...r.shapeNegative);
      r.calls.forEach((c) => all.calls.add(c));
      r.uses.forEach(visit);
    };
    visit(fn);
    // the top-level functions `fn` reaches, by the names they are exported under as well
    all.functions = new Set([...seen].filter((n) => n !== fn));
    for (const [exported, local] of Object.entries(aliases)) if (all.functions.has(local)) all.functions.add(exported);
    return all;
  };
}

function walk(node, f) {
  if (!node || typeof node.type !== 'string') return;
  f(node);
  for (const key of Object.keys(node)) {
    const v = node[key];
    if (Array.isArray(v)) v.forEach((c) => walk(c, f));
    else if (v && typeof v.type === 'string' && key !== 'loc') walk(v, f);
  }
}

function topLevelNames(ast, aliases) {
  const names = new Set(Object.keys(aliases));
  const add = (id) => {
    if (id?.type === 'Identifier') names.add(id.name);
  };
  for (let node of ast.body) {
    if (/^Export(Named|Default)Declaration$/.test(node.type) && node.declaration) node = node.declaration;
    if (node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') add(node.id);
    if (node.type === 'VariableDeclaration') for (const d of node.declarations) add(d.id);
  }
  return [...names];
}

const fail = (message, { line, column }) => ({ ok: false, error: { message, line, column: column + 1 } });

// What a module allows and a script does not: the guest runs scripts, so refuse these with their
// position instead of letting the engine fail without one.
function moduleOnly(ast) {
  let found = null;
  const visit = (node, inFunction) => {
    if (found || !node || typeof node.type !== 'string') return;
    if (node.type === 'ImportDeclaration')
      return void (found = {
        node,
        message: 'import is not available here: np is already global, and no other module can be loaded',
      });
    if (node.type === 'ExportAllDeclaration' || (node.type === 'ExportNamedDeclaration' && node.source))
      return void (found = { node, message: 'export … from is not available here: no other module can be loaded' });
    if (node.type === 'MetaProperty' && node.meta.name === 'import')
      return void (found = {
        node,
        message: 'import.meta is not available here: the code runs as a script, not a module',
      });
    if (!inFunction && (node.type === 'AwaitExpression' || (node.type === 'ForOfStatement' && node.await))) {
      return void (found = {
        node,
        message:
          'top-level await is not available here: the code runs as a script; await only inside an async function',
      });
    }
    const fn = inFunction || /Function/.test(node.type);
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (Array.isArray(v)) v.forEach((c) => visit(c, fn));
      else if (v && typeof v.type === 'string' && key !== 'loc') visit(v, fn);
    }
  };
  visit(ast, false);
  return found;
}

// A top-level statement that only declares (evaluating it runs no code of the student's beyond
// reading names): functions, classes without static parts, and variables whose initialisers are
// literals, names, member reads, functions and operators over those.
function isDeclaration(node) {
  if (node.type === 'ExportNamedDeclaration' || node.type === 'ExportDefaultDeclaration')
    return !!node.declaration && isDeclaration(node.declaration);
  if (node.type === 'FunctionDeclaration') return true;
  if (node.type === 'ClassDeclaration') return isStaticFree(node);
  if (node.type === 'VariableDeclaration') return node.declarations.every((d) => !d.init || isInert(d.init));
  return false;
}

const isStaticFree = (cls) =>
  (!cls.superClass || isInert(cls.superClass)) &&
  cls.body.body.every((m) => !m.static && m.type !== 'StaticBlock' && (!m.computed || isInert(m.key)));

function isInert(e) {
  switch (e.type) {
    case 'Literal':
    case 'Identifier':
    case 'ThisExpression':
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
      return true;
    case 'ClassExpression':
      return isStaticFree(e);
    case 'TemplateLiteral':
      return e.expressions.every(isInert);
    case 'UnaryExpression':
      return e.operator !== 'delete' && isInert(e.argument);
    case 'BinaryExpression':
    case 'LogicalExpression':
      return isInert(e.left) && isInert(e.right);
    case 'ConditionalExpression':
      return isInert(e.test) && isInert(e.consequent) && isInert(e.alternate);
    case 'ArrayExpression':
      return e.elements.every((x) => !x || isInert(x.type === 'SpreadElement' ? x.argument : x));
    case 'ObjectExpression':
      return e.properties.every((p) =>
        p.type === 'SpreadElement' ? isInert(p.argument) : (!p.computed || isInert(p.key)) && isInert(p.value),
      );
    case 'MemberExpression':
      return isInert(e.object) && (!e.computed || isInert(e.property));
    case 'ChainExpression':
      return isInert(e.expression);
    case 'SequenceExpression':
      return e.expressions.every(isInert);
    default:
      return false; // calls, new, assignments, updates, await, yield, tagged templates
  }
}

// ---- the work count's ticks (grader/tracks/work.mjs): `const TICK_LOCAL=TICK,ENTER_LOCAL=ENTER;`
// first (after the script's directives), then `TICK_LOCAL();` at the start of every loop body and
// `ENTER_LOCAL();` at the start of every function body (after its directives, so "use strict" stays one), a block or a comma expression made
// where there is none. Nothing else moves: no line break is added, so lines stay the student's; a
// column after a tick on its line moves by the tick's length, and columnOf(line, column) gives back the
// student's column for an error's position in `run`.
const TICK_CALL = `${TICK_LOCAL}();`;
const ENTER_CALL = `${ENTER_LOCAL}();`;
const LOOPS = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);

/** [[offset, text], …] to insert into the prepared source, in offset order. */
function tickInserts(ast) {
  const out = [];
  walk(ast, (n) => {
    if (LOOPS.has(n.type)) {
      const b = n.body;
      if (b.type === 'BlockStatement') out.push([b.start + 1, TICK_CALL]);
      else out.push([b.start, `{${TICK_CALL}`], [b.end, '}']);
    } else if (/Function/.test(n.type) && n.body) {
      const b = n.body;
      if (b.type === 'BlockStatement') {
        let at = b.start + 1;
        for (const st of b.body)
          if (st.type === 'ExpressionStatement' && typeof st.directive === 'string') at = st.end;
          else break;
        out.push([at, ENTER_CALL]);
      } else out.push([b.start, `(${ENTER_LOCAL}(),`], [b.end, ')']);
    }
  });
  return out.sort((a, b) => a[0] - b[0]);
}

/** The insert that binds TICK_LOCAL and ENTER_LOCAL, first in the script but after its own directives ("use strict" stays one). */
function bindTick(ast) {
  let top = 0;
  for (const st of ast.body)
    if (st.type === 'ExpressionStatement' && typeof st.directive === 'string') top = st.end;
    else break;
  return [top, `const ${TICK_LOCAL}=${TICK},${ENTER_LOCAL}=${ENTER};`];
}

/** `text` with the inserts made (offsets of `text` before any insert). */
function insertTexts(text, inserts) {
  let out = '',
    at = 0;
  for (const [offset, add] of inserts) {
    out += text.slice(at, offset) + add;
    at = offset;
  }
  return out + text.slice(at);
}

/**
 * The student's positions back from the ticked text: `columnOf(line, column)`, and `studentText(text)`, a
 * text with every `submission.js:line:column` of a stack frame in it (an error's message that quotes a
 * stack, what the student printed of one) given the student's column.
 */
function positions(columnOf) {
  const frame = new RegExp(`${info.files.submission.replace('.', '\\.')}:(\\d+):(\\d+)`, 'g');
  return {
    columnOf,
    studentText: (text) =>
      typeof text === 'string'
        ? text.replace(frame, (all, line, column) => `${info.files.submission}:${line}:${columnOf(+line, +column)}`)
        : text,
  };
}

/** (line, column in the ticked text, 1-based) → the student's column (null stays null). */
function columnMap(source, inserts) {
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1);
  const byLine = new Map(); // line → [[column in the student's text (0-based), length], …]
  for (const [offset, add] of inserts) {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1] <= offset) line++;
    if (!byLine.has(line + 1)) byLine.set(line + 1, []);
    byLine.get(line + 1).push([offset - lineStarts[line], add.length]);
  }
  return (line, column) => {
    const list = byLine.get(line);
    if (!list || typeof column !== 'number') return column;
    const c = column - 1; // 0-based, in the ticked line
    let shift = 0;
    for (const [at, len] of list) {
      if (c < at + shift) break;
      if (c < at + shift + len) return at + 1; // inside a tick: where it was put
      shift += len;
    }
    return c - shift + 1;
  };
}

// The ticks' names, as names (a property `obj.__attnlab_t` is no binding), are refused in student
// code, and so is a `with` statement (whose object could stand in for them): no tick can be shadowed.
const TICK_NAMES = new Set([TICK, ENTER, TICK_LOCAL, ENTER_LOCAL]);
function tickRefused(ast) {
  let found = null;
  const visit = (n) => {
    if (found || !n || typeof n.type !== 'string') return;
    if (n.type === 'Identifier' && TICK_NAMES.has(n.name))
      return void (found = { node: n, message: `${n.name} is a name the grader uses: rename it` });
    if (n.type === 'WithStatement')
      return void (found = { node: n, message: 'with is not available here: write the object out (obj.x) instead' });
    for (const key of Object.keys(n)) {
      if (key === 'loc') continue;
      if (key === 'property' && n.type === 'MemberExpression' && !n.computed) continue;
      if (key === 'key' && /^(Property|MethodDefinition|PropertyDefinition)$/.test(n.type) && !n.computed) continue;
      const v = n[key];
      if (Array.isArray(v)) v.forEach(visit);
      else if (v && typeof v.type === 'string') visit(v);
    }
  };
  visit(ast);
  return found;
}

/** Replaces [from, to) ranges (UTF-16 offsets, as acorn counts) with the text given, padded with spaces; newlines stay. */
function applyEdits(source, edits) {
  const units = source.split('');
  for (const [from, to, text] of edits) {
    for (let i = from; i < to; i++)
      if (units[i] !== '\n' && units[i] !== '\r') units[i] = i - from < text.length ? text[i - from] : ' ';
  }
  return units.join('');
}

function memberNames(source) {
  const names = new Set();
  let afterDot = false;
  try {
    for (const tok of tokenizer(source, { ecmaVersion: 'latest', sourceType: 'module' })) {
      if (afterDot && tok.type.label === 'name') names.add(tok.value);
      afterDot = tok.type.label === '.' || tok.type.label === '?.';
    }
  } catch {
    /* the parse above already accepted it; a tokenizer quirk only loses a hint */
  }
  return names;
}

/**
 * The script's tokens for the grader's reading of a syntax error (core/syntax.mjs): [{ value, offset,
 * op }] (`op`: punctuation and operators), up to where acorn's tokenizer stops.
 */
export function tokens(source) {
  const out = [];
  const WORDS = new Set(['name', 'num', 'string', 'template', 'regexp', 'privateId', '`', 'eof']);
  try {
    for (const tok of tokenizer(source, { ecmaVersion: 'latest', sourceType: 'module' })) {
      const op = !WORDS.has(tok.type.label) && !tok.type.keyword;
      out.push({ value: op && typeof tok.value === 'string' ? tok.value : tok.type.label, offset: tok.start, op });
    }
  } catch {
    /* the tokens before the stop */
  }
  return out;
}
