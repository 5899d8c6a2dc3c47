// Element-wise functions: the binary ones with broadcasting and NumPy 2's dtype rules (JS numbers are
// weak scalars), the unary ones, round, where/nonzero, clip, isclose, floor_divide and remainder,
// logaddexp, nan_to_num, erf.
import { alloc, ValueError } from './errors.mjs';
import { promote } from './dtypes.mjs';
import { sizeOf, sameShape, stridesOf, broadcastShapes, broadcastRows } from './shapes.mjs';
import { NDArray, asarray, operand, parseArgs, describe, scalarOut } from './ndarray.mjs';

// Captured once, at load: the sandbox freezes the realm later, but np must not depend on what students do.
const {
  exp,
  log,
  sqrt,
  abs,
  tanh,
  sin,
  cos,
  floor,
  ceil,
  sign,
  round: mround,
  pow,
  max: mmax,
  min: mmin,
  log1p,
  expm1,
} = Math;
const { isInteger, isFinite } = Number;

// kind: 'arith' (bool → int64), 'minmax' (bool stays), 'div' (always float64), 'cmp'/'logic' (→ bool)
// fInt: the function for an int64 result, where it differs (floor_divide, remainder).
function binary(name, x, y, f, kind, fInt = null) {
  const a = operand(x, name),
    b = operand(y, name);
  const shape = sameShape(a.shape, b.shape) ? a.shape : broadcastShapes(name, [a.shape, b.shape]);
  const inType = promote(a.dtype, b.dtype);
  const outType =
    kind === 'cmp' || kind === 'logic'
      ? 'bool'
      : kind === 'div'
        ? 'float64'
        : inType === 'bool' && kind !== 'minmax'
          ? 'int64'
          : inType;
  if (fInt && outType === 'int64') f = fInt;
  if (name === 'power' && outType === 'int64' && b.data.some((v) => v < 0))
    throw new ValueError(
      'power: Integers to negative integer powers are not allowed (make the base a float, e.g. np.power(a.astype("float64"), b))',
    );
  const n = sizeOf(shape),
    out = alloc(outType, n, shape),
    ad = a.data,
    bd = b.data;
  if (
    outType === 'float64' &&
    ARITH[name] &&
    (bd.length === 1 || ad.length === 1 || (sameShape(a.shape, shape) && sameShape(b.shape, shape)))
  ) {
    ARITH[name](out, ad, bd, n); // the four operators, inlined (a call per element costs most of the time)
  } else if (sameShape(a.shape, shape) && sameShape(b.shape, shape))
    for (let i = 0; i < n; i++) out[i] = f(ad[i], bd[i]);
  else if (bd.length === 1 && sameShape(a.shape, shape)) {
    const v = bd[0];
    for (let i = 0; i < n; i++) out[i] = f(ad[i], v);
  } else if (ad.length === 1 && sameShape(b.shape, shape)) {
    const v = ad[0];
    for (let i = 0; i < n; i++) out[i] = f(v, bd[i]);
  } else {
    broadcastRows(shape, [a.shape, b.shape], (o, offs, inner, len) => {
      const sa = inner[0],
        sb = inner[1];
      for (let j = 0, pa = offs[0], pb = offs[1]; j < len; j++, pa += sa, pb += sb) out[o + j] = f(ad[pa], bd[pb]);
    });
  }
  return a.scalar && b.scalar ? scalarOut(out[0], outType) : new NDArray(out, shape, outType);
}

// + - * / on float64 results where both operands have the result's size or one is a single value:
// out[i] = a[i or 0] op b[i or 0], one loop each, no call per element.
// (Written out: the realms evaluate no strings.)
const ARITH = {
  add(out, a, b, n) {
    if (a.length === n && b.length === n) for (let i = 0; i < n; i++) out[i] = a[i] + b[i];
    else if (b.length === 1) {
      const v = b[0];
      for (let i = 0; i < n; i++) out[i] = a[i] + v;
    } else {
      const v = a[0];
      for (let i = 0; i < n; i++) out[i] = v + b[i];
    }
  },
  subtract(out, a, b, n) {
    if (a.length === n && b.length === n) for (let i = 0; i < n; i++) out[i] = a[i] - b[i];
    else if (b.length === 1) {
      const v = b[0];
      for (let i = 0; i < n; i++) out[i] = a[i] - v;
    } else {
      const v = a[0];
      for (let i = 0; i < n; i++) out[i] = v - b[i];
    }
  },
  multiply(out, a, b, n) {
    if (a.length === n && b.length === n) for (let i = 0; i < n; i++) out[i] = a[i] * b[i];
    else if (b.length === 1) {
      const v = b[0];
      for (let i = 0; i < n; i++) out[i] = a[i] * v;
    } else {
      const v = a[0];
      for (let i = 0; i < n; i++) out[i] = v * b[i];
    }
  },
  divide(out, a, b, n) {
    if (a.length === n && b.length === n) for (let i = 0; i < n; i++) out[i] = a[i] / b[i];
    else if (b.length === 1) {
      const v = b[0];
      for (let i = 0; i < n; i++) out[i] = a[i] / v;
    } else {
      const v = a[0];
      for (let i = 0; i < n; i++) out[i] = v / b[i];
    }
  },
};

const cpow = (x, y) => (x === 1 || (x === -1 && (y === Infinity || y === -Infinity)) ? 1 : pow(x, y));
const truthy = (v) => v !== 0; // NaN is true, as in NumPy

const BINARY = {
  add: [(x, y) => x + y, 'arith'],
  subtract: [(x, y) => x - y, 'arith'],
  multiply: [(x, y) => x * y, 'arith'],
  divide: [(x, y) => x / y, 'div'],
  power: [cpow, 'arith'],
  maximum: [mmax, 'minmax'],
  minimum: [mmin, 'minmax'],
  equal: [(x, y) => x === y, 'cmp'],
  not_equal: [(x, y) => x !== y, 'cmp'],
  less: [(x, y) => x < y, 'cmp'],
  less_equal: [(x, y) => x <= y, 'cmp'],
  greater: [(x, y) => x > y, 'cmp'],
  greater_equal: [(x, y) => x >= y, 'cmp'],
  logical_and: [(x, y) => truthy(x) && truthy(y), 'logic'],
  logical_or: [(x, y) => truthy(x) || truthy(y), 'logic'],
  logical_xor: [(x, y) => truthy(x) !== truthy(y), 'logic'],
};

// kind: 'float' (→ float64), 'keep' (dtype kept; bool → int64), 'pred' (→ bool)
function unary(name, x, f, kind) {
  const a = operand(x, name);
  if (name === 'negative' && a.dtype === 'bool')
    throw new TypeError('negative: the boolean negative is not supported, use np.logical_not instead');
  const outType =
    kind === 'float'
      ? 'float64'
      : kind === 'pred'
        ? 'bool'
        : a.dtype === 'bool' && name !== 'absolute'
          ? 'int64'
          : a.dtype;
  const d = a.data,
    out = alloc(outType, d.length);
  for (let i = 0; i < d.length; i++) out[i] = f(d[i]);
  return a.scalar ? scalarOut(out[0], outType) : new NDArray(out, a.shape, outType);
}

const UNARY = {
  exp: [exp, 'float'],
  log: [log, 'float'],
  sqrt: [sqrt, 'float'],
  tanh: [tanh, 'float'],
  sin: [sin, 'float'],
  cos: [cos, 'float'],
  log1p: [log1p, 'float'],
  expm1: [expm1, 'float'],
  absolute: [abs, 'keep'],
  negative: [(v) => -v, 'keep'],
  square: [(v) => v * v, 'keep'],
  sign: [(v) => (v !== v ? NaN : sign(v) + 0), 'keep'],
  floor: [floor, 'keep'],
  ceil: [ceil, 'keep'],
  isnan: [(v) => v !== v, 'pred'],
  isinf: [(v) => v === Infinity || v === -Infinity, 'pred'],
  isfinite: [isFinite, 'pred'],
  logical_not: [(v) => v === 0, 'pred'],
};

// Round half to even, like NumPy's rint.
function rint(x) {
  const r = mround(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function round(x, ...args) {
  const { decimals } = parseArgs('round', args, ['decimals'], { decimals: 0 });
  if (!isInteger(decimals)) throw new TypeError(`round: decimals must be an integer, got ${describe(decimals)}`);
  const a = operand(x, 'round');
  if (a.dtype !== 'float64' && decimals >= 0) return a.scalar ? x : asarray(x).copy();
  // Same float steps as NumPy (multiply, rint, divide), so np.round(w, 3) prints the same digits.
  const p = pow(10, abs(decimals));
  const f = decimals >= 0 ? (v) => rint(v * p) / p : (v) => rint(v / p) * p;
  return unary('round', x, f, 'keep');
}

function where(cond, ...xy) {
  if (xy.length === 0) return nonzero(cond);
  if (xy.length !== 2) throw new TypeError('where: takes (condition) or (condition, x, y)');
  const c = operand(cond, 'where'),
    a = operand(xy[0], 'where'),
    b = operand(xy[1], 'where');
  const shape = broadcastShapes('where', [c.shape, a.shape, b.shape]);
  const outType = promote(a.dtype, b.dtype);
  const n = sizeOf(shape),
    out = alloc(outType, n, shape);
  const cd = c.data,
    ad = a.data,
    bd = b.data;
  broadcastRows(shape, [c.shape, a.shape, b.shape], (o, offs, inner, len) => {
    const [sc, sa, sb] = inner;
    for (let j = 0, pc = offs[0], pa = offs[1], pb = offs[2]; j < len; j++, pc += sc, pa += sa, pb += sb)
      out[o + j] = cd[pc] !== 0 ? ad[pa] : bd[pb];
  });
  return c.scalar && a.scalar && b.scalar ? scalarOut(out[0], outType) : new NDArray(out, shape, outType);
}

/** Indices of the non-zero elements: one int64 array per axis (a JS array where NumPy has a tuple). */
function nonzero(x) {
  const a = asarray(x, null, 'nonzero');
  if (a.ndim === 0)
    throw new ValueError('nonzero: calling nonzero on 0d arrays is not allowed; reshape it to 1-D first');
  const st = stridesOf(a.shape),
    hits = [];
  for (let i = 0; i < a.size; i++) if (a.data[i] !== 0) hits.push(i);
  return a.shape.map(
    (n, ax) =>
      new NDArray(
        Float64Array.from(hits, (i) => floor(i / st[ax]) % n),
        [hits.length],
        'int64',
      ),
  );
}

function clip(x, lo, hi) {
  return minimum(maximum(x, lo), hi);
}
const { maximum, minimum } = Object.fromEntries(
  ['maximum', 'minimum'].map((k) => [k, (x, y) => binary(k, x, y, ...BINARY[k])]),
);
const multiply = (x, y) => binary('multiply', x, y, ...BINARY.multiply);

function isclose(x, y, ...args) {
  const { rtol, atol, equal_nan } = parseArgs('isclose', args, ['rtol', 'atol', 'equal_nan'], {
    rtol: 1e-5,
    atol: 1e-8,
    equal_nan: false,
  });
  return binary(
    'isclose',
    x,
    y,
    (p, q) => {
      if (p === q) return true; // also equal infinities
      if (p !== p || q !== q) return equal_nan && p !== p && q !== q;
      return abs(p - q) <= atol + rtol * abs(q);
    },
    'cmp',
  );
}

// Element-wise functions the JavaScript table above does not have, with Python's semantics
// (the quotient floored, the remainder with the sign of the divisor); integer division by zero is 0.
function floorDivide(x, y) {
  return binary(
    'floor_divide',
    x,
    y,
    (p, q) => floor(p / q),
    'arith',
    (p, q) => (q === 0 ? 0 : floor(p / q)),
  );
}
function remainder(x, y) {
  const f = (p, q) => {
    if (q === 0) return NaN;
    const r = p % q;
    return r !== 0 && r < 0 !== q < 0 ? r + q : r;
  };
  return binary('remainder', x, y, f, 'arith', (p, q) => (q === 0 ? 0 : f(p, q)));
}

function logaddexp(x, y) {
  return binary(
    'logaddexp',
    x,
    y,
    (p, q) => {
      if (p === q) return p + Math.LN2; // equal infinities too
      const d = p - q;
      return d > 0 ? p + log1p(exp(-d)) : d <= 0 ? q + log1p(exp(d)) : d;
    },
    'div',
  );
}

function nan_to_num(x, ...args) {
  const o = parseArgs('nan_to_num', args, ['copy', 'nan', 'posinf', 'neginf'], { nan: 0, posinf: null, neginf: null });
  const a = operand(x, 'nan_to_num');
  if (a.dtype !== 'float64') return a.scalar ? scalarOut(a.data[0], a.dtype) : asarray(x).copy();
  const pos = o.posinf ?? Number.MAX_VALUE,
    neg = o.neginf ?? -Number.MAX_VALUE;
  return unary('nan_to_num', x, (v) => (v !== v ? o.nan : v === Infinity ? pos : v === -Infinity ? neg : v), 'float');
}

// erf to ~1e-15: its Taylor series below 2.5, the continued fraction of erfc above (JS track only:
// NumPy has no erf; Python code takes math.erf).
function erf(v) {
  if (v !== v) return v;
  const x = abs(v);
  if (x < 2.5) {
    let term = x,
      s = x;
    for (let n = 1; n < 80 && abs(term) > 1e-17 * abs(s); n++) {
      term *= (-x * x) / n;
      s += term / (2 * n + 1);
    }
    return ((v < 0 ? -1 : 1) * s * 2) / sqrt(Math.PI);
  }
  if (x > 6) return v < 0 ? -1 : 1;
  let f = 0; // erfc(x) = exp(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))
  for (let n = 60; n >= 1; n--) f = n / 2 / (x + f);
  const erfc = exp(-x * x) / sqrt(Math.PI) / (x + f);
  return (v < 0 ? -1 : 1) * (1 - erfc);
}

export {
  binary,
  unary,
  BINARY,
  UNARY,
  cpow,
  round,
  where,
  nonzero,
  clip,
  maximum,
  minimum,
  multiply,
  isclose,
  floorDivide,
  remainder,
  logaddexp,
  nan_to_num,
  erf,
};
