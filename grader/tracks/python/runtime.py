# The Python side of the guest (guest.mjs): loads the submission, calls its functions, and answers
# through the bridge (bridge.mjs). The guest imports this module once per sandbox realm and calls
# install(); everything it needs afterwards lives in closures, the module is emptied and forgotten, so
# the student's code finds no path to the bridge, the builtins module or the original __import__:
# - imports go through guard(): numpy, math and a clock as time (typing and __future__ as inert stubs);
# - open, input, exec, eval and compile are replaced by functions that raise (the lesson's code needs
#   none of them; the loader keeps its own compile and exec);
# - an exception becomes 'TypeName: message' and the line of the innermost frame of submission.py;
#   the traceback itself (frames of numpy.py and of this file) is never shown;
# - once the student's code has returned, nothing here reaches a method or property the student could
#   have defined or replaced (their __eq__, __hash__, __float__, a property of an ndarray subclass, a
#   class attribute put on np.ndarray): values are read by exact type and through an instance's own
#   __dict__ (own()), the submission's globals by walking their items (named()), never by a lookup that
#   compares keys or an attribute read that goes through a class.


# MicroPython's WebAssembly port asks for a full collection (mark, and a sweep of the whole 32 MiB heap:
# ~1 ms) after every 16 KiB allocated, done when the call from JavaScript returns: nearly every request
# ended with one (~30 ms of a grade's CPU). Asked for after 4 MiB instead: the garbage kept between
# requests stays far below the heap, and inside a request nothing changes (no collection runs there).
GC_THRESHOLD = 4 * 1024 * 1024


def install(B, limits, stdlib):
    import gc
    gc.threshold(GC_THRESHOLD)
    import builtins
    import io
    import math
    import struct
    import sys
    import numpy
    import collections as mp_collections
    import random as mp_random
    import re

    names, internals = numpy._build(B, struct)
    for k in names:
        setattr(numpy, k, names[k])
    delattr(numpy, '_build')
    wrap, ndarray, Generator, rebind = internals
    # Where the interpreter keeps its state and heap, for the bridge's scans during a call (heapscan.mjs):
    # the state's dict of modules, and an object in the heap.
    probe = [0]
    B('layout', id(sys.modules), id(probe))
    del probe
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
        def __init__(self, default, default_factory, name=None):
            self.default = default
            self.default_factory = default_factory
            self.name = name
            self.type = None  # MicroPython keeps no annotations

        def __repr__(self):
            return 'Field(name=' + repr(self.name) + ')'

    def field(default=MISSING, default_factory=None, **options):
        return Field(default, default_factory)

    class FrozenInstanceError(AttributeError):
        pass

    def make_dataclass(cls, frozen=False):
        attrs = cls.__dict__
        names = state['fields'].get(cls.__name__)
        if names is None:
            names = [k for k in attrs if not k.startswith('__') and not callable(attrs[k])]
        defaults = {}
        for n in names:
            if n in attrs:
                defaults[n] = attrs[n]
        title = cls.__name__ + '.__init__()'
        put = object.__setattr__ if frozen else setattr

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
                put(self, n, v)
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
        infos = []
        for n in names:
            d = defaults.get(n, MISSING)
            info = Field(d.default, d.default_factory, n) if isinstance(d, Field) else Field(d, None, n)
            infos.append(info)
        cls.__dataclass_fields__ = infos
        if frozen:
            def __setattr__(self, name, value):
                raise FrozenInstanceError("cannot assign to field '" + name + "'")

            def __hash__(self):
                return hash(tuple(getattr(self, n) for n in names))
            cls.__setattr__ = __setattr__
            cls.__hash__ = __hash__
        return cls

    def dataclass(cls=None, frozen=False, **options):
        if cls is not None:
            return make_dataclass(cls, frozen)
        return lambda c: make_dataclass(c, frozen)

    def is_dataclass(obj):
        return hasattr(obj, '__dataclass_fields__')

    def fields(obj):
        if not is_dataclass(obj):
            raise TypeError('must be called with a dataclass type or instance')
        return tuple(obj.__dataclass_fields__)

    def asdict(obj, dict_factory=dict):
        def conv(v):
            if is_dataclass(v) and not isinstance(v, type):
                return dict_factory([(f.name, conv(getattr(v, f.name))) for f in fields(v)])
            if isinstance(v, (list, tuple)):
                return type(v)(conv(x) for x in v)
            if isinstance(v, dict):
                return {conv(k): conv(x) for k, x in v.items()}
            return v
        if not is_dataclass(obj) or isinstance(obj, type):
            raise TypeError('asdict() should be called on dataclass instances')
        return conv(obj)

    def astuple(obj):
        return tuple(getattr(obj, f.name) for f in fields(obj))

    def replace(obj, **changes):
        for f in fields(obj):
            if f.name not in changes:
                changes[f.name] = getattr(obj, f.name)
        return type(obj)(**changes)

    class Dataclasses:
        def __init__(self):
            self.dataclass = dataclass
            self.field = field
            self.fields = fields
            self.asdict = asdict
            self.astuple = astuple
            self.replace = replace
            self.is_dataclass = is_dataclass
            self.FrozenInstanceError = FrozenInstanceError
            self.MISSING = MISSING
            self.Field = Field

        def __getattr__(self, name):
            raise AttributeError('dataclasses.' + name + ' is not available here; it has dataclass, field, fields, asdict, astuple, replace and is_dataclass')

    KEYWORDS = ('def', 'class', 'if', 'elif', 'else', 'for', 'while', 'with', 'try', 'except', 'finally', 'return', 'pass', 'lambda')

    def dataclass_fields(source, everywhere=False):
        """{class name: [field, …]} of the classes decorated with @dataclass (every class if `everywhere`: an
        Enum's members), in the order of their body: MicroPython's class dict keeps no order."""
        out = {}
        lines = source.split('\n')
        i = 0
        while i < len(lines):
            head = lines[i].strip()
            if not (head.startswith(('@dataclass', '@dataclasses.dataclass')) or everywhere and head.startswith('class ')):
                i += 1
                continue
            if head.startswith('class '):
                i -= 1
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
                    if everywhere and (colon < 0 or body.find('=') >= 0 and body.find('=') < colon):
                        colon = body.find('=')
                    word = body[:colon].strip() if at == indent and colon > 0 else ''
                    if word and word not in KEYWORDS and all(c.isalpha() or c.isdigit() or c == '_' for c in word) and not word[0].isdigit():
                        fields.append(word)
                out[name] = fields
            i = j + 1
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

    # The standard library written for this runtime (stdlib/: logging, functools, …) is imported the
    # first time it is asked for, by the interpreter's own import, from the bytecode the guest left in
    # /lib; those modules import through this guard too, and reach MicroPython's own collections and
    # random (which they extend) under the names below. A module that fails to import is not kept.
    std = stdlib.split()
    real_import = builtins.__import__
    allowed['_mp_collections'] = mp_collections
    allowed['_mp_random'] = mp_random
    allowed['re'] = re
    OFFERED = 'numpy, math, time, typing, dataclasses, re and ' + ', '.join(std)

    def module(name):
        if name in allowed:
            return allowed[name]
        if name == 'os.path':
            return module('os').path
        if name == 'collections.abc':
            return module('abc')
        if name in std:
            m = real_import('_std_' + name)
            allowed[name] = m
            if name == 'sys':
                m.modules = ModulesView()
            return m
        return None

    def guard(name, globals=None, locals=None, fromlist=(), level=0):
        if level:
            raise ImportError('relative imports are not available here')
        if name == '__future__':
            return stub
        m = module(name)
        if m is not None:
            return m if fromlist else module(name.split('.')[0])
        raise ImportError("no module named '" + name + "' here: this runtime offers " + OFFERED)

    class ModulesView:
        """sys.modules as code reads it: the modules this runtime offers, imported when looked up."""
        def __contains__(self, name):
            return name in allowed or name in std or name == 'os.path'

        def __getitem__(self, name):
            m = module(name)
            if m is None:
                raise KeyError(name)
            return m

        def get(self, name, default=None):
            m = module(name)
            return default if m is None else m

        def keys(self):
            return [k for k in allowed if not k.startswith('_')] + [k for k in std if k not in allowed]

    def blocked(name, error, why):
        def f(*args, **kwargs):
            raise error(name + '() is not available here: ' + why)
        return f

    # min and max compare with `<`, and MicroPython has no reflected comparison for a number on the left
    # of a NumPy scalar (min(np.int64(3), 2) asks 2 < np.int64(3)): on that TypeError, compare again by value.
    scalar_types = (names['float64'], names['int64'])
    f64, i64 = scalar_types

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

    state = {'globals': {'__name__': '__main__'}, 'fields': {}, 'order': {}}

    # ---- reading student objects without running their code

    def members(v):
        """v's instance __dict__: a copy MicroPython makes of the instance's own members, before any
        class lookup (no property, __getattr__ or method runs); None where it has none."""
        d = getattr(v, '__dict__', None)
        return d if type(d) is dict else None

    def named(d, name):
        """d[name] for a dict the student filled (the submission's globals, an instance's members),
        found by walking its items: a dict lookup would compare `name` with keys the student put there
        (their __eq__ would run). None where it is not there."""
        if d is not None:
            for k, x in d.items():
                if type(k) is str and k == name:
                    return x
        return None

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
        comparison = text.startswith(('unsupported types for __lt__', 'unsupported types for __le__',
                                      'unsupported types for __gt__', 'unsupported types for __ge__'))
        if name == 'TypeError' and text.startswith('unsupported types for __') and "'complex'" in text:
            text += ' (complex numbers are not supported by this runtime: its arrays are float64, int64 or bool)'
        elif name == 'TypeError' and comparison and text.endswith("'ndarray'"):
            text += HINT
        elif name == 'TypeError' and comparison and text.endswith(("'float64'", "'int64'")):
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

    SKIP = (type(len), type(math))
    NoneType = type(None)

    def scalar(t):
        return t is int or t is float or t is str or t is bool or t is bytes or t is NoneType

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
                if scalar(t):
                    continue
                budget -= 1
                if budget < 0:
                    return B('release', 1)
                i = id(v)
                if i in seen:
                    continue
                seen.add(i)
                if t is list or t is tuple or t is set or t is frozenset:
                    stack.extend(v)
                elif t is dict:
                    stack.extend(v.keys())
                    stack.extend(v.values())
                elif not isinstance(v, SKIP):
                    # an ndarray (a subclass too), a Generator, any other object or class: what it holds
                    # itself, its handle included, never through its class (members())
                    d = members(v)
                    if d is not None:
                        if isinstance(v, ndarray) or t is Generator:
                            h = named(d, '_h')
                            if type(h) is int:
                                kept.append(h)
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
            if t is f64 or t is i64:  # numpy's scalars keep their number in _v: read there, not through their class
                x = named(members(v), '_v')
                if type(x) is float or type(x) is int:
                    v, t = x, type(x)
            h = named(members(v), '_h') if t is ndarray else None
            if v is None:
                out.append('N')
            elif t is bool:
                out.append('b')
                out.append(v)
            elif type(h) is int:
                flush()
                B('emit_array', h)
            elif t is float:
                out.append('f')
                out.append(v)
            elif t is int:
                out.append('i')
                out.append(v if -2147483648 < v < 2147483648 else float(v))
            elif t is str:
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

    # ---- the helpers the trusted side's rewrite of CPython-only syntax calls (rewrite.mjs)

    def display(kind, *parts):
        """A tuple/list/set/dict display with unpacking: plain groups and unpacked items in turn."""
        if kind == 'd':
            d = {}
            for p in parts:
                if not hasattr(p, 'keys'):
                    raise TypeError("'" + type(p).__name__ + "' object is not a mapping")
                for k in p.keys():
                    d[k] = p[k]
            return d
        out = []
        for p in parts:
            out.extend(p)
        return tuple(out) if kind == 't' else set(out) if kind == 's' else out

    def metabase(meta):
        """The base that `metaclass=meta` stands for: MicroPython's class statement takes no metaclass."""
        if meta is type:
            return object
        base = getattr(meta, '_attnlab_base', None)
        if base is None:
            raise TypeError('metaclass=' + getattr(meta, '__name__', 'a metaclass') + ' is not supported by this runtime '
                            '(MicroPython has no metaclasses; abc.ABCMeta works): define the class without it')
        return base

    class Subscripted:
        def __init__(self, cls):
            self.cls = cls

        def __getitem__(self, key):
            return self.cls

    def finish_enums(g):
        if 'enum' not in allowed:
            return
        enum = allowed['enum']
        for v in list(g.values()):
            if isinstance(v, type) and v is not enum.Enum and issubclass(v, enum.Enum):
                finish_enum(v)

    def finish_enum(cls):
        return module('enum')._finish(cls, state['order'].get(cls.__name__))

    # ---- the work count's ticks (grader/tracks/work.mjs): rewrite.mjs's tickLoops makes every `for` (a
    # statement's and a comprehension's) iterate over `__attnlab_tk__(…)` and every `while` test
    # `__attnlab_tw__() and (…)`. A tick adds 1 here; every TICK_CHUNK ticks (counted from the request's
    # start, so the same on every host) and when the request ends they are charged to the realm's
    # counter through the bridge (op 'work'), which refuses once the budget is spent: WorkStop then, a
    # BaseException (`except Exception` does not catch it), and every later tick charges and raises again.

    class WorkStop(BaseException):
        pass

    TICK_CHUNK = 1024
    ticks = 0
    cap = TICK_CHUNK

    def charge_ticks():
        nonlocal ticks, cap
        n = ticks
        ticks = 0
        if B('work', n) is None:
            cap = 0
            raise WorkStop('the work budget of this call is spent')

    def tick_while():
        nonlocal ticks
        ticks += 1
        if ticks >= cap:
            charge_ticks()
        return True

    ENTRY_TICKS = 8  # a call: some 5 µs, as many loop iterations (tools/work-budget's recursion)

    def tick_entry():
        nonlocal ticks
        ticks += ENTRY_TICKS
        if ticks >= cap:
            charge_ticks()
        return True

    def ticked(it):
        nonlocal ticks
        for x in it:
            ticks += 1
            if ticks >= cap:
                charge_ticks()
            yield x

    HELPERS = {'__attnlab_display__': display, '__attnlab_metabase__': metabase,
               '__attnlab_generic__': Subscripted, '__attnlab_enum__': finish_enum,
               '__attnlab_tk__': ticked, '__attnlab_tw__': tick_while, '__attnlab_te__': tick_entry}

    def load(source, wanted):
        g = {'__name__': '__main__'}
        g.update(HELPERS)
        state['globals'] = g
        state['fields'] = dataclass_fields(source) if 'dataclass' in source else {}
        state['order'] = dataclass_fields(source, True) if 'Enum' in source or 'Flag' in source else {}
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
        finish_enums(g)
        found = []
        for n in wanted.split(','):
            if n and callable(named(g, n)):
                found.append(n)
        B('functions', ','.join(found))

    # ---- a measured call: the interpreter's heap (lists, numbers, objects) sampled while the function
    # runs, and once when it returns; kept.heap is its highest above the start. This build
    # (MICROPY_GC_SPLIT_HEAP_AUTO) collects only when a call from JavaScript has returned (README.md,
    # Lifetime), so a sample is what the call has allocated so far, its garbage included (no collect()
    # here: inside a call it would only ask for a full collection once the call returns). It is taken at every 32nd call
    # into numpy, then at every 64th after 32 samples, and so on: counted in calls, so the same for every
    # run and host, while a structure kept across a computation is seen. Each call into numpy leaves its
    # garbage (its arguments, the answer's string, the ndarray's object: measured 130-150 bytes per
    # numpy operation in a loop, some 110 more when it answers a scalar, as a string; no leak of the npm
    # glue: the collection after the call frees it), so a sample leaves out PER_CALL bytes for each call
    # so far and as many again for each string answer: a loop's calls into numpy are not the student's
    # data.

    PER_CALL = 256

    def metered(fn, args):
        base = mem_alloc()
        peak = [base]
        state = [0, 31, 0, 0]  # calls into numpy, the sampling mask, samples taken, string answers

        def sample():
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
        fn = named(g, name)
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
        nonlocal ticks, cap
        forget()
        if op == 'release':
            return release()
        ticks = 0
        cap = TICK_CHUNK
        state['globals'].update(HELPERS)  # a submission that rebound a tick (through globals()) escapes the count for one request at most
        try:
            return load(a, b) if op == 'load' else call(a, b == 'measure')
        finally:
            B('work', ticks)  # the ticks since the last charge (past the budget: the guest answers timeout)
            ticks = 0

    globals().clear()
    return serve
