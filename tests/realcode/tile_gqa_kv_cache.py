# exercise: kv_cache
# repeat_kv with np.tile: the heads come out 0, 1, 0, 1 instead of 0, 0, 1, 1 - the classic GQA
# mistake, a wrong result in CPython too. Everything else is right.
import numpy as np


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch, dtype_bytes=2):
    per_token = 2 * n_layers * n_kv_heads * d_head * dtype_bytes
    return per_token * seq_len * batch


def repeat_kv(x, n_rep):
    return np.tile(x, (1, n_rep, 1, 1))


def attend_with_cache(x, W_q, W_k, W_v, W_o, n_heads, cache=None, rope=None):
    B, T, d_model = x.shape
    d = d_model // n_heads
    hk = W_k.shape[1] // d
    q = (x @ W_q).reshape(B, T, n_heads, d).swapaxes(1, 2)
    k = (x @ W_k).reshape(B, T, hk, d).swapaxes(1, 2)
    v = (x @ W_v).reshape(B, T, hk, d).swapaxes(1, 2)
    past = 0 if cache is None else cache[0].shape[2]
    if rope is not None:
        cos, sin = rope[0][past:past + T], rope[1][past:past + T]
        rot = lambda t: np.stack([t[..., 0::2] * cos - t[..., 1::2] * sin, t[..., 0::2] * sin + t[..., 1::2] * cos], -1).reshape(t.shape)
        q, k = rot(q), rot(k)
    if cache is not None:
        k = np.concatenate((cache[0], k), axis=2)
        v = np.concatenate((cache[1], v), axis=2)
    K, V = repeat_kv(k, n_heads // hk), repeat_kv(v, n_heads // hk)
    s = q @ K.swapaxes(-1, -2) / np.sqrt(d)
    allowed = np.tril(np.ones((T, past + T), dtype=bool), k=past)
    w = softmax(np.where(allowed, s, -np.inf))
    return (w @ V).swapaxes(1, 2).reshape(B, T, d_model) @ W_o, (k, v)
