// FlashAttention: attention over blocks of keys with a running maximum and a running sum, so that the
// (T_q, T_k) score matrix is never built: at most (…, T_q, block_size) scores exist at a time.

/** The softmax statistics of the union of two blocks: m the maximum, l the sum of exp(x − m). */
function softmax_merge(m_a, l_a, m_b, l_b) {
  const m = np.maximum(m_a, m_b);
  // A block with m = −∞ is empty (l = 0) and adds nothing; exp(−∞ − (−∞)) would be NaN.
  const fa = np.where(np.equal(m_a, -Infinity), 0, np.exp(np.subtract(m_a, m)));
  const fb = np.where(np.equal(m_b, -Infinity), 0, np.exp(np.subtract(m_b, m)));
  return [m, np.add(np.multiply(l_a, fa), np.multiply(l_b, fb))];
}

function flash_attention(Q, K, V, block_size, causal = true) {
  const d = Q.shape.at(-1), T_q = Q.shape.at(-2), T_k = K.shape.at(-2);
  const lead = Q.shape.slice(0, -1); // (…, T_q)
  let m = np.full([...lead, 1], -Infinity); // the running maximum of each query row
  let l = np.zeros([...lead, 1]); // the running sum of exp(score − m)
  let acc = np.zeros([...lead, V.shape.at(-1)]); // Σ exp(score − m) · v
  const rows = np.reshape(np.arange(T_q), [T_q, 1]);
  for (let k0 = 0; k0 < T_k; k0 += block_size) {
    const k1 = Math.min(k0 + block_size, T_k);
    const Kb = K.getitem(np.Ellipsis, np.slice(k0, k1), np.slice(null));
    const Vb = V.getitem(np.Ellipsis, np.slice(k0, k1), np.slice(null));
    let s = np.divide(np.matmul(Q, np.swapaxes(Kb, -1, -2)), Math.sqrt(d)); // (…, T_q, k1 − k0)
    if (causal) s = np.where(np.less_equal(np.arange(k0, k1), rows), s, -Infinity);
    const m_new = np.maximum(m, np.max(s, -1, true));
    const p = np.exp(np.subtract(s, m_new));
    const alpha = np.exp(np.subtract(m, m_new)); // rescales what was summed against the old maximum
    l = np.add(np.multiply(l, alpha), np.sum(p, -1, true));
    acc = np.add(np.multiply(acc, alpha), np.matmul(p, Vb));
    m = m_new;
  }
  return np.divide(acc, l);
}

const Q = np.array([[2, 0], [0, 2], [1, 1]]), K = np.array([[1, 0], [0, 1], [1, 1]]), V = np.array([[10, 0], [0, 10], [5, 5]]);
print(flash_attention(Q, K, V, 2));
