// The three dtypes: their names, their ranking and promotion, and the casts between them. The one
// declaration of these rules, for np and for the Python track's bridge (grader/tracks/python/bridge.mjs).
import { alloc, ValueError } from './errors.mjs';

// Captured once, at load: the sandbox freezes the realm later, but np must not depend on what students do.
const { trunc } = Math;
const { isFinite } = Number;

const DTYPES = {
  float64: 'float64',
  float: 'float64',
  double: 'float64',
  f8: 'float64',
  float32: 'float64',
  f4: 'float64',
  single: 'float64', // accepted names; computed in float64 (README, Deviations)
  int64: 'int64',
  int: 'int64',
  i8: 'int64',
  bool: 'bool',
  bool_: 'bool',
  '?': 'bool',
};
const RANK = { bool: 0, int64: 1, float64: 2 };
const BY_RANK = ['bool', 'int64', 'float64'];
/** The dtype that values of these dtypes compute in together: the highest ranked (bool < int64 < float64). */
const promote = (...dtypes) => dtypes.reduce((a, b) => (RANK[b] > RANK[a] ? b : a), 'bool');

function castValue(v, dtype, where) {
  if (dtype === 'bool') return v !== 0 ? 1 : 0; // NaN counts as true, like NumPy
  if (dtype === 'int64') {
    if (!isFinite(v)) throw new ValueError(`${where}: cannot convert ${v} to int64`);
    return trunc(v) + 0;
  }
  return v;
}

function castData(data, from, to, where) {
  const out = alloc(to, data.length);
  if (from === to || to === 'float64' || from === 'bool') out.set(data);
  else for (let i = 0; i < data.length; i++) out[i] = castValue(data[i], to, where);
  return out;
}

export { DTYPES, RANK, BY_RANK, promote, castValue, castData };
