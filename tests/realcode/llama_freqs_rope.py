# exercise: rope
# Llama-style tables: inverse frequencies from np.arange(...).astype(np.float32), np.outer with the
# positions, then the pairs rotated through a reshape to (..., d/2, 2).
import numpy as np


def rope_cache(T, d_head, base=10000):
    freqs = 1.0 / (base ** (np.arange(0, d_head, 2)[: (d_head // 2)].astype(np.float32) / d_head))
    t = np.arange(T, dtype=np.float32)
    freqs = np.outer(t, freqs)
    return np.cos(freqs), np.sin(freqs)


def apply_rope(x, cos, sin, offset=0):
    T = x.shape[-2]
    c, s = cos[offset:offset + T], sin[offset:offset + T]
    pairs = x.reshape(x.shape[:-1] + (-1, 2))
    x_r, x_i = pairs[..., 0], pairs[..., 1]
    out_r = x_r * c - x_i * s
    out_i = x_r * s + x_i * c
    return np.stack([out_r, out_i], axis=-1).reshape(x.shape)
