// Shapes and strides: sizes, NumPy's broadcasting rule (and its error), and the offset walks that every
// function reads its operands with.
import { formatShape } from './format.mjs';
import { ArrayTooLarge, MAX_SIZE, ValueError } from './errors.mjs';

// Captured once, at load: the sandbox freezes the realm later, but np must not depend on what students do.
const { max: mmax } = Math;

const sizeOf = (shape) => {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
};
const sameShape = (a, b) => a.length === b.length && a.every((d, i) => d === b[i]);

function stridesOf(shape) {
  const st = new Array(shape.length);
  for (let i = shape.length - 1, s = 1; i >= 0; i--) {
    st[i] = s;
    s *= shape[i];
  }
  return st;
}

// Offsets into a source with `strides` for every position of `shape`, in row-major order.
function gatherIndex(shape, strides, base = 0) {
  const n = sizeOf(shape),
    nd = shape.length;
  if (n > MAX_SIZE) throw new ArrayTooLarge(n, n * 8, shape);
  const idx = new Int32Array(n),
    counter = new Array(nd).fill(0);
  let off = base;
  for (let i = 0; i < n; i++) {
    idx[i] = off;
    for (let ax = nd - 1; ax >= 0; ax--) {
      off += strides[ax];
      if (++counter[ax] < shape[ax]) break;
      off -= strides[ax] * shape[ax];
      counter[ax] = 0;
    }
  }
  return idx;
}

// Strides of `shape` read as `outShape` under broadcasting (0 where a dimension is stretched).
function broadcastStrides(shape, outShape) {
  const off = outShape.length - shape.length,
    st = new Array(outShape.length).fill(0);
  for (let i = shape.length - 1, s = 1; i >= 0; i--) {
    st[i + off] = shape[i] === 1 ? 0 : s;
    s *= shape[i];
  }
  return st;
}

function broadcastShapes(where, shapes) {
  const nd = mmax(...shapes.map((s) => s.length)),
    out = new Array(nd).fill(1);
  for (const s of shapes) {
    for (let i = 0; i < s.length; i++) {
      const j = nd - s.length + i,
        d = s[i];
      if (d === out[j] || d === 1) continue;
      if (out[j] !== 1)
        throw new ValueError(
          `${where}: operands could not be broadcast together with shapes ${shapes.map(formatShape).join(' ')}`,
        );
      out[j] = d;
    }
  }
  return out;
}

const expandIndex = (shape, outShape) => gatherIndex(outShape, broadcastStrides(shape, outShape));

// Walks `outShape` one run of its last axis at a time: row(outOffset, offsets, innerStrides, n), where
// offsets[q] is where operand q's run starts (operand q read with strides st[q]). Keeps the
// per-element work of broadcasting and transposing to a pointer increment.
const broadcastRows = (outShape, shapes, row) =>
  stridedRows(
    outShape,
    shapes.map((s) => broadcastStrides(s, outShape)),
    row,
  );
function stridedRows(outShape, st, row) {
  const nd = outShape.length;
  const n = nd ? outShape[nd - 1] : 1,
    inner = st.map((s) => (nd ? s[nd - 1] : 0));
  const rows = n === 0 ? 0 : sizeOf(outShape) / n,
    q = st.length;
  const offs = new Array(q).fill(0),
    counter = new Array(nd).fill(0);
  for (let r = 0; r < rows; r++) {
    row(r * n, offs, inner, n);
    for (let ax = nd - 2; ax >= 0; ax--) {
      for (let i = 0; i < q; i++) offs[i] += st[i][ax];
      if (++counter[ax] < outShape[ax]) break;
      for (let i = 0; i < q; i++) offs[i] -= st[i][ax] * outShape[ax];
      counter[ax] = 0;
    }
  }
}

export {
  sizeOf,
  sameShape,
  stridesOf,
  gatherIndex,
  broadcastStrides,
  broadcastShapes,
  expandIndex,
  broadcastRows,
  stridedRows,
};
