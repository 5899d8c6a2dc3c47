// Reference student solution for the kv_cache exercise (what a good submission looks like).
// x is (B, T, d_model); the cache [k, v] is (B, n_kv_heads, T_past, d_head); rope is [cos, sin].

// From the earlier exercises (the starter has them ready-made).
function softmax(x) {
  const e = np.exp(np.subtract(x, np.max(x, { axis: -1, keepdims: true })));
  return np.divide(e, np.sum(e, { axis: -1, keepdims: true }));
}

function split_heads(x, n_heads) {
  const d_head = x.shape.at(-1) / n_heads;
  return np.swapaxes(np.reshape(x, [...x.shape.slice(0, -1), n_heads, d_head]), -3, -2);
}

function merge_heads(x) {
  const [H, T, d_head] = x.shape.slice(-3);
  return np.reshape(np.swapaxes(x, -3, -2), [...x.shape.slice(0, -3), T, H * d_head]);
}

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

function kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch, dtype_bytes = 2) {
  // 2: both K and V are kept, in every layer, for every token of every sequence.
  return 2 * n_layers * n_kv_heads * d_head * seq_len * batch * dtype_bytes;
}

function repeat_kv(x, n_rep) {
  const [B, H_kv, T, d] = x.shape;
  // (B, H_kv, n_rep, T, d): n_rep copies of each head side by side, then the two head axes merged,
  // so that head h of the result is KV head h // n_rep.
  const copies = np.stack(Array.from({ length: n_rep }, () => x), { axis: 2 });
  return np.reshape(copies, [B, H_kv * n_rep, T, d]);
}

function attend_with_cache(x, W_q, W_k, W_v, W_o, n_heads, cache = null, rope = null) {
  const [B, T, d_model] = x.shape;
  const d_head = d_model / n_heads;
  const n_kv_heads = W_k.shape[1] / d_head;
  let q = split_heads(np.matmul(x, W_q), n_heads);    // (B, H, T, d_head)
  let k = split_heads(np.matmul(x, W_k), n_kv_heads); // (B, H_kv, T, d_head)
  let v = split_heads(np.matmul(x, W_v), n_kv_heads);
  const T_past = cache === null ? 0 : cache[0].shape[2];
  if (rope !== null) {
    // The new tokens stand at positions T_past … T_past + T − 1.
    const [cos, sin] = rope;
    q = apply_rope(q, cos, sin, T_past);
    k = apply_rope(k, cos, sin, T_past);
  }
  if (cache !== null) {
    k = np.concatenate([cache[0], k], { axis: 2 }); // the cache grows along the time axis
    v = np.concatenate([cache[1], v], { axis: 2 });
  }
  const n_rep = n_heads / n_kv_heads;
  const K = repeat_kv(k, n_rep), V = repeat_kv(v, n_rep);
  const scores = np.divide(np.matmul(q, np.swapaxes(K, -1, -2)), Math.sqrt(d_head)); // (B, H, T, T_past + T)
  // Query i sees keys 0 … T_past + i: the triangle in the bottom-right corner.
  const mask = np.tril(np.ones([T, T_past + T], { dtype: 'bool' }), { k: T_past });
  const weights = softmax(np.where(mask, scores, -Infinity));
  const out = np.matmul(merge_heads(np.matmul(weights, V)), W_o);
  return [out, [k, v]];
}

// The lesson's numbers, and a prefill of 3 tokens then 1 more, against one pass over all 4.
{
  print(kv_cache_bytes(32, 8, 128, 1, 1) / 1024);         // 128 (KiB per token)
  print(kv_cache_bytes(32, 8, 128, 8192, 1) / 2 ** 30);   // 1 (GiB)
  print(repeat_kv(np.arange(4).reshape([1, 2, 2, 1]), 2).reshape([8]).tolist()); // [0, 1, 0, 1, 2, 3, 2, 3]
  const rng = np.random.default_rng(0);
  const x = rng.standard_normal([1, 4, 8]);
  const W = [[8, 8], [8, 4], [8, 4], [8, 8]].map((s) => np.multiply(rng.standard_normal(s), 0.35));
  const [full] = attend_with_cache(x, ...W, 4);
  const [, cache] = attend_with_cache(np.stack([x.get(0, 0), x.get(0, 1), x.get(0, 2)]).reshape([1, 3, 8]), ...W, 4);
  const [last] = attend_with_cache(x.get(0, 3).reshape([1, 1, 8]), ...W, 4, cache);
  print(np.allclose(last.reshape([8]), full.get(0, 3))); // true
}
