# exercise: kv_cache
# In the style of llama3.np: np.repeat for grouped-query attention, the cache grown with
# np.concatenate, the mask with np.triu and np.full(-inf), the byte count with np.prod.
import numpy as np


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def split_heads(x, n_heads):
    B, T, D = x.shape
    return x.reshape(B, T, n_heads, D // n_heads).transpose(0, 2, 1, 3)


def merge_heads(x):
    B, H, T, d = x.shape
    return x.transpose(0, 2, 1, 3).reshape(B, T, H * d)


def apply_rope(x, cos, sin, offset=0):
    T = x.shape[-2]
    c, s = cos[offset:offset + T], sin[offset:offset + T]
    x1, x2 = x[..., ::2], x[..., 1::2]
    return np.stack([x1 * c - x2 * s, x1 * s + x2 * c], axis=-1).reshape(x.shape)


def kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch, dtype_bytes=2):
    return int(np.prod([2, n_layers, n_kv_heads, d_head, seq_len, batch, dtype_bytes]))


def repeat_kv(x, n_rep):
    if n_rep == 1:
        return x
    return np.repeat(x, n_rep, axis=1)


def attend_with_cache(x, W_q, W_k, W_v, W_o, n_heads, cache=None, rope=None):
    B, T, D = x.shape
    head_dim = D // n_heads
    n_kv = W_k.shape[1] // head_dim
    xq, xk, xv = split_heads(x @ W_q, n_heads), split_heads(x @ W_k, n_kv), split_heads(x @ W_v, n_kv)
    start_pos = 0 if cache is None else cache[0].shape[2]
    if rope is not None:
        xq = apply_rope(xq, rope[0], rope[1], start_pos)
        xk = apply_rope(xk, rope[0], rope[1], start_pos)
    if cache is not None:
        xk = np.concatenate([cache[0], xk], axis=2)
        xv = np.concatenate([cache[1], xv], axis=2)
    keys, values = repeat_kv(xk, n_heads // n_kv), repeat_kv(xv, n_heads // n_kv)
    scores = xq @ keys.transpose(0, 1, 3, 2) / np.sqrt(head_dim)
    mask = np.full((T, start_pos + T), float('-inf'))
    mask = np.triu(mask, k=start_pos + 1)
    scores = softmax(scores + mask)
    out = merge_heads(scores @ values) @ W_o
    return out, (xk, xv)
