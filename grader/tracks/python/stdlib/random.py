# random for the Python track: MicroPython's generator (seed, getrandbits, random, randint, randrange,
# uniform, choice) and, written over it, shuffle, sample, choices, gauss and normalvariate. The
# sequence is not CPython's Mersenne Twister: the same seed gives the same numbers here, not the same
# numbers as CPython.
import math
from _mp_random import seed as _seed, getrandbits, random, randint, randrange, uniform, choice


def seed(a=None, version=2):
    if a is None:
        _seed(0)
    elif isinstance(a, int):
        _seed(a & 0xffffffff)
    else:
        _seed(hash(a) & 0xffffffff)


def shuffle(x):
    for i in range(len(x) - 1, 0, -1):
        j = randrange(i + 1)
        x[i], x[j] = x[j], x[i]


def sample(population, k):
    pool = list(population)
    if not 0 <= k <= len(pool):
        raise ValueError('Sample larger than population or is negative')
    out = []
    for _ in range(k):
        out.append(pool.pop(randrange(len(pool))))
    return out


def choices(population, weights=None, cum_weights=None, k=1):
    n = len(population)
    if cum_weights is None:
        if weights is None:
            return [population[randrange(n)] for _ in range(k)]
        cum_weights = []
        t = 0
        for w in weights:
            t += w
            cum_weights.append(t)
    total = cum_weights[-1]
    out = []
    for _ in range(k):
        r = random() * total
        lo, hi = 0, n - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if r < cum_weights[mid]:
                hi = mid
            else:
                lo = mid + 1
        out.append(population[lo])
    return out


def gauss(mu=0.0, sigma=1.0):
    u1 = 1.0 - random()
    u2 = random()
    return mu + sigma * math.sqrt(-2.0 * math.log(u1)) * math.cos(2 * math.pi * u2)


normalvariate = gauss


def expovariate(lambd=1.0):
    return -math.log(1.0 - random()) / lambd


class Random:
    def __init__(self, x=None):
        seed(x)

    seed = staticmethod(seed)
    random = staticmethod(random)
    randint = staticmethod(randint)
    randrange = staticmethod(randrange)
    uniform = staticmethod(uniform)
    choice = staticmethod(choice)
    shuffle = staticmethod(shuffle)
    sample = staticmethod(sample)
    choices = staticmethod(choices)
    gauss = staticmethod(gauss)
    getrandbits = staticmethod(getrandbits)
