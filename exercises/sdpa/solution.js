// Reference student solution for the sdpa exercise (what a good submission looks like).
// Works for (T, d) and batched (..., T, d) inputs; the mask is optional.

function causal_mask(T) {
  // j <= i is the lower triangle, diagonal included
  return np.tril(np.ones([T, T], { dtype: 'bool' }));
}

function softmax(x) {
  // Subtracting the row maximum keeps exp() finite for large scores and leaves the result unchanged;
  // -Infinity entries become exp(-Infinity) = 0.
  const shifted = np.subtract(x, np.max(x, { axis: -1, keepdims: true }));
  const e = np.exp(shifted);
  return np.divide(e, np.sum(e, { axis: -1, keepdims: true }));
}

function attention(Q, K, V, mask = null) {
  const d_k = K.shape[K.shape.length - 1];
  // swapaxes, not K.T: on a batch (B, T, d) K.T would be (d, T, B)
  let scores = np.divide(np.matmul(Q, np.swapaxes(K, -1, -2)), Math.sqrt(d_k));
  if (mask != null) scores = np.where(mask, scores, -Infinity);
  const weights = softmax(scores);
  return [np.matmul(weights, V), weights];
}

function causal_self_attention(X, W_q, W_k, W_v) {
  const Q = np.matmul(X, W_q);
  const K = np.matmul(X, W_k);
  const V = np.matmul(X, W_v);
  const T = X.shape[X.shape.length - 2];
  return attention(Q, K, V, causal_mask(T));
}

// The lesson's example (same lines as in the starter).
{
  const Q = np.array([[2, 0], [0, 2], [1, 1]]);
  const K = np.array([[1, 0], [0, 1], [1, 1]]);
  const V = np.array([[10, 0], [0, 10], [5, 5]]);
  print(causal_mask(3));
  const [out, weights] = attention(Q, K, V, causal_mask(3));
  print(np.round(weights, 3)); // [[1 0 0] [0.196 0.804 0] [0.248 0.248 0.503]]
  print(np.round(out, 3));     // [[10 0] [1.956 8.044] [5 5]]
}
