// The KV cache and grouped-query attention (GQA). The global `np` is a small NumPy look-alike.
// JavaScript operators do not work on arrays: write np.matmul, np.divide, np.concatenate, …
// (or the methods a.matmul(b), a.div(b)). np has no slices like k[:, :, 2:5]: along the time axis arrays
// are joined with np.concatenate(list, { axis: 2 }), and np.stack gathers copies into a new axis.

// From the previous exercises, ready to use.
function softmax(x) {
  const e = np.exp(np.subtract(x, np.max(x, { axis: -1, keepdims: true })));
  return np.divide(e, np.sum(e, { axis: -1, keepdims: true }));
}

/** (…, T, n_heads·d_head) → (…, n_heads, T, d_head): head h is columns h·d_head … (h+1)·d_head − 1. */
function split_heads(x, n_heads) {
  const d_head = x.shape.at(-1) / n_heads;
  return np.swapaxes(np.reshape(x, [...x.shape.slice(0, -1), n_heads, d_head]), -3, -2);
}

/** (…, H, T, d_head) → (…, T, H·d_head), the inverse of split_heads. */
function merge_heads(x) {
  const [H, T, d_head] = x.shape.slice(-3);
  return np.reshape(np.swapaxes(x, -3, -2), [...x.shape.slice(0, -3), T, H * d_head]);
}

/** RoPE: row t of x (…, T, d_head) is rotated by the angles of position offset + t from the tables cos, sin (T_max, d_head / 2). */
function apply_rope(x, cos, sin, offset = 0) {
  const shape = x.shape, T = shape.at(-2), d = shape.at(-1);
  const rows = (table) => np.stack(Array.from({ length: T }, (_, t) => table.get(offset + t)));
  const c = rows(cos), s = rows(sin);
  const pairs = np.reshape(x, [-1, T, d / 2, 2]);
  const a = pairs.get(null, null, null, 0), b = pairs.get(null, null, null, 1);
  const ra = np.subtract(np.multiply(a, c), np.multiply(b, s));
  const rb = np.add(np.multiply(a, s), np.multiply(b, c));
  return np.reshape(np.stack([ra, rb], { axis: -1 }), shape);
}

/**
 * How many bytes the KV cache takes.
 *   In each of the n_layers layers, for each of the seq_len tokens of each of the batch sequences,
 *   a key and a value are stored: one vector of length d_head for each of the n_kv_heads KV heads,
 *   each number taking dtype_bytes bytes (2 for bf16).
 * Returns a number (of bytes).
 */
function kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch, dtype_bytes = 2) {
  // TODO: multiply together everything that is stored; remember that both K and V are stored
}

/**
 * Repeating the KV heads for grouped-query attention (GQA).
 *   x: (B, H_kv, T, d) → (B, H_kv·n_rep, T, d).
 *   Head h of the result is KV head h // n_rep: each KV head is repeated n_rep times in a row
 *   (with H_kv = 2, n_rep = 3 the order is 0, 0, 0, 1, 1, 1).
 * @param x an array (B, H_kv, T, d)
 * @param {number} n_rep how many query heads share one KV head
 */
function repeat_kv(x, n_rep) {
  // TODO: n_rep copies of x stacked along a new axis right after the heads axis (np.stack), then reshape
}

/**
 * One attention step with a KV cache.
 *   x: (B, T, d_model), T new tokens; W_q, W_o: (d_model, d_model);
 *   W_k, W_v: (d_model, n_kv_heads·d_head), where d_head = d_model / n_heads (this gives n_kv_heads).
 *   cache: [k, v], each (B, n_kv_heads, T_past, d_head), or null when there is no cache yet (T_past = 0).
 *   rope: [cos, sin] from rope_cache, or null; rotates q and the new k to positions T_past … T_past + T − 1.
 *   Query i of the new block sees keys 0 … T_past + i. Query head h works with KV head h // n_rep.
 * Returns [out, [k, v]]:
 *   out: (B, T, d_model), the merged heads multiplied by W_o;
 *   [k, v]: the cache grown by T positions: (B, n_kv_heads, T_past + T, d_head), the keys already rotated by RoPE,
 *   the heads not repeated.
 */
function attend_with_cache(x, W_q, W_k, W_v, W_o, n_heads, cache = null, rope = null) {
  // TODO: q, k, v are the projections of x, split into heads (k and v have n_kv_heads heads)
  // TODO: T_past is the length of the cache; RoPE for q and k with the offset T_past
  // TODO: append the new k, v to the cache along the time axis (axis 2)
  // TODO: repeat the KV heads, scores / √d_head, mask (T, T_past + T), softmax, · V, merge the heads, W_o
  // TODO: return [out, [k, v]]
}

// The lesson's numbers and a check of the cache: a prefill of 3 tokens and one more token against a single pass over all 4.
// Press "Run" once the functions are written.
{
  const kib = kv_cache_bytes(32, 8, 128, 1, 1);
  if (kib !== undefined) print(kib / 1024); // expected 128 (KiB per token)
  const rep = repeat_kv(np.arange(4).reshape([1, 2, 2, 1]), 2);
  if (rep !== undefined) print(rep.reshape([8]).tolist()); // expected [0, 1, 0, 1, 2, 3, 2, 3]
  const rng = np.random.default_rng(0);
  const x = rng.standard_normal([1, 4, 8]);
  const W = [[8, 8], [8, 4], [8, 4], [8, 8]].map((s) => np.multiply(rng.standard_normal(s), 0.35));
  const whole = attend_with_cache(x, ...W, 4); // 4 query heads, 2 KV heads
  if (whole !== undefined) {
    const [full] = whole;
    const [, cache] = attend_with_cache(np.stack([x.get(0, 0), x.get(0, 1), x.get(0, 2)]).reshape([1, 3, 8]), ...W, 4);
    const [last] = attend_with_cache(x.get(0, 3).reshape([1, 1, 8]), ...W, 4, cache);
    print(np.allclose(last.reshape([8]), full.get(0, 3))); // expected true
  }
}
