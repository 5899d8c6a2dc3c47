// Multi-head attention. The global `np` is a small NumPy look-alike.
// JavaScript operators do not work on arrays: write np.add, np.divide, np.matmul, np.reshape,
// np.swapaxes (or the methods a.div(b), a.matmul(b), …). np has no slices like x[:, 0:2]: the heads
// are taken apart with reshape and a swap of axes.

// From the previous exercise, ready to use.
function softmax(x) {
  const e = np.exp(np.subtract(x, np.max(x, { axis: -1, keepdims: true })));
  return np.divide(e, np.sum(e, { axis: -1, keepdims: true }));
}

function causal_mask(T) {
  return np.tril(np.ones([T, T], { dtype: 'bool' }));
}

/**
 * Splitting into heads.
 *   x: (…, T, d_model), for example (T, d_model) or (B, T, d_model)
 * Returns an array (…, n_heads, T, d_head), where d_head = d_model / n_heads.
 * Head h gets the consecutive columns h·d_head … (h+1)·d_head − 1 of x.
 * If d_model is not divisible by n_heads, throw an error (throw new Error(...)) with a clear message.
 * @param x an array (…, T, d_model)
 * @param {number} n_heads the number of heads
 */
function split_heads(x, n_heads) {
  // TODO: check that d_model is divisible by n_heads
  // TODO: reshape to (…, T, n_heads, d_head), then swap axes -3 and -2
}

/**
 * Merging the heads: the inverse of split_heads.
 *   x: (…, H, T, d_head)
 * Returns (…, T, H·d_head): at each position the heads sit side by side, head 0 in the first d_head columns.
 * @param x an array (…, H, T, d_head)
 */
function merge_heads(x) {
  // TODO: put the T axis back in its place (axes -3 and -2), then reshape
}

/**
 * Multi-head attention.
 *   X: (…, T, d_model);  W_q, W_k, W_v, W_o: (d_model, d_model), multiplied on the right: Q = X @ W_q
 *   n_heads: the number of heads; d_model must be divisible by it
 *   causal: true gives every head a causal mask, false means no mask
 * Returns [out, weights]:
 *   weights: (…, n_heads, T, T), for each head softmax(Q_h·K_hᵀ / √d_head) with the mask;
 *   out:     (…, T, d_model) = merge_heads(weights · V_h) @ W_o.
 */
function multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, causal = true) {
  // TODO: Q, K, V are the projections of X, split into heads
  // TODO: each head's scores divided by √d_head; when causal, the mask goes on before softmax
  // TODO: weights · V, merge the heads, multiply by W_o; return [out, weights]
}

// An example you can check by hand: three one-hot tokens, two heads.
// Head 0 is the first lesson's example, head 1 averages. Press "Run" once the functions are written.
{
  const X = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]);
  const W_q = np.array([[2, 0, 0, 0], [0, 2, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0]]);
  const W_k = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1], [0, 0, 0, 0]]);
  const W_v = np.array([[10, 0, 3, 0], [0, 10, 0, 3], [5, 5, 3, 3], [0, 0, 0, 0]]);
  const W_o = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1]]);
  const heads = split_heads(X, 2);
  if (heads !== undefined) print(heads.shape); // expected [2, 3, 2]
  const res = multi_head_attention(X, W_q, W_k, W_v, W_o, 2);
  if (res !== undefined) {
    const [out, weights] = res;
    print(np.round(weights, 3)); // head 0: [[1 0 0] [0.196 0.804 0] [0.248 0.248 0.503]]; head 1: [[1 0 0] [0.5 0.5 0] [0.333 0.333 0.333]]
    print(np.round(out, 3));     // expected [[13 0 3 0] [3.456 9.544 1.5 1.5] [7 7 2 2]]
  }
}
