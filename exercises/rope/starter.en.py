# Rotary position embeddings (RoPE) with NumPy: two functions.
# The bodies are `...`: such a function returns None,
# and the check says "not implemented".
import numpy as np


def rope_cache(T, d_head, base=10000):
    """Tables of the cosines and sines of the rotation angles for positions 0 … T − 1.

    T is the number of positions, d_head the head size (even), base the base of the frequencies.
    The angle of pair i at position t:
        angle[t, i] = t · base^(−2i / d_head),  i = 0 … d_head // 2 − 1.
    Pair 0 turns fastest (frequency 1), and each pair after it turns more slowly.
    Returns a tuple (cos, sin): two arrays of shape (T, d_head // 2),
    cos(angle) and sin(angle).
    """
    # TODO: the exponents 2i / d_head: np.arange with step 2, divided by d_head;
    #       the frequencies: 1 / base ** exponents
    # TODO: the angles: a column of positions (T, 1), np.arange(T)[:, None], times
    #       the row of frequencies
    # TODO: return np.cos(angles), np.sin(angles)
    ...


def apply_rope(x, cos, sin, offset=0):
    """Rotates the pairs of coordinates of x by the angles of their positions.

    x: (..., T, d_head), for example (B, H, T, d_head);
    cos, sin: (T_max, d_head // 2) from rope_cache.
    Row t of x sits at position offset + t, so it takes rows
    offset … offset + T − 1 of the tables.
    Pair i is two neighbouring coordinates (x[..., 2i], x[..., 2i+1]); it becomes
        (x₂ᵢ·cos − x₂ᵢ₊₁·sin,  x₂ᵢ·sin + x₂ᵢ₊₁·cos).
    Returns an array of the same shape as x.
    """
    # TODO: T = x.shape[-2]; rows offset … offset + T − 1 of the cos and sin tables:
    #       a slice along the first axis
    # TODO: the first and second coordinates of the pairs: slices with step 2 along the last axis
    # TODO: rotate each pair, put the pairs back together (np.stack along the last
    #       axis) and return x's shape
    ...


# Turning the vector (1, 0) by a quarter turn (cos = 0, sin = 1), and the tables
# for four positions of a head of size 4. Press "Run" once the functions
# are written.
if __name__ == "__main__":
    y = apply_rope(np.array([[1.0, 0.0]]), np.array([[0.0]]), np.array([[1.0]]))
    if y is not None:
        print(y)  # expected [[0. 1.]]
    tables = rope_cache(4, 4)
    if tables is not None:
        cos, sin = tables
        print(np.round(cos, 3))  # row 0 is all ones: at position 0 the angle is 0
        print(np.round(sin, 3))
