// Reference student solution for the rope exercise (what a good submission looks like).
// Works for x of any shape (…, T, d_head); cos and sin may hold more rows than T (offset picks them).

function rope_cache(T, d_head, base = 10000) {
  // Pair i turns with frequency base^(−2i/d_head): 1 for pair 0, slower and slower after it.
  const exponents = np.divide(np.arange(0, d_head, 2), d_head); // 2i / d_head
  const freqs = np.power(base, np.negative(exponents));          // (d_head/2,)
  const positions = np.reshape(np.arange(T), [T, 1]);            // (T, 1)
  const angles = np.multiply(positions, freqs);                  // (T, d_head/2): t · freq_i
  return [np.cos(angles), np.sin(angles)];
}

function apply_rope(x, cos, sin, offset = 0) {
  const shape = x.shape, T = shape.at(-2), d = shape.at(-1);
  // Rows offset … offset + T − 1 of the tables: the positions of x's rows.
  const rows = (table) => np.stack(Array.from({ length: T }, (_, t) => table.get(offset + t)));
  const c = rows(cos), s = rows(sin);                            // (T, d/2)
  // (…, T, d) → (L, T, d/2, 2): the last axis holds the pair (x[2i], x[2i+1]).
  const pairs = np.reshape(x, [-1, T, d / 2, 2]);
  const a = pairs.get(null, null, null, 0), b = pairs.get(null, null, null, 1); // (L, T, d/2)
  const ra = np.subtract(np.multiply(a, c), np.multiply(b, s));
  const rb = np.add(np.multiply(a, s), np.multiply(b, c));
  return np.reshape(np.stack([ra, rb], { axis: -1 }), shape);
}

// A quarter turn of the vector (1, 0), and the tables for four positions of a 4-wide head.
{
  print(apply_rope(np.array([[1, 0]]), np.array([[0]]), np.array([[1]]))); // [[0 1]]
  const [cos, sin] = rope_cache(4, 4);
  print(np.round(cos, 3));
  print(np.round(sin, 3));
}
