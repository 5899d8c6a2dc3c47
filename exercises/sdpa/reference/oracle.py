"""NumPy versions of sdpa's reference functions: the outside oracle for reference/bind.cpp.

Written from the definitions, not from the C++ (run by tests/js/oracle.test.mjs with Debian's NumPy,
on the cases of oracle.json). Each function takes what the student's does, plus the trailing options
object of the reference (the mistakes the exercise diagnoses, written as a student would make them),
so those are checked too.
"""
import numpy as np


def causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool))


def softmax(x, options=None):
    o = options or {}
    kind, axis = o.get("softmax", "stable"), o.get("axis", -1)
    if kind == "stable":
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)
    if kind == "global_max":
        e = np.exp(x - x.max())
        return e / e.sum(axis=-1, keepdims=True)
    if kind == "no_max":
        e = np.exp(x)
        return e / e.sum(axis=-1, keepdims=True)
    if kind == "min_shift":
        e = np.exp(x - x.min(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)
    if kind == "no_norm":
        return np.exp(x - x.max(axis=-1, keepdims=True))
    if kind == "all":
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum()
    if kind == "keepdims":
        e = np.exp(x - x.max(axis=-1))
        return e / e.sum(axis=-1)
    raise ValueError(kind)


def _scale(o, Q, K, V, d_model):
    s = o.get("scale", "d_k")
    if not isinstance(s, str):
        return s
    d_k = Q.shape[-1]
    sizes = {"d_k": d_k, "d_v": V.shape[-1], "T_k": K.shape[-2], "T_q": Q.shape[-2], "d_model": d_model}
    if s in sizes:
        return 1 / np.sqrt(sizes[s])
    return {"none": 1.0, "d_k_linear": 1 / d_k, "times_sqrt_d_k": np.sqrt(d_k), "after_softmax": 1.0}[s]


def attention(Q, K, V, mask=None, options=None, d_model=None):
    o = options or {}
    mode, fill = o.get("mask", "where"), o.get("masked_score", -np.inf)
    if o.get("transpose_scores"):
        Q, K = K, Q
    raw = Q @ np.swapaxes(K, -1, -2) * _scale(o, Q, K, V, d_model)
    if mode == "hardcoded":
        mask = causal_mask(Q.shape[-2])
    scores = raw
    if mask is not None and mode in ("where", "hardcoded"):
        scores = np.where(mask, raw, fill)
    if mask is not None and mode == "inverted":
        scores = np.where(~mask, raw, fill)
    if mask is not None and mode == "added":
        scores = raw + mask
    weights = softmax(scores, o)
    if mask is not None and mode == "after_softmax":
        weights = np.where(mask, weights, 0.0)
    if mask is not None and mode == "after_softmax_inf":
        weights = np.where(mask, weights, -np.inf)
    if o.get("scale") == "after_softmax":
        weights = weights / np.sqrt(Q.shape[-1])
    if o.get("round_digits") is not None:
        weights = np.round(weights, o["round_digits"])
    source = {"weights": weights, "scores": raw, "masked_scores": raw if mask is None else np.where(mask, raw, -np.inf)}
    out = V @ weights if o.get("v_order") else source[o.get("out_from", "weights")] @ V
    return (weights, out) if o.get("swap_return") else (out, weights)


def causal_self_attention(X, W_q, W_k, W_v, options=None):
    o = options or {}
    T = X.shape[-2]
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    mask = {"causal": j <= i, "too_wide": j <= i + 1, "strict": j < i, "upper": j >= i}[o.get("own_mask", "causal")]
    W = {"W_q": W_q, "W_k": W_k, "W_v": W_v}
    q, k, v = (X @ W[name] for name in o.get("projection", ["W_q", "W_k", "W_v"]))
    return attention(q, k, v, mask, o, d_model=X.shape[-1])
