# exercise: rope
# GPT-NeoX / Hugging Face rotate_half: the two halves of the vector are paired, not neighbours. Another
# convention than the course's (pairs 0-1, 2-3, ...): a real mistake here, in CPython too.
import numpy as np


def rope_cache(T, d_head, base=10000):
    inv_freq = 1.0 / (base ** (np.arange(0, d_head, 2) / d_head))
    pos = np.arange(T)
    ang = np.einsum('i,j->ij', pos, inv_freq)
    return np.cos(ang), np.sin(ang)


def rotate_half(x):
    x1, x2 = np.split(x, 2, axis=-1)
    return np.concatenate((-x2, x1), axis=-1)


def apply_rope(x, cos, sin, offset=0):
    T = x.shape[-2]
    c = np.tile(cos[offset:offset + T], 2)
    s = np.tile(sin[offset:offset + T], 2)
    return x * c + rotate_half(x) * s
