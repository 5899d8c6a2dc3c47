# The differential corpus: snippets a student of the course writes, run by Debian's CPython with real
# NumPy (1.24) and by the Python track (MicroPython + grader/tracks/python/numpy.py); every case's
# printed output, and the type of the error it raises, must be the same in both. Each case is a
# function marked @case; the driver at the bottom prints "=== <name>" before each one and
# "!! <ErrorType>" for an exception (the builtin base class, so NumPy's AxisError reads ValueError).
# Run: node --test tests/js/numpy-diff.test.mjs (tests/numpy-diff/README.md).
import numpy as np

CASES = []


def case(f):
    CASES.append(f)
    return f


# ---------------------------------------------------------------- creation

@case
def zeros_ones_full():
    print(np.zeros(3))
    print(np.ones((2, 3)))
    print(np.full((2, 2), 7))
    print(np.full((2,), 2.5))
    print(np.zeros((2, 2), dtype=bool))
    print(np.ones(3, dtype=int))


@case
def eye_identity():
    print(np.eye(3))
    print(np.eye(2, 3, k=1))
    print(np.eye(3, k=-1, dtype=int))
    print(np.identity(2))


@case
def arange_int_float():
    print(np.arange(5))
    print(np.arange(2, 10, 3))
    print(np.arange(5, 0, -2))
    print(np.arange(0.0, 1.0, 0.25))
    print(np.arange(3).dtype, np.arange(3.0).dtype)


@case
def linspace_cases():
    print(np.linspace(0, 1, 5))
    print(np.linspace(-1, 1, 4, endpoint=False))
    print(np.linspace(0, 10, 3).dtype)


@case
def array_from_lists():
    print(np.array([1, 2, 3]))
    print(np.array([1.0, 2, 3]))
    print(np.array([[1, 2], [3, 4]]))
    print(np.array([True, False, True]))
    print(np.array([[True], [False]]).shape)
    print(np.array([1, 2]).dtype, np.array([1.5]).dtype, np.array([True, 2]).dtype)


@case
def array_dtype_argument():
    print(np.array([1, 2, 3], dtype=float))
    print(np.array([0, 1, 2], dtype=bool))
    print(np.array([1.7, -1.7], dtype=int))
    print(np.array([[1, 2]], dtype=np.float64).dtype)


@case
def array_of_arrays():
    a = np.array([1, 2])
    b = np.array([3, 4])
    print(np.array([a, b]))
    print(np.array([a, b]).shape)


@case
def zero_d_arrays():
    a = np.array(2.5)
    print(a, a.shape, a.ndim, a.size)
    print(repr(a))
    print(repr(np.array(3)))
    print(repr(np.array(True)))


@case
def like_functions():
    a = np.array([[1, 2], [3, 4]])
    print(np.zeros_like(a))
    print(np.ones_like(a, dtype=float))
    print(np.full_like(a, 9))
    print(np.full_like(a, 0.5, dtype=float))


@case
def attributes():
    a = np.zeros((2, 3, 4))
    print(a.shape, a.ndim, a.size, a.dtype, len(a))
    print(np.shape(a), np.ndim(a), np.size(a))
    print(a.T.shape, a.itemsize, a.nbytes)


@case
def tolist_and_item():
    a = np.array([[1.5, 2], [3, 4]])
    print(a.tolist())
    print(np.array([[1, 2]]).tolist(), np.array([True]).tolist())
    print(a[0, 1].item(), np.array([7]).item())
    print(np.array(2.5).tolist())


@case
def empty_arrays():
    print(np.zeros(0))
    print(np.zeros((2, 0)))
    print(repr(np.zeros(0)))
    print(repr(np.zeros((3, 0))))
    print(np.array([]).shape)


@case
def copy_and_astype():
    a = np.array([1.5, -2.5, 3.9])
    b = a.copy()
    b[0] = 100
    print(a, b)
    print(a.astype(int), a.astype(bool), np.array([0, 2]).astype(float))


# ---------------------------------------------------------------- broadcasting and element-wise

@case
def broadcast_column_row():
    a = np.arange(3).reshape(3, 1)
    b = np.arange(4)
    print(a + b)
    print((a * b).shape)


@case
def broadcast_vector_matrix():
    m = np.arange(6).reshape(2, 3)
    print(m - np.array([1, 2, 3]))
    print(m / np.array([1.0, 2.0, 4.0]))


@case
def broadcast_3d():
    a = np.ones((2, 3, 4))
    b = np.arange(4)
    print((a * b)[1])
    print((a + np.ones((3, 1))).shape)


@case
def scalar_operations():
    a = np.array([1, 2, 3])
    print(a + 1, a * 2, a - 1, a / 2, a ** 2)
    print(1 + a, 10 - a, 2 * a, 6 / a, 2 ** a)


@case
def int_float_promotion():
    a = np.array([1, 2, 3])
    print((a + 1).dtype, (a + 1.0).dtype, (a * 2.5).dtype, (a / 1).dtype)
    print((a + np.array([0.5, 0.5, 0.5])).dtype)


@case
def bool_arithmetic():
    m = np.array([True, False, True])
    print(m * 1, m + 1, m * 2.5, 1 - m)
    print((m * 1).dtype, (m + 1.5).dtype)


@case
def comparisons():
    a = np.array([1, 5, 3])
    print(a > 2, a <= 3, a == 3, a != 5)
    print(a > np.array([0, 5, 4]))


@case
def logical_operators():
    a = np.array([True, False, True, False])
    b = np.array([True, True, False, False])
    print(a & b, a | b, a ^ b, ~a)
    print(np.logical_and(a, b), np.logical_or(a, b), np.logical_not(a), np.logical_xor(a, b))


@case
def unary_functions():
    x = np.array([0.0, 1.0, 4.0])
    print(np.sqrt(x), np.exp(x), np.log(x + 1))
    print(np.abs(np.array([-1, 2, -3])), np.negative(x), -x)
    print(np.tanh(np.array([0.0, 1.0])), np.sin(np.array([0.0])), np.cos(np.array([0.0])))


@case
def rounding_functions():
    x = np.array([-1.5, -0.5, 0.5, 1.5, 2.5, 2.675])
    print(np.round(x), np.round(x, 1), np.round(x, 2))
    print(np.floor(x), np.ceil(x), np.sign(x))
    print(np.round(np.array([1234.5678]), -2), np.around(np.array([0.125]), 2))


@case
def maximum_minimum_clip():
    a = np.array([1, 5, -3])
    print(np.maximum(a, 0), np.minimum(a, 2), np.clip(a, -1, 2))
    print(np.maximum(np.array([1.0, np.nan]), 0.0), a.clip(0, 3))


@case
def power_and_square():
    a = np.array([1, 2, 3])
    print(np.power(a, 2), np.square(a), np.power(2.0, a), a ** 0.5)


@case
def floor_divide_remainder():
    a = np.array([7, -7, 8])
    print(a // 2, a % 3, np.floor_divide(a, 3), np.remainder(a, -3))
    print(np.array([7.5, -7.5]) // 2, np.array([7.5, -7.5]) % 2)


@case
def isnan_isinf():
    x = np.array([1.0, np.nan, np.inf, -np.inf])
    print(np.isnan(x), np.isinf(x), np.isfinite(x))


@case
def isclose_allclose():
    a = np.array([1.0, 2.0, np.nan])
    b = np.array([1.0 + 1e-9, 2.1, np.nan])
    print(np.isclose(a, b), np.isclose(a, b, equal_nan=True))
    print(np.allclose(a[:2], b[:2]), np.allclose(a[:1], b[:1]), np.array_equal(a[:2], a[:2]))
    print(np.allclose(np.array([1.0]), np.array([1.001]), rtol=0.01))


@case
def inplace_operators():
    a = np.array([1.0, 2.0, 3.0])
    a += 1
    a *= 2
    a -= np.array([1.0, 1.0, 1.0])
    a /= 2
    print(a)
    b = np.arange(3)
    b += 5
    print(b, b.dtype)


@case
def inplace_int_with_float_fails():
    b = np.arange(3)
    b += 1.5


# ---------------------------------------------------------------- reductions

@case
def sum_axes():
    a = np.arange(12).reshape(3, 4)
    print(a.sum(), a.sum(axis=0), a.sum(axis=1), a.sum(axis=-1))
    print(np.sum(a, axis=0, keepdims=True), np.sum(a, axis=(0, 1)))


@case
def sum_keepdims_shapes():
    a = np.ones((2, 3, 4))
    print(a.sum(axis=-1, keepdims=True).shape, a.sum(axis=(0, 2)).shape, a.sum(axis=1).shape)


@case
def mean_var_std():
    a = np.array([[1.0, 2.0], [3.0, 5.0]])
    print(a.mean(), a.mean(axis=0), a.mean(axis=1, keepdims=True))
    print(a.var(), a.std(axis=0), np.var(a, ddof=1), np.std(a, axis=1))


@case
def max_min():
    a = np.array([[3, 7, 1], [4, 0, 9]])
    print(a.max(), a.min(), a.max(axis=0), a.min(axis=1), np.max(a, axis=-1, keepdims=True))
    print(np.amax(a), np.amin(a, axis=0))


@case
def max_with_nan_and_inf():
    a = np.array([[1.0, np.nan], [-np.inf, 2.0]])
    print(a.max(axis=1), a.min(axis=0), np.max(np.array([-np.inf, -np.inf])))


@case
def argmax_argmin():
    a = np.array([[3, 7, 1], [4, 0, 9]])
    print(a.argmax(), a.argmin(), a.argmax(axis=0), a.argmin(axis=1), np.argmax(a, axis=-1))


@case
def any_all():
    m = np.array([[True, False], [True, True]])
    print(m.any(), m.all(), m.all(axis=0), m.any(axis=1), np.all(m, axis=1, keepdims=True))


@case
def prod_and_int_sum_dtype():
    a = np.array([[1, 2], [3, 4]])
    print(a.prod(), a.prod(axis=0), a.sum().dtype if hasattr(a.sum(), 'dtype') else 'scalar')
    print(np.array([True, True, False]).sum(), np.array([True, False]).mean())


@case
def reduction_scalars_print():
    a = np.array([0.1, 0.2, 0.3])
    print(a.sum(), a.mean(), a.max())
    print(repr(a.max()), float(a.max()), np.sqrt(2), np.sqrt(4))


@case
def reduction_bad_axis():
    np.zeros((2, 3)).sum(axis=2)


@case
def reduction_empty_max():
    np.zeros(0).max()


# ---------------------------------------------------------------- matmul and dot

@case
def matmul_2d():
    a = np.array([[1, 2], [3, 4]])
    b = np.array([[5, 6], [7, 8]])
    print(a @ b)
    print(np.matmul(a, b.T))
    print((a @ np.array([[0.5], [0.5]])).shape)


@case
def matmul_batch():
    a = np.arange(24).reshape(2, 3, 4)
    b = np.arange(40).reshape(2, 4, 5)
    print((a @ b).shape)
    print((a @ b)[1])


@case
def matmul_broadcast_batch():
    a = np.ones((2, 3, 4))
    b = np.arange(8).reshape(4, 2)
    print(a @ b)
    print((np.ones((5, 1, 3, 4)) @ np.ones((2, 4, 6))).shape)


@case
def outer_products():
    t = np.arange(4)
    freqs = 1.0 / 10000 ** (np.arange(0, 6, 2) / 6)
    print(np.outer(t, freqs))
    print(np.outer(np.array([[1, 2], [3, 4]]), np.array([True, False])))
    print(np.outer([1.5, -2], 3).shape)


@case
def matmul_vectors():
    v = np.array([1.0, 2.0, 3.0])
    m = np.arange(6).reshape(3, 2)
    print(v @ v, v @ m, m.T @ v)
    print(np.dot(v, v), np.dot(np.eye(2), np.array([1, 2])))


@case
def matmul_mismatch():
    np.ones((3, 2)) @ np.ones((3, 2))


@case
def matmul_scalar_operand():
    np.matmul(np.ones(3), 2.0)


@case
def matmul_batch_mismatch():
    np.ones((2, 3, 4)) @ np.ones((3, 4, 5))


# ---------------------------------------------------------------- where, tril, triu

@case
def where_basic():
    s = np.array([[1.0, 2.0], [3.0, 4.0]])
    m = np.array([[True, False], [True, True]])
    print(np.where(m, s, -np.inf))
    print(np.where(m, s, 0))
    print(np.where(s > 2, 1, 0), np.where(s > 2, 1.0, 0.0))


@case
def where_broadcast():
    s = np.ones((2, 3, 3))
    m = np.tril(np.ones((3, 3), dtype=bool))
    print(np.where(m, s, -np.inf)[1])
    print(np.where(np.array([True, False]), np.array([[1], [2]]), 9))


@case
def where_nonzero():
    a = np.array([[0, 3], [5, 0]])
    print(np.where(a > 0))
    print(np.nonzero(np.array([0, 1, 0, 2])))


@case
def tril_triu():
    a = np.arange(1, 10).reshape(3, 3)
    print(np.tril(a), np.triu(a), np.tril(a, k=1), np.triu(a, k=-1), np.tril(a, -1))


@case
def tril_ones_bool():
    print(np.tril(np.ones((4, 4), dtype=bool)))
    print(np.tril(np.ones((3, 3))).astype(bool))
    print(np.triu(np.ones((3, 3), dtype=bool), k=1))


@case
def tril_rectangular_and_batch():
    print(np.tril(np.ones((2, 4))), np.triu(np.ones((4, 2))))
    print(np.tril(np.ones((2, 3, 3)))[1])
    print(np.tril(np.array([1, 2, 3])))


# ---------------------------------------------------------------- shapes: swapaxes, transpose, reshape

@case
def swapaxes_3d():
    a = np.arange(24).reshape(2, 3, 4)
    print(np.swapaxes(a, -1, -2).shape, a.swapaxes(0, 2).shape)
    print(a.swapaxes(-1, -2)[0])


@case
def transpose_and_T():
    a = np.arange(24).reshape(2, 3, 4)
    print(a.T.shape, a.transpose().shape, a.transpose(0, 2, 1).shape, np.transpose(a, (1, 0, 2)).shape)
    print(np.arange(6).reshape(2, 3).T)
    print(a.transpose(1, 2, 0)[2])


@case
def reshape_cases():
    a = np.arange(12)
    print(a.reshape(3, 4), a.reshape((2, -1)).shape, a.reshape(-1, 6).shape, np.reshape(a, (2, 2, 3)).shape)
    print(a.reshape(3, 4).ravel(), a.reshape(2, 6).flatten())


@case
def reshape_bad():
    np.arange(12).reshape(5, 3)


@case
def squeeze_expand_dims():
    a = np.zeros((1, 3, 1))
    print(a.squeeze().shape, np.squeeze(a, axis=0).shape, np.expand_dims(a, 0).shape, np.expand_dims(np.ones(3), -1).shape)


@case
def concatenate_stack():
    a = np.array([[1, 2], [3, 4]])
    b = np.array([[5, 6]])
    print(np.concatenate([a, b]), np.concatenate([a, a], axis=1))
    print(np.stack([a, a]).shape, np.stack([a, a], axis=-1).shape, np.concatenate([a, b], axis=None))


@case
def concatenate_mismatch():
    np.concatenate([np.ones((2, 2)), np.ones((2, 3))])


# ---------------------------------------------------------------- indexing and slicing

@case
def index_integers():
    a = np.arange(12).reshape(3, 4)
    print(a[0], a[-1], a[1, 2], a[-1, -1], a[2][3])
    print(a[0].shape, a[1, 2] + 1)


@case
def slices_with_steps():
    a = np.arange(10)
    print(a[2:5], a[::2], a[::-1], a[-3:], a[:-7], a[8:2:-2], a[::-3], a[5:100], a[100:])


@case
def slices_2d():
    a = np.arange(20).reshape(4, 5)
    print(a[1:3, ::2], a[:, 0], a[:, -1:], a[::-1, ::-1][0], a[1:, 1:].shape)


@case
def ellipsis_and_newaxis():
    a = np.arange(24).reshape(2, 3, 4)
    print(a[..., 0], a[..., -1].shape, a[0, ...].shape, a[:, None].shape, a[None].shape, a[..., None].shape)
    print(np.arange(3)[:, np.newaxis] * np.arange(3)[np.newaxis, :])


@case
def boolean_mask_get():
    a = np.arange(10)
    print(a[a % 2 == 0], a[a > 7], a[np.array([True] * 5 + [False] * 5)])
    m = np.arange(12).reshape(3, 4)
    print(m[m > 5], m[np.array([True, False, True])])


@case
def boolean_mask_set():
    s = np.zeros((3, 3))
    s[np.tril(np.ones((3, 3), dtype=bool))] = 1.0
    print(s)
    s[s == 0] = -np.inf
    print(s)
    s[~np.isinf(s)] += 5
    print(s)


@case
def boolean_mask_ellipsis_set():
    s = np.ones((2, 3, 3))
    mask = np.tril(np.ones((3, 3), dtype=bool))
    s[..., ~mask] = -np.inf
    print(s[0], s[1][0])


@case
def integer_array_indexing():
    a = np.arange(12).reshape(3, 4)
    print(a[[0, 2]], a[:, [1, 3]], a[[0, 1, 2], [3, 2, 1]], a[np.array([2, 0])])
    print(a[[-1, 0], 1:3])


@case
def slice_assignment():
    a = np.zeros((3, 4))
    a[0] = 1
    a[1, :2] = [7, 8]
    a[:, -1] = np.array([9, 9, 9])
    a[2, ::2] = -1
    print(a)


@case
def views_write_through():
    a = np.zeros((2, 3))
    row = a[0]
    row[1] = 5
    a[1][2] = 7
    print(a)
    t = a.T
    t[0, 0] = -1
    print(a)
    r = a.reshape(3, 2)
    r[2, 1] = 42
    print(a)


@case
def views_read_after_write():
    a = np.arange(6).reshape(2, 3)
    v = a[:, 1]
    a[0, 1] = 100
    print(v)
    w = a[::-1]
    w[0, 0] = -5
    print(a, v)


@case
def index_out_of_bounds():
    np.arange(5)[5]


@case
def too_many_indices():
    np.zeros((2, 2))[0, 0, 0]


@case
def bool_mask_wrong_shape():
    np.arange(4)[np.array([True, False])]


@case
def float_index():
    np.arange(4)[1.5]


# ---------------------------------------------------------------- printing

@case
def print_float_rounding():
    w = np.array([[1.0, 0.0, 0.0], [0.19557, 0.80443, 0.0], [0.24778, 0.24778, 0.50444]])
    print(np.round(w, 3))
    print(np.array([0.1, 0.25, 1.0 / 3.0]))
    print(np.array([1.0, 2.5, 100.0]))


@case
def print_small_and_large():
    print(np.array([1e-5, 1.0]))
    print(np.array([1e8, 1.0]))
    print(np.array([1e-10, 2e-10]))
    print(np.array([123456789.0, 0.5]))
    print(np.array([0.0001, 0.001]))


@case
def print_nan_inf():
    print(np.array([np.nan, np.inf, -np.inf, 1.0]))
    print(np.array([[-np.inf, 0.5], [np.nan, 2.0]]))
    print(np.array([np.inf]), np.array([-np.inf, -np.inf]))


@case
def print_negative_zero_and_signs():
    print(np.array([-0.0, 0.0, -1.5]))
    print(np.array([-1, 10, -100]))


@case
def print_bool_and_int():
    print(np.array([[True, False], [False, True]]))
    print(np.array([True]), np.array([False, False]))
    print(np.array([[1, -22, 333], [4, 5, 6]]))


@case
def print_wide_rows():
    print(np.arange(30) / 7)
    print(np.arange(40))
    print(np.linspace(0, 1, 12))


@case
def print_summarized():
    print(np.arange(2000))
    print(np.zeros((50, 50)))
    print(np.arange(1001.0))


@case
def print_3d():
    print(np.arange(24).reshape(2, 3, 4))
    print(np.ones((2, 1, 2)) / 3)


@case
def repr_arrays():
    print(repr(np.array([1.0, 2.5])))
    print(repr(np.arange(12).reshape(3, 4)))
    print(repr(np.array([[True, False]])))
    print(repr(np.arange(30) / 7))
    print([np.array([1, 2]), np.array([0.5])])


@case
def repr_scalars():
    print(repr(np.float64(0.1) + np.float64(0.2)), np.float64(1e16), np.float64(1.5e-7))
    print(np.int64(7), np.sum(np.array([1, 2])), repr(np.max(np.array([1.5, 2.5]))))


@case
def print_dtypes():
    print(np.zeros(2).dtype, np.arange(2).dtype, np.zeros(1, dtype=bool).dtype)
    print(repr(np.zeros(2).dtype), np.zeros(2).dtype == np.float64, np.arange(2).dtype == int)


@case
def print_exp_softmax_row():
    x = np.array([1000.0, 1001.0, 999.0])
    e = np.exp(x - x.max())
    print(e / e.sum())
    print(np.exp(np.array([-np.inf, 0.0])))


@case
def print_precision_edges():
    print(np.array([0.1, 0.12345678901]))
    print(np.array([1.5e300, 1.0]), np.array([1e-300]))
    print(np.array([123456.789]), np.array([1234567.0, 0.1]))
    print(np.array([1.0]) / 3, np.array([2.0 / 3.0, 10.0]))
    print(np.round(np.array([-0.0004, 0.0004]), 3))


@case
def print_mixed_nonfinite_exp_mode():
    print(np.array([1e-8, np.nan, 1.0]))
    print(np.array([np.inf, 1e10]))
    print(np.array([-np.inf, 1e-6, 1.0]))


@case
def print_large_ints_and_negative_floats():
    print(np.array([10 ** 12, -5]))
    print(np.array([-1.25, -10.5, 3.0]))
    print(np.arange(-5, 5) * 1000)


@case
def print_columns_and_single():
    print(np.arange(5).reshape(5, 1) / 4)
    print(np.array([[7]]), np.array([[[1.5]]]))


@case
def print_scalars_of_every_kind():
    a = np.array([[1.5, 2.0], [3.0, 4.0]])
    print(a[0, 0], a.sum(), a.mean(axis=0)[1], np.arange(3)[1], np.array([True])[0], a.argmax())


@case
def slicing_edges():
    a = np.arange(10)
    print(a[-100:], a[:-100], a[::-1][::2], a[1:-1:3], a[-2:-8:-2], a[3:3])
    m = np.arange(12).reshape(3, 4)
    print(m[::-1][1:][0], m[1:, ::-2], m[:, ::5])


@case
def setitem_broadcast_and_views_of_views():
    a = np.zeros((3, 4))
    a[:, 1:3] = np.array([[1], [2], [3]])
    v = a[1:]
    w = v[:, ::-1]
    w[0, 0] = 99
    print(a)
    a[..., -1] = 7
    a[0, :, None][1] = 5
    print(a)


# ---------------------------------------------------------------- the course's code

@case
def lesson_attention():
    Q = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    K = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    V = np.array([[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]])
    mask = np.tril(np.ones((3, 3), dtype=bool))
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    print(mask)
    print(np.round(w, 3))
    print(np.round(w @ V, 3))


@case
def lesson_attention_int_inputs():
    Q = np.array([[2, 0], [0, 2], [1, 1]])
    scores = Q @ Q.T / np.sqrt(2)
    print(scores.dtype, np.round(scores, 4))


@case
def batched_attention_shapes():
    B, T, d = 2, 4, 3
    X = np.arange(B * T * d).reshape(B, T, d) / 10
    W = np.eye(d)
    Q = X @ W
    s = Q @ Q.swapaxes(-1, -2) / np.sqrt(d)
    print(s.shape, np.round(s[1], 3))


@case
def batched_K_T_fails():
    K = np.ones((2, 4, 3))
    np.ones((2, 4, 3)) @ K.T


@case
def loop_attention():
    Q = np.array([[1.0, 0.0], [0.0, 1.0]])
    K = np.array([[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    s = np.zeros((2, 3))
    for i in range(2):
        for j in range(3):
            s[i, j] = Q[i] @ K[j]
    print(s, s.sum(axis=1))


@case
def iteration_and_len():
    a = np.arange(6).reshape(3, 2)
    for row in a:
        print(row, len(row))
    print([float(x) for x in np.array([0.5, 1.5])], list(np.arange(3)))


@case
def truth_value_ambiguous():
    if np.array([True, False]):
        print('no')


@case
def scalar_conversions():
    print(np.array([2.5]).item(), int(np.array(7)), bool(np.array([True])))
    print(int(np.float64(2.9)), float(np.int64(3)), np.float64(2.0) * 3)


@case
def random_generator_shapes():
    rng = np.random.default_rng(0)
    print(rng.standard_normal((2, 3)).shape, rng.normal(0.0, 1.0, size=(4,)).shape, rng.random(5).shape)
    x = rng.integers(0, 10, size=(3, 3))
    print(x.shape, x.dtype, bool((x >= 0).all() and (x < 10).all()))


@case
def random_scalar_draw():
    rng = np.random.default_rng(42)
    v = rng.standard_normal()
    print(isinstance(v, float), v.shape if hasattr(v, 'shape') else ())


# ---------------------------------------------------------------- error cases

@case
def broadcast_error():
    np.ones((2, 3)) + np.ones((4,))


@case
def broadcast_error_3d():
    np.ones((2, 3, 4)) * np.ones((3, 2, 4))


@case
def ragged_list():
    np.array([[1, 2], [3]])


@case
def reshape_two_unknowns():
    np.arange(6).reshape(-1, -1)


@case
def swapaxes_bad_axis():
    np.ones((2, 3)).swapaxes(0, 2)


@case
def transpose_bad_axes():
    np.ones((2, 3)).transpose(0, 0)


@case
def setitem_shape_mismatch():
    a = np.zeros((2, 3))
    a[0] = np.array([1, 2])


@case
def len_of_0d():
    len(np.array(1.0))


@case
def where_shape_error():
    np.where(np.ones((2, 2), dtype=bool), np.ones((3,)), 0)


@case
def stack_different_shapes():
    np.stack([np.ones(2), np.ones(3)])


@case
def int_negative_power():
    np.arange(1, 4) ** -1


@case
def float_power_negative():
    print(np.arange(1, 4) ** -1.0, 2.0 ** np.array([-1, 0]))


@case
def astype_and_round_trip():
    a = np.array([0.5, 1.5, -0.5])
    print(a.astype(int), np.round(a).astype(int), (a > 0).astype(float))


@case
def divide_by_zero_values():
    with_zero = np.array([1.0, -1.0, 0.0]) / np.array([0.0, 0.0, 0.0])
    print(with_zero)
    print(np.log(np.array([0.0, 1.0])), np.sqrt(np.array([-1.0, 4.0])))


@case
def eq_with_none_and_lists():
    a = np.array([1, 2, 3])
    print(a == 2, a == [1, 0, 3], (a == a).all())


@case
def float_on_the_left():
    a = np.array([1.0, 2.0])
    print(2.5 + a, 2.0 * a, 2.0 - a, 2.0 / a, 2.0 ** a, 1.0 - (a > 1), np.float64(2.0) * a, 0.5 * np.array([4.0]))


@case
def inplace_add_sub_on_views():
    a = np.zeros((2, 3))
    row = a[1]
    row += 1
    col = a[:, 0]
    col -= 5
    print(a)


# ---------------------------------------------------------------- the driver

def error_kind(e):
    for t in (ValueError, IndexError, TypeError, AttributeError, ZeroDivisionError, MemoryError, RuntimeError, NameError, KeyError):
        if isinstance(e, t):
            return t.__name__
    return 'Exception'


def run_case(i):
    """Prints case i's name and output (or its error's kind); → the number of cases."""
    f = CASES[i]
    print('=== ' + f.__name__)
    try:
        f()
    except Exception as e:
        print('!! ' + error_kind(e))
    return len(CASES)


# tests/js/numpy-diff.test.mjs calls run_case(i) in the sandbox, one call each (ATTNLAB_TRACK is set there).
if not globals().get('ATTNLAB_TRACK'):
    for i in range(len(CASES)):
        run_case(i)
