"""NumPy versions of sdpa's reference functions: the outside oracle for reference/bind.cpp.

Written from the definitions, not from the C++ (run by tests/js/oracle.test.mjs with Debian's NumPy,
on the cases of oracle.json). Each function takes and returns what the student's does.
"""
import numpy as np


def causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool))


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores)
    return weights @ V, weights


def causal_self_attention(X, W_q, W_k, W_v):
    return attention(X @ W_q, X @ W_k, X @ W_v, causal_mask(X.shape[-2]))
