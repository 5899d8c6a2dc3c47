# abc for the Python track: ABC, ABCMeta and abstractmethod. MicroPython has no metaclasses and no
# function attributes, so abstract methods are remembered by identity here, and ABC.__new__ refuses a
# class that still has one, with CPython 3.11's message. `class C(metaclass=ABCMeta)` reaches this
# module as `class C(ABC)` (the track rewrites the class statement: grader/tracks/python/source.mjs).

_abstract = []


def abstractmethod(f):
    _abstract.append(f)
    return f


def _is_abstract(v):
    if isinstance(v, (staticmethod, classmethod)):
        return False
    for f in _abstract:
        if f is v:
            return True
    return False


def _chain(cls):
    """cls and its bases, most derived first, each once (MicroPython has no __mro__)."""
    out = []
    stack = [cls]
    while stack:
        c = stack.pop(0)
        if c in out or c is object:
            continue
        out.append(c)
        stack.extend(c.__bases__)
    return out


def _abstract_names(cls):
    seen = set()
    names = []
    for c in _chain(cls):
        for k, v in c.__dict__.items():
            if k in seen:
                continue
            seen.add(k)
            if _is_abstract(v):
                names.append(k)
    return sorted(names)


class ABC:
    __slots__ = ()

    def __new__(cls, *args, **kwargs):
        names = _abstract_names(cls)
        if names:
            raise TypeError("Can't instantiate abstract class " + cls.__name__ + ' with abstract method' +
                            ('s ' if len(names) > 1 else ' ') + ', '.join(names))
        return object.__new__(cls)


class ABCMeta:
    """Named in `metaclass=ABCMeta`, which the track turns into the base ABC."""
    _attnlab_base = ABC

    @staticmethod
    def register(subclass):
        return subclass


def get_cache_token():
    return 0
