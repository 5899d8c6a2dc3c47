# Reference student solution for the kv_cache exercise on the Python track, written as the lesson
# writes NumPy. x is (B, T, d_model); the cache (k, v) is (B, n_kv_heads, T_past, d_head);
# rope is (cos, sin) from rope_cache.
import numpy as np


# From the earlier exercises (the starter has them ready-made).
def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return x.reshape(x.shape[:-1] + (n_heads, d_head)).swapaxes(-3, -2)


def merge_heads(x):
    H, T, d_head = x.shape[-3:]
    return x.swapaxes(-3, -2).reshape(x.shape[:-3] + (T, H * d_head))


def apply_rope(x, cos, sin, offset=0):
    T = x.shape[-2]
    c, s = cos[offset:offset + T], sin[offset:offset + T]
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return np.stack((x1 * c - x2 * s, x1 * s + x2 * c), axis=-1).reshape(x.shape)


def kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch, dtype_bytes=2):
    # 2: both K and V are kept, in every layer, for every token of every sequence.
    return 2 * n_layers * n_kv_heads * d_head * seq_len * batch * dtype_bytes


def repeat_kv(x, n_rep):
    # Each KV head n_rep times in a row: head h of the result is KV head h // n_rep (0, 0, 1, 1, …),
    # which is what the query heads of one group share.
    return np.repeat(x, n_rep, axis=1)


def attend_with_cache(x, W_q, W_k, W_v, W_o, n_heads, cache=None, rope=None):
    B, T, d_model = x.shape
    d_head = d_model // n_heads
    n_kv_heads = W_k.shape[1] // d_head
    q = split_heads(x @ W_q, n_heads)     # (B, H, T, d_head)
    k = split_heads(x @ W_k, n_kv_heads)  # (B, H_kv, T, d_head)
    v = split_heads(x @ W_v, n_kv_heads)
    T_past = 0 if cache is None else cache[0].shape[2]
    if rope is not None:
        # The new tokens stand at positions T_past … T_past + T − 1.
        cos, sin = rope
        q = apply_rope(q, cos, sin, T_past)
        k = apply_rope(k, cos, sin, T_past)
    if cache is not None:
        k_past, v_past = cache
        k = np.concatenate([k_past, k], axis=2)  # the cache grows along the time axis
        v = np.concatenate([v_past, v], axis=2)
    n_rep = n_heads // n_kv_heads
    K, V = repeat_kv(k, n_rep), repeat_kv(v, n_rep)
    scores = q @ K.swapaxes(-1, -2) / np.sqrt(d_head)  # (B, H, T, T_past + T)
    # Query i sees keys 0 … T_past + i: the triangle in the bottom-right corner.
    mask = np.tril(np.ones((T, T_past + T), dtype=bool), k=T_past)
    weights = softmax(np.where(mask, scores, -np.inf))
    out = merge_heads(weights @ V) @ W_o
    return out, (k, v)


# The lesson's numbers, and a prefill of 3 tokens then 1 more, against one pass over all 4.
if __name__ == "__main__":
    print(kv_cache_bytes(32, 8, 128, 1, 1) / 1024)        # 128.0 (KiB per token)
    print(kv_cache_bytes(32, 8, 128, 8192, 1) / 2**30)    # 1.0 (GiB)
    print(repeat_kv(np.arange(4).reshape(1, 2, 2, 1), 2).ravel().tolist())  # [0, 1, 0, 1, 2, 3, 2, 3]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 4, 8))
    W = [rng.standard_normal(s) * 0.35 for s in [(8, 8), (8, 4), (8, 4), (8, 8)]]
    full, _ = attend_with_cache(x, *W, 4)
    _, cache = attend_with_cache(x[:, :3], *W, 4)
    last, _ = attend_with_cache(x[:, 3:], *W, 4, cache)
    print(np.allclose(last[0, 0], full[0, 3]))  # True
