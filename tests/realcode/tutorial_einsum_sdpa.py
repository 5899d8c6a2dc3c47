# exercise: sdpa
# A tutorial's einsum version with an ellipsis for any batch, and np.broadcast_to for the mask.
import numpy as np


def causal_mask(T):
    return np.tril(np.ones((T, T))).astype(np.bool_)


def softmax(x):
    m = np.max(x, axis=-1, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=-1, keepdims=True)


def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = np.einsum('...qd,...kd->...qk', Q, K) / np.sqrt(d_k)
    if mask is not None:
        scores = np.where(np.broadcast_to(mask, scores.shape), scores, -np.infty)
    w = softmax(scores)
    return np.einsum('...qk,...kd->...qd', w, V), w


def causal_self_attention(X, W_q, W_k, W_v):
    Q = np.einsum('...td,de->...te', X, W_q)
    K = np.einsum('...td,de->...te', X, W_k)
    V = np.einsum('...td,de->...te', X, W_v)
    return attention(Q, K, V, causal_mask(X.shape[-2]))
