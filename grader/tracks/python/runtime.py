# The Python side of the guest (guest.mjs): loads the submission, calls its functions, and answers
# through the bridge (bridge.mjs). The guest imports this module once per sandbox realm and calls
# install(); everything it needs afterwards lives in closures, the module is emptied and forgotten, so
# the student's code finds no path to the bridge, the builtins module or the original __import__:
# - imports go through guard(): numpy, math and a clock as time (typing and __future__ as inert stubs);
# - open, input, exec, eval and compile are replaced by functions that raise (the lesson's code needs
#   none of them; the loader keeps its own compile and exec);
# - an exception becomes 'TypeName: message' and the line of the innermost frame of submission.py;
#   the traceback itself (frames of numpy.py and of this file) is never shown.


def install(B, limits):
    import builtins
    import gc
    import io
    import math
    import struct
    import sys
    import numpy

    names, internals = numpy._build(B, struct)
    for k in names:
        setattr(numpy, k, names[k])
    delattr(numpy, '_build')
    wrap, ndarray, Generator, rebind = internals
    max_depth, max_elements, max_string = limits

    # This module's namespace is reachable from student code (`__import__.__globals__`, the globals
    # of any function defined here), and the functions here look builtins up in it first. It is empty
    # once install() returns, and emptied again whenever student code has run, before this module
    # looks anything up: what a submission writes there is gone before it could matter.
    forget = globals().clear
    compile_source = builtins.compile
    run = builtins.exec
    print_exception = sys.print_exception
    StringIO = io.StringIO
    unpack = struct.unpack
    fromhex = bytes.fromhex
    modules_ = sys.modules
    FILE = 'submission.py'
    collect = gc.collect
    mem_alloc = gc.mem_alloc

    class Stub:
        """typing and __future__: every name is an inert object that annotations may subscript; called
        on one function or class (a decorator: @overload, @final) it gives that back unchanged."""
        def __getattr__(self, name):
            return self

        def __getitem__(self, key):
            return self

        def __call__(self, *args, **kwargs):
            if len(args) == 1 and not kwargs and callable(args[0]):
                return args[0]
            return self

        def __or__(self, other):
            return self

    class GenericBase:
        """What typing.Generic[...] gives, and typing.Protocol is: a base class that adds nothing."""
        pass

    class Subscriptable:
        def __getitem__(self, key):
            return GenericBase

    class Typing:
        """The typing module at run time: no-ops, and cast() gives back its value."""
        TYPE_CHECKING = False
        Protocol = GenericBase
        Generic = Subscriptable()

        def cast(self, typ, value):
            return value

        def NewType(self, name, tp):
            return lambda x: x

        def __getattr__(self, name):
            return stub

    # dataclasses: @dataclass writes __init__, __repr__ and __eq__ over the fields in the order the
    # class declares them (MicroPython keeps no annotations, so load() reads the order from the source).
    MISSING = Stub()

    class Field:
        def __init__(self, default, default_factory):
            self.default = default
            self.default_factory = default_factory

    def field(default=MISSING, default_factory=None, **options):
        return Field(default, default_factory)

    def make_dataclass(cls):
        attrs = cls.__dict__
        names = state['fields'].get(cls.__name__)
        if names is None:
            names = [k for k in attrs if not k.startswith('__') and not callable(attrs[k])]
        defaults = {}
        for n in names:
            if n in attrs:
                defaults[n] = attrs[n]
        title = cls.__name__ + '.__init__()'

        def __init__(self, *args, **kwargs):
            if len(args) > len(names):
                raise TypeError(title + ' takes ' + str(len(names) + 1) + ' positional arguments but ' + str(len(args) + 1) + ' were given')
            for i, n in enumerate(names):
                if i < len(args):
                    if n in kwargs:
                        raise TypeError(title + " got multiple values for argument '" + n + "'")
                    v = args[i]
                elif n in kwargs:
                    v = kwargs.pop(n)
                elif n in defaults:
                    v = defaults[n]
                    if isinstance(v, Field):
                        if v.default_factory is not None:
                            v = v.default_factory()
                        elif v.default is MISSING:
                            raise TypeError(title + " missing 1 required positional argument: '" + n + "'")
                        else:
                            v = v.default
                else:
                    raise TypeError(title + " missing 1 required positional argument: '" + n + "'")
                setattr(self, n, v)
            for k in kwargs:
                raise TypeError(title + " got an unexpected keyword argument '" + k + "'")
            post = getattr(self, '__post_init__', None)
            if post is not None:
                post()

        def __repr__(self):
            return cls.__name__ + '(' + ', '.join(n + '=' + repr(getattr(self, n)) for n in names) + ')'

        def __eq__(self, other):
            if type(other) is not type(self):
                return False
            for n in names:
                if getattr(self, n) != getattr(other, n):
                    return False
            return True

        cls.__init__ = __init__
        cls.__repr__ = __repr__
        cls.__eq__ = __eq__
        return cls

    def dataclass(cls=None, **options):
        return make_dataclass(cls) if cls is not None else make_dataclass

    class Dataclasses:
        def __init__(self):
            self.dataclass = dataclass
            self.field = field

        def __getattr__(self, name):
            raise AttributeError('dataclasses.' + name + ' is not available here; it has dataclass and field')

    KEYWORDS = ('def', 'class', 'if', 'elif', 'else', 'for', 'while', 'with', 'try', 'except', 'finally', 'return', 'pass', 'lambda')

    def dataclass_fields(source):
        """{class name: [field, …]} of the classes decorated with @dataclass, in the order of their body."""
        out = {}
        lines = source.split('\n')
        i = 0
        while i < len(lines):
            if not lines[i].strip().startswith(('@dataclass', '@dataclasses.dataclass')):
                i += 1
                continue
            j = i + 1
            while j < len(lines) and lines[j].strip().startswith('@'):
                j += 1
            head = lines[j].strip() if j < len(lines) else ''
            if head.startswith('class '):
                name = head[6:].split('(')[0].split(':')[0].strip()
                fields = []
                indent = None
                outer = len(lines[j]) - len(lines[j].lstrip())
                for line in lines[j + 1:]:
                    body = line.strip()
                    if not body or body.startswith('#'):
                        continue
                    at = len(line) - len(line.lstrip())
                    if at <= outer:
                        break
                    indent = at if indent is None else indent
                    colon = body.find(':')
                    word = body[:colon].strip() if at == indent and colon > 0 else ''
                    if word and word not in KEYWORDS and all(c.isalpha() or c.isdigit() or c == '_' for c in word) and not word[0].isdigit():
                        fields.append(word)
                out[name] = fields
            i = j
        return out

    class Clock:
        """time: perf_counter, monotonic and time, in seconds, from the realm's clock (no sleep)."""
        def perf_counter(self):
            return unpack('<d', fromhex(B('now')))[0] / 1000

        monotonic = perf_counter

        def time(self):
            return unpack('<d', fromhex(B('now', 1)))[0] / 1000

        def __getattr__(self, name):
            raise AttributeError('time.' + name + ' is not available here; it has perf_counter, monotonic and time')

    stub = Stub()
    typing = Typing()
    allowed = {'numpy': numpy, 'math': math, 'numpy.random': numpy.random, 'numpy.linalg': numpy.linalg, 'time': Clock(),
               'typing': typing, 'typing_extensions': typing, 'dataclasses': Dataclasses()}

    def guard(name, globals=None, locals=None, fromlist=(), level=0):
        if level:
            raise ImportError('relative imports are not available here')
        if name == '__future__':
            return stub
        if name in allowed:
            return allowed[name] if fromlist else allowed[name.split('.')[0]]
        raise ImportError("no module named '" + name + "' here: this runtime offers numpy, math, time, typing and dataclasses")

    def blocked(name, error, why):
        def f(*args, **kwargs):
            raise error(name + '() is not available here: ' + why)
        return f

    # min and max compare with `<`, and MicroPython has no reflected comparison for a number on the left
    # of a NumPy scalar (min(np.int64(3), 2) asks 2 < np.int64(3)): on that TypeError, compare again by value.
    scalar_types = (names['float64'], names['int64'])

    def plain(v):
        return v._v if type(v) in scalar_types else v

    def by_value(orig):
        def f(*args, key=None, **kwargs):
            try:
                return orig(*args, key=key, **kwargs) if key is not None else orig(*args, **kwargs)
            except TypeError:
                return orig(*args, key=(lambda v: plain(key(v))) if key is not None else plain, **kwargs)
        return f

    builtins.min = by_value(builtins.min)
    builtins.max = by_value(builtins.max)
    builtins.__import__ = guard
    builtins.open = blocked('open', OSError, 'this runtime has no files')
    builtins.input = blocked('input', RuntimeError, 'there is no keyboard; pass values as arguments')
    for n in ('exec', 'eval', 'compile'):
        setattr(builtins, n, blocked(n, RuntimeError, 'write the code itself'))

    state = {'globals': {'__name__': '__main__'}, 'fields': {}}

    # ---- exceptions

    def line_of(e):
        buf = StringIO()
        try:
            print_exception(e, buf)
        except BaseException:
            return 0
        line = 0
        prefix = '  File "' + FILE + '", line '
        for text in buf.getvalue().split('\n')[1:]:  # the frames, up to the message (which may hold anything)
            if not text.startswith('  '):
                break
            if text.startswith(prefix):
                digits = text[len(prefix):].split(',')[0]
                if digits.isdigit():
                    line = int(digits)
        return line

    HINT = ' (in this runtime a comparison cannot have a number on the left of an array: write the array first, e.g. `x > 0` instead of `0 < x`)'
    SCALAR_HINT = (' (in this runtime a comparison cannot have a number on the left of a NumPy scalar: write the scalar first, '
                   'e.g. `x.sum() > 3` instead of `3 < x.sum()`, or convert it: `3 < float(x.sum())`)')
    FORMAT_HINT = " (in this runtime a NumPy scalar is formatted after float() or int(): f'{float(x):.3f}')"

    def message_of(e):
        try:
            name = type(e).__name__
            text = str(e)
        except BaseException:
            return 'an exception that cannot be printed'
        if name == 'TypeError' and text.startswith('unsupported types for __') and text.endswith("'ndarray'"):
            text += HINT
        elif name == 'TypeError' and text.startswith('unsupported types for __') and text.endswith(("'float64'", "'int64'")):
            text += SCALAR_HINT
        elif name == 'ValueError' and text.startswith('unknown format code') and text.endswith(("'float64'", "'int64'")):
            text += FORMAT_HINT
        elif name == 'TypeError' and text.startswith("can't convert ndarray to "):
            text += ' (for an array of one element use a.item())'
        if not text:  # MicroPython raises some errors without a text: say at least what kind it is
            text = {'TypeError': 'an operation or a call got a value of the wrong type (MicroPython gave no details)',
                    'AttributeError': 'an attribute does not exist (MicroPython gave no details)'}.get(name, 'raised without a message')
        return name + ': ' + text

    def report(e, fallback):
        try:
            kind = 'memory' if isinstance(e, MemoryError) else 'error'
            B('answer', kind, message_of(e), line_of(e))
        except BaseException:
            B('answer', fallback, 'MemoryError', 0)

    # ---- handles: those made since the last release and no longer reachable from the globals are
    # freed. The host asks for it after each request, as a request of its own (never the student's
    # time), and the walk runs only when the bridge holds enough new arrays to be worth it.

    SCALARS = (int, float, str, bool, bytes, type(None))
    SKIP = SCALARS + (type(len), type(math))

    def release():
        if not B('needs_release'):
            return 0
        kept = []
        seen = set()
        stack = list(state['globals'].values())
        budget = 1000000
        try:
            while stack:
                v = stack.pop()
                t = type(v)
                if t in SCALARS:
                    continue
                budget -= 1
                if budget < 0:
                    return B('release', 1)
                i = id(v)
                if i in seen:
                    continue
                seen.add(i)
                if t is ndarray or t is Generator:
                    kept.append(v._h)
                elif t is list or t is tuple or t is set or t is frozenset:
                    stack.extend(v)
                elif t is dict:
                    stack.extend(v.keys())
                    stack.extend(v.values())
                elif not isinstance(v, SKIP):
                    if isinstance(v, ndarray):
                        kept.append(v._h)
                    d = getattr(v, '__dict__', None)
                    if type(d) is dict:
                        stack.extend(d.values())
        except BaseException:
            return B('release', 1)
        for k in range(0, len(kept), 256):
            B('keep', *kept[k:k + 256])
        return B('release', 0)

    # ---- values crossing: arguments in, results out

    def next_arg():
        tag = B('next_arg')
        if tag == 'a':
            return wrap(B('next_arg'))
        if tag == 'i':
            return B('next_arg')
        if tag == 'f':
            return unpack('<d', fromhex(B('next_arg')))[0]
        if tag == 'b':
            return bool(B('next_arg'))
        if tag == 's':
            return B('next_arg')
        if tag == '[':
            return [next_arg() for _ in range(B('next_arg'))]
        return None

    class Invalid(Exception):
        pass

    def emit(value):
        out = []
        count = [0]

        def flush():
            if out:
                B('emit', *out)
                del out[:]

        def enc(v, depth):
            t = type(v)
            if v is None:
                out.append('N')
            elif t is bool:
                out.append('b')
                out.append(v)
            elif t is ndarray:
                flush()
                B('emit_array', v._h)
            elif isinstance(v, float):
                out.append('f')
                out.append(float(v))
            elif isinstance(v, int):
                out.append('i')
                out.append(int(v) if -2147483648 < v < 2147483648 else float(v))
            elif isinstance(v, str):
                out.append('s')
                out.append(v[:max_string])
            elif t is list or t is tuple:
                if depth >= max_depth:
                    raise Invalid('too_deep', max_depth)
                if len(v) > max_elements:
                    raise Invalid('too_long', len(v))
                out.append('[')
                out.append(len(v))
                for x in v:
                    enc(x, depth + 1)
            else:
                out.append('o')
                out.append('function' if callable(v) else 'object')
            count[0] += 1
            if count[0] > max_elements:
                raise Invalid('too_many', max_elements)
            if len(out) >= 256:
                flush()

        enc(value, 0)
        flush()

    # ---- requests

    def load(source, wanted):
        g = {'__name__': '__main__'}
        state['globals'] = g
        state['fields'] = dataclass_fields(source) if 'dataclass' in source else {}
        try:
            code = compile_source(source, FILE, 'exec')
        except SyntaxError as e:  # IndentationError too
            B('answer', 'syntax', message_of(e), line_of(e))
            return
        except BaseException as e:
            report(e, 'memory')
            return
        try:
            run(code, g)
        except BaseException as e:
            forget()
            report(e, 'memory')
        forget()
        found = []
        for n in wanted.split(','):
            if n and callable(g.get(n)):
                found.append(n)
        B('functions', ','.join(found))

    # ---- a measured call: the interpreter's heap (lists, numbers, objects) sampled while the function
    # runs, and once when it returns; kept.heap is its highest above the start. A sample collects first
    # (garbage would otherwise pile up to megabytes between the interpreter's own collections), so it is
    # what is alive then. It scans the whole heap (milliseconds), so it is taken at every 32nd call into
    # numpy, then at every 64th after 32 samples, and so on: counted in calls, so the same for every run
    # and host, and cheap for a loop that makes thousands of calls, while a structure kept across a
    # computation is seen. The interpreter's npm glue keeps memory for every call into JavaScript, even
    # after a collection (measured: 130-150 bytes per numpy operation in a loop, some 110 more when it
    # answers a scalar, as a string), so a sample leaves out PER_CALL bytes for each call so far and as
    # many again for each string answer: a loop's calls into numpy are not the student's data.

    PER_CALL = 256

    def metered(fn, args):
        collect()
        base = mem_alloc()
        peak = [base]
        state = [0, 31, 0, 0]  # calls into numpy, the sampling mask, samples taken, string answers

        def sample():
            collect()
            m = mem_alloc() - PER_CALL * (state[0] + state[3])
            if m > peak[0]:
                peak[0] = m
            state[2] += 1
            if state[2] % 32 == 0:
                state[1] = state[1] * 2 + 1

        def sampled(*a):
            state[0] += 1
            if not state[0] & state[1]:
                sample()
            r = B(*a)
            if type(r) is str:
                state[3] += 1
            return r

        rebind(sampled)
        try:
            value = fn(*args)
        finally:
            rebind(B)
        sample()
        B('heap', max(0, peak[0] - base))
        return value

    def call(name, measure):
        g = state['globals']
        fn = g.get(name)
        if not callable(fn):
            B('answer', 'missing')
            return
        try:
            args = [next_arg() for _ in range(B('next_arg'))]
            value = metered(fn, args) if measure else fn(*args)
        except BaseException as e:
            forget()
            report(e, 'memory')
            return
        forget()
        try:
            emit(value)
            B('answer', 'ok')
        except Invalid as e:
            B('answer', 'invalid', e.args[0], e.args[1])
        except BaseException as e:
            report(e, 'memory')

    for k in ('_attnlab', 'numpy'):
        if k in modules_:
            del modules_[k]
    def serve(op, a, b):
        forget()
        if op == 'release':
            return release()
        return load(a, b) if op == 'load' else call(a, b == 'measure')

    globals().clear()
    return serve
