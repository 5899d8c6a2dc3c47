# numpy for the attnlab Python track: NumPy's names, keyword arguments and printed form over the
# project's one array engine (grader/np, JavaScript), reached through the bridge of bridge.mjs.
# An ndarray holds an opaque integer handle into the bridge's table, never a JavaScript object.
#
# The guest imports this module once per sandbox realm, then calls _build(bridge, struct) and puts
# what it returns into the module: every function below closes over the bridge, so nothing a student
# can reach (module globals, a function's __globals__, a class's __dict__) leads to it.
# What is not here raises AttributeError naming an alternative; see README.md beside this file.


def _build(B, struct):
    _unpack = struct.unpack
    _pack = struct.pack
    _fromhex = bytes.fromhex
    _len = len
    _isinstance = isinstance
    _range = range
    _max = max

    class AxisError(ValueError):
        pass

    class UFuncTypeError(TypeError):
        pass

    class WorkStop(BaseException):  # the work budget is spent (bridge.mjs): not an Exception, so `except Exception` lets it through
        pass

    ERRORS = {
        'WorkStop': WorkStop,
        'ValueError': ValueError, 'TypeError': TypeError, 'IndexError': IndexError, 'AxisError': AxisError,
        'MemoryError': MemoryError, 'UFuncTypeError': UFuncTypeError, 'RuntimeError': RuntimeError,
    }

    def fail():
        name, _, message = B('error').partition('\x00')
        raise ERRORS.get(name, RuntimeError)(message)

    def call(*args):
        r = B(*args)
        if r is None:
            fail()
        return r

    # ------------------------------------------------------------------ dtypes and scalars

    NAMES = {
        'float64': 'float64', 'float': 'float64', 'f8': 'float64', 'double': 'float64', 'd': 'float64', 'float_': 'float64',
        'int64': 'int64', 'int': 'int64', 'i8': 'int64', 'long': 'int64', 'int_': 'int64',
        'bool': 'bool', 'bool_': 'bool', '?': 'bool', 'b1': 'bool',
        # accepted names, computed in float64 (README, Deviations)
        'float32': 'float64', 'f4': 'float64', 'single': 'float64',
    }

    class dtype:
        def __init__(self, obj):
            self.name = dtype_name(obj, 'dtype')

        @property
        def kind(self):
            return {'float64': 'f', 'int64': 'i', 'bool': 'b'}[self.name]

        @property
        def itemsize(self):
            return 1 if self.name == 'bool' else 8

        @property
        def type(self):
            return SCALARS[self.name]

        def __eq__(self, other):
            try:
                return dtype_name(other, 'dtype') == self.name
            except TypeError:
                return False

        def __ne__(self, other):
            return not self.__eq__(other)

        def __hash__(self):
            return hash(self.name)

        def __str__(self):
            return self.name

        def __repr__(self):
            return "dtype('" + self.name + "')"

    def dtype_name(d, where):
        if d is None:
            return None
        if _isinstance(d, dtype):
            return d.name
        if d is float or d is float64:
            return 'float64'
        if d is int or d is int64:
            return 'int64'
        if d is bool:
            return 'bool'
        if _isinstance(d, str) and d in NAMES:
            return NAMES[d]
        shown = repr(d) if _isinstance(d, str) else getattr(d, '__name__', repr(d))
        raise TypeError(where + ': dtype ' + shown + ' is not available in this runtime; use float64, int64 or bool')

    # Scalars: subclasses of Python's float and int that keep their value in _v (MicroPython converts a
    # subclass only through __float__ / __int__). Their arithmetic, from either side, is the engine's:
    # `1 / np.sqrt(d)`, `2 * x.sum()` and `x.max() - 1` give NumPy scalars with NumPy's dtype rules
    # (MicroPython tries the reflected method for arithmetic, not for comparisons: `3 < x.sum()` is
    # README's deviation 1). Printed by the engine, as NumPy prints them.
    def scalar_op(name, reflect):
        def op(self, other):
            try:
                t, v = operand(other, name)
            except TypeError:
                return NotImplemented
            me = operand(self, name)
            return result(call('bin', name, t, v, *me) if reflect else call('bin', name, me[0], me[1], t, v))
        return op

    def scalar_un(name):
        def op(self):
            t, v = operand(self, name)
            return result(call('un', name, t, v))
        return op

    def scalar_attr(self, name):
        # the methods of a 0-d array: np.exp(m).sum(), x.max().round(3), s.reshape(1)
        if name[:1] == '_':
            raise AttributeError(name)
        return getattr(asarr(self, name), name)

    class float64(float):
        def __init__(self, v=0.0):
            self._v = v + 0.0 if type(v) is float else float(v)

        def __float__(self):
            return self._v

        def __int__(self):
            return int(self._v)

        def __repr__(self):
            return B('pyfloat', self._v)

        def __str__(self):
            return B('pyfloat', self._v)

        dtype = property(lambda self: dtype('float64'))
        shape = property(lambda self: ())
        ndim = property(lambda self: 0)
        size = property(lambda self: 1)

        def item(self):
            return self._v

        def tolist(self):
            return self._v

        def astype(self, d):
            return scalar_as(self._v, dtype_name(d, 'astype'))

    class int64(int):
        def __init__(self, v=0):
            self._v = int(v)

        def __float__(self):
            return float(self._v)

        def __int__(self):
            return self._v

        dtype = property(lambda self: dtype('int64'))
        shape = property(lambda self: ())
        ndim = property(lambda self: 0)
        size = property(lambda self: 1)

        def item(self):
            return self._v

        def tolist(self):
            return self._v

        def astype(self, d):
            return scalar_as(self._v, dtype_name(d, 'astype'))

    for cls in (float64, int64):
        for op, name in (('add', 'add'), ('sub', 'subtract'), ('mul', 'multiply'), ('truediv', 'divide'),
                         ('floordiv', 'floor_divide'), ('mod', 'remainder'), ('pow', 'power')):
            setattr(cls, '__' + op + '__', scalar_op(name, False))
            setattr(cls, '__r' + op + '__', scalar_op(name, True))
        cls.__getattr__ = scalar_attr
        cls.__neg__ = scalar_un('negative')
        cls.__abs__ = scalar_un('absolute')
        cls.__pos__ = lambda self: self

    SCALARS = {'float64': float64, 'int64': int64, 'bool': bool}

    def scalar_as(v, name):
        if name == 'bool':
            return bool(v)
        if name == 'int64':
            return int64(int(v))
        return float64(float(v))

    def result(r):
        """A bridge answer: a handle → ndarray, a scalar's text → np.float64 / np.int64 / bool."""
        if r is None:
            fail()
        if type(r) is int:
            return wrap(r)
        k = r[0]
        if k == 'L':
            return [wrap(int(h)) for h in r[1:].split(',') if h]
        if k == 'f':
            return float64(_unpack('<d', _fromhex(r[1:]))[0])
        if k == 'i':
            return int64(int(r[1:]))
        return r[1] == '1'

    # ------------------------------------------------------------------ operands

    BIG = 2 ** 31

    COMPLEX = ': complex numbers are not supported by this runtime (its arrays are float64, int64 or bool)'

    def operand(x, where):
        """(tag, value) for the bridge: 'a' handle, 'f' float, 'i' int, 'b' bool."""
        t = type(x)
        if t is ndarray:
            return 'a', x._h
        if t is complex:
            raise TypeError(where + COMPLEX)
        if t is bool:
            return 'b', x
        if _isinstance(x, float):
            return 'f', float(x)
        if _isinstance(x, int):
            x = int(x)
            return ('i', x) if -BIG < x < BIG else ('i', float(x))
        if _isinstance(x, (list, tuple)):
            return 'a', from_python(x, None, where)._h
        raise TypeError(where + ': expected an array, a number or a list of numbers, got ' + type(x).__name__)

    def asarr(x, where):
        if type(x) is ndarray:
            return x
        if _isinstance(x, (list, tuple)):
            return from_python(x, None, where)
        return wrap(call('fromhex', operand_dtype(x, where), 0, _pack('<d', float(x)).hex()))

    def operand_dtype(x, where):
        if type(x) is complex:
            raise TypeError(where + COMPLEX)
        if type(x) is bool:
            return 'bool'
        if _isinstance(x, float):
            return 'float64'
        if _isinstance(x, int):
            return 'int64'
        raise TypeError(where + ': expected an array, a number or a list of numbers, got ' + type(x).__name__)

    def from_python(obj, name, where):
        """np.array(nested lists): the shape from the first elements, checked everywhere (NumPy's ragged error)."""
        shape = []
        x = obj
        while _isinstance(x, (list, tuple)):
            shape.append(_len(x))
            if not x:
                break
            x = x[0]
        if type(x) is ndarray:
            shape.extend(x.shape)
        flat = []
        kind = [-1]

        def ragged(depth):
            dims = shape[:depth]
            return ValueError(where + ': setting an array element with a sequence. The requested array has an inhomogeneous shape after '
                              + str(depth) + ' dimensions. The detected shape was ' + shape_text(dims) + ' + inhomogeneous part.')

        def fill(v, depth):
            if type(v) is ndarray:
                if tuple(shape[depth:]) != v.shape:
                    raise ragged(depth)
                flat.extend(float_data(v))
                kind[0] = _max(kind[0], {'bool': 0, 'int64': 1, 'float64': 2}[v.dtype.name])
            elif depth == _len(shape):
                t = type(v)
                if t is bool:
                    kind[0] = _max(kind[0], 0)
                    flat.append(1.0 if v else 0.0)
                elif _isinstance(v, float):
                    kind[0] = 2
                    flat.append(float(v))
                elif _isinstance(v, int):
                    kind[0] = _max(kind[0], 1)
                    flat.append(float(v))
                elif _isinstance(v, (list, tuple)):
                    raise ragged(depth)
                else:
                    raise TypeError(where + ': an element is ' + type(v).__name__ + '; this runtime makes arrays of numbers and booleans only')
            else:
                if not _isinstance(v, (list, tuple)) or _len(v) != shape[depth]:
                    raise ragged(depth)
                for e in v:
                    fill(e, depth + 1)

        fill(obj, 0)
        d = name or ('float64', 'bool', 'int64', 'float64')[kind[0] + 1]
        return wrap(call('fromhex', d, _len(shape), *shape, pack_floats(flat)))

    def pack_floats(flat):
        out = []
        for i in _range(0, _len(flat), 4096):
            part = flat[i:i + 4096]
            out.append(_pack('<%dd' % _len(part), *part).hex())
        return ''.join(out)

    def float_data(a):
        n = a.size
        return _unpack('<%dd' % n, _fromhex(call('hex', a._h))) if n else ()

    def shape_text(s):
        return '(' + ','.join(str(d) for d in s) + (',)' if _len(s) == 1 else ')')

    def shape_of(s, where):
        if _isinstance(s, int) and type(s) is not bool:
            return (int(s),)
        if _isinstance(s, (list, tuple)):
            out = []
            for d in s:
                if not _isinstance(d, int) or type(d) is bool:
                    raise TypeError("'" + type(d).__name__ + "' object cannot be interpreted as an integer")
                out.append(int(d))
            return tuple(out)
        if type(s) is ndarray:
            return shape_of(s.tolist(), where)
        raise TypeError("'" + type(s).__name__ + "' object cannot be interpreted as an integer")

    def axes_of(axis):
        """Axis arguments for the bridge: (-1,) for None, (n, a1, …) otherwise."""
        if axis is None:
            return (-1,)
        if _isinstance(axis, (list, tuple)):
            return (_len(axis),) + tuple(int(a) for a in axis)
        if not _isinstance(axis, int) or type(axis) is bool:
            raise TypeError("'" + type(axis).__name__ + "' object cannot be interpreted as an integer")
        return (1, int(axis))

    def unsupported(where, **given):
        for k in given:
            if given[k] is not None:
                raise TypeError(where + '(): the argument ' + k + '= is not available in this runtime')

    # ------------------------------------------------------------------ ndarray

    def index_args(key, where):
        items = key if type(key) is tuple else (key,)
        out = [_len(items)]
        for k in items:
            t = type(k)
            if t is bool:
                out += ['b', k]
            elif t is slice:
                out += ['s', slice_part(k.start), slice_part(k.stop), slice_part(k.step)]
            elif k is Ellipsis:
                out.append('e')
            elif k is None:
                out.append('n')
            elif t is ndarray:
                if k.ndim == 0 and k.dtype.name == 'int64':
                    out += ['i', int(k.item())]
                else:
                    out += ['a', k._h]
            elif _isinstance(k, int):
                out += ['i', int(k)]
            elif _isinstance(k, (list, tuple)):
                out += ['a', from_python(k, None, where)._h]
            else:
                raise IndexError('only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices')
        return out

    def slice_part(v):
        if v is None:
            return None
        if type(v) is ndarray:
            v = v.item()
        if not _isinstance(v, int) or type(v) is bool:
            raise TypeError('slice indices must be integers or None or have an __index__ method')
        return int(v)

    def binop(name):
        def op(self, other):
            try:
                t, v = operand(other, name)
            except TypeError:
                return NotImplemented
            return result(call('bin', name, 'a', self._h, t, v))
        return op

    def rbinop(name):
        def op(self, other):
            try:
                t, v = operand(other, name)
            except TypeError:
                return NotImplemented
            return result(call('bin', name, t, v, 'a', self._h))
        return op

    def iop(name):
        def op(self, other):
            t, v = operand(other, name)
            call('iop', name, self._h, t, v)
            return self
        return op

    def logic(logical, reflect=False):
        def op(self, other):
            try:
                t, v = operand(other, logical)
            except TypeError:
                return NotImplemented
            if self.dtype.name != 'bool' or not (t == 'b' or (t == 'a' and wrap_meta(v)[0] == 'bool')):
                raise TypeError("ufunc '" + {'logical_and': 'bitwise_and', 'logical_or': 'bitwise_or', 'logical_xor': 'bitwise_xor'}[logical]
                                + "': this runtime has the bitwise operators for bool arrays only; use np." + logical + ' or compare first')
            args = (t, v, 'a', self._h) if reflect else ('a', self._h, t, v)
            return result(call('bin', logical, *args))
        return op

    def wrap_meta(h):
        d, _, s = call('meta', h).partition(';')
        return d, tuple(int(x) for x in s.split(',')) if s else ()

    NOT_IN_NDARRAY = ('nonzero', 'fill', 'view', 'conj', 'real', 'imag',
                      'ptp', 'trace', 'diagonal', 'choose', 'compress', 'take', 'put', 'searchsorted', 'flat')

    class ndarray:
        def __init__(self, *args, **kwargs):
            raise TypeError('np.ndarray(...) is not available in this runtime; use np.empty(shape) or np.array(list)')

        def __getattr__(self, name):
            if name in NOT_IN_NDARRAY:
                raise AttributeError('ndarray.' + name + ' is not available in this runtime')
            raise AttributeError("'numpy.ndarray' object has no attribute '" + name + "'")

        # ---- what it is
        @property
        def shape(self):
            return self._meta()[1]

        @property
        def dtype(self):
            return dtype(self._meta()[0])

        @property
        def ndim(self):
            return _len(self._meta()[1])

        @property
        def size(self):
            n = 1
            for d in self._meta()[1]:
                n *= d
            return n

        @property
        def itemsize(self):
            return 1 if self._meta()[0] == 'bool' else 8

        @property
        def nbytes(self):
            return self.size * self.itemsize

        @property
        def T(self):
            return wrap(call('transpose', self._h, -1))

        def _meta(self):
            m = self._m
            if m is None:
                m = self._m = wrap_meta(self._h)
            return m

        # ---- conversions
        def __repr__(self):
            return call('repr', self._h)

        def __str__(self):
            return call('str', self._h)

        def __len__(self):
            s = self.shape
            if not s:
                raise TypeError('len() of unsized object')
            return s[0]

        def __iter__(self):
            s = self.shape
            if not s:
                raise TypeError('iteration over a 0-d array')
            for i in _range(s[0]):
                yield self[i]

        def __bool__(self):
            if self.size != 1:
                raise ValueError('The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()')
            return bool(self.item())

        # No __float__: MicroPython converts the right operand of `2.0 * a` with it (and would take a
        # size-1 array for a number) instead of calling a.__rmul__; float(a) therefore needs a.item().

        def __int__(self):
            if self.size != 1:
                raise TypeError('only size-1 arrays can be converted to Python scalars')
            return int(self.item())

        def __contains__(self, value):
            return bool((self == value).any())

        def item(self, *args):
            if _len(args) == 1 and type(args[0]) is tuple:
                args = args[0]
            if _len(args) == 1:
                a = self.ravel()  # a flat index
            elif args:
                a = self[args]
            else:
                a = self
            if _len(args) == 1:
                a = a[args[0]]
            elif a.size != 1:
                raise ValueError('can only convert an array of size 1 to a Python scalar')
            if type(a) is not ndarray:
                return a.item() if _isinstance(a, (float64, int64)) else a
            v = float_data(a)[0]
            name = a._meta()[0]
            return v != 0 if name == 'bool' else int(v) if name == 'int64' else v

        def tolist(self):
            vals = float_data(self)
            name = self._meta()[0]
            conv = (lambda v: v != 0) if name == 'bool' else (lambda v: int(v)) if name == 'int64' else (lambda v: v)
            shape = self.shape
            if not shape:
                return conv(vals[0])
            pos = [0]

            def nest(axis):
                if axis == _len(shape) - 1:
                    start = pos[0]
                    pos[0] += shape[axis]
                    return [conv(v) for v in vals[start:start + shape[axis]]]
                return [nest(axis + 1) for _ in _range(shape[axis])]
            return nest(0)

        def astype(self, d):
            return wrap(call('astype', self._h, dtype_name(d, 'astype')))

        def copy(self):
            return wrap(call('copy', self._h))

        # ---- indexing
        # Integer keys (`Q[i]`, `M[i, j]`: a student's inner loop) skip the general index encoding.
        def __getitem__(self, key):
            t = type(key)
            if t is int:
                return result(call('getitem', self._h, 1, 'i', key))
            if t is tuple and _len(key) == 2 and type(key[0]) is int and type(key[1]) is int:
                return result(call('getitem', self._h, 2, 'i', key[0], 'i', key[1]))
            return result(call('getitem', self._h, *index_args(key, 'getitem')))

        def __setitem__(self, key, value):
            t, v = operand(value, 'setitem')
            k = type(key)
            if k is int:
                call('setitem', self._h, t, v, 1, 'i', key)
            elif k is tuple and _len(key) == 2 and type(key[0]) is int and type(key[1]) is int:
                call('setitem', self._h, t, v, 2, 'i', key[0], 'i', key[1])
            else:
                call('setitem', self._h, t, v, *index_args(key, 'setitem'))

        # ---- shapes
        def reshape(self, *shape, order='C'):
            s = shape_of(shape[0] if _len(shape) == 1 else shape, 'reshape')
            return wrap(call('reshape', self._h, _len(s), *s))

        def transpose(self, *axes):
            if _len(axes) == 1 and (axes[0] is None or _isinstance(axes[0], (list, tuple))):
                axes = axes[0]
            return wrap(call('transpose', self._h, *axes_of(tuple(axes) if axes else None)))

        def swapaxes(self, axis1, axis2):
            return wrap(call('swapaxes', self._h, int(axis1), int(axis2)))

        def ravel(self):
            return wrap(call('ravel', self._h))

        def flatten(self):
            return wrap(call('flatten', self._h))

        def squeeze(self, axis=None):
            return wrap(call('squeeze', self._h, *axes_of(axis)))

        # ---- element-wise and reductions
        __add__ = binop('add'); __radd__ = rbinop('add'); __iadd__ = iop('add')
        __sub__ = binop('subtract'); __rsub__ = rbinop('subtract'); __isub__ = iop('subtract')
        __mul__ = binop('multiply'); __rmul__ = rbinop('multiply'); __imul__ = iop('multiply')
        __truediv__ = binop('divide'); __rtruediv__ = rbinop('divide'); __itruediv__ = iop('divide')
        __floordiv__ = binop('floor_divide'); __rfloordiv__ = rbinop('floor_divide'); __ifloordiv__ = iop('floor_divide')
        __mod__ = binop('remainder'); __rmod__ = rbinop('remainder'); __imod__ = iop('remainder')
        __pow__ = binop('power'); __rpow__ = rbinop('power'); __ipow__ = iop('power')
        __lt__ = binop('less'); __le__ = binop('less_equal'); __gt__ = binop('greater'); __ge__ = binop('greater_equal')
        __eq__ = binop('equal'); __ne__ = binop('not_equal')
        __and__ = logic('logical_and'); __rand__ = logic('logical_and', True)
        __or__ = logic('logical_or'); __ror__ = logic('logical_or', True)
        __xor__ = logic('logical_xor'); __rxor__ = logic('logical_xor', True)

        def __matmul__(self, other):
            try:
                t, v = operand(other, 'matmul')
            except TypeError:
                return NotImplemented
            return result(call('matmul', 'a', self._h, t, v))

        def __rmatmul__(self, other):
            try:
                t, v = operand(other, 'matmul')
            except TypeError:
                return NotImplemented
            return result(call('matmul', t, v, 'a', self._h))

        def __neg__(self):
            return result(call('un', 'negative', 'a', self._h))

        def __pos__(self):
            return self.copy()

        def __abs__(self):
            return result(call('un', 'absolute', 'a', self._h))

        def __invert__(self):
            if self.dtype.name != 'bool':
                raise TypeError("ufunc 'invert' is available in this runtime for bool arrays only (for numbers use -x - 1)")
            return result(call('un', 'logical_not', 'a', self._h))

        def max(self, axis=None, out=None, keepdims=False):
            return reduce('max', self, axis, keepdims, out=out)

        def min(self, axis=None, out=None, keepdims=False):
            return reduce('min', self, axis, keepdims, out=out)

        def sum(self, axis=None, dtype=None, out=None, keepdims=False):
            return reduce('sum', self, axis, keepdims, dtype=dtype, out=out)

        def prod(self, axis=None, dtype=None, out=None, keepdims=False):
            return reduce('prod', self, axis, keepdims, dtype=dtype, out=out)

        def mean(self, axis=None, dtype=None, out=None, keepdims=False):
            return reduce('mean', self, axis, keepdims, dtype=dtype, out=out)

        def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
            return reduce('var', self, axis, keepdims, ddof, dtype=dtype, out=out)

        def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
            return reduce('std', self, axis, keepdims, ddof, dtype=dtype, out=out)

        def any(self, axis=None, out=None, keepdims=False):
            return reduce('any', self, axis, keepdims, out=out)

        def all(self, axis=None, out=None, keepdims=False):
            return reduce('all', self, axis, keepdims, out=out)

        def argmax(self, axis=None, out=None, keepdims=False):
            return arg('argmax', self, axis, out, keepdims)

        def argmin(self, axis=None, out=None, keepdims=False):
            return arg('argmin', self, axis, out, keepdims)

        def round(self, decimals=0, out=None):
            return around(self, decimals, out)

        def clip(self, min=None, max=None, out=None):
            return clip(self, min, max, out)

        def dot(self, b, out=None):
            return dot(self, b, out)

        def repeat(self, repeats, axis=None):
            return repeat(self, repeats, axis)

        def cumsum(self, axis=None, dtype=None, out=None):
            return cumsum(self, axis, dtype, out)

        def cumprod(self, axis=None, dtype=None, out=None):
            return cumprod(self, axis, dtype, out)

        def argsort(self, axis=-1, kind=None, order=None):
            return argsort(self, axis, kind, order)

        def sort(self, axis=-1, kind=None, order=None):
            self[...] = sort(self, axis, kind, order)

        def argpartition(self, kth, axis=-1, kind='introselect', order=None):
            return argpartition(self, kth, axis, kind, order)

        def partition(self, kth, axis=-1, kind='introselect', order=None):
            self[...] = partition(self, kth, axis, kind, order)

    def wrap(h):
        a = object.__new__(ndarray)
        a._h = h
        a._m = None
        return a

    # ------------------------------------------------------------------ functions

    def reduce(name, a, axis, keepdims, ddof=0, **given):
        unsupported(name, **given)
        a = asarr(a, name)
        return result(call('reduce', name, a._h, bool(keepdims), ddof, *axes_of(axis)))

    def arg(name, a, axis, out, keepdims):
        unsupported(name, out=out)
        a = asarr(a, name)
        return result(call('arg', name, a._h, None if axis is None else int(axis), bool(keepdims)))

    def ufunc1(name):
        def f(x, out=None, **kwargs):
            unsupported(name, out=out, **kwargs)
            t, v = operand(x, name)
            return result(call('un', name, t, v))
        return f

    def ufunc2(name):
        def f(x1, x2, out=None, **kwargs):
            unsupported(name, out=out, **kwargs)
            ta, va = operand(x1, name)
            tb, vb = operand(x2, name)
            return result(call('bin', name, ta, va, tb, vb))
        return f

    def array(object, dtype=None, copy=True, ndmin=0):
        name = dtype_name(dtype, 'array')
        if type(object) is ndarray:
            if name and name != object.dtype.name:
                return object.astype(name)
            return object.copy() if copy else object
        if _isinstance(object, (list, tuple)):
            a = from_python(object, name, 'array')
        else:
            a = asarr(object, 'array')
            if name:
                a = a.astype(name)
        while a.ndim < ndmin:
            a = a[None]
        return a

    def asarray(a, dtype=None):
        return array(a, dtype, copy=False)

    def filled(kind, shape, dt, fill=0):
        s = shape_of(shape, kind)
        t, v = operand(fill, kind) if kind == 'full' else ('i', 0)
        return wrap(call('filled', kind, dtype_name(dt, kind) or '', t, v, _len(s), *s))

    def zeros(shape, dtype=float, order='C'):
        return filled('zeros', shape, dtype)

    def ones(shape, dtype=float, order='C'):
        return filled('ones', shape, dtype)

    def empty(shape, dtype=float, order='C'):
        return filled('zeros', shape, dtype)

    def full(shape, fill_value, dtype=None, order='C'):
        return filled('full', shape, dtype, fill_value)

    def like(kind, a, dt, fill=0):
        a = asarr(a, kind + '_like')
        t, v = operand(fill, kind + '_like')
        return wrap(call('like', kind, a._h, dtype_name(dt, kind + '_like') or '', t, v))

    def zeros_like(a, dtype=None):
        return like('zeros', a, dtype)

    def ones_like(a, dtype=None):
        return like('ones', a, dtype)

    def empty_like(a, dtype=None):
        return like('zeros', a, dtype)

    def full_like(a, fill_value, dtype=None):
        return like('full', a, dtype, fill_value)

    def eye(N, M=None, k=0, dtype=float):
        return wrap(call('eye', int(N), -1 if M is None else int(M), int(k), dtype_name(dtype, 'eye')))

    def identity(n, dtype=float):
        return eye(n, dtype=dtype)

    def arange(start, stop=None, step=None, dtype=None):
        if stop is None:
            start, stop = 0, start
        step = 1 if step is None else step
        for v in (start, stop, step):
            if not _isinstance(v, (int, float)) or type(v) is bool:
                raise TypeError('arange: start, stop and step must be numbers')
        if step == 0:
            raise ZeroDivisionError('division by zero')
        exact = all_int(start, stop, step)
        name = dtype_name(dtype, 'arange') or ('int64' if exact else 'float64')
        return wrap(call('arange', float(start), float(stop), float(step), name))

    def all_int(*vs):
        for v in vs:
            if not _isinstance(v, int):
                return False
        return True

    def linspace(start, stop, num=50, endpoint=True, dtype=None):
        return wrap(call('linspace', float(start), float(stop), int(num), bool(endpoint), dtype_name(dtype, 'linspace') or ''))

    def tril(m, k=0):
        return wrap(call('tri', 'tril', asarr(m, 'tril')._h, int(k)))

    def triu(m, k=0):
        return wrap(call('tri', 'triu', asarr(m, 'triu')._h, int(k)))

    def copy(a):
        return asarr(a, 'copy').copy()

    def where(condition, x=None, y=None):
        if x is None and y is None:
            return nonzero(condition)
        if x is None or y is None:
            raise ValueError('either both or neither of x and y should be given')
        tc, vc = operand(condition, 'where')
        ta, va = operand(x, 'where')
        tb, vb = operand(y, 'where')
        return result(call('where', tc, vc, ta, va, tb, vb))

    def nonzero(a):
        text = call('nonzero', asarr(a, 'nonzero')._h)
        return tuple(wrap(int(h)) for h in text.split(','))

    def matmul(x1, x2, out=None):
        unsupported('matmul', out=out)
        ta, va = operand(x1, 'matmul')
        tb, vb = operand(x2, 'matmul')
        return result(call('matmul', ta, va, tb, vb))

    def dot(a, b, out=None):
        unsupported('dot', out=out)
        ta, va = operand(a, 'dot')
        tb, vb = operand(b, 'dot')
        return result(call('dot', ta, va, tb, vb))

    def around(a, decimals=0, out=None):
        unsupported('round', out=out)
        t, v = operand(a, 'round')
        return result(call('round', t, v, int(decimals)))

    def clip(a, a_min, a_max, out=None):
        unsupported('clip', out=out)
        if a_min is None and a_max is None:
            raise ValueError('One of max or min must be given')
        lo = operand(a_min, 'clip') if a_min is not None else ('none', 0)
        hi = operand(a_max, 'clip') if a_max is not None else ('none', 0)
        return result(call('clip', asarr(a, 'clip')._h, lo[0], lo[1], hi[0], hi[1]))

    def reshape(a, newshape, order='C'):
        return asarr(a, 'reshape').reshape(newshape)

    def transpose(a, axes=None):
        return asarr(a, 'transpose').transpose(axes)

    def swapaxes(a, axis1, axis2):
        return asarr(a, 'swapaxes').swapaxes(axis1, axis2)

    def expand_dims(a, axis):
        a = asarr(a, 'expand_dims')
        for ax in (axis if _isinstance(axis, (list, tuple)) else (axis,)):
            a = wrap(call('expand_dims', a._h, int(ax)))
        return a

    def squeeze(a, axis=None):
        return asarr(a, 'squeeze').squeeze(axis)

    def ravel(a):
        return asarr(a, 'ravel').ravel()

    def outer(a, b):
        # NumPy flattens both: out[i, j] = a.flat[i] * b.flat[j] (the lesson's angle table, positions × frequencies).
        return asarr(a, 'outer').ravel()[:, None] * asarr(b, 'outer').ravel()[None, :]

    def concatenate(arrays, axis=0, out=None):
        unsupported('concatenate', out=out)
        hs = [asarr(a, 'concatenate')._h for a in arrays]
        if not hs:
            raise ValueError('need at least one array to concatenate')
        return wrap(call('concatenate', None if axis is None else int(axis), _len(hs), *hs))

    def stack(arrays, axis=0, out=None):
        unsupported('stack', out=out)
        hs = [asarr(a, 'stack')._h for a in arrays]
        if not hs:
            raise ValueError('need at least one array to stack')
        return wrap(call('stack', int(axis), _len(hs), *hs))

    def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
        ta, va = operand(a, 'isclose')
        tb, vb = operand(b, 'isclose')
        return result(call('isclose', ta, va, tb, vb, float(rtol), float(atol), bool(equal_nan)))

    def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
        ta, va = operand(a, 'allclose')
        tb, vb = operand(b, 'allclose')
        return call('allclose', ta, va, tb, vb, float(rtol), float(atol), bool(equal_nan))

    def array_equal(a1, a2):
        ta, va = operand(a1, 'array_equal')
        tb, vb = operand(a2, 'array_equal')
        return call('array_equal', ta, va, tb, vb)

    def shape(a):
        return asarr(a, 'shape').shape

    def ndim(a):
        return asarr(a, 'ndim').ndim

    def size(a):
        return asarr(a, 'size').size

    def reducer(name):
        if name in ('var', 'std'):
            def f(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
                return reduce(name, a, axis, keepdims, ddof, dtype=dtype, out=out)
        elif name in ('max', 'min', 'any', 'all'):
            def f(a, axis=None, out=None, keepdims=False):
                return reduce(name, a, axis, keepdims, out=out)
        else:
            def f(a, axis=None, dtype=None, out=None, keepdims=False):
                return reduce(name, a, axis, keepdims, dtype=dtype, out=out)
        return f

    def argfunc(name):
        def f(a, axis=None, out=None, keepdims=False):
            return arg(name, a, axis, out, keepdims)
        return f

    # ------------------------------------------------------------------ more of the engine (bridge op 'np')

    def enc(v, out):
        t = type(v)
        if t is ndarray:
            out += ('a', v._h)
        elif v is None:
            out.append('n')
        elif t is bool:
            out += ('b', v)
        elif _isinstance(v, float):
            out += ('f', float(v))
        elif _isinstance(v, int):
            v = int(v)
            out += ('i', v) if -BIG < v < BIG else ('f', float(v))
        elif _isinstance(v, str):
            out += ('s', v)
        elif _isinstance(v, (list, tuple)):
            out += ('L', _len(v))
            for x in v:
                enc(x, out)
        else:
            raise TypeError("'" + type(v).__name__ + "' object cannot be interpreted as an integer")

    def engine(name, dt, *args, **kw):
        out = []
        for a in args:
            enc(a, out)
        for k in kw:
            out += ('k', k)
            enc(kw[k], out)
        return result(call('np', name, dt, *out))

    def arrays(seq, where):
        if type(seq) is ndarray:
            seq = list(seq)
        return [asarr(a, where) for a in seq]

    def scalar_dtype(x):
        return x.dtype.name if type(x) is ndarray else operand_dtype(x, 'nan_to_num')

    def split(ary, indices_or_sections, axis=0):
        if type(indices_or_sections) is int and indices_or_sections == 0:
            raise ZeroDivisionError('integer division or modulo by zero')
        return engine('split', '', asarr(ary, 'split'), indices_or_sections, axis=int(axis))

    def array_split(ary, indices_or_sections, axis=0):
        return engine('array_split', '', asarr(ary, 'array_split'), indices_or_sections, axis=int(axis))

    def hstack(tup):
        return engine('hstack', '', arrays(tup, 'hstack'))

    def vstack(tup):
        return engine('vstack', '', arrays(tup, 'vstack'))

    def column_stack(tup):
        return engine('column_stack', '', arrays(tup, 'column_stack'))

    def repeat(a, repeats, axis=None):
        return engine('repeat', '', asarr(a, 'repeat'), repeats, axis=None if axis is None else int(axis))

    def tile(A, reps):
        return engine('tile', '', asarr(A, 'tile'), reps)

    def broadcast_to(array, shape):
        return engine('broadcast_to', '', asarr(array, 'broadcast_to'), shape_of(shape, 'broadcast_to'))

    def broadcast_arrays(*args):
        return engine('broadcast_arrays', '', *arrays(args, 'broadcast_arrays'))

    def tri(N, M=None, k=0, dtype=float):
        return engine('tri', '', int(N), None if M is None else int(M), int(k), dtype_name(dtype, 'tri'))

    def tril_indices(n, k=0, m=None):
        return tuple(engine('tril_indices', '', int(n), int(k), None if m is None else int(m)))

    def triu_indices(n, k=0, m=None):
        return tuple(engine('triu_indices', '', int(n), int(k), None if m is None else int(m)))

    def meshgrid(*xi, indexing='xy'):
        return engine('meshgrid', '', *arrays(xi, 'meshgrid'), indexing=indexing)

    def cumulative(name, a, axis, dtype, out):
        unsupported(name, dtype=dtype, out=out)
        return engine(name, '', asarr(a, name), None if axis is None else int(axis))

    def cumsum(a, axis=None, dtype=None, out=None):
        return cumulative('cumsum', a, axis, dtype, out)

    def cumprod(a, axis=None, dtype=None, out=None):
        return cumulative('cumprod', a, axis, dtype, out)

    def sorting(name, a, axis, kth=None):
        a = asarr(a, name)
        axis = None if axis is None else int(axis)
        return engine(name, '', a, axis) if kth is None else engine(name, '', a, kth, axis)

    def sort(a, axis=-1, kind=None, order=None):
        return sorting('sort', a, axis)

    def argsort(a, axis=-1, kind=None, order=None):
        return sorting('argsort', a, axis)

    def partition(a, kth, axis=-1, kind='introselect', order=None):
        return sorting('partition', a, axis, kth)

    def argpartition(a, kth, axis=-1, kind='introselect', order=None):
        return sorting('argpartition', a, axis, kth)

    def take_along_axis(arr, indices, axis):
        return engine('take_along_axis', '', asarr(arr, 'take_along_axis'), asarr(indices, 'take_along_axis'), None if axis is None else int(axis))

    def logaddexp(x1, x2, out=None):
        unsupported('logaddexp', out=out)
        return engine('logaddexp', 'float64', x1 if _isinstance(x1, (int, float)) else asarr(x1, 'logaddexp'),
                      x2 if _isinstance(x2, (int, float)) else asarr(x2, 'logaddexp'))

    def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
        x = x if _isinstance(x, (int, float)) else asarr(x, 'nan_to_num')
        return engine('nan_to_num', scalar_dtype(x), x, nan=float(nan), posinf=None if posinf is None else float(posinf),
                      neginf=None if neginf is None else float(neginf))

    def einsum(subscripts, *operands, out=None, optimize=False):
        unsupported('einsum', out=out)
        if not _isinstance(subscripts, str):
            raise TypeError('einsum: this runtime takes the subscripts as a string, e.g. np.einsum("ij,jk->ik", a, b)')
        return engine('einsum', '', subscripts, *arrays(operands, 'einsum'))

    def norm(x, ord=None, axis=None, keepdims=False):
        if _isinstance(axis, int):
            axis = int(axis)
        elif axis is not None:
            axis = [int(a) for a in axis]
        return engine('norm', 'float64', asarr(x, 'norm'), ord=ord, axis=axis, keepdims=bool(keepdims))

    def vectorize(pyfunc, otypes=None):
        def f(*args):
            arrs = [asarr(a, 'vectorize') for a in args]
            shape = broadcast_arrays(*arrs)[0].shape if arrs else ()
            cols = [broadcast_to(a, shape).ravel().tolist() for a in arrs]
            vals = [pyfunc(*row) for row in zip(*cols)]
            return array(vals).reshape(shape) if shape else (vals[0] if vals else None)
        return f

    class LinalgModule:
        def __init__(self):
            self.norm = norm

        def __getattr__(self, name):
            raise AttributeError('numpy.linalg.' + name + ' is not available in this runtime; it has norm')

        def __repr__(self):
            return "<module 'numpy.linalg'>"

    # ------------------------------------------------------------------ random

    class Generator:
        def __init__(self, seed):
            self._h = call('rng', seed)

        def _draw(self, method, a, b, size):
            s = (-1,) if size is None else (lambda t: (_len(t),) + t)(shape_of(size, method))
            return result(call('draw', self._h, method, a, b, *s))

        def standard_normal(self, size=None, dtype=float):
            dtype_name(dtype, 'standard_normal')
            return self._draw('standard_normal', 0, 0, size)

        def normal(self, loc=0.0, scale=1.0, size=None):
            return self._draw('normal', float(loc), float(scale), size)

        def random(self, size=None):
            return self._draw('random', 0, 0, size)

        def uniform(self, low=0.0, high=1.0, size=None):
            return self._draw('uniform', float(low), float(high), size)

        def integers(self, low, high=None, size=None):
            if high is None:
                low, high = 0, low
            return self._draw('integers', int(low), int(high), size)

        def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
            if axis != 0:
                raise TypeError('choice: axis= is not available in this runtime')
            a = int(a) if _isinstance(a, int) and type(a) is not bool else asarr(a, 'choice')
            d = 'int64' if _isinstance(a, int) else a.dtype.name
            out = []
            enc(a, out)
            for k, v in (('size', None if size is None else list(shape_of(size, 'choice'))), ('replace', bool(replace)),
                         ('p', None if p is None else asarr(p, 'choice'))):
                out += ('k', k)
                enc(v, out)
            return result(call('choice', self._h, d, *out))

        def __getattr__(self, name):
            raise AttributeError('Generator.' + name + ' is not available in this runtime; it has standard_normal, normal, random, uniform, integers and choice')

    def default_rng(seed=None):
        if seed is not None and (not _isinstance(seed, int) or type(seed) is bool or seed < 0):
            raise TypeError('default_rng: the seed must be a non-negative integer or None')
        return Generator(0 if seed is None else seed % 4294967296)

    # np.random's own functions (np.random.seed(0); np.random.randn(3, 4)) draw from the bridge's
    # generator, handle 0: the engine's PRNG, seeded by np.random.seed (numbers other than NumPy's).
    legacy = object.__new__(Generator)
    legacy._h = 0

    def seed(seed=None):
        if seed is not None and (not _isinstance(seed, int) or type(seed) is bool or seed < 0):
            raise TypeError('np.random.seed: the seed must be a non-negative integer or None')
        call('seed', 0 if seed is None else seed % 4294967296)

    def dims(shape):
        return shape if shape else None

    def plain(v):
        # one number from np.random's functions is a Python float or int, as in NumPy
        return v if type(v) is ndarray else v.item()

    def randint(low, high=None, size=None, dtype=int):
        return plain(legacy.integers(low, high, size))

    class RandomModule:
        def __init__(self):
            self.default_rng = default_rng
            self.Generator = Generator
            self.seed = seed
            self.randn = lambda *shape: plain(legacy.standard_normal(dims(shape)))
            self.rand = lambda *shape: plain(legacy.random(dims(shape)))
            self.random = self.random_sample = self.sample = lambda size=None: plain(legacy.random(size))
            self.standard_normal = lambda size=None: plain(legacy.standard_normal(size))
            self.normal = lambda loc=0.0, scale=1.0, size=None: plain(legacy.normal(loc, scale, size))
            self.uniform = lambda low=0.0, high=1.0, size=None: plain(legacy.uniform(low, high, size))
            self.choice = lambda a, size=None, replace=True, p=None: plain(legacy.choice(a, size, replace, p))
            self.randint = randint

        def __getattr__(self, name):
            raise AttributeError('numpy.random.' + name + ' is not available in this runtime; it has seed, randn, rand, random, standard_normal, normal, uniform, randint, choice and default_rng (whose Generator has standard_normal, normal, random, uniform, integers and choice)')

        def __repr__(self):
            return "<module 'numpy.random'>"

    # ------------------------------------------------------------------ the module's names

    names = {
        'ndarray': ndarray, 'dtype': dtype, 'float64': float64, 'int64': int64, 'bool_': bool, 'float_': float64, 'int_': int64,
        'float32': float64, 'single': float64, 'double': float64,
        'infty': float('inf'), 'Infinity': float('inf'), 'PINF': float('inf'), 'NINF': float('-inf'),
        'split': split, 'array_split': array_split, 'hstack': hstack, 'vstack': vstack, 'column_stack': column_stack,
        'repeat': repeat, 'tile': tile, 'broadcast_to': broadcast_to, 'broadcast_arrays': broadcast_arrays, 'tri': tri,
        'tril_indices': tril_indices, 'triu_indices': triu_indices, 'meshgrid': meshgrid, 'cumsum': cumsum, 'cumprod': cumprod,
        'sort': sort, 'argsort': argsort, 'partition': partition, 'argpartition': argpartition, 'take_along_axis': take_along_axis,
        'logaddexp': logaddexp, 'nan_to_num': nan_to_num, 'einsum': einsum, 'linalg': LinalgModule(), 'vectorize': vectorize,
        'AxisError': AxisError, 'inf': float('inf'), 'Inf': float('inf'), 'nan': float('nan'), 'NaN': float('nan'),
        'pi': 3.141592653589793, 'e': 2.718281828459045, 'newaxis': None,
        'array': array, 'asarray': asarray, 'zeros': zeros, 'ones': ones, 'empty': empty, 'full': full,
        'zeros_like': zeros_like, 'ones_like': ones_like, 'empty_like': empty_like, 'full_like': full_like,
        'eye': eye, 'identity': identity, 'arange': arange, 'linspace': linspace, 'tril': tril, 'triu': triu, 'copy': copy,
        'where': where, 'nonzero': nonzero, 'matmul': matmul, 'dot': dot, 'round': around, 'around': around, 'clip': clip,
        'reshape': reshape, 'transpose': transpose, 'swapaxes': swapaxes, 'expand_dims': expand_dims, 'squeeze': squeeze,
        'ravel': ravel, 'outer': outer, 'concatenate': concatenate, 'stack': stack, 'isclose': isclose, 'allclose': allclose,
        'array_equal': array_equal, 'shape': shape, 'ndim': ndim, 'size': size, 'random': RandomModule(),
    }
    for n in ('exp', 'log', 'sqrt', 'tanh', 'sin', 'cos', 'log1p', 'expm1', 'absolute', 'negative', 'square', 'sign',
              'floor', 'ceil', 'isnan', 'isinf', 'isfinite', 'logical_not'):
        names[n] = ufunc1(n)
    names['abs'] = names['absolute']
    for n in ('add', 'subtract', 'multiply', 'divide', 'power', 'maximum', 'minimum', 'equal', 'not_equal', 'less',
              'less_equal', 'greater', 'greater_equal', 'logical_and', 'logical_or', 'logical_xor', 'floor_divide', 'remainder'):
        names[n] = ufunc2(n)
    names['true_divide'] = names['divide']
    names['mod'] = names['remainder']
    for n in ('sum', 'prod', 'mean', 'max', 'min', 'any', 'all', 'var', 'std'):
        names[n] = reducer(n)
    names['amax'] = names['max']

    def isneginf(x, out=None):
        unsupported('isneginf', out=out)
        return names['logical_and'](names['isinf'](x), names['less'](x, 0))

    def isposinf(x, out=None):
        unsupported('isposinf', out=out)
        return names['logical_and'](names['isinf'](x), names['greater'](x, 0))

    class finfo:
        """Machine limits of float64, the one float type here (np.float32 is float64 in this runtime)."""
        def __init__(self, dtype=float):
            name = dtype_name(dtype, 'finfo') or 'float64'
            if name != 'float64':
                raise ValueError('data type ' + name + ' not inexact')
            self.dtype = names['dtype']('float64')
            self.bits = 64
            # built from powers of two: MicroPython's parser of decimal text rounds the extremes
            self.eps = float64(2.0 ** -52)
            self.epsneg = float64(2.0 ** -53)
            self.max = float64((2.0 - 2.0 ** -52) * 2.0 ** 1023)
            self.min = float64(-self.max)
            self.tiny = self.smallest_normal = float64(2.0 ** -1022)
            self.smallest_subnormal = float64(2.0 ** -1022 * 2.0 ** -52)
            self.resolution = float64(1e-15)
            self.precision = 15
            self.machep = -52
            self.negep = -53
            self.nmant = 52
            self.nexp = 11
            self.maxexp = 1024
            self.minexp = -1022
            self.iexp = 11

        def __repr__(self):
            return 'finfo(resolution=1e-15, min=-1.7976931348623157e+308, max=1.7976931348623157e+308, dtype=float64)'

        def __str__(self):
            line = '-' * 63
            return ('Machine parameters for float64\n' + line + '\n'
                    'precision =  15   resolution = 1.0000000000000001e-15\n'
                    'machep =    -52   eps =        2.2204460492503131e-16\n'
                    'negep =     -53   epsneg =     1.1102230246251565e-16\n'
                    'minexp =  -1022   tiny =       2.2250738585072014e-308\n'
                    'maxexp =   1024   max =        1.7976931348623157e+308\n'
                    'nexp =       11   min =        -max\n'
                    'smallest_normal = 2.2250738585072014e-308   smallest_subnormal = 4.9406564584124654e-324\n' + line + '\n')

    class iinfo:
        """Limits of int64, the one integer type here."""
        def __init__(self, int_type=int):
            name = dtype_name(int_type, 'iinfo') or 'int64'
            if name != 'int64':
                raise ValueError("Invalid integer data type '" + ('f' if name == 'float64' else 'b') + "'.")
            self.dtype = names['dtype']('int64')
            self.bits = 64
            self.kind = 'i'
            self.min = -9223372036854775808
            self.max = 9223372036854775807

        def __repr__(self):
            return 'iinfo(min=-9223372036854775808, max=9223372036854775807, dtype=int64)'

        def __str__(self):
            line = '-' * 63
            return ('Machine parameters for int64\n' + line + '\nmin = -9223372036854775808\nmax = 9223372036854775807\n'
                    + line + '\n')

    # np.errstate / seterr / geterr: the settings are kept and given back as NumPy does; this engine
    # never warns about a floating-point error (its results carry inf and nan as NumPy's do), so
    # 'warn' prints nothing and 'raise' raises nothing.
    ERR_KEYS = ('divide', 'over', 'under', 'invalid')
    ERR_MODES = ('ignore', 'warn', 'raise', 'call', 'print', 'log')
    err_state = {'divide': 'warn', 'over': 'warn', 'under': 'ignore', 'invalid': 'warn'}

    def seterr(all=None, divide=None, over=None, under=None, invalid=None):
        old = geterr()
        for k, v in (('divide', divide), ('over', over), ('under', under), ('invalid', invalid)):
            v = all if v is None else v
            if v is None:
                continue
            if v not in ERR_MODES:
                raise ValueError('invalid floating-point error mode ' + repr(v) + ' for ' + k + '; use one of ' + ', '.join(ERR_MODES))
            err_state[k] = v
        return old

    def geterr():
        return {k: err_state[k] for k in ERR_KEYS}

    class errstate:
        def __init__(self, call=None, **kwargs):
            for k in kwargs:
                if k != 'all' and k not in ERR_KEYS:
                    raise TypeError("seterr() got an unexpected keyword argument '" + k + "'")
            self.kwargs = kwargs
            self.old = None

        def __enter__(self):
            self.old = seterr(**self.kwargs)

        def __exit__(self, *exc):
            seterr(**self.old)
            return False

        def __call__(self, f):
            def wrapped(*args, **kwargs):
                with self:
                    return f(*args, **kwargs)
            return wrapped

    names.update({'isneginf': isneginf, 'isposinf': isposinf, 'finfo': finfo, 'iinfo': iinfo, 'errstate': errstate,
                  'seterr': seterr, 'geterr': geterr})
    names['amin'] = names['min']
    for n in ('argmax', 'argmin'):
        names[n] = argfunc(n)
    def rebind(f):
        # The runtime's measured call: every function here reaches the bridge through f until put back.
        nonlocal B
        old, B = B, f
        return old

    return names, (wrap, ndarray, Generator, rebind)


# Names of NumPy that this module does not have, with what to use instead (module __getattr__).
_INSTEAD = {
    'erf': 'NumPy has no erf (scipy is not here either): use math.erf per number, np.vectorize(math.erf)(x), or the tanh form of GELU',
    'float16': 'use np.float64', 'int32': 'use np.int64', 'int8': 'use np.int64',
    'int16': 'use np.int64', 'uint8': 'use np.int64 or bool', 'complex128': 'this runtime has float64, int64 and bool',
    'tensordot': 'use np.matmul or np.einsum', 'inner': 'use np.sum(a * b, axis=-1)',
    'exp2': 'use np.power(2.0, x)', 'log2': 'use np.log(x) / np.log(2.0)', 'log10': 'use np.log(x) / np.log(10.0)',
    'fill_diagonal': 'use np.where(np.eye(n, dtype=bool), value, a)', 'diag': 'use np.eye(n) * v', 'trace': 'use np.sum(a * np.eye(n))',
    'set_printoptions': 'printing uses NumPy\'s defaults here', 'printoptions': 'printing uses NumPy\'s defaults here',
    'float128': 'use np.float64', 'complex64': 'this runtime has float64, int64 and bool', 'complex_': 'this runtime has float64, int64 and bool',
    'argwhere': 'use np.nonzero(a)', 'flip': 'use a[::-1]', 'roll': 'use np.concatenate of two slices',
    'isscalar': 'use np.ndim(x) == 0', 'moveaxis': 'use np.transpose(a, axes)',
    'count_nonzero': 'use np.sum(a != 0)', 'nansum': 'use np.sum(np.nan_to_num(a))',
    'sinh': 'use (np.exp(x) - np.exp(-x)) / 2', 'cosh': 'use (np.exp(x) + np.exp(-x)) / 2', 'arctan': 'not available', 'arcsin': 'not available',
    'arccos': 'not available', 'tan': 'use np.sin(x) / np.cos(x)', 'fmax': 'use np.maximum', 'fmin': 'use np.minimum',
    'median': 'use np.sort(a, axis)[..., n // 2]', 'percentile': 'use np.sort', 'quantile': 'use np.sort', 'histogram': 'not available',
    'unique': 'not available', 'frombuffer': 'not available', 'load': 'there are no files here', 'save': 'there are no files here',
    'loadtxt': 'there are no files here', 'savetxt': 'there are no files here', 'genfromtxt': 'there are no files here', 'fft': 'not available',
    'matrix': 'use np.array', 'apply_along_axis': 'use array operations with axis=',
    'bitwise_and': 'use & on bool arrays', 'bitwise_or': 'use | on bool arrays', 'invert': 'use ~ on bool arrays',
    'dstack': 'use np.stack(arrays, axis=-1) or np.concatenate', 'atleast_2d': 'use a.reshape(1, -1) or a[None]',
}


def __getattr__(name):
    if name.startswith('__'):
        raise AttributeError(name)
    if name in _INSTEAD:
        raise AttributeError('numpy.' + name + ' is not available in this runtime; ' + _INSTEAD[name])
    raise AttributeError("module 'numpy' has no attribute '" + name + "'")
