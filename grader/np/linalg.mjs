// Linear algebra: matmul (NumPy's batches and 1-D promotion), dot, einsum, linalg.norm.
import { formatShape } from './format.mjs';
import { MAX_SIZE, alloc, ValueError } from './errors.mjs';
import { castData, promote } from './dtypes.mjs';
import { sizeOf, stridesOf, gatherIndex, broadcastShapes, expandIndex } from './shapes.mjs';
import { NDArray, asarray, parseArgs, scalarOut, isScalar } from './ndarray.mjs';
import { binary, unary, cpow, multiply } from './elementwise.mjs';
import { reshape, transpose } from './manipulation.mjs';
import { reduce } from './reductions.mjs';

// Captured once, at load: the sandbox freezes the realm later, but np must not depend on what students do.
const { sqrt, abs, max: mmax } = Math;
const isArray = Array.isArray;

const SIG = 'with gufunc signature (n?,k),(k,m?)->(n?,m?)';

function matmul(x, y) {
  const A = asarray(x, null, 'matmul'),
    B = asarray(y, null, 'matmul');
  [A, B].forEach((t, i) => {
    if (t.ndim === 0)
      throw new ValueError(
        `matmul: Input operand ${i} does not have enough dimensions (has 0, gufunc core ${SIG} requires 1)`,
      );
  });
  const as = A.ndim === 1 ? [1, A.shape[0]] : A.shape,
    bs = B.ndim === 1 ? [B.shape[0], 1] : B.shape;
  const n = as[as.length - 2],
    k = as[as.length - 1],
    k2 = bs[bs.length - 2],
    m = bs[bs.length - 1];
  if (k !== k2)
    throw new ValueError(
      `matmul: Input operand 1 has a mismatch in its core dimension 0, ${SIG} (size ${k2} is different from ${k}); the shapes are ${formatShape(A.shape)} ${formatShape(B.shape)}`,
    );
  const ba = as.slice(0, -2),
    bb = bs.slice(0, -2);
  let batch;
  try {
    batch = broadcastShapes('matmul', [ba, bb]);
  } catch {
    const remap = (orig, b) => `${formatShape(orig)}->(${[...b, 'newaxis', 'newaxis'].join(',')})`;
    throw new ValueError(
      `matmul: operands could not be broadcast together with remapped shapes [original->remapped]: ${remap(A.shape, ba)} ${remap(B.shape, bb)}  and requested shape (${n},${m})`,
    );
  }
  const dtype = promote(A.dtype, B.dtype);
  const nb = sizeOf(batch),
    ia = expandIndex(ba, batch),
    ib = expandIndex(bb, batch);
  const cd = new Float64Array(nb * n * m);
  for (let t = 0; t < nb; t++) gemm(A.data, ia[t] * n * k, B.data, ib[t] * k * m, cd, t * n * m, n, k, m);
  const shape = [...batch, ...(A.ndim === 1 ? [] : [n]), ...(B.ndim === 1 ? [] : [m])];
  const out = dtype === 'bool' ? castData(cd, 'float64', 'bool', 'matmul') : cd;
  return shape.length === 0 ? scalarOut(out[0], dtype) : new NDArray(out, shape, dtype);
}

// C[n,m] = A[n,k]·B[k,m] at the given offsets. 2×4 blocks of C stay in registers (about 5× faster
// than the plain i-p-j loop in V8); each C[i,j] still sums its k products in order from 0, so the
// result equals the textbook triple loop bit for bit.
function gemm(A, ao, B, bo, C, co, n, k, m) {
  const m4 = m - (m % 4);
  for (let i = 0; i < n; i += 2) {
    const both = i + 1 < n,
      a0 = ao + i * k,
      a1 = both ? a0 + k : a0,
      c0 = co + i * m,
      c1 = c0 + m;
    for (let j = 0; j < m4; j += 4) {
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0,
        t0 = 0,
        t1 = 0,
        t2 = 0,
        t3 = 0;
      for (let p = 0, bp = bo + j; p < k; p++, bp += m) {
        const u = A[a0 + p],
          v = A[a1 + p],
          b0 = B[bp],
          b1 = B[bp + 1],
          b2 = B[bp + 2],
          b3 = B[bp + 3];
        s0 += u * b0;
        s1 += u * b1;
        s2 += u * b2;
        s3 += u * b3;
        t0 += v * b0;
        t1 += v * b1;
        t2 += v * b2;
        t3 += v * b3;
      }
      C[c0 + j] = s0;
      C[c0 + j + 1] = s1;
      C[c0 + j + 2] = s2;
      C[c0 + j + 3] = s3;
      if (both) {
        C[c1 + j] = t0;
        C[c1 + j + 1] = t1;
        C[c1 + j + 2] = t2;
        C[c1 + j + 3] = t3;
      }
    }
    for (let j = m4; j < m; j++) {
      let s = 0,
        t = 0;
      for (let p = 0, bp = bo + j; p < k; p++, bp += m) {
        const b = B[bp];
        s += A[a0 + p] * b;
        t += A[a1 + p] * b;
      }
      C[c0 + j] = s;
      if (both) C[c1 + j] = t;
    }
  }
}

function dot(x, y) {
  if (isScalar(x) || isScalar(y) || asarray(x).ndim === 0 || asarray(y).ndim === 0) return multiply(x, y);
  const a = asarray(x, null, 'dot'),
    b = asarray(y, null, 'dot');
  if ((a.ndim <= 2 && b.ndim <= 2) || b.ndim === 1) return matmul(a, b);
  // N-D: the sum over a's last axis and b's second-to-last, shape a.shape[:-1] + b.shape[:-2] + b.shape[-1:]
  const k = a.shape[a.ndim - 1],
    kb = b.shape[b.ndim - 2];
  if (k !== kb)
    throw new ValueError(
      `dot: shapes ${formatShape(a.shape)} and ${formatShape(b.shape)} not aligned: ${k} (dim ${a.ndim - 1}) != ${kb} (dim ${b.ndim - 2})`,
    );
  const perm = [b.ndim - 2, ...[...Array(b.ndim).keys()].filter((i) => i !== b.ndim - 2)];
  const r = matmul(reshape(a, [-1, k]), reshape(transpose(b, perm), [k, -1]));
  return reshape(r, [...a.shape.slice(0, -1), ...b.shape.slice(0, -2), b.shape[b.ndim - 1]]);
}

const nSumOf = (letters, size) => letters.reduce((p, c) => p * size[c], 1);

// einsum with explicit or implicit output ('ij,jk->ik', 'bhqd,bhkd->bhqk', 'ii->i', '...d,...d->...');
// letters of size 1 broadcast, as in NumPy. Sums in the order of the summed letters.
function einsum(subscripts, ...ops) {
  if (typeof subscripts !== 'string')
    throw new TypeError('einsum: the first argument is the subscripts string, e.g. "ij,jk->ik"');
  const spec = subscripts.replace(/\s+/g, '');
  const [lhs, rhs] = spec.includes('->') ? spec.split('->') : [spec, null];
  const ins = lhs.split(',');
  if (ins.length !== ops.length)
    throw new ValueError(`einsum: ${ins.length} operand subscripts for ${ops.length} operands`);
  const arrs = ops.map((x) => asarray(x, null, 'einsum'));
  const bad = (spec.replace(/->|\.\.\.|,/g, '').match(/[^a-zA-Z]/) || [])[0];
  if (bad)
    throw new ValueError(
      `einsum: invalid subscript '${bad}' in einstein sum subscripts string, subscripts must be letters`,
    );
  // '...' → as many digits as the operand has extra axes, right-aligned across operands
  let ell = 0;
  const expand = (s, a) => {
    if (!s.includes('...')) {
      if (s.length !== a.ndim)
        throw new ValueError(
          `einsum: operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to broadcast the extra dimensions.`,
        );
      return s;
    }
    const k = a.ndim - (s.length - 3);
    if (k < 0) throw new ValueError('einsum: too many subscripts for the operand');
    ell = mmax(ell, k);
    return s.replace('...', '0123456789'.slice(10 - k));
  };
  const terms = ins.map((s, i) => expand(s, arrs[i]));
  const dims = '0123456789'.slice(10 - ell);
  const counts = {};
  for (const t of terms) for (const c of t) counts[c] = (counts[c] || 0) + 1;
  let out;
  if (rhs === null)
    out =
      dims +
      Object.keys(counts)
        .filter((c) => counts[c] === 1 && !/\d/.test(c))
        .sort()
        .join('');
  else {
    out = rhs.includes('...') ? rhs.replace('...', dims) : rhs;
    for (const c of out)
      if (!(c in counts))
        throw new ValueError(
          `einsum: einstein sum subscripts string included output subscript '${c}' which never appeared in an input`,
        );
    if (new Set(out).size !== out.length)
      throw new ValueError('einsum: einstein sum subscripts string includes output subscript multiple times');
    if (!rhs.includes('...') && ell > 0 && /\d/.test(terms.join('')))
      throw new ValueError(
        "einsum: output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to broadcast the extra dimensions.",
      );
  }
  const letters = [...out, ...Object.keys(counts).filter((c) => !out.includes(c))];
  const size = {};
  terms.forEach((t, i) =>
    [...t].forEach((c, ax) => {
      const d = arrs[i].shape[ax];
      if (size[c] === undefined || size[c] === 1) size[c] = d;
      else if (d !== 1 && d !== size[c])
        throw new ValueError(
          `einsum: operands could not be broadcast together with remapped shapes; subscript '${c}' has sizes ${size[c]} and ${d}`,
        );
    }),
  );
  // strides of each operand per letter (0 where the operand lacks it or has size 1)
  const st = arrs.map((a, i) => {
    const s = stridesOf(a.shape),
      r = letters.map(() => 0);
    [...terms[i]].forEach((c, ax) => {
      if (a.shape[ax] !== 1) r[letters.indexOf(c)] += s[ax];
    });
    return r;
  });
  const shape = [...out].map((c) => size[c]),
    nOut = out.length,
    sumLetters = letters.slice(nOut);
  const sumShape = sumLetters.map((c) => size[c]),
    nSum = sizeOf(sumShape);
  const dtype = promote(...arrs.map((a) => a.dtype));
  const total = sizeOf(shape),
    res = alloc('float64', total);
  if (total * nSumOf(sumLetters, size) > MAX_SIZE * 8)
    throw new RangeError(
      `einsum: ${total} outputs of ${nSumOf(sumLetters, size)} products each is too much work; check the subscripts`,
    );
  const q = arrs.length,
    data = arrs.map((a) => a.data);
  const outIdx = new Array(nOut).fill(0),
    base = new Array(q).fill(0);
  const sumOff = arrs.map((_, i) => gatherIndex(sumShape, st[i].slice(nOut)));
  for (let p = 0; p < total; p++) {
    for (let i = 0; i < q; i++) {
      let b = 0;
      for (let k = 0; k < nOut; k++) b += outIdx[k] * st[i][k];
      base[i] = b;
    }
    let s = 0;
    for (let r = 0; r < nSum; r++) {
      let prod = 1;
      for (let i = 0; i < q; i++) prod *= data[i][base[i] + sumOff[i][r]];
      s += prod;
    }
    res[p] = s;
    for (let k = nOut - 1; k >= 0; k--) {
      if (++outIdx[k] < shape[k]) break;
      outIdx[k] = 0;
    }
  }
  const r = dtype === 'float64' ? res : castData(res, 'float64', dtype, 'einsum');
  return shape.length === 0 ? scalarOut(r[0], dtype) : new NDArray(r, shape, dtype);
}

// np.linalg.norm: vector norms (ord None/2, 1, inf, -inf, 0, p) along an axis, the Frobenius norm of
// a whole array or of two axes. Always float64.
function norm(x, ...args) {
  const { ord, axis, keepdims } = parseArgs('norm', args, ['ord', 'axis', 'keepdims'], {
    ord: null,
    axis: null,
    keepdims: false,
  });
  const a = asarray(x, null, 'norm').astype('float64');
  const axes = axis === null ? null : isArray(axis) ? axis : [axis];
  const vector = axes ? axes.length === 1 : a.ndim === 1;
  if (!vector && ord !== null && ord !== 'fro')
    throw new ValueError(
      `norm: matrix norm ord=${String(ord)} is not available in this runtime; it has ord=None and 'fro'`,
    );
  if (axes === null && ord !== null && a.ndim > 2) throw new ValueError('norm: Improper number of dimensions to norm.');
  const kd = { axis: axes, keepdims };
  const ab = unary('absolute', a, abs, 'keep');
  if (!vector || ord === null || ord === 2 || ord === 'fro')
    return unary('sqrt', reduce('sum', multiply(a, a), [kd]), sqrt, 'float');
  if (ord === Infinity) return reduce('max', ab, [kd]);
  if (ord === -Infinity) return reduce('min', ab, [kd]);
  if (ord === 0)
    return reduce(
      'sum',
      binary('not_equal', a, 0, (p, q) => p !== q, 'div'),
      [kd],
    );
  if (ord === 1) return reduce('sum', ab, [kd]);
  if (typeof ord !== 'number') throw new ValueError(`norm: Invalid norm order '${String(ord)}' for vectors`);
  return binary('power', reduce('sum', binary('power', ab, ord, cpow, 'div'), [kd]), 1 / ord, cpow, 'div');
}

export { matmul, dot, einsum, norm };
