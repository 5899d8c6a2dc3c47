# Reference student solution for the mha exercise on the Python track, written as the lesson writes
# NumPy. Works for (T, d_model) and batched (B, T, d_model) inputs (any number of leading axes).
import numpy as np


# From the first exercise (the starter gives both ready-made): softmax over the last axis, the causal mask.
def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool))


def split_heads(x, n_heads):
    d_model = x.shape[-1]
    if d_model % n_heads != 0:
        raise ValueError(f"split_heads: d_model = {d_model} is not divisible by n_heads = {n_heads}")
    d_head = d_model // n_heads
    # (..., T, d_model) -> (..., T, H, d_head): the last axis cut into H blocks of d_head columns
    blocks = x.reshape(x.shape[:-1] + (n_heads, d_head))
    # -> (..., H, T, d_head): the head becomes one more batch axis
    return blocks.swapaxes(-3, -2)


def merge_heads(x):
    H, T, d_head = x.shape[-3:]
    by_position = x.swapaxes(-3, -2)  # (..., T, H, d_head)
    return by_position.reshape(x.shape[:-3] + (T, H * d_head))


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, causal=True):
    T, d_model = X.shape[-2:]
    Q = split_heads(X @ W_q, n_heads)  # (..., H, T, d_head)
    K = split_heads(X @ W_k, n_heads)
    V = split_heads(X @ W_v, n_heads)
    d_head = d_model // n_heads
    scores = Q @ K.swapaxes(-1, -2) / np.sqrt(d_head)  # (..., H, T, T)
    if causal:
        scores = np.where(causal_mask(T), scores, -np.inf)  # (T, T) broadcasts over every head
    weights = softmax(scores)
    out = merge_heads(weights @ V) @ W_o  # (..., T, d_model)
    return out, weights


# The hand example: three one-hot tokens, two heads; head 0 is the first lesson's example.
X = np.array([[1.0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]])
W_q = np.array([[2.0, 0, 0, 0], [0, 2, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0]])
W_k = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1], [0, 0, 0, 0]])
W_v = np.array([[10.0, 0, 3, 0], [0, 10, 0, 3], [5, 5, 3, 3], [0, 0, 0, 0]])
W_o = np.array([[1.0, 0, 0, 0], [0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1]])
print(split_heads(X, 2).shape)  # (2, 3, 2)
out, weights = multi_head_attention(X, W_q, W_k, W_v, W_o, 2)
print(np.round(weights, 3))  # head 0: [[1 0 0] [0.196 0.804 0] [0.248 0.248 0.503]]; head 1: [[1 0 0] [0.5 0.5 0] [0.333 0.333 0.333]]
print(np.round(out, 3))      # [[13 0 3 0] [3.456 9.544 1.5 1.5] [7 7 2 2]]
