# exercise: sdpa
# picoGPT's attention line as written for one sequence: k.T. Right for (T, d), wrong on a batch
# (.T reverses all three axes) - a real mistake, the verdict must be the same in CPython.
import numpy as np


def softmax(x):
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)


def causal_mask(T):
    return (1 - np.tri(T)) == 0


def attention(q, k, v, mask=None):
    scores = q @ k.T / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + (1 - mask) * -1e10
    w = softmax(scores)
    return w @ v, w


def causal_self_attention(x, w_q, w_k, w_v):
    return attention(x @ w_q, x @ w_k, x @ w_v, causal_mask(x.shape[-2]))
