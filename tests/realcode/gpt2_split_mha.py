# exercise: mha
# picoGPT's mha: np.split into heads, attention per head in a list, np.hstack to merge. Correct for
# (T, d_model); on a batch np.hstack joins along axis 1 (T), not the features - a real mistake.
import numpy as np


def softmax(x):
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)


def causal_mask(T):
    return np.tri(T, dtype=bool)


def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=-3)


def merge_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)


def attention(q, k, v, mask):
    return softmax(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]) + mask) @ v


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, causal=True):
    T = X.shape[-2]
    q_heads = np.split(X @ W_q, n_heads, axis=-1)
    k_heads = np.split(X @ W_k, n_heads, axis=-1)
    v_heads = np.split(X @ W_v, n_heads, axis=-1)
    mask = (1 - np.tri(T)) * -1e10 if causal else np.zeros((T, T))
    out_heads = [attention(q, k, v, mask) for q, k, v in zip(q_heads, k_heads, v_heads)]
    weights = np.stack([softmax(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]) + mask) for q, k in zip(q_heads, k_heads)], axis=-3)
    return np.hstack(out_heads) @ W_o, weights
