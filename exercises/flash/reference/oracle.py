"""NumPy versions of flash's reference functions: the outside oracle for reference/bind.cpp.

Written from the definitions, not from the C++: softmax_merge from the sums over the union, and
flash_attention as the whole softmax(Q K^T / sqrt(d) [+ causal mask]) V (what the blocks must give);
run by tests/js/oracle.test.mjs with Debian's NumPy on the cases of oracle.json.
"""
import numpy as np


def softmax_merge(m_a, l_a, m_b, l_b, options=None):
    m = np.maximum(m_a, m_b)
    with np.errstate(invalid="ignore"):
        fa = np.where(m_a == -np.inf, 0.0, np.exp(m_a - m))
        fb = np.where(m_b == -np.inf, 0.0, np.exp(m_b - m))
    return m, l_a * fa + l_b * fb


def flash_attention(Q, K, V, block_size, causal=True, options=None):
    d = Q.shape[-1]
    s = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d)
    if causal:
        T = Q.shape[-2]
        s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    return (w / w.sum(axis=-1, keepdims=True)) @ V
