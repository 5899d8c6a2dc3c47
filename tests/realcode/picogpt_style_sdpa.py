# exercise: sdpa
# In the style of picoGPT's gpt2.py: an additive mask made with np.tri, softmax with np.max/np.sum,
# the scale computed as a NumPy scalar on the right of a number. Batches through swapaxes.
import numpy as np


def softmax(x):
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)


def causal_mask(T):
    return np.tri(T, dtype=bool)


def attention(Q, K, V, mask=None):
    scale = 1 / np.sqrt(Q.shape[-1])
    scores = scale * (Q @ np.swapaxes(K, -1, -2))
    if mask is not None:
        scores = scores + np.where(mask, 0.0, -np.inf)
    weights = softmax(scores)
    return weights @ V, weights


def causal_self_attention(X, W_q, W_k, W_v):
    q, k, v = X @ W_q, X @ W_k, X @ W_v
    return attention(q, k, v, causal_mask(X.shape[-2]))
