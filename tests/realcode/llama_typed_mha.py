# exercise: mha
# In the style of NumPy Llama ports: an Array type for annotations (a subclass of np.ndarray with
# Generic), heads split with reshape and transpose, the mask added as -inf above the diagonal.
from typing import Generic, TypeVar
import numpy as np

Shape = TypeVar("Shape")


class Array(np.ndarray, Generic[Shape]):
    ...


def softmax(x: Array) -> Array:
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)


def causal_mask(T: int) -> Array:
    return np.tril(np.ones((T, T), dtype=bool))


def split_heads(x: Array, n_heads: int) -> Array:
    *lead, T, d_model = x.shape
    assert d_model % n_heads == 0, f"d_model {d_model} is not divisible by n_heads {n_heads}"
    x = x.reshape(tuple(lead) + (T, n_heads, d_model // n_heads))
    axes = list(range(len(lead))) + [len(lead) + 1, len(lead), len(lead) + 2]
    return x.transpose(axes)


def merge_heads(x: Array) -> Array:
    *lead, H, T, d_head = x.shape
    axes = list(range(len(lead))) + [len(lead) + 1, len(lead), len(lead) + 2]
    return x.transpose(axes).reshape(tuple(lead) + (T, H * d_head))


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, causal=True):
    xq, xk, xv = split_heads(X @ W_q, n_heads), split_heads(X @ W_k, n_heads), split_heads(X @ W_v, n_heads)
    head_dim = xq.shape[-1]
    scores = np.matmul(xq, xk.swapaxes(-1, -2)) / np.sqrt(head_dim)
    if causal:
        T = X.shape[-2]
        mask = np.full((T, T), float("-inf"))
        mask = np.triu(mask, k=1)
        scores = scores + mask
    weights = softmax(scores)
    return merge_heads(weights @ xv) @ W_o, weights
