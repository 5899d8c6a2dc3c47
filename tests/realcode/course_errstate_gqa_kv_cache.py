# exercise: kv_cache
# Homework for the KV cache with GQA, written with a dataclass for the head layout, PEP 448 unpacking
# for the head shapes, np.repeat for the groups, and the masked softmax under np.errstate with rows of
# -inf guarded by np.isneginf. Correct.
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Heads:
    n_heads: int
    n_kv_heads: int
    d_head: int

    @property
    def n_rep(self):
        return self.n_heads // self.n_kv_heads


def kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch, dtype_bytes=2):
    return 2 * n_layers * batch * n_kv_heads * seq_len * d_head * dtype_bytes


def repeat_kv(x, n_rep):
    return x if n_rep == 1 else np.repeat(x, n_rep, axis=1)


def heads(x, n):
    *lead, T, d = x.shape
    return np.swapaxes(x.reshape((*lead, T, n, d // n)), -2, -3)


def rotate(x, cos, sin, offset):
    T = x.shape[-2]
    c, s = cos[offset:offset + T], sin[offset:offset + T]
    a, b = x[..., 0::2], x[..., 1::2]
    return np.stack([a * c - b * s, a * s + b * c], axis=-1).reshape(x.shape)


def softmax_masked(scores):
    with np.errstate(invalid="ignore", over="ignore"):
        m = scores.max(axis=-1, keepdims=True)
        m = np.where(np.isneginf(m), 0.0, m)
        e = np.exp(scores - m)
        return e / e.sum(axis=-1, keepdims=True)


def attend_with_cache(x, W_q, W_k, W_v, W_o, n_heads, cache=None, rope=None):
    B, T, d_model = x.shape
    h = Heads(n_heads, W_k.shape[1] // (d_model // n_heads), d_model // n_heads)
    q, k, v = heads(x @ W_q, h.n_heads), heads(x @ W_k, h.n_kv_heads), heads(x @ W_v, h.n_kv_heads)
    past = 0 if cache is None else cache[0].shape[2]
    if rope is not None:
        q, k = rotate(q, *rope, past), rotate(k, *rope, past)
    if cache is not None:
        k = np.concatenate([cache[0], k], axis=2)
        v = np.concatenate([cache[1], v], axis=2)
    scores = q @ np.swapaxes(repeat_kv(k, h.n_rep), -1, -2) / np.sqrt(h.d_head)
    visible = np.arange(past + T)[None, :] <= (past + np.arange(T))[:, None]
    w = softmax_masked(np.where(visible, scores, -np.inf))
    out = np.swapaxes(w @ repeat_kv(v, h.n_rep), 1, 2).reshape((B, T, d_model))
    return out @ W_o, (k, v)
