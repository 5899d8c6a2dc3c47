# logging for the Python track: loggers by dotted name with levels and propagation, handlers that
# print (StreamHandler, the root's default), Formatter's %-style fields, basicConfig, and the
# module-level functions. Everything a handler writes goes to the submission's printed output (there
# is no separate stderr here); FileHandler is refused (this runtime has no files).
import sys
import time

CRITICAL = FATAL = 50
ERROR = 40
WARNING = WARN = 30
INFO = 20
DEBUG = 10
NOTSET = 0
_names = {50: 'CRITICAL', 40: 'ERROR', 30: 'WARNING', 20: 'INFO', 10: 'DEBUG', 0: 'NOTSET'}
_levels = {'CRITICAL': 50, 'FATAL': 50, 'ERROR': 40, 'WARN': 30, 'WARNING': 30, 'INFO': 20, 'DEBUG': 10, 'NOTSET': 0}
BASIC_FORMAT = '%(levelname)s:%(name)s:%(message)s'
_start = time.time()


def getLevelName(level):
    if level in _names:
        return _names[level]
    if level in _levels:
        return _levels[level]
    return 'Level %s' % level


def addLevelName(level, name):
    _names[level] = name
    _levels[name] = level


def _level(level):
    if isinstance(level, int):
        return level
    if level in _levels:
        return _levels[level]
    raise ValueError('Unknown level: %r' % level)


class LogRecord:
    def __init__(self, name, level, msg, args, exc_info=None):
        self.name = name
        self.levelno = level
        self.levelname = getLevelName(level)
        self.msg = msg
        self.args = args
        self.created = time.time()
        self.relativeCreated = (self.created - _start) * 1000
        self.exc_info = exc_info
        self.funcName = ''
        self.lineno = 0
        self.module = '__main__'
        self.filename = 'submission.py'
        self.pathname = 'submission.py'
        self.process = 1
        self.thread = 1
        self.threadName = 'MainThread'
        self.processName = 'MainProcess'

    def getMessage(self):
        msg = str(self.msg)
        if self.args:
            msg = msg % self.args
        return msg


class Formatter:
    default_time_format = '%Y-%m-%d %H:%M:%S'

    def __init__(self, fmt=None, datefmt=None, style='%'):
        if style not in ('%', '{'):
            raise ValueError("Style must be one of: %,{")
        self.style = style
        self._fmt = fmt if fmt is not None else ('%(message)s' if style == '%' else '{message}')
        self.datefmt = datefmt

    def formatTime(self, record, datefmt=None):
        t = time.localtime(int(record.created)) if hasattr(time, 'localtime') else None
        if t is None:
            return '%.3f' % record.created
        return '%04d-%02d-%02d %02d:%02d:%02d,%03d' % (t[0], t[1], t[2], t[3], t[4], t[5], int(record.created * 1000) % 1000)

    def usesTime(self):
        return 'asctime' in self._fmt

    def formatMessage(self, record):
        fields = dict(record.__dict__)
        if self.style == '{':
            return self._fmt.format(**fields)
        return self._fmt % fields

    def format(self, record):
        record.message = record.getMessage()
        if self.usesTime():
            record.asctime = self.formatTime(record, self.datefmt)
        s = self.formatMessage(record)
        if record.exc_info:
            e = record.exc_info[1] if isinstance(record.exc_info, tuple) else record.exc_info
            if isinstance(e, BaseException):
                s = s + '\n' + type(e).__name__ + ': ' + str(e)
        return s


_default_formatter = Formatter()


class Filter:
    def __init__(self, name=''):
        self.name = name

    def filter(self, record):
        return not self.name or record.name == self.name or record.name.startswith(self.name + '.')


class Handler:
    def __init__(self, level=NOTSET):
        self.level = _level(level)
        self.formatter = None
        self.filters = []

    def setLevel(self, level):
        self.level = _level(level)

    def setFormatter(self, fmt):
        self.formatter = fmt

    def addFilter(self, f):
        self.filters.append(f)

    def removeFilter(self, f):
        if f in self.filters:
            self.filters.remove(f)

    def format(self, record):
        return (self.formatter or _default_formatter).format(record)

    def handle(self, record):
        for f in self.filters:
            if not (f.filter(record) if hasattr(f, 'filter') else f(record)):
                return False
        self.emit(record)
        return True

    def emit(self, record):
        raise NotImplementedError('emit must be implemented by Handler subclasses')

    def flush(self):
        pass

    def close(self):
        pass


class StreamHandler(Handler):
    terminator = '\n'

    def __init__(self, stream=None):
        super().__init__()
        self.stream = stream if stream is not None else sys.stderr

    def emit(self, record):
        self.stream.write(self.format(record) + self.terminator)


class NullHandler(Handler):
    def emit(self, record):
        pass


class FileHandler(StreamHandler):
    def __init__(self, filename, mode='a', encoding=None, delay=False):
        raise OSError('logging.FileHandler is not available here: this runtime has no files; use logging.StreamHandler()')


lastResort = StreamHandler()
lastResort.level = WARNING


class Logger:
    def __init__(self, name, level=NOTSET):
        self.name = name
        self.level = _level(level)
        self.handlers = []
        self.filters = []
        self.parent = None
        self.propagate = True
        self.disabled = False

    def setLevel(self, level):
        self.level = _level(level)

    def getEffectiveLevel(self):
        logger = self
        while logger is not None:
            if logger.level:
                return logger.level
            logger = logger.parent
        return NOTSET

    def isEnabledFor(self, level):
        return not self.disabled and level >= self.getEffectiveLevel() and level > _disabled[0]

    def addHandler(self, h):
        if h not in self.handlers:
            self.handlers.append(h)

    def removeHandler(self, h):
        if h in self.handlers:
            self.handlers.remove(h)

    def hasHandlers(self):
        logger = self
        while logger is not None:
            if logger.handlers:
                return True
            logger = logger.parent if logger.propagate else None
        return False

    def addFilter(self, f):
        self.filters.append(f)

    def getChild(self, suffix):
        return getLogger(self.name + '.' + suffix if self.name != 'root' else suffix)

    def log(self, level, msg, *args, exc_info=None, stacklevel=1, extra=None, stack_info=False):
        if not isinstance(level, int):
            raise TypeError('level must be an integer')
        if not self.isEnabledFor(level):
            return
        record = LogRecord(self.name, level, msg, args, exc_info)
        if extra:
            for k in extra:
                setattr(record, k, extra[k])
        for f in self.filters:
            if not (f.filter(record) if hasattr(f, 'filter') else f(record)):
                return
        found = 0
        logger = self
        while logger is not None:
            for h in logger.handlers:
                found += 1
                if record.levelno >= h.level:
                    h.handle(record)
            logger = logger.parent if logger.propagate else None
        if not found and record.levelno >= lastResort.level:
            lastResort.handle(record)

    def debug(self, msg, *args, **kwargs):
        self.log(DEBUG, msg, *args, **kwargs)

    def info(self, msg, *args, **kwargs):
        self.log(INFO, msg, *args, **kwargs)

    def warning(self, msg, *args, **kwargs):
        self.log(WARNING, msg, *args, **kwargs)

    warn = warning

    def error(self, msg, *args, **kwargs):
        self.log(ERROR, msg, *args, **kwargs)

    def exception(self, msg, *args, exc_info=True, **kwargs):
        self.log(ERROR, msg, *args, exc_info=exc_info, **kwargs)

    def critical(self, msg, *args, **kwargs):
        self.log(CRITICAL, msg, *args, **kwargs)

    fatal = critical

    def __repr__(self):
        return '<%s %s (%s)>' % (type(self).__name__, self.name, getLevelName(self.getEffectiveLevel()))


class RootLogger(Logger):
    def __init__(self, level):
        super().__init__('root', level)


root = RootLogger(WARNING)
_loggers = {}
_disabled = [NOTSET]


def getLogger(name=None):
    if not name or name == 'root':
        return root
    if name not in _loggers:
        logger = Logger(name)
        _loggers[name] = logger
        # the nearest existing ancestor is the parent; existing children move under the new one
        parent = root
        parts = name.split('.')
        for i in range(len(parts) - 1, 0, -1):
            p = '.'.join(parts[:i])
            if p in _loggers:
                parent = _loggers[p]
                break
        logger.parent = parent
        for k in _loggers:
            child = _loggers[k]
            if k.startswith(name + '.') and (child.parent is parent):
                child.parent = logger
    return _loggers[name]


def basicConfig(**kwargs):
    force = kwargs.pop('force', False)
    if force:
        root.handlers = []
    if root.handlers:
        return
    if 'filename' in kwargs:
        FileHandler(kwargs['filename'])
    h = StreamHandler(kwargs.get('stream'))
    h.setFormatter(Formatter(kwargs.get('format', BASIC_FORMAT), kwargs.get('datefmt'), kwargs.get('style', '%')))
    root.addHandler(h)
    if 'level' in kwargs:
        root.setLevel(kwargs['level'])
    for h2 in kwargs.get('handlers') or []:
        root.addHandler(h2)


def disable(level=CRITICAL):
    _disabled[0] = level


def debug(msg, *args, **kwargs):
    _root_log(DEBUG, msg, args, kwargs)


def info(msg, *args, **kwargs):
    _root_log(INFO, msg, args, kwargs)


def warning(msg, *args, **kwargs):
    _root_log(WARNING, msg, args, kwargs)


warn = warning


def error(msg, *args, **kwargs):
    _root_log(ERROR, msg, args, kwargs)


def exception(msg, *args, **kwargs):
    kwargs.setdefault('exc_info', True)
    _root_log(ERROR, msg, args, kwargs)


def critical(msg, *args, **kwargs):
    _root_log(CRITICAL, msg, args, kwargs)


fatal = critical


def log(level, msg, *args, **kwargs):
    _root_log(level, msg, args, kwargs)


def _root_log(level, msg, args, kwargs):
    if not root.handlers:
        basicConfig()
    root.log(level, msg, *args, **kwargs)


def shutdown():
    pass


def captureWarnings(capture):
    pass
