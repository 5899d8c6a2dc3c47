# sys for the Python track: what NumPy code reads (version_info, maxsize, float_info, argv, platform,
# stdout/stderr to write to) and nothing that reaches the interpreter (no modules, no settrace, no
# path of its own). stdout and stderr both go to the submission's printed output; exit raises
# SystemExit as CPython's does.
__name__ = 'sys'


class _VersionInfo(tuple):
    major = 3
    minor = 11
    micro = 0
    releaselevel = 'final'
    serial = 0


version_info = _VersionInfo((3, 11, 0, 'final', 0))
version = '3.11.0 (attnlab: MicroPython 1.27 with a numpy over the course engine)'
hexversion = 0x30B00F0
platform = 'emscripten'
byteorder = 'little'
maxsize = 9223372036854775807
argv = ['submission.py']
path = []
executable = ''
flags = ()


class _FloatInfo(tuple):
    max = 1.7976931348623157e308
    min = 2.2250738585072014e-308
    epsilon = 2.220446049250313e-16
    dig = 15
    mant_dig = 53
    radix = 2


float_info = _FloatInfo((1.7976931348623157e308, 1024, 308, 2.2250738585072014e-308, -1021, -307, 15, 53,
                         2.220446049250313e-16, 2, 1))


class _Stream:
    def __init__(self, name):
        self.name = name

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError('write() argument must be str, not ' + type(s).__name__)
        print(s, end='')
        return len(s)

    def flush(self):
        pass

    def isatty(self):
        return False


stdout = _Stream('<stdout>')
stderr = _Stream('<stderr>')
__stdout__ = stdout
__stderr__ = stderr


def exit(status=None):
    raise SystemExit(status)


_recursion = [1000]


def getrecursionlimit():
    return _recursion[0]


def setrecursionlimit(n):
    if not isinstance(n, int) or n < 1:
        raise ValueError('recursion limit must be greater or equal than 1')
    _recursion[0] = n  # remembered and read back; the interpreter's own stack limit stays as it is


def getdefaultencoding():
    return 'utf-8'


def intern(s):
    return s
