// Tensors on the trusted side: plain { data, shape, dtype } objects. Everything the student returns is
// turned into one of these (or rejected with a reason) before it is compared with the reference.

export const fmtShape = (shape) => `(${shape.join(', ')}${shape.length === 1 ? ',' : ''})`;
export const sizeOf = (shape) => shape.reduce((a, b) => a * b, 1);

export function tensor(data, shape, dtype = data instanceof Uint8Array ? 'bool' : 'float64') {
  return { data, shape: [...shape], dtype };
}

/** Host tensor → the wire form the guest decodes into an np array. */
export const wire = (t) => ({ $array: { dtype: t.dtype, shape: t.shape, data: Array.from(t.data) } });
/** A call's argument for the guest: tensors (also inside lists, such as a [k, v] cache) in the wire form, the rest as it is. */
export const toWire = (a) => (a && a.data && a.shape ? wire(a) : Array.isArray(a) ? a.map(toWire) : a);

/**
 * Decoded student value (grader/wire/codec.mjs decodeResponse) → tensor, or { error } saying why it
 * is not an array. Accepts np arrays ({ $array }) and regular nested lists of numbers or booleans.
 */
export function toTensor(value) {
  if (value && value.$array) {
    // checked by the wire decoder: typed data of exactly the shape's size
    const { dtype, shape, data } = value.$array;
    return { tensor: tensor(data, shape, dtype) };
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return { tensor: tensor(typeof value === 'boolean' ? Uint8Array.of(+value) : Float64Array.of(value), []) };
  }
  if (!Array.isArray(value)) return { error: 'not-array', kind: value === null ? 'null' : typeof value };
  const shape = [];
  for (let v = /** @type {any} */ (value); Array.isArray(v) || (v && v.$array); v = Array.isArray(v) ? v[0] : null) {
    if (v.$array) {
      shape.push(...v.$array.shape);
      break;
    }
    shape.push(v.length);
    if (v.length === 0) break;
  }
  const flat = [];
  let kinds = new Set();
  const walk = (v, depth) => {
    if (v && v.$array) {
      if (v.$array.shape.join() !== shape.slice(depth).join()) throw new Error('ragged');
      kinds.add(v.$array.dtype === 'bool' ? 'boolean' : 'number');
      for (const x of v.$array.data) flat.push(x);
      return;
    }
    if (depth === shape.length) {
      if (typeof v !== 'number' && typeof v !== 'boolean') throw new Error(`element:${v === null ? 'null' : typeof v}`);
      kinds.add(typeof v);
      flat.push(+v);
      return;
    }
    if (!Array.isArray(v) || v.length !== shape[depth]) throw new Error('ragged');
    for (const x of v) walk(x, depth + 1);
  };
  try {
    walk(value, 0);
  } catch (e) {
    return e.message === 'ragged' ? { error: 'ragged' } : { error: 'element', kind: e.message.split(':')[1] };
  }
  if (kinds.size > 1) return { error: 'mixed' };
  const isBool = kinds.has('boolean');
  return {
    tensor: tensor(isBool ? Uint8Array.from(flat) : Float64Array.from(flat), shape, isBool ? 'bool' : 'float64'),
  };
}

/** Swap the last two axes (a data move on the trusted side, no arithmetic). */
export function swapLast2(t) {
  const s = t.shape,
    n = s.length,
    R = s[n - 2],
    C = s[n - 1],
    batch = sizeOf(s.slice(0, -2));
  const out = new t.data.constructor(t.data.length);
  for (let b = 0; b < batch; b++)
    for (let i = 0; i < R; i++) for (let j = 0; j < C; j++) out[b * R * C + j * R + i] = t.data[b * R * C + i * C + j];
  return tensor(out, [...s.slice(0, -2), C, R], t.dtype);
}

/** Reverse all axes, like NumPy's `.T`. */
export function reverseAxes(t) {
  const s = t.shape,
    n = s.length,
    rs = [...s].reverse();
  const strides = s.map((_, i) => sizeOf(s.slice(i + 1)));
  const out = new t.data.constructor(t.data.length),
    idx = new Array(n).fill(0);
  for (let k = 0; k < out.length; k++) {
    let src = 0;
    for (let a = 0; a < n; a++) src += idx[a] * strides[n - 1 - a];
    out[k] = t.data[src];
    for (let a = n - 1; a >= 0; a--) {
      if (++idx[a] < rs[a]) break;
      idx[a] = 0;
    }
  }
  return tensor(out, rs, t.dtype);
}

/** Index tuple of a flat position, printed NumPy-style: [1, 2]. */
export function unravel(flat, shape) {
  const idx = [];
  for (let a = shape.length - 1; a >= 0; a--) {
    idx.unshift(flat % shape[a]);
    flat = Math.floor(flat / shape[a]);
  }
  return idx;
}

/** Slice along axis 0 (a batch element or a row block). */
export function take0(t, i) {
  const inner = sizeOf(t.shape.slice(1));
  return tensor(t.data.slice(i * inner, (i + 1) * inner), t.shape.slice(1), t.dtype);
}

export function mapData(t, f, dtype = t.dtype) {
  const out = dtype === 'bool' ? new Uint8Array(t.data.length) : new Float64Array(t.data.length);
  for (let i = 0; i < out.length; i++) out[i] = f(t.data[i], i);
  return tensor(out, t.shape, dtype);
}
