"""NumPy versions of kv_cache's reference functions: the outside oracle for reference/bind.cpp.

Written from the definitions (the cache grows along the time axis, RoPE at positions T_past …, query
head h uses KV head h // n_rep, query i sees keys 0 … T_past + i), not from the C++; run by
tests/js/oracle.test.mjs with Debian's NumPy on the cases of oracle.json. Each function takes what
the student's does, plus the trailing options object of the reference (the mistakes the exercise
diagnoses), so those are checked too.
"""
import numpy as np


def kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch, dtype_bytes=2, options=None):
    o = options or {}
    dtype_bytes = 2 if dtype_bytes is None else dtype_bytes
    factors = {"kv": 2, "layers": n_layers, "batch": batch, "dtype": dtype_bytes}
    total = n_kv_heads * d_head * seq_len
    for name, f in factors.items():
        if o.get(name, True):
            total *= f
    return float(total)


def repeat_kv(x, n_rep, options=None):
    o = options or {}
    if o.get("tile", False):
        return np.concatenate([x] * n_rep, axis=-3)
    return np.repeat(x, n_rep, axis=-3)


def _rope(x, cos, sin, start):
    T = x.shape[-2]
    c, s = cos[start:start + T], sin[start:start + T]
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = even * c - odd * s
    out[..., 1::2] = even * s + odd * c
    return out


def _heads(y, n):
    B, T, cols = y.shape
    return y.reshape(B, T, n, cols // n).transpose(0, 2, 1, 3)


def _softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attend_with_cache(x, W_q, W_k, W_v, W_o, n_heads, cache=None, rope=None, options=None):
    o = options or {}
    B, T, d_model = x.shape
    d_head = d_model // n_heads
    n_kv = W_k.shape[1] // d_head
    n_rep = n_heads // n_kv
    rep = lambda a: repeat_kv(a, n_rep, {"tile": o.get("tile", False)})
    before = o.get("repeat_before_cache", False)

    q, k, v = _heads(x @ W_q, n_heads), _heads(x @ W_k, n_kv), _heads(x @ W_v, n_kv)
    if before:
        k, v = rep(k), rep(v)
    past_k, past_v = cache if cache is not None else (k[:, :, :0], v[:, :, :0])
    T_past = past_k.shape[2]

    keys_mode = o.get("keys", "rotated")
    if rope is not None:
        cos, sin = rope
        start = T_past if o.get("rope_offset", True) else 0
        q = _rope(q, cos, sin, start)
        if keys_mode == "rotated":
            keys = cached = np.concatenate([past_k, _rope(k, cos, sin, start)], axis=2)
        elif keys_mode == "unrotated":
            keys = np.concatenate([past_k, _rope(k, cos, sin, start)], axis=2)
            cached = np.concatenate([past_k, k], axis=2)
        elif keys_mode == "unrotated_all":
            cached = np.concatenate([past_k, k], axis=2)
            keys = _rope(cached, cos, sin, 0)
        else:  # rotate_concat
            keys = cached = _rope(np.concatenate([past_k, k], axis=2), cos, sin, 0)
    else:
        keys = cached = np.concatenate([past_k, k], axis=2)
    values = np.concatenate([past_v, v], axis=2)

    K, V = (keys, values) if before else (rep(keys), rep(values))
    scores = q @ np.swapaxes(K, -1, -2) / np.sqrt(d_head)
    Tk = T_past + T
    i, j = np.arange(T)[:, None], np.arange(Tk)[None, :]
    mask = {
        "bottom_right": j <= T_past + i,
        "top_left": j <= i,
        "top_left_multi": j <= i if T > 1 else None,
        "prefill_only": j <= i if cache is None else None,
        "none": None,
    }[o.get("mask", "bottom_right")]
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    heads = _softmax(scores) @ V                                  # (B, H, T, d_head)
    out = heads.transpose(0, 2, 1, 3).reshape(B, T, d_model)
    if o.get("use_wo", True):
        out = out @ W_o
    if o.get("cache_update", "append") == "new_only":
        cached, values = cached[:, :, T_past:], values[:, :, T_past:]
    return out, [cached, values]
