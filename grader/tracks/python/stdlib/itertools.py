# itertools for the Python track (MicroPython has none), as generators with CPython's semantics.


def count(start=0, step=1):
    n = start
    while True:
        yield n
        n += step


def cycle(iterable):
    saved = []
    for x in iterable:
        yield x
        saved.append(x)
    while saved:
        for x in saved:
            yield x


def repeat(obj, times=None):
    if times is None:
        while True:
            yield obj
    for _ in range(times):
        yield obj


def accumulate(iterable, func=None, initial=None):
    it = iter(iterable)
    total = initial
    if initial is None:
        try:
            total = next(it)
        except StopIteration:
            return
    yield total
    for x in it:
        total = func(total, x) if func is not None else total + x
        yield total


class chain:
    def __init__(self, *iterables):
        self._it = self._gen(iterables)

    @staticmethod
    def _gen(iterables):
        for it in iterables:
            for x in it:
                yield x

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)

    @classmethod
    def from_iterable(cls, iterables):
        c = cls()
        c._it = cls._gen(iterables)
        return c


def compress(data, selectors):
    for d, s in zip(data, selectors):
        if s:
            yield d


def dropwhile(predicate, iterable):
    it = iter(iterable)
    for x in it:
        if not predicate(x):
            yield x
            break
    for x in it:
        yield x


def takewhile(predicate, iterable):
    for x in iterable:
        if not predicate(x):
            return
        yield x


def filterfalse(predicate, iterable):
    for x in iterable:
        if not (bool(x) if predicate is None else predicate(x)):
            yield x


def groupby(iterable, key=None):
    it = iter(iterable)
    keyf = key if key is not None else (lambda v: v)
    sentinel = object()
    cur = sentinel
    group = []
    for x in it:
        k = keyf(x)
        if cur is sentinel or k != cur:
            if cur is not sentinel:
                yield cur, iter(group)
            cur = k
            group = [x]
        else:
            group.append(x)
    if cur is not sentinel:
        yield cur, iter(group)


def islice(iterable, *args):
    if len(args) == 1:
        start, stop, step = 0, args[0], 1
    elif 2 <= len(args) <= 3:
        start, stop, step = args[0] or 0, args[1], (args[2] if len(args) == 3 else 1) or 1
    else:
        raise TypeError('islice expected 2 to 4 arguments, got ' + str(len(args) + 1))
    if start < 0 or (stop is not None and stop < 0) or step <= 0:
        raise ValueError('Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.')
    nxt = start
    for i, x in enumerate(iterable):
        if stop is not None and i >= stop:
            return
        if i == nxt:
            yield x
            nxt += step


def starmap(function, iterable):
    for args in iterable:
        yield function(*args)


def tee(iterable, n=2):
    items = list(iterable)
    return tuple(iter(items) for _ in range(n))


def zip_longest(*iterables, fillvalue=None):
    its = [iter(it) for it in iterables]
    while its:
        row = []
        alive = 0
        for it in its:
            try:
                row.append(next(it))
                alive += 1
            except StopIteration:
                row.append(fillvalue)
        if not alive:
            return
        yield tuple(row)


def product(*iterables, repeat=1):
    pools = [tuple(p) for p in iterables] * repeat
    result = [()]
    for pool in pools:
        result = [x + (y,) for x in result for y in pool]
    for prod in result:
        yield prod


def permutations(iterable, r=None):
    pool = tuple(iterable)
    n = len(pool)
    r = n if r is None else r
    if r > n:
        return
    indices = list(range(n))
    cycles = list(range(n, n - r, -1))
    yield tuple(pool[i] for i in indices[:r])
    while n:
        for i in reversed(range(r)):
            cycles[i] -= 1
            if cycles[i] == 0:
                indices[i:] = indices[i + 1:] + indices[i:i + 1]
                cycles[i] = n - i
            else:
                j = cycles[i]
                indices[i], indices[-j] = indices[-j], indices[i]
                yield tuple(pool[i] for i in indices[:r])
                break
        else:
            return


def combinations(iterable, r):
    pool = tuple(iterable)
    n = len(pool)
    if r > n:
        return
    indices = list(range(r))
    yield tuple(pool[i] for i in indices)
    while True:
        for i in reversed(range(r)):
            if indices[i] != i + n - r:
                break
        else:
            return
        indices[i] += 1
        for j in range(i + 1, r):
            indices[j] = indices[j - 1] + 1
        yield tuple(pool[i] for i in indices)


def combinations_with_replacement(iterable, r):
    pool = tuple(iterable)
    n = len(pool)
    if not n and r:
        return
    indices = [0] * r
    yield tuple(pool[i] for i in indices)
    while True:
        for i in reversed(range(r)):
            if indices[i] != n - 1:
                break
        else:
            return
        indices[i:] = [indices[i] + 1] * (r - i)
        yield tuple(pool[i] for i in indices)


def pairwise(iterable):
    it = iter(iterable)
    try:
        a = next(it)
    except StopIteration:
        return
    for b in it:
        yield a, b
        a = b
