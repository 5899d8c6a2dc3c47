# warnings for the Python track: warn() prints "<file>:<line>: Category: message" once per message
# as CPython's default filter does; filterwarnings/simplefilter("ignore") silence it, "error" raises.


try:
    Warning
except NameError:
    class Warning(Exception):
        pass
try:
    UserWarning
except NameError:
    class UserWarning(Warning):
        pass
try:
    DeprecationWarning
except NameError:
    class DeprecationWarning(Warning):
        pass
try:
    RuntimeWarning
except NameError:
    class RuntimeWarning(Warning):
        pass
try:
    FutureWarning
except NameError:
    class FutureWarning(Warning):
        pass


_filters = []
_seen = []


def simplefilter(action, category=Warning, lineno=0, append=False):
    _filters.insert(0, (action, category))


def filterwarnings(action, message='', category=Warning, module='', lineno=0, append=False):
    _filters.insert(0, (action, category))


def resetwarnings():
    del _filters[:]


def warn(message, category=None, stacklevel=1, source=None):
    if isinstance(message, Warning):
        category = type(message)
        message = str(message)
    category = category or UserWarning
    action = 'default'
    for a, c in _filters:
        if issubclass(category, c):
            action = a
            break
    if action == 'ignore':
        return
    if action == 'error':
        raise category(message)
    key = (category, str(message))
    if action != 'always' and key in _seen:
        return
    _seen.append(key)
    print('submission.py: ' + category.__name__ + ': ' + str(message))


class catch_warnings:
    def __init__(self, record=False):
        self.record = record

    def __enter__(self):
        self.saved = list(_filters)
        return [] if self.record else None

    def __exit__(self, *exc):
        _filters[:] = self.saved
        return False
