// FlashAttention: attention over blocks of keys. The global `np` is a small NumPy look-alike.
// JavaScript has no operator overloading: write np.add(a, b), np.multiply(a, b), np.matmul(a, b)
// (or the methods a.add(b), a.mul(b)). The slice K[..., k0:k1, :] is K.getitem(np.Ellipsis, np.slice(k0, k1), np.slice(null)).

/**
 * The softmax statistics of the union of two blocks, from the statistics of each block.
 *   m is a block's maximum, l the sum of exp(x − m) over the block; an empty block has m = −Infinity, l = 0.
 *   All four arrays have the same shape; the function works elementwise.
 * Returns [m, l] of the union: m = max(m_a, m_b), l = l_a·exp(m_a − m) + l_b·exp(m_b − m),
 * where an empty block adds 0 (two empty blocks give [−Infinity, 0], not NaN).
 */
function softmax_merge(m_a, l_a, m_b, l_b) {
  // TODO
}

/**
 * softmax(Q Kᵀ / √d [+ causal mask]) V, computed over blocks of block_size keys:
 * the (T_q, T_k) score matrix is never built, at any moment.
 *   Q: (…, T_q, d), K: (…, T_k, d), V: (…, T_k, d_v) → (…, T_q, d_v).
 *   causal: query i sees the keys j <= i (only when T_q = T_k).
 *   The last block may be shorter than block_size.
 */
function flash_attention(Q, K, V, block_size, causal = true) {
  // TODO: the running maximum m and sum l of each query row, and an accumulator acc (…, T_q, d_v)
  // TODO: for each block of keys: the block's scores, the new maximum, rescaling l and acc
}
