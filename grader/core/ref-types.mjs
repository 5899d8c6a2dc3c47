// The types of a pack's ctx.ref, read from its reference/bind.cpp: the functions it registers with
// def("<slug>.<name>", &fn) and how each fn reads its `val` arguments through wasm/include/attnlab/embind.hpp
// (tensor, optional_tensor, size, number, flag, option, field, and the file's own helpers that take them),
// written as a .d.ts (tools/ref-types writes it beside the pack's suite; the suites' JSDoc names it,
// `Ctx<import('./ref').Ref>`, so that tsc rejects a call of a name the pack does not register or with
// arguments it does not take). Pure: text in, text out. Anything the reader cannot tell is `unknown`.
import { PACK_FILES } from './pack-layout.mjs';

/** The text between the bracket at `open` and its match (the brackets excluded), and the index after it. */
function balanced(text, open) {
  const pairs = { '(': ')', '{': '}', '[': ']' };
  const close = pairs[text[open]];
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i = text.indexOf('"', i + 1);
      while (text[i - 1] === '\\') i = text.indexOf('"', i + 1);
      continue;
    }
    if (c === text[open]) depth++;
    else if (c === close && --depth === 0) return { inner: text.slice(open + 1, i), end: i + 1 };
  }
  return { inner: text.slice(open + 1), end: text.length };
}

/** The comma-separated parts of `s` at bracket depth 0. */
function splitTop(s) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"') {
      i = s.indexOf('"', i + 1);
      continue;
    }
    if ('({[<'.includes(c)) depth++;
    else if (')}]>'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (s.slice(start).trim()) parts.push(s.slice(start).trim());
  return parts;
}

const CPP_KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'return', 'catch']);

/** The file's function definitions: name → { params: [names], body }. */
function functionsOf(source) {
  const code = source.replace(/\/\/.*$/gm, '');
  const fns = new Map();
  for (const m of code.matchAll(/^[\w:<>,&* ]*?[\w>&*]\s+(\w+)\s*\(/gm)) {
    if (CPP_KEYWORDS.has(m[1])) continue;
    const open = m.index + m[0].length - 1;
    const { inner, end } = balanced(code, open);
    const brace = /^\s*(?:const\s*)?\{/.exec(code.slice(end));
    if (!brace) continue;
    const body = balanced(code, end + brace[0].length - 1).inner;
    const params = splitTop(inner).map((p) => /(\w+)\s*$/.exec(p)?.[1] ?? '');
    fns.set(m[1], { params, body });
  }
  return fns;
}

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const union = (types) => [...new Set(types)].join(' | ') || 'unknown';

/** The type of an option's fallback value (its C++ literal). */
function fallbackType(expr) {
  if (/^(true|false)$/.test(expr)) return 'boolean';
  if (/^-?[\d.]+(e-?\d+)?f?$/.test(expr)) return 'number';
  if (/^"/.test(expr)) return 'string';
  return 'unknown';
}

/**
 * How function `fn` of `fns` reads its `val` argument `name`: { type, optional, keys } where keys
 * (an options object's) maps each key read to the types it may have.
 */
function usage(fns, fn, name, seen = new Set()) {
  const tag = `${fn}/${name}`;
  const out = { types: [], optional: false, keys: new Map(), options: false };
  const f = fns.get(fn);
  if (!f || seen.has(tag)) return out;
  seen.add(tag);
  const b = f.body;
  const v = esc(name);
  const addKey = (key, type) => out.keys.set(key, [...(out.keys.get(key) ?? []), type]);
  if (new RegExp(`\\b${v}\\.is(?:Undefined|Null)\\(\\)`).test(b)) out.optional = true;
  if (new RegExp(`\\btensor(?:<double>)?\\(\\s*${v}\\s*\\)`).test(b)) out.types.push('TensorInput');
  if (new RegExp(`\\boptional_tensor<bool>\\(\\s*${v}\\s*\\)`).test(b)) {
    out.types.push('MaskInput');
    out.optional = true;
  }
  if (new RegExp(`\\boptional_tensor(?:<double>)?\\(\\s*${v}\\s*\\)`).test(b)) {
    out.types.push('TensorInput');
    out.optional = true;
  }
  if (new RegExp(`\\b(?:size|number)\\(\\s*${v}\\s*,`).test(b)) out.types.push('number');
  if (new RegExp(`\\bnumber\\(\\s*${v}\\s*,[^,()]*,`).test(b)) out.optional = true;
  if (new RegExp(`\\bflag\\(\\s*${v}\\s*,`).test(b)) {
    out.types.push('boolean');
    out.optional = true;
  }
  if (new RegExp(`\\bvecFromJSArray<std::string>\\(\\s*${v}\\s*\\)`).test(b)) out.types.push('string[]');
  // A list of two tensors read by index: [a, b].
  if (new RegExp(`\\btensor\\(\\s*${v}\\[0\\]\\s*\\)`).test(b) && new RegExp(`\\btensor\\(\\s*${v}\\[1\\]`).test(b))
    out.types.push('[TensorInput, TensorInput]');
  // An options object: option(v, "key", fallback), field(v, "key"), choice<E>(v, fn, "key", {{"a", …}, …}).
  for (const m of b.matchAll(new RegExp(`\\boption\\(\\s*${v}\\s*,\\s*"(\\w+)"\\s*,`, 'g'))) {
    const args = splitTop(balanced(b, m.index + 'option'.length).inner);
    addKey(m[1], fallbackType(args[2] ?? ''));
    out.options = true;
  }
  for (const m of b.matchAll(new RegExp(`\\bchoice<\\w+>\\(\\s*${v}\\s*,\\s*\\w+\\s*,\\s*"(\\w+)"\\s*,`, 'g'))) {
    const list = balanced(b, m.index + m[0].indexOf('(')).inner;
    const names = [...list.matchAll(/\{\s*"([^"]+)"\s*,/g)].map((x) => JSON.stringify(x[1]));
    addKey(m[1], names.length ? names.join(' | ') : 'string');
    out.options = true;
  }
  for (const m of b.matchAll(new RegExp(`\\bfield\\(\\s*${v}\\s*,\\s*"(\\w+)"\\s*\\)(\\.isNumber\\(\\))?`, 'g'))) {
    out.options = true;
    if (m[2]) addKey(m[1], 'number');
    // const val p = field(options, "key"); … read as a value of its own
    const bound = new RegExp(`\\bval\\s+(\\w+)\\s*=\\s*field\\(\\s*${v}\\s*,\\s*"${m[1]}"\\s*\\)`).exec(b);
    if (bound) {
      const inner = usage(new Map([[fn, { params: [bound[1]], body: b }]]), fn, bound[1], seen);
      for (const t of inner.types) addKey(m[1], t);
    }
    if (!out.keys.has(m[1])) addKey(m[1], 'unknown');
  }
  // Passed on to one of the file's own functions: read there by that function's parameter.
  for (const [other, g] of fns) {
    if (other === fn) continue;
    for (const m of b.matchAll(new RegExp(`\\b${esc(other)}\\s*\\(`, 'g'))) {
      const args = splitTop(balanced(b, m.index + m[0].length - 1).inner);
      args.forEach((a, i) => {
        if (a !== name || !g.params[i]) return;
        const u = usage(fns, other, g.params[i], seen);
        out.types.push(...u.types);
        out.optional ||= u.optional;
        out.options ||= u.options;
        for (const [k, ts] of u.keys) for (const t of ts) addKey(k, t);
      });
    }
  }
  return out;
}

/** The type of a returned expression: to_js → a tensor, list({…}) → a tuple, val(x) → a number, a helper → its own. */
function returnType(fns, expr, seen = new Set()) {
  expr = expr.trim();
  if (/^to_js\(/.test(expr)) return 'RefTensor';
  if (/^list\(\s*\{/.test(expr)) {
    const { inner } = balanced(expr, expr.indexOf('('));
    const items = splitTop(balanced(inner.trim(), 0).inner);
    return `[${items.map((i) => returnType(fns, i, seen)).join(', ')}]`;
  }
  if (/^val\(/.test(expr)) return 'number';
  const call = /^(\w+)\s*\(/.exec(expr);
  if (call && fns.has(call[1]) && !seen.has(call[1])) {
    seen.add(call[1]);
    const r = returnsOf(fns.get(call[1]).body);
    if (r.length) return union(r.map((x) => returnType(fns, x, seen)));
  }
  return 'unknown';
}

/** The expressions a body returns (those inside guarded([&] { … }) for a binding). */
function returnsOf(body) {
  const g = /\breturn\s+guarded\(\s*\[&\]\s*(?:\(\s*\))?\s*\{/.exec(body);
  const b = g ? balanced(body, g.index + g[0].length - 1).inner : body;
  const out = [];
  for (const m of b.matchAll(/\breturn\s+/g)) {
    let i = m.index + m[0].length;
    let depth = 0;
    for (; i < b.length; i++) {
      if ('({['.includes(b[i])) depth++;
      else if (')}]'.includes(b[i])) depth--;
      else if (b[i] === ';' && depth === 0) break;
    }
    out.push(b.slice(m.index + m[0].length, i));
  }
  return out;
}

const pascal = (s) => s.replace(/(^|_)(\w)/g, (_, __, c) => c.toUpperCase());

/**
 * The reference functions `bindings` (a bind.cpp's text) registers for `slug`, as
 * [{ name, params: [{ name, type, optional }], options: { name, keys } | null, returns }].
 */
export function bindingSignatures(bindings, slug) {
  const fns = functionsOf(bindings);
  const code = bindings.replace(/\/\/.*$/gm, '');
  const out = [];
  for (const m of code.matchAll(new RegExp(`\\bdef\\(\\s*"${esc(slug)}\\.(\\w+)"\\s*,\\s*&?(\\w+)\\s*\\)`, 'g'))) {
    const f = fns.get(m[2]);
    if (!f) {
      out.push({ name: m[1], params: null, options: null, returns: 'unknown' });
      continue;
    }
    const params = f.params.map((p) => {
      const u = usage(fns, m[2], p);
      if (u.options && !u.types.length) return { name: p, type: null, optional: true, keys: u.keys };
      return { name: p, type: union(u.types), optional: u.optional };
    });
    // Optional only where every later argument is: core.call passes the ones left out as null.
    for (let i = params.length - 2; i >= 0; i--) params[i].optional &&= params[i + 1].optional;
    const returns = union(returnsOf(f.body).map((r) => returnType(fns, r)));
    out.push({ name: m[1], params, returns });
  }
  return out;
}

/** The .d.ts of a pack's ctx.ref: `Ref`, one method per registered function, and an interface per options object. */
export function referenceTypes(bindings, slug, { source = PACK_FILES.bindings, generator = 'tools/ref-types' } = {}) {
  const sigs = bindingSignatures(bindings, slug);
  const decls = [];
  const methods = sigs.map(({ name, params, returns }) => {
    if (!params) return `  ${name}(...args: unknown[]): unknown;`;
    const args = params.map((p) => {
      let type = p.type;
      if (!type) {
        const iface = `${pascal(name)}Options`;
        const keys = [...p.keys].map(([k, ts]) => `  ${k}?: ${union(ts.filter((t) => t !== 'unknown')) || 'unknown'};`);
        decls.push(
          `/** The options ${name} reads (its last argument: a classic mistake to compute). */\n` +
            `export interface ${iface} {\n${keys.join('\n')}\n}`,
        );
        type = iface;
      }
      return `${p.name}${p.optional ? '?' : ''}: ${type}${p.optional ? ' | null' : ''}`;
    });
    return `  ${name}(${args.join(', ')}): ${returns};`;
  });
  return [
    `// Generated by ${generator} from ${source}: do not edit (regenerate after changing it).`,
    `// ctx.ref of this pack for tsc: the suite's JSDoc says \`@param {Ctx} ctx\` with Ctx = Ctx<Ref> of grader/types.d.ts.`,
    `import type { MaskInput, RefTensor, TensorInput } from '../../grader/types';`,
    '',
    `/** The reference functions ${source} registers (core.call("${slug}.<name>", …)), with the arguments each reads. */`,
    `export interface Ref {\n${methods.join('\n')}\n}`,
    ...decls.flatMap((d) => ['', d]),
    '',
  ].join('\n');
}
