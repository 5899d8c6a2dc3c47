# os for the Python track: what code reads (environ, getenv, sep, name, getcwd, cpu_count, os.path's
# string functions) and nothing that writes or reaches the host. There are no files here: a file test
# answers False, and a call that would touch the file system or start a process raises OSError saying so.
__name__ = 'os'

_NO_FILES = 'this runtime has no files or processes'


class _Environ(dict):
    def __setitem__(self, k, v):
        raise OSError('os.environ cannot be changed here: ' + _NO_FILES)


environ = _Environ()
name = 'posix'
sep = '/'
altsep = None
extsep = '.'
pathsep = ':'
linesep = '\n'
curdir = '.'
pardir = '..'
devnull = '/dev/null'


def getenv(key, default=None):
    return environ.get(key, default)


def getcwd():
    return '/'


def cpu_count():
    return 1


def getpid():
    return 1


def urandom(n):
    import random
    return bytes(random.getrandbits(8) for _ in range(n))


def fspath(p):
    if isinstance(p, (str, bytes)):
        return p
    raise TypeError('expected str, bytes or os.PathLike object, not ' + type(p).__name__)


def _refuse(what):
    def f(*args, **kwargs):
        raise OSError('os.' + what + '() is not available here: ' + _NO_FILES)
    return f


for _n in ('listdir', 'scandir', 'walk', 'mkdir', 'makedirs', 'remove', 'unlink', 'rmdir', 'removedirs', 'rename',
           'replace', 'chdir', 'stat', 'system', 'popen', 'kill', 'open', 'putenv', 'unsetenv', 'chmod', 'utime'):
    globals()[_n] = _refuse(_n)


def _exit(code):
    raise SystemExit(code)


class path:
    """os.path: the string functions work; the file tests find nothing (there are no files)."""
    sep = '/'

    @staticmethod
    def join(a, *p):
        out = a
        for b in p:
            if b.startswith('/'):
                out = b
            elif not out or out.endswith('/'):
                out += b
            else:
                out += '/' + b
        return out

    @staticmethod
    def split(p):
        i = p.rfind('/') + 1
        head, tail = p[:i], p[i:]
        if head and head != '/' * len(head):
            head = head.rstrip('/')
        return head, tail

    @staticmethod
    def basename(p):
        return p[p.rfind('/') + 1:]

    @staticmethod
    def dirname(p):
        return path.split(p)[0]

    @staticmethod
    def splitext(p):
        base = p[p.rfind('/') + 1:]
        i = base.rfind('.')
        if i <= 0 or base[:i] == '.' * i:
            return p, ''
        cut = len(p) - len(base) + i
        return p[:cut], p[cut:]

    @staticmethod
    def normpath(p):
        if not p:
            return '.'
        initial = 2 if p.startswith('//') and not p.startswith('///') else (1 if p.startswith('/') else 0)
        comps = []
        for c in p.split('/'):
            if c in ('', '.'):
                continue
            if c != '..' or (not initial and not comps) or (comps and comps[-1] == '..'):
                comps.append(c)
            elif comps:
                comps.pop()
        out = '/' * initial + '/'.join(comps)
        return out or '.'

    @staticmethod
    def abspath(p):
        return path.normpath(p if p.startswith('/') else '/' + p)

    @staticmethod
    def isabs(p):
        return p.startswith('/')

    @staticmethod
    def exists(p):
        return False

    isfile = exists
    isdir = exists
    islink = exists

    @staticmethod
    def expanduser(p):
        return p

    @staticmethod
    def getsize(p):
        raise OSError('os.path.getsize() is not available here: ' + _NO_FILES)
