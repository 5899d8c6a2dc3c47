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
    import io
    import math
    import struct
    import sys
    import numpy

    names, internals = numpy._build(B, struct)
    for k in names:
        setattr(numpy, k, names[k])
    delattr(numpy, '_build')
    wrap, ndarray, Generator = internals
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

    class Stub:
        """typing and __future__: every name is an inert object that annotations may subscript."""
        def __getattr__(self, name):
            return self

        def __getitem__(self, key):
            return self

        def __call__(self, *args, **kwargs):
            return self

        def __or__(self, other):
            return self

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
    allowed = {'numpy': numpy, 'math': math, 'numpy.random': numpy.random, 'time': Clock()}

    def guard(name, globals=None, locals=None, fromlist=(), level=0):
        if level:
            raise ImportError('relative imports are not available here')
        if name in ('typing', '__future__', 'typing_extensions'):
            return stub
        if name in allowed:
            return allowed[name] if fromlist else allowed[name.split('.')[0]]
        raise ImportError("no module named '" + name + "' here: this runtime offers numpy, math and time")

    def blocked(name, error, why):
        def f(*args, **kwargs):
            raise error(name + '() is not available here: ' + why)
        return f

    builtins.__import__ = guard
    builtins.open = blocked('open', OSError, 'this runtime has no files')
    builtins.input = blocked('input', RuntimeError, 'there is no keyboard; pass values as arguments')
    for n in ('exec', 'eval', 'compile'):
        setattr(builtins, n, blocked(n, RuntimeError, 'write the code itself'))

    state = {'globals': {'__name__': '__main__'}}

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

    def message_of(e):
        try:
            name = type(e).__name__
            text = str(e)
        except BaseException:
            return 'an exception that cannot be printed'
        if name == 'TypeError' and text.startswith('unsupported types for __') and text.endswith("'ndarray'"):
            text += HINT
        elif name == 'TypeError' and text.startswith("can't convert ndarray to "):
            text += ' (for an array of one element use a.item())'
        return name + ': ' + text if text else name

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

    def call(name):
        g = state['globals']
        fn = g.get(name)
        if not callable(fn):
            B('answer', 'missing')
            return
        try:
            args = [next_arg() for _ in range(B('next_arg'))]
            value = fn(*args)
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
        return load(a, b) if op == 'load' else call(a)

    globals().clear()
    return serve
