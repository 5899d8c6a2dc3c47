# enum for the Python track: Enum, IntEnum, StrEnum, Flag, IntFlag, auto and unique. MicroPython has no
# metaclasses, so a class's members are made when the class is finished: the track marks each
# `class X(Enum)` statement (grader/tracks/python/source.mjs) and the runtime calls _finish(X) on it.
# Members have .name and .value, compare by identity, X(value) and X.NAME find them, X.__members__
# lists them; iterating over the class itself (`for c in X`) or subscripting it (`X['A']`) needs a
# metaclass: write `for c in X.__members__.values()` and `X.__members__['A']`.

from _mp_collections import OrderedDict

_auto_next = [0]


class auto:
    def __init__(self):
        _auto_next[0] += 1
        self.order = _auto_next[0]


def _is_member_value(k, v):
    if k.startswith('_') or callable(v) and not isinstance(v, auto):
        return False
    if isinstance(v, (staticmethod, classmethod, property)):
        return False
    return True


class Enum:
    _member_map_ = None

    def __new__(cls, value):
        members = cls.__dict__.get('_value2member_')
        if members is None:
            raise TypeError(cls.__name__ + ' is not finished: its members were not made')
        for m in members:
            if m._value_ == value:
                return m
        if isinstance(value, cls):
            return value
        raise ValueError('%r is not a valid %s' % (value, cls.__name__))

    def __init__(self, *args):
        pass

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_

    def __repr__(self):
        return '<%s.%s: %r>' % (type(self).__name__, self._name_, self._value_)

    def __str__(self):
        return type(self).__name__ + '.' + self._name_

    def __hash__(self):
        return hash(self._name_)

    def __reduce_ex__(self, proto):
        return type(self), (self._value_,)

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return count + 1


class IntEnum(Enum):
    def __int__(self):
        return self._value_

    def __index__(self):
        return self._value_

    def __eq__(self, other):
        return self._value_ == (other._value_ if isinstance(other, Enum) else other)

    def __lt__(self, other):
        return self._value_ < int(other)

    def __gt__(self, other):
        return self._value_ > int(other)

    def __le__(self, other):
        return self._value_ <= int(other)

    def __ge__(self, other):
        return self._value_ >= int(other)

    def __add__(self, other):
        return self._value_ + other

    __radd__ = __add__

    def __sub__(self, other):
        return self._value_ - other

    def __mul__(self, other):
        return self._value_ * other

    __rmul__ = __mul__

    def __hash__(self):
        return hash(self._value_)

    def __str__(self):
        return str(self._value_)


class StrEnum(Enum):
    def __str__(self):
        return self._value_

    def __eq__(self, other):
        return self._value_ == (other._value_ if isinstance(other, Enum) else other)

    def __hash__(self):
        return hash(self._value_)

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return name.lower()


class Flag(Enum):
    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return 1 << count

    def __or__(self, other):
        return self._value_ | (other._value_ if isinstance(other, Enum) else other)

    def __and__(self, other):
        return self._value_ & (other._value_ if isinstance(other, Enum) else other)

    def __contains__(self, other):
        v = other._value_ if isinstance(other, Enum) else other
        return self._value_ & v == v


class IntFlag(Flag):
    def __int__(self):
        return self._value_

    def __eq__(self, other):
        return self._value_ == (other._value_ if isinstance(other, Enum) else other)

    def __hash__(self):
        return hash(self._value_)


def _finish(cls, order=None):
    """Turns a class's plain attributes into its members (called once the class statement ran), in the
    order of the class body (`order`, read from the source: MicroPython's class dict keeps none)."""
    if '_value2member_' in cls.__dict__:
        return cls
    items = [(k, v) for k, v in cls.__dict__.items() if _is_member_value(k, v)]
    rank = {k: i for i, k in enumerate(order or ())}
    items = [kv for _, kv in sorted(enumerate(items), key=lambda p: (rank.get(p[1][0], len(rank)),
                                                                       p[1][1].order if isinstance(p[1][1], auto) else 0, p[0]))]
    members = []
    by_name = OrderedDict()
    values = []
    for k, v in items:
        if isinstance(v, auto):
            v = cls._generate_next_value_(k, 1, len(values), values)
        alias = None
        for m in members:
            if m._value_ == v:
                alias = m
        if alias is not None:
            by_name[k] = alias
            setattr(cls, k, alias)
            continue
        m = object.__new__(cls)
        m._name_ = k
        m._value_ = v
        members.append(m)
        values.append(v)
        by_name[k] = m
        setattr(cls, k, m)
    cls._value2member_ = members
    cls.__members__ = by_name
    return cls


def unique(cls):
    _finish(cls)
    seen = {}
    for k, m in cls.__members__.items():
        if m._name_ != k:
            raise ValueError('duplicate values found in %r: %s -> %s' % (cls, k, m._name_))
    return cls
