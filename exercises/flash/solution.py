# FlashAttention: attention over blocks of keys with a running maximum and a running sum, so that the
# (T_q, T_k) score matrix is never built: at most (..., T_q, block_size) scores exist at a time.
import numpy as np


def softmax_merge(m_a, l_a, m_b, l_b):
    """The softmax statistics of the union of two blocks: m the maximum, l the sum of exp(x - m)."""
    m = np.maximum(m_a, m_b)
    # A block with m = -inf is empty (l = 0) and adds nothing; exp(-inf - (-inf)) would be nan.
    fa = np.where(m_a == -np.inf, 0.0, np.exp(m_a - m))
    fb = np.where(m_b == -np.inf, 0.0, np.exp(m_b - m))
    return m, l_a * fa + l_b * fb


def flash_attention(Q, K, V, block_size, causal=True):
    d, T_q, T_k = Q.shape[-1], Q.shape[-2], K.shape[-2]
    m = np.full(Q.shape[:-1] + (1,), -np.inf)  # the running maximum of each query row
    l = np.zeros(Q.shape[:-1] + (1,))  # the running sum of exp(score - m)
    acc = np.zeros(Q.shape[:-1] + (V.shape[-1],))  # sum of exp(score - m) * v
    rows = np.arange(T_q)[:, None]
    for k0 in range(0, T_k, block_size):
        k1 = min(k0 + block_size, T_k)
        s = Q @ np.swapaxes(K[..., k0:k1, :], -1, -2) / np.sqrt(d)  # (..., T_q, k1 - k0)
        if causal:
            s = np.where(np.arange(k0, k1) <= rows, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        p = np.exp(s - m_new)
        alpha = np.exp(m - m_new)  # rescales what was summed against the old maximum
        l = l * alpha + p.sum(axis=-1, keepdims=True)
        acc = acc * alpha + p @ V[..., k0:k1, :]
        m = m_new
    return acc / l


if __name__ == "__main__":
    Q = np.array([[2.0, 0], [0, 2], [1, 1]])
    K = np.array([[1.0, 0], [0, 1], [1, 1]])
    V = np.array([[10.0, 0], [0, 10], [5, 5]])
    print(flash_attention(Q, K, V, 2))
