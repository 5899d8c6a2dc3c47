# exercise: sdpa
# A config dataclass, postponed annotations and dtype casts through the config, as in small GPT ports.
from __future__ import annotations

from dataclasses import dataclass
import numpy as np


@dataclass
class AttnConfig:
    neg: float = -1e9
    dtype: type = np.float64


CFG = AttnConfig()


def causal_mask(T: int) -> np.ndarray:
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return j <= i


def softmax(x: np.ndarray) -> np.ndarray:
    x = x - x.max(-1, keepdims=True)
    p = np.exp(x)
    return p / p.sum(-1, keepdims=True)


def attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray, mask: np.ndarray | None = None):
    Q, K, V = (t.astype(CFG.dtype) for t in (Q, K, V))
    scores = Q @ K.swapaxes(-1, -2) / np.float64(np.sqrt(K.shape[-1]))
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    p = softmax(scores)
    return p @ V, p


def causal_self_attention(X, W_q, W_k, W_v):
    return attention(X @ W_q, X @ W_k, X @ W_v, causal_mask(X.shape[-2]))
