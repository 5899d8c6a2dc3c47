# exercise: rope
# A Llama port's rotary embeddings: the pairing chosen by an Enum, the tables memoised with
# functools.lru_cache, a Generic tensor alias subscripted at run time, a module logger. Correct
# (interleaved pairs, as the lesson pairs them).
import functools
import logging
from enum import Enum
from typing import Generic, Tuple, TypeVar

import numpy as np

log = logging.getLogger(__name__)
Shape = TypeVar("Shape")


class Array(Generic[Shape]):
    """Annotations only, as typed ports write them."""


Tables = Tuple[Array["T, D2"], Array["T, D2"]]
Cos = Array["T, D2"]


class Pairing(Enum):
    INTERLEAVED = "interleaved"
    HALVES = "halves"


PAIRING = Pairing.INTERLEAVED


@functools.lru_cache(maxsize=8)
def _angles(T, d_head, base):
    inv_freq = 1.0 / (base ** (np.arange(0, d_head, 2) / d_head))
    return np.outer(np.arange(T), inv_freq)


def rope_cache(T, d_head, base=10000):
    angles = _angles(T, d_head, base)
    log.debug("rope tables %s", angles.shape)
    return np.cos(angles), np.sin(angles)


def apply_rope(x, cos, sin, offset=0):
    T = x.shape[-2]
    cos, sin = cos[offset:offset + T], sin[offset:offset + T]
    if PAIRING is Pairing.INTERLEAVED:
        even, odd = x[..., 0::2], x[..., 1::2]
    else:
        even, odd = np.split(x, 2, axis=-1)
    out = np.stack([even * cos - odd * sin, even * sin + odd * cos], axis=-1)
    return out.reshape((*x.shape[:-1], x.shape[-1]))
