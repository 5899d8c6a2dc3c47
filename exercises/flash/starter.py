# FlashAttention: attention over blocks of keys (see the task text).
import numpy as np


def softmax_merge(m_a, l_a, m_b, l_b):
    """The softmax statistics of the union of two blocks, elementwise.

    m is a block's maximum, l the sum of exp(x - m) over it; an empty block has m = -inf, l = 0.
    Returns (m, l) of the union: m = max(m_a, m_b), l = l_a * exp(m_a - m) + l_b * exp(m_b - m),
    where an empty block adds 0 (two empty blocks give (-inf, 0), not nan).
    """
    ...


def flash_attention(Q, K, V, block_size, causal=True):
    """softmax(Q K^T / sqrt(d) [+ causal mask]) V computed over blocks of block_size keys.

    Q: (..., T_q, d), K: (..., T_k, d), V: (..., T_k, d_v) -> (..., T_q, d_v); the (T_q, T_k) score
    matrix is never built. causal: query i sees keys j <= i (only for T_q == T_k). The last block may
    be shorter than block_size.
    """
    ...
