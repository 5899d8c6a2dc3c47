# copy for the Python track: copy and deepcopy over lists, tuples, dicts, sets, NumPy arrays (their
# own .copy()) and objects with __dict__ (or __copy__ / __deepcopy__).


class Error(Exception):
    pass


def copy(x):
    cls = type(x)
    if hasattr(x, '__copy__'):
        return x.__copy__()
    if cls in (list, dict, set, bytearray):
        return cls(x)
    if cls in (int, float, bool, str, bytes, tuple, frozenset, type(None), complex):
        return x
    if hasattr(x, 'copy') and cls.__name__ == 'ndarray':
        return x.copy()
    try:
        state = x.__dict__
    except AttributeError:
        return x
    y = object.__new__(cls)
    y.__dict__.update(state)
    return y


def deepcopy(x, memo=None):
    if memo is None:
        memo = {}
    i = id(x)
    if i in memo:
        return memo[i]
    cls = type(x)
    if cls in (int, float, bool, str, bytes, type(None), complex, frozenset) or callable(x) and not hasattr(x, '__dict__'):
        return x
    if hasattr(x, '__deepcopy__'):
        y = x.__deepcopy__(memo)
    elif cls is list:
        y = []
        memo[i] = y
        for v in x:
            y.append(deepcopy(v, memo))
    elif cls is tuple:
        y = tuple(deepcopy(v, memo) for v in x)
    elif cls is dict:
        y = {}
        memo[i] = y
        for k, v in x.items():
            y[deepcopy(k, memo)] = deepcopy(v, memo)
    elif cls is set:
        y = set(deepcopy(v, memo) for v in x)
    elif cls.__name__ == 'ndarray' and hasattr(x, 'copy'):
        y = x.copy()
    else:
        try:
            state = x.__dict__
        except AttributeError:
            return x
        y = object.__new__(cls)
        memo[i] = y
        for k, v in state.items():
            setattr(y, k, deepcopy(v, memo))
    memo[i] = y
    return y
