# exercise: mha
# A GPT port organised as modules: an abstract Module declared with metaclass=ABCMeta, a frozen config
# dataclass, a logger, and heads split with PEP 448 unpacking (`x.reshape((*lead, T, n_heads, d_head))`).
# Correct.
import logging
from abc import ABCMeta, abstractmethod
from dataclasses import dataclass

import numpy as np

logger = logging.getLogger("gpt.attn")


@dataclass(frozen=True)
class AttnConfig:
    n_heads: int
    causal: bool = True


class Module(metaclass=ABCMeta):
    @abstractmethod
    def forward(self, *args):
        ...

    def __call__(self, *args):
        return self.forward(*args)


class Softmax(Module):
    def forward(self, x):
        z = x - x.max(axis=-1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=-1, keepdims=True)


def split_heads(x, n_heads):
    *lead, T, d_model = x.shape
    if d_model % n_heads:
        raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
    d_head = d_model // n_heads
    x = x.reshape((*lead, T, n_heads, d_head))
    return np.swapaxes(x, -2, -3)


def merge_heads(x):
    *lead, n_heads, T, d_head = x.shape
    x = np.swapaxes(x, -2, -3)
    return x.reshape((*lead, T, n_heads * d_head))


class MultiHeadAttention(Module):
    def __init__(self, config):
        self.config = config
        self.softmax = Softmax()

    def forward(self, X, W_q, W_k, W_v, W_o):
        n = self.config.n_heads
        q, k, v = (split_heads(X @ W, n) for W in (W_q, W_k, W_v))
        scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
        if self.config.causal:
            T = X.shape[-2]
            scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
        weights = self.softmax(scores)
        logger.debug("weights %s", weights.shape)
        return merge_heads(weights @ v) @ W_o, weights


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, causal=True):
    return MultiHeadAttention(AttnConfig(n_heads, causal))(X, W_q, W_k, W_v, W_o)
