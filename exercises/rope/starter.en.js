// Rotary position embeddings (RoPE). The global `np` is a small NumPy look-alike.
// JavaScript has no operator overloading: a * b and a - b on arrays are errors.
// Write np.multiply(a, b), np.subtract(a, b) or the methods a.mul(b), a.sub(b).
// np has no slices like cos[2:5]: cos.get(t) gives row t, and np.stack puts rows back together.

/**
 * Tables of the cosines and sines of the rotation angles for positions 0 … T − 1.
 *   The angle of pair i at position t: angle[t][i] = t · base^(−2i / d_head), i = 0 … d_head/2 − 1.
 *   Pair 0 turns fastest (frequency 1), and each pair after it turns more slowly.
 * Returns [cos, sin]: two arrays of shape (T, d_head / 2), cos(angle) and sin(angle).
 * @param {number} T      the number of positions
 * @param {number} d_head the head size (even)
 * @param {number} base   the base of the frequencies, 10000 by default
 */
function rope_cache(T, d_head, base = 10000) {
  // TODO: the exponents 2i / d_head (np.arange with step 2), the frequencies base^(−exponent) (np.power)
  // TODO: the angles: a column of positions (T, 1) times the row of frequencies; return [cos, sin]
}

/**
 * Rotates the pairs of coordinates of x by the angles of their positions.
 *   x: (…, T, d_head), for example (B, H, T, d_head); cos, sin: (T_max, d_head / 2) from rope_cache.
 *   Row t of x sits at position offset + t, so it takes rows offset … offset + T − 1 of the tables.
 *   Pair i is two neighbouring coordinates (x[…, 2i], x[…, 2i+1]); it becomes
 *     (x₂ᵢ·cos − x₂ᵢ₊₁·sin,  x₂ᵢ·sin + x₂ᵢ₊₁·cos).
 * Returns an array of the same shape as x.
 */
function apply_rope(x, cos, sin, offset = 0) {
  // TODO: rows offset … offset + T − 1 of the cos and sin tables (get and np.stack)
  // TODO: split x into pairs: np.reshape to (…, T, d_head / 2, 2); the first and second coordinates of the pairs
  // TODO: rotate each pair, put the pairs back together (np.stack over the last axis) and return x's shape
}

// Turning the vector (1, 0) by a quarter turn (cos = 0, sin = 1). Press "Run" once the functions are written.
{
  const y = apply_rope(np.array([[1, 0]]), np.array([[0]]), np.array([[1]]));
  if (y !== undefined) print(y); // expected [[0 1]]
  const tables = rope_cache(4, 4);
  if (tables !== undefined) {
    const [cos, sin] = tables;
    print(np.round(cos, 3)); // row 0 is all ones: at position 0 the angle is 0
    print(np.round(sin, 3));
  }
}
