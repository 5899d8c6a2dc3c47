# Causal self-attention with NumPy: the lesson's four functions.
# The bodies are `...`: such a function returns None, and the check says "not implemented".
import numpy as np


def causal_mask(T):
    """The mask of where to look: a boolean array of shape (T, T).

    mask[i, j] is true exactly when j <= i: token i sees itself and everything before it,
    and everything above the main diagonal (the future) is False. For example, T = 3:
        [[ True, False, False],
         [ True,  True, False],
         [ True,  True,  True]]
    """
    # TODO: the lower triangle of ones (np.tril, np.ones) with dtype=bool
    ...


def softmax(x):
    """Softmax over the last axis, numerically stable; the output has the shape of x.

    In each row (along the last axis) the values are non-negative and sum to 1.
    -np.inf in the input becomes a weight of exactly 0; inputs around ±1000 give no inf or nan.
    """
    # TODO: subtract the row's maximum (x.max(axis=-1, keepdims=True)), take np.exp,
    #       divide by the sum over the same axis (keepdims=True too)
    ...


def attention(Q, K, V, mask=None):
    """Scaled dot-product attention.

    Q: (..., T_q, d_k), K: (..., T_k, d_k), V: (..., T_k, d_v); "..." is zero or more leading axes (a batch).
    mask: None or a boolean array (T_q, T_k); where it is False, no looking.
    Returns a tuple (out, weights):
        weights = softmax(Q Kᵀ / sqrt(d_k)) with the mask applied, shape (..., T_q, T_k);
        out = weights @ V, shape (..., T_q, d_v).
    Kᵀ swaps only the last two axes of K.
    """
    # TODO: the scores Q @ (K with its last two axes swapped) / np.sqrt(d_k)
    # TODO: when a mask is given, replace the closed scores with -np.inf (np.where)
    # TODO: the weights are the softmax of the scores, the output weights @ V; return (out, weights)
    ...


def causal_self_attention(X, W_q, W_k, W_v):
    """Causal self-attention: queries, keys and values all come from the same X.

    X: (T, d_model) or (B, T, d_model); W_q, W_k: (d_model, d_k); W_v: (d_model, d_v).
    Returns (out, weights) as attention() does: out is (..., T, d_v), weights (..., T, T).
    """
    # TODO: Q, K, V are X times W_q, W_k, W_v; T is X's second-to-last axis;
    #       attention(Q, K, V, causal_mask(T))
    ...


# The lesson's example: press "Run" once the functions are written.
Q = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
K = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
V = np.array([[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]])
print(causal_mask(3))
res = attention(Q, K, V, causal_mask(3))
if res is not None:
    out, weights = res
    print(np.round(weights, 3))  # expected [[1 0 0] [0.196 0.804 0] [0.248 0.248 0.503]]
    print(np.round(out, 3))      # expected [[10 0] [1.956 8.044] [5 5]]
