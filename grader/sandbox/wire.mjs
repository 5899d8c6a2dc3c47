// JSON on the host side of the sandbox boundary, keeping NaN and ±Infinity ({ $f: 'NaN' }).
export const encode = (value) =>
  JSON.stringify(value, (k, v) => (typeof v === 'number' && !Number.isFinite(v) ? { $f: String(v) } : v));
export const decode = (text) =>
  JSON.parse(text, (k, v) => (v && typeof v === 'object' && '$f' in v ? Number(v.$f) : v));
