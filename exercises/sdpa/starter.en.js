// Causal self-attention. The global `np` is a small NumPy look-alike.
// JavaScript has no operator overloading: a + b and a / b on arrays are errors, and there is no a @ b.
// Write np.add(a, b), np.divide(a, b), np.matmul(a, b) or the methods a.add(b), a.div(b), a.matmul(b).

/**
 * The causal mask: a boolean array of shape (T, T).
 * mask[i][j] === true exactly when j <= i: token i may see itself and the tokens before it.
 * Everything above the main diagonal (the future) is false.
 * For example, T = 3:
 *   [[ true, false, false],
 *    [ true,  true, false],
 *    [ true,  true,  true]]
 * @param {number} T the sequence length (T >= 1)
 */
function causal_mask(T) {
  // TODO: the lower triangle of ones, made boolean (np.tril, np.ones)
}

/**
 * Softmax over the last axis, numerically stable.
 * The output has the shape of x; each "row" along the last axis holds numbers >= 0 that sum to 1.
 * An input of -Infinity must become a weight of exactly 0.
 * Large inputs (hundreds, thousands) must not give Infinity or NaN.
 * @param x an array of any shape (…, n)
 */
function softmax(x) {
  // TODO: shift x so that each row's largest value becomes 0 (np.max with keepdims),
  //       then exp, and divide by the sum over the same last axis
}

/**
 * Scaled dot-product attention.
 *   Q: (…, T_q, d_k)   K: (…, T_k, d_k)   V: (…, T_k, d_v)
 *   "…" is zero or more leading axes, such as a batch B.
 *   mask: null or a boolean array (T_q, T_k); false means "do not look here".
 * Returns an array of two elements [out, weights]:
 *   weights = softmax(Q·Kᵀ / √d_k) with the mask applied, shape (…, T_q, T_k);
 *   out     = weights·V, shape (…, T_q, d_v).
 * Kᵀ here swaps only the last two axes of K.
 */
function attention(Q, K, V, mask = null) {
  // TODO: the scores: Q times K with its last two axes swapped, divided by √d_k
  // TODO: replace the scores the mask closes with -Infinity (only when a mask is given)
  // TODO: softmax of the scores gives the weights, weights · V the output; return [out, weights]
}

/**
 * Causal self-attention: queries, keys and values all come from the same X.
 *   X: (T, d_model) or (B, T, d_model)
 *   W_q, W_k: (d_model, d_k)   W_v: (d_model, d_v)
 * Returns [out, weights] as attention() does: out is (…, T, d_v), weights (…, T, T).
 */
function causal_self_attention(X, W_q, W_k, W_v) {
  // TODO: project X with W_q, W_k, W_v into Q, K, V; T is X's second-to-last axis; attention with causal_mask(T)
}

// The lesson's example. Press "Run" once the functions are written.
// The braces keep the example's names (Q, K, V, …) inside the block.
{
  const Q = np.array([[2, 0], [0, 2], [1, 1]]);
  const K = np.array([[1, 0], [0, 1], [1, 1]]);
  const V = np.array([[10, 0], [0, 10], [5, 5]]);
  print(causal_mask(3));
  const res = attention(Q, K, V, causal_mask(3));
  if (res !== undefined) {
    const [out, weights] = res;
    print(np.round(weights, 3)); // expected [[1 0 0] [0.196 0.804 0] [0.248 0.248 0.503]]
    print(np.round(out, 3));     // expected [[10 0] [1.956 8.044] [5 5]]
  }
}
