// NumPy's print() form of an array (numpy/core/arrayprint.py, default options: precision 8,
// floatmode 'maxprec', linewidth 75, threshold 1000, edgeitems 3, sign '-'), so what a student sees
// matches the lesson's printed outputs character for character.

const PRECISION = 8,
  LINEWIDTH = 75,
  THRESHOLD = 1000,
  EDGEITEMS = 3;
const { abs, max } = Math;

/** Shape as NumPy writes it in error messages: (2,3), (4,), (). */
export const formatShape = (shape) => `(${shape.join(',')}${shape.length === 1 ? ',' : ''})`;

/** Python's repr of a float (used for 0-d arrays and scalars). */
export function pyFloat(v) {
  if (v !== v) return 'nan';
  if (v === Infinity || v === -Infinity) return v > 0 ? 'inf' : '-inf';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const [m, e] = v.toExponential().split('e');
  const ex = +e;
  if (ex < -4 || ex >= 16) return `${m}e${ex < 0 ? '-' : '+'}${String(abs(ex)).padStart(2, '0')}`;
  const s = String(v);
  return s.includes('.') ? s : `${s}.0`;
}

export const scalarString = (v, dtype) =>
  dtype === 'bool' ? (v ? 'True' : 'False') : dtype === 'int64' ? String(v + 0) : pyFloat(v);

// Shortest round-trip digits, cut at `prec` fraction digits (Dragon4 unique=True, trim='.').
function positional(v, prec) {
  const a = abs(v);
  let s = String(a);
  if (s.includes('e') || (s.includes('.') && s.length - s.indexOf('.') - 1 > prec))
    s = a.toFixed(prec).replace(/0+$/, '');
  if (!s.includes('.')) s += '.';
  const [ip, fp] = s.split('.');
  return { ip: (v < 0 || Object.is(v, -0) ? '-' : '') + ip, fp };
}

function scientific(v, prec) {
  const a = abs(v);
  let [m, e] = a.toExponential().split('e');
  if (m.includes('.') && m.length - m.indexOf('.') - 1 > prec) {
    [m, e] = a.toExponential(prec).split('e');
    m = m.replace(/0+$/, '');
  }
  const [ip, fp = ''] = m.split('.');
  return { ip: (v < 0 || Object.is(v, -0) ? '-' : '') + ip, fp, exp: e[0] + e.slice(1).padStart(2, '0') };
}

// FloatingFormat.fillFormat + __call__: one width for every element of the printed array.
function floatFormatter(vals) {
  const finite = vals.filter((v) => Number.isFinite(v));
  const nonzero = finite.filter((v) => v !== 0).map(abs);
  let expMode = false;
  if (nonzero.length) {
    const mx = max(...nonzero),
      mn = Math.min(...nonzero);
    expMode = mx >= 1e8 || mn < 1e-4 || mx / mn > 1000;
  }
  let padLeft = 0,
    padRight = 0,
    precision = 0,
    expSize = 0;
  if (finite.length) {
    if (expMode) {
      const parts = finite.map((v) => scientific(v, PRECISION));
      expSize = max(...parts.map((p) => p.exp.length)) - 1;
      precision = max(...parts.map((p) => p.fp.length));
      padLeft = max(...parts.map((p) => p.ip.length));
      padRight = expSize + 2 + precision;
    } else {
      const parts = finite.map((v) => positional(v, PRECISION));
      padLeft = max(...parts.map((p) => p.ip.length));
      padRight = max(...parts.map((p) => p.fp.length));
    }
  }
  if (finite.length !== vals.length) {
    const negInf = vals.some((v) => v === -Infinity);
    const offset = padRight + 1;
    padLeft = max(padLeft, 3 - offset, 3 + (negInf ? 1 : 0) - offset);
  }
  const width = padLeft + padRight + 1;
  return (v) => {
    if (!Number.isFinite(v)) return (v !== v ? 'nan' : v > 0 ? 'inf' : '-inf').padStart(width);
    if (expMode) {
      const p = scientific(v, PRECISION);
      return `${p.ip.padStart(padLeft)}.${p.fp.padEnd(precision, '0')}e${p.exp[0]}${p.exp.slice(1).padStart(expSize, '0')}`;
    }
    const p = positional(v, PRECISION);
    return `${p.ip.padStart(padLeft)}.${p.fp.padEnd(padRight)}`;
  };
}

function formatter(vals, dtype, zeroD = false) {
  if (dtype === 'bool') return zeroD ? (v) => (v ? 'True' : 'False') : (v) => (v ? ' True' : 'False');
  if (dtype === 'int64') {
    const w = max(...vals.map((v) => String(v + 0).length));
    return (v) => String(v + 0).padStart(w);
  }
  return floatFormatter(vals);
}

/** str(array) as NumPy prints it. `data` is row-major and contiguous. */
export function arrayToString(data, shape, dtype) {
  if (shape.length === 0) return scalarString(data[0], dtype);
  if (data.length === 0) return '[]';
  return formatArray(data, shape, dtype, ' ', '', LINEWIDTH);
}

/** repr(array) as NumPy 1.24 writes it: `array([[1., 0.],\n       [0., 1.]])`, `array([], dtype=float64)`. */
export function arrayRepr(data, shape, dtype) {
  const implied = data.length > 0; // float64, int64 and bool are all implied, unless the array is empty
  const suffix = implied ? ')' : ',';
  let body;
  if (shape.length === 0) body = formatter([data[0]], dtype, true)(data[0]);
  else if (data.length > 0) body = formatArray(data, shape, dtype, ', ', 'array(', LINEWIDTH - suffix.length);
  else body = shape.length === 1 ? '[]' : `[], shape=(${shape.join(', ')})`;
  const s = `array(${body}${suffix}`;
  if (implied) return s;
  const tail = `dtype=${dtype})`,
    lastLine = s.length - (s.lastIndexOf('\n') + 1);
  return s + (lastLine + tail.length + 1 > LINEWIDTH ? `\n${' '.repeat('array('.length)}` : ' ') + tail;
}

// NumPy's _formatArray: `separator` between elements (', ' in a repr), lines wrapped at `lineWidth`,
// continuation lines indented past `prefix` ('array(').
function formatArray(data, shape, dtype, separator, prefix, lineWidth) {
  const nd = shape.length,
    strides = new Array(nd);
  for (let i = nd - 1, s = 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i];
  }
  const summary = data.length > THRESHOLD;
  // The positions shown along an axis: all of them, or the edge items around '...'.
  const shown = (axis) => {
    const n = shape[axis];
    if (!summary || n <= 2 * EDGEITEMS) return { lead: [...Array(n).keys()], trail: [] };
    return { lead: [0, 1, 2].slice(0, EDGEITEMS), trail: [n - 3, n - 2, n - 1].slice(3 - EDGEITEMS) };
  };
  // Widths come from the printed values only, as in NumPy's _leading_trailing.
  const vals = [];
  const collect = (off, axis) => {
    if (axis === nd) {
      vals.push(data[off]);
      return;
    }
    const { lead, trail } = shown(axis);
    for (const i of [...lead, ...trail]) collect(off + i * strides[axis], axis + 1);
  };
  collect(0, 0);
  const fmt = formatter(vals, dtype);

  // _formatArray's recurser, with _extendLine's wrapping.
  const recurse = (off, axis, indent, width) => {
    const { lead, trail } = shown(axis);
    const axesLeft = nd - axis,
      nextIndent = indent + ' ',
      nextWidth = width - 1;
    let s = '';
    if (axesLeft === 1) {
      const elemWidth = width - 1;
      let line = indent;
      const add = (word) => {
        if (line.length + word.length > elemWidth && line.length > indent.length) {
          s += line.trimEnd() + '\n';
          line = indent;
        }
        line += word;
      };
      const items = lead.map((i) => fmt(data[off + i * strides[axis]]));
      const tail = trail.map((i) => fmt(data[off + i * strides[axis]]));
      const words = trail.length ? [...items, '...', ...tail] : items;
      words.forEach((w, k) => {
        add(w);
        if (k < words.length - 1) line += separator;
      });
      s += line;
    } else {
      const sep = separator.trimEnd() + '\n'.repeat(axesLeft - 1);
      const rows = lead.map((i) => recurse(off + i * strides[axis], axis + 1, nextIndent, nextWidth));
      if (trail.length)
        rows.push('...', ...trail.map((i) => recurse(off + i * strides[axis], axis + 1, nextIndent, nextWidth)));
      s = rows.map((r) => indent + r).join(sep);
    }
    return `[${s.slice(indent.length)}]`;
  };
  return recurse(0, 0, ' '.repeat(1 + prefix.length), lineWidth);
}
