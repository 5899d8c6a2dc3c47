"""NumPy versions of rope's reference functions: the outside oracle for reference/bind.cpp.

Written from the definitions (interleaved pairs, angle[t, i] = t * base**(-2i / d_head)), not from the
C++; run by tests/js/oracle.test.mjs with Debian's NumPy on the cases of oracle.json.
"""
import numpy as np


def rope_cache(T, d_head, base=10000):
    inv_freq = base ** (-np.arange(0, d_head, 2) / d_head)
    angles = np.outer(np.arange(T), inv_freq)
    return np.cos(angles), np.sin(angles)


def apply_rope(x, cos, sin, offset=0):
    T = x.shape[-2]
    c, s = cos[offset:offset + T], sin[offset:offset + T]
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = even * c - odd * s
    out[..., 1::2] = even * s + odd * c
    return out
