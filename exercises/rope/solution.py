# Reference student solution for the rope exercise on the Python track, written as the lesson writes
# NumPy. Works for x of any shape (..., T, d_head); cos and sin may hold more rows than T (offset picks them).
import numpy as np


def rope_cache(T, d_head, base=10000):
    # Pair i turns with frequency base^(-2i/d_head): 1 for pair 0, slower and slower after it.
    inv_freq = 1.0 / base ** (np.arange(0, d_head, 2) / d_head)  # (d_head/2,)
    angles = np.arange(T)[:, None] * inv_freq                    # (T, d_head/2): t * freq_i
    return np.cos(angles), np.sin(angles)


def apply_rope(x, cos, sin, offset=0):
    T = x.shape[-2]
    # Rows offset ... offset + T - 1 of the tables: the positions of x's rows.
    cos, sin = cos[offset:offset + T], sin[offset:offset + T]   # (T, d_head/2)
    x1, x2 = x[..., 0::2], x[..., 1::2]                          # (..., T, d_head/2): pair i is (x1[i], x2[i])
    rotated = np.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), axis=-1)  # (..., T, d_head/2, 2)
    return rotated.reshape(x.shape)


# A quarter turn of the vector (1, 0), and the tables for four positions of a 4-wide head
# (the same lines as in the starter).
if __name__ == "__main__":
    print(apply_rope(np.array([[1.0, 0.0]]), np.array([[0.0]]), np.array([[1.0]])))  # [[0. 1.]]
    cos, sin = rope_cache(4, 4)
    print(np.round(cos, 3))  # row 0 is all ones: at position 0 the angle is 0
    print(np.round(sin, 3))
