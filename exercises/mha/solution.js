// Reference student solution for the mha exercise (what a good submission looks like).
// Works for (T, d_model) and batched (B, T, d_model) inputs (any number of leading axes).

// From the first exercise: softmax over the last axis and the causal mask.
function softmax(x) {
  const e = np.exp(np.subtract(x, np.max(x, { axis: -1, keepdims: true })));
  return np.divide(e, np.sum(e, { axis: -1, keepdims: true }));
}

function causal_mask(T) {
  return np.tril(np.ones([T, T], { dtype: 'bool' }));
}

function split_heads(x, n_heads) {
  const d_model = x.shape.at(-1);
  if (d_model % n_heads !== 0) throw new Error(`split_heads: d_model = ${d_model} is not divisible by n_heads = ${n_heads}`);
  const d_head = d_model / n_heads;
  // (…, T, d_model) → (…, T, H, d_head): the last axis cut into H blocks of d_head columns
  const blocks = np.reshape(x, [...x.shape.slice(0, -1), n_heads, d_head]);
  // → (…, H, T, d_head): the head becomes one more batch axis
  return np.swapaxes(blocks, -3, -2);
}

function merge_heads(x) {
  const [H, T, d_head] = x.shape.slice(-3);
  const byPosition = np.swapaxes(x, -3, -2); // (…, T, H, d_head)
  return np.reshape(byPosition, [...x.shape.slice(0, -3), T, H * d_head]);
}

function multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, causal = true) {
  const [T, d_model] = X.shape.slice(-2);
  const Q = split_heads(np.matmul(X, W_q), n_heads); // (…, H, T, d_head)
  const K = split_heads(np.matmul(X, W_k), n_heads);
  const V = split_heads(np.matmul(X, W_v), n_heads);
  const d_head = d_model / n_heads;
  let scores = np.divide(np.matmul(Q, np.swapaxes(K, -1, -2)), Math.sqrt(d_head)); // (…, H, T, T)
  if (causal) scores = np.where(causal_mask(T), scores, -Infinity); // (T, T) broadcasts over every head
  const weights = softmax(scores);
  const out = np.matmul(merge_heads(np.matmul(weights, V)), W_o); // (…, T, d_model)
  return [out, weights];
}

// The hand example: three one-hot tokens, two heads; head 0 is the first lesson's example.
{
  const X = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]);
  const W_q = np.array([[2, 0, 0, 0], [0, 2, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0]]);
  const W_k = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1], [0, 0, 0, 0]]);
  const W_v = np.array([[10, 0, 3, 0], [0, 10, 0, 3], [5, 5, 3, 3], [0, 0, 0, 0]]);
  const W_o = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1]]);
  print(split_heads(X, 2).shape); // [2, 3, 2]
  const [out, weights] = multi_head_attention(X, W_q, W_k, W_v, W_o, 2);
  print(np.round(weights, 3)); // head 0: [[1 0 0] [0.196 0.804 0] [0.248 0.248 0.503]]; head 1: [[1 0 0] [0.5 0.5 0] [0.333 0.333 0.333]]
  print(np.round(out, 3));     // [[13 0 3 0] [3.456 9.544 1.5 1.5] [7 7 2 2]]
}
