# Reference student solution for the sdpa exercise on the Python track, written as the lesson writes
# NumPy. Works for (T, d) and batched (..., T, d) inputs; the mask is optional.
import numpy as np


def causal_mask(T):
    # j <= i is the lower triangle, diagonal included
    return np.tril(np.ones((T, T), dtype=bool))


def softmax(x):
    # Subtracting the row maximum keeps exp() finite for large scores and leaves the result unchanged;
    # -inf entries become exp(-inf) = 0.
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attention(Q, K, V, mask=None):
    d_k = K.shape[-1]
    # swapaxes, not K.T: on a batch (B, T, d) K.T would be (d, T, B)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores)
    return weights @ V, weights


def causal_self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    T = X.shape[-2]
    return attention(Q, K, V, causal_mask(T))


# The lesson's example (the same lines as in the starter).
Q = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
K = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
V = np.array([[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]])
print(causal_mask(3))
out, weights = attention(Q, K, V, causal_mask(3))
print(np.round(weights, 3))  # [[1 0 0] [0.196 0.804 0] [0.248 0.248 0.503]]
print(np.round(out, 3))      # [[10 0] [1.956 8.044] [5 5]]
