// numpy.allclose semantics, after shape, dtype and non-finite checks (STYLE.md point 3):
// |actual - expected| <= atol + rtol * |expected|; NaN never equals anything (unless equalNan, which
// only the diagnosis uses); an infinity must be matched by the same infinity.
import { unravel } from './tensor.mjs';

export const DEFAULT_TOL = { rtol: 1e-5, atol: 1e-8 };

export function compare(actual, expected, { rtol = DEFAULT_TOL.rtol, atol = DEFAULT_TOL.atol, equalNan = false } = {}) {
  if (actual.shape.join() !== expected.shape.join())
    return { ok: false, reason: 'shape', actualShape: actual.shape, expectedShape: expected.shape };
  if ((actual.dtype === 'bool') !== (expected.dtype === 'bool'))
    return { ok: false, reason: 'dtype', actualDtype: actual.dtype, expectedDtype: expected.dtype };
  let first = -1,
    firstNonFinite = -1,
    count = 0,
    maxAbsErr = 0;
  const a = actual.data,
    e = expected.data;
  for (let i = 0; i < e.length; i++) {
    const x = a[i],
      y = e[i];
    let good;
    if (Number.isNaN(x) || Number.isNaN(y)) good = equalNan && Number.isNaN(x) && Number.isNaN(y);
    else if (!Number.isFinite(x) || !Number.isFinite(y)) good = x === y;
    else {
      const d = Math.abs(x - y);
      if (d > maxAbsErr) maxAbsErr = d;
      good = d <= atol + rtol * Math.abs(y);
    }
    if (!good) {
      count++;
      if (first < 0) first = i;
      if (firstNonFinite < 0 && !Number.isFinite(x) && Number.isFinite(y)) firstNonFinite = i;
    }
  }
  if (count === 0) return { ok: true, maxAbsErr };
  const at = firstNonFinite >= 0 ? firstNonFinite : first;
  return {
    ok: false,
    reason: firstNonFinite >= 0 ? 'nonfinite' : 'values',
    count,
    total: e.length,
    maxAbsErr,
    index: unravel(at, expected.shape),
    actual: a[at],
    expected: e[at],
  };
}

export const close = (actual, expected, tol) => compare(actual, expected, { ...tol, equalNan: true }).ok;
