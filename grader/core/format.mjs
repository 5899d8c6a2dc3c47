// Numbers in messages: six significant digits, exponent form for the very small and very large.
export function fmtNum(x) {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  return a >= 1e-4 && a < 1e6 ? String(+x.toPrecision(6)) : x.toExponential(3);
}
