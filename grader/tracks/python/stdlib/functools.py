# functools for the Python track (MicroPython has none): reduce, partial, wraps, update_wrapper,
# lru_cache, cache, cached_property, total_ordering, cmp_to_key, singledispatch.

_MISSING = object()


def reduce(function, iterable, initial=_MISSING):
    it = iter(iterable)
    if initial is _MISSING:
        try:
            value = next(it)
        except StopIteration:
            raise TypeError('reduce() of empty iterable with no initial value')
    else:
        value = initial
    for x in it:
        value = function(value, x)
    return value


class partial:
    def __init__(self, func, *args, **keywords):
        if not callable(func):
            raise TypeError('the first argument must be callable')
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, *args, **keywords):
        kw = dict(self.keywords)
        kw.update(keywords)
        return self.func(*(self.args + args), **kw)

    def __repr__(self):
        parts = [repr(self.func)] + [repr(a) for a in self.args] + [k + '=' + repr(v) for k, v in self.keywords.items()]
        return 'functools.partial(' + ', '.join(parts) + ')'


WRAPPER_ASSIGNMENTS = ('__module__', '__name__', '__qualname__', '__doc__')
WRAPPER_UPDATES = ('__dict__',)


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    # MicroPython's functions take no attributes: the wrapper is returned as it is.
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    def decorate(wrapper):
        return update_wrapper(wrapper, wrapped, assigned, updated)
    return decorate


class _Cached:
    def __init__(self, f, maxsize, typed):
        self.f = f
        self.maxsize = maxsize
        self.data = {}
        self.order = []
        self.hits = 0
        self.misses = 0

    def __call__(self, *args, **kwargs):
        key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        if key in self.data:
            self.hits += 1
            return self.data[key]
        self.misses += 1
        v = self.f(*args, **kwargs)
        if self.maxsize != 0:
            self.data[key] = v
            self.order.append(key)
            if self.maxsize is not None and len(self.order) > self.maxsize:
                del self.data[self.order.pop(0)]
        return v

    def cache_clear(self):
        self.data = {}
        self.order = []
        self.hits = self.misses = 0

    def cache_info(self):
        return CacheInfo(self.hits, self.misses, self.maxsize, len(self.data))


class CacheInfo(tuple):
    def __new__(cls, hits, misses, maxsize, currsize):
        return tuple.__new__(cls, (hits, misses, maxsize, currsize))

    def __repr__(self):
        return 'CacheInfo(hits=%r, misses=%r, maxsize=%r, currsize=%r)' % tuple(self)


def lru_cache(maxsize=128, typed=False):
    if callable(maxsize) and not isinstance(maxsize, int):
        return _Cached(maxsize, 128, False)
    return lambda f: _Cached(f, maxsize, typed)


def cache(f):
    return _Cached(f, None, False)


class cached_property:
    def __init__(self, func):
        self.func = func
        self.name = None

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        v = self.func(instance)
        setattr(instance, self.name, v)
        return v


def total_ordering(cls):
    d = cls.__dict__
    if '__lt__' in d:
        lt = d['__lt__']
        cls.__gt__ = lambda a, b: (not lt(a, b)) and a != b
        cls.__le__ = lambda a, b: lt(a, b) or a == b
        cls.__ge__ = lambda a, b: not lt(a, b)
    elif '__gt__' in d:
        gt = d['__gt__']
        cls.__lt__ = lambda a, b: (not gt(a, b)) and a != b
        cls.__ge__ = lambda a, b: gt(a, b) or a == b
        cls.__le__ = lambda a, b: not gt(a, b)
    elif '__le__' in d:
        le = d['__le__']
        cls.__lt__ = lambda a, b: le(a, b) and a != b
        cls.__gt__ = lambda a, b: not le(a, b)
        cls.__ge__ = lambda a, b: (not le(a, b)) or a == b
    elif '__ge__' in d:
        ge = d['__ge__']
        cls.__gt__ = lambda a, b: ge(a, b) and a != b
        cls.__lt__ = lambda a, b: not ge(a, b)
        cls.__le__ = lambda a, b: (not ge(a, b)) or a == b
    else:
        raise ValueError('must define at least one ordering operation: < > <= >=')
    return cls


def cmp_to_key(mycmp):
    class K:
        __slots__ = ('obj',)

        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return mycmp(self.obj, other.obj) < 0

        def __gt__(self, other):
            return mycmp(self.obj, other.obj) > 0

        def __eq__(self, other):
            return mycmp(self.obj, other.obj) == 0

        def __le__(self, other):
            return mycmp(self.obj, other.obj) <= 0

        def __ge__(self, other):
            return mycmp(self.obj, other.obj) >= 0
    return K


class singledispatch:
    def __init__(self, func):
        self.default = func
        self.registry = []

    def register(self, cls, func=None):
        if func is None:
            return lambda f: self.register(cls, f)
        self.registry.append((cls, func))
        return func

    def __call__(self, *args, **kwargs):
        if args:
            for cls, f in self.registry:
                if isinstance(args[0], cls):
                    return f(*args, **kwargs)
        return self.default(*args, **kwargs)
