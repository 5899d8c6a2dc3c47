# collections for the Python track: MicroPython's own deque, OrderedDict and namedtuple, with
# defaultdict, Counter and ChainMap written here. MicroPython's plain dict does not keep insertion
# order (CPython's does), so defaultdict and Counter are built on its OrderedDict, which does.
from _mp_collections import OrderedDict, deque
from _mp_collections import namedtuple as _namedtuple


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    """MicroPython's namedtuple with CPython's _fields, _asdict, _replace and _make."""
    if isinstance(field_names, str):
        field_names = field_names.replace(',', ' ').split()
    fields = tuple(field_names)
    if defaults:
        raise TypeError('namedtuple(defaults=...) is not supported by this runtime; give every field when you make one')

    class Named(_namedtuple(typename, fields)):
        _fields = fields

        def _asdict(self):
            return OrderedDict(zip(fields, self))

        def _replace(self, **kwargs):
            return type(self)(*[kwargs.pop(f, v) for f, v in zip(fields, self)])

        @classmethod
        def _make(cls, iterable):
            return cls(*iterable)

        def __repr__(self):
            return typename + '(' + ', '.join(f + '=' + repr(v) for f, v in zip(fields, self)) + ')'
    return Named


class defaultdict(OrderedDict):
    def __init__(self, default_factory=None, *args, **kwargs):
        if default_factory is not None and not callable(default_factory):
            raise TypeError('first argument must be callable or None')
        super().__init__(*args, **kwargs)
        self.default_factory = default_factory

    def __getitem__(self, key):
        try:
            return super().__getitem__(key)
        except KeyError:
            return self.__missing__(key)

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        v = self.default_factory()
        self[key] = v
        return v

    def __repr__(self):
        return 'defaultdict(' + repr(self.default_factory) + ', {' + ', '.join(
            repr(k) + ': ' + repr(v) for k, v in self.items()) + '})'


class Counter(OrderedDict):
    def __init__(self, iterable=None, **kwds):
        super().__init__()
        self.update(iterable, **kwds)

    def __getitem__(self, key):
        try:
            return super().__getitem__(key)
        except KeyError:
            return 0

    def update(self, iterable=None, **kwds):
        if iterable is not None:
            if isinstance(iterable, dict):
                for k, v in iterable.items():
                    self[k] = self[k] + v
            else:
                for k in iterable:
                    self[k] = self[k] + 1
        for k, v in kwds.items():
            self[k] = self[k] + v

    def subtract(self, iterable=None, **kwds):
        if iterable is not None:
            if isinstance(iterable, dict):
                for k, v in iterable.items():
                    self[k] = self[k] - v
            else:
                for k in iterable:
                    self[k] = self[k] - 1
        for k, v in kwds.items():
            self[k] = self[k] - v

    def most_common(self, n=None):
        # ties in insertion order, as CPython's stable sort gives them (MicroPython's sort is not stable)
        ranked = sorted(enumerate(self.items()), key=lambda p: (-p[1][1], p[0]))
        items = [kv for _, kv in ranked]
        return items if n is None else items[:n]

    def elements(self):
        for k, v in self.items():
            for _ in range(v):
                yield k

    def total(self):
        return sum(self.values())

    def __add__(self, other):
        out = Counter()
        for k in list(self.keys()) + [k for k in other.keys() if k not in self]:
            v = self[k] + other[k]
            if v > 0:
                out[k] = v
        return out

    def __sub__(self, other):
        out = Counter()
        for k in self.keys():
            v = self[k] - other[k]
            if v > 0:
                out[k] = v
        return out

    def __repr__(self):
        if not self:
            return 'Counter()'
        return 'Counter({' + ', '.join(repr(k) + ': ' + repr(v) for k, v in self.most_common()) + '})'


class ChainMap:
    def __init__(self, *maps):
        self.maps = list(maps) or [{}]

    def __getitem__(self, key):
        for m in self.maps:
            if key in m:
                return m[key]
        raise KeyError(key)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def __contains__(self, key):
        return any(key in m for m in self.maps)

    def __setitem__(self, key, value):
        self.maps[0][key] = value

    def __len__(self):
        return len(set().union(*self.maps))

    def __iter__(self):
        seen = []
        for m in reversed(self.maps):
            for k in m:
                if k not in seen:
                    seen.append(k)
        return iter(seen)

    def keys(self):
        return list(self)

    def items(self):
        return [(k, self[k]) for k in self]

    def values(self):
        return [self[k] for k in self]

    def new_child(self, m=None):
        return ChainMap({} if m is None else m, *self.maps)

    @property
    def parents(self):
        return ChainMap(*self.maps[1:])
