"""NumPy versions of mha's reference functions: the outside oracle for reference/bind.cpp.

Written from the definitions, not from the C++ (run by tests/js/oracle.test.mjs with Debian's NumPy,
on the cases of oracle.json). Each function takes what the student's does, plus the trailing options
object of the reference (the mistakes the exercise diagnoses), so those are checked too.
"""
import numpy as np


def _d_head(d_model, n_heads):
    assert n_heads >= 1 and d_model % n_heads == 0, f"d_model = {d_model} is not divisible by n_heads = {n_heads}"
    return d_model // n_heads


def split_heads(x, n_heads, options=None):
    o = options or {}
    *lead, T, d_model = x.shape
    d_head = _d_head(d_model, n_heads)
    if o.get("transpose", True) is False:
        return x.reshape(*lead, n_heads, T, d_head)
    if o.get("strided", False):
        # head h takes columns h, h + n_heads, …: column c·n_heads + h is its c-th
        return np.stack([x[..., h::n_heads] for h in range(n_heads)], axis=-3)
    heads = np.stack([x[..., h * d_head:(h + 1) * d_head] for h in range(n_heads)], axis=-3)
    if o.get("heads_first", True) is False:
        return np.moveaxis(heads, -3, -2)
    return heads


def merge_heads(x, options=None):
    o = options or {}
    *lead, H, T, d_head = x.shape
    if o.get("transpose", True) is False:
        return x.reshape(*lead, T, H * d_head)
    return np.concatenate([x[..., h, :, :] for h in range(H)], axis=-1)


def _softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, causal=True, options=None):
    o = options or {}
    causal = True if causal is None else causal
    T, d_model = X.shape[-2:]
    d_head = _d_head(d_model, n_heads)
    split = {"transpose": o.get("split_transpose", True), "strided": o.get("split_strided", False)}
    q, k, v = (split_heads(X @ W, n_heads, split) for W in (W_q, W_k, W_v))
    scale = {"d_head": 1 / np.sqrt(d_head), "d_model": 1 / np.sqrt(d_model), "none": 1.0}[o.get("scale", "d_head")]
    scores = q @ np.swapaxes(k, -1, -2) * scale
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    weights = _softmax(scores)
    out = merge_heads(weights @ v, {"transpose": o.get("merge_transpose", True)})
    if o.get("use_wo", True):
        out = out @ W_o
    return out, weights
