# exercise: sdpa
# A nanoGPT-style file with its helpers from itertools and collections, a warnings filter and a
# sys.version check; it transposes K with `.T`, right for one sequence and wrong on a batch
# (a real mistake: .T reverses every axis).
import itertools
import sys
import warnings
from collections import namedtuple

import numpy as np

assert sys.version_info >= (3, 8)
warnings.filterwarnings("ignore", category=RuntimeWarning)
Shapes = namedtuple("Shapes", ["T", "d"])


def causal_mask(T):
    mask = np.zeros((T, T), dtype=bool)
    for i, j in itertools.product(range(T), repeat=2):
        if j <= i:
            mask[i, j] = True
    return mask


def softmax(x):
    x = x - np.max(x, axis=-1, keepdims=True)
    return np.exp(x) / np.sum(np.exp(x), axis=-1, keepdims=True)


def attention(Q, K, V, mask=None):
    s = Shapes(*K.shape[-2:])
    scores = Q @ K.T / np.sqrt(s.d)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores)
    return weights @ V, weights


def causal_self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    return attention(Q, K, V, causal_mask(X.shape[-2]))
