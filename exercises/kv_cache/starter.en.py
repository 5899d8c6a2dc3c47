# The KV cache and grouped-query attention (GQA) with NumPy.
# The task's three functions have `...` bodies: such a function returns None, and the check says "not implemented".
# This environment has no np.repeat or np.tile: copies are stacked along a new axis with np.stack,
# and np.concatenate(..., axis=2) joins arrays along the time axis.
import numpy as np


# From the previous exercises, ready to use.
def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def split_heads(x, n_heads):
    """(…, T, n_heads·d_head) → (…, n_heads, T, d_head): head h is columns h·d_head … (h+1)·d_head − 1."""
    d_head = x.shape[-1] // n_heads
    return x.reshape(x.shape[:-1] + (n_heads, d_head)).swapaxes(-3, -2)


def merge_heads(x):
    """(…, H, T, d_head) → (…, T, H·d_head), the inverse of split_heads."""
    H, T, d_head = x.shape[-3:]
    return x.swapaxes(-3, -2).reshape(x.shape[:-3] + (T, H * d_head))


def apply_rope(x, cos, sin, offset=0):
    """RoPE: row t of x (…, T, d_head) is rotated by the angles of position offset + t from the tables cos, sin (T_max, d_head / 2)."""
    T = x.shape[-2]
    c, s = cos[offset:offset + T], sin[offset:offset + T]
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return np.stack((x1 * c - x2 * s, x1 * s + x2 * c), axis=-1).reshape(x.shape)


def kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch, dtype_bytes=2):
    """How many bytes the KV cache takes.

    In each of the n_layers layers, for each of the seq_len tokens of each of the batch sequences,
    a key and a value are stored: one vector of length d_head for each of the n_kv_heads KV heads,
    each number taking dtype_bytes bytes (2 for bf16).
    Returns a number (of bytes). For example, kv_cache_bytes(32, 8, 128, 1, 1) == 131072 (128 KiB).
    """
    # TODO: multiply together everything that is stored; remember that both K and V are stored
    ...


def repeat_kv(x, n_rep):
    """Repeating the KV heads for grouped-query attention (GQA).

    x: (B, H_kv, T, d) → (B, H_kv·n_rep, T, d); n_rep is how many query heads share one KV head.
    Head h of the result is KV head h // n_rep: each KV head is repeated n_rep times in a row
    (with H_kv = 2, n_rep = 3 the order is 0, 0, 0, 1, 1, 1, not 0, 1, 0, 1, 0, 1).
    """
    # TODO: n_rep copies of x stacked along a new axis right after the heads axis (np.stack(..., axis=2)), then reshape
    ...


def attend_with_cache(x, W_q, W_k, W_v, W_o, n_heads, cache=None, rope=None):
    """One attention step with a KV cache.

    x: (B, T, d_model), T new tokens; W_q, W_o: (d_model, d_model);
    W_k, W_v: (d_model, n_kv_heads·d_head), where d_head = d_model // n_heads (this gives n_kv_heads).
    cache: a pair (k, v), a tuple or a list, each (B, n_kv_heads, T_past, d_head),
        or None: there is no cache yet (T_past = 0).
    rope: a pair (cos, sin) from rope_cache, or None; rotates q and the new k to positions T_past … T_past + T − 1.
    Query i of the new block sees keys 0 … T_past + i. Query head h works with KV head h // n_rep.
    Returns a tuple (out, (k, v)):
        out: (B, T, d_model), the merged heads multiplied by W_o;
        (k, v): the cache grown by T positions: (B, n_kv_heads, T_past + T, d_head), the keys already rotated by RoPE,
        the heads not repeated.
    """
    # TODO: q, k, v are the projections of x, split into heads (k and v have n_kv_heads heads)
    # TODO: T_past is the length of the cache; RoPE for q and k with the offset T_past
    # TODO: append the new k, v to the cache along the time axis (axis=2)
    # TODO: repeat the KV heads, scores / √d_head, mask (T, T_past + T), softmax, @ V, merge the heads, @ W_o
    # TODO: return out, (k, v)
    ...


# The lesson's numbers and a check of the cache: a prefill of 3 tokens and one more token against a single pass over all 4.
# Press "Run" once the functions are written.
if __name__ == "__main__":
    kib = kv_cache_bytes(32, 8, 128, 1, 1)
    if kib is not None:
        print(kib / 1024)  # expected 128.0 (KiB per token)
    rep = repeat_kv(np.arange(4).reshape(1, 2, 2, 1), 2)
    if rep is not None:
        print(rep.ravel().tolist())  # expected [0, 1, 0, 1, 2, 3, 2, 3]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 4, 8))
    W = [rng.standard_normal(s) * 0.35 for s in [(8, 8), (8, 4), (8, 4), (8, 8)]]
    whole = attend_with_cache(x, *W, 4)  # 4 query heads, 2 KV heads
    if whole is not None:
        full, _ = whole
        _, cache = attend_with_cache(x[:, :3], *W, 4)
        last, _ = attend_with_cache(x[:, 3:], *W, 4, cache)
        print(np.allclose(last[0, 0], full[0, 3]))  # expected True
