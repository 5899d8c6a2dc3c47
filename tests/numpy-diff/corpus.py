# The differential corpus: snippets a student of the course writes, run by Debian's CPython with real
# NumPy (1.24) and by the Python track (MicroPython + grader/tracks/python/numpy.py); every case's
# printed output, and the type of the error it raises, must be the same in both. Each case is a
# function marked @case; the driver at the bottom prints "=== <name>" before each one and
# "!! <ErrorType>" for an exception (the builtin base class, so NumPy's AxisError reads ValueError).
# Run: node --test tests/js/numpy-diff.test.mjs (tests/numpy-diff/README.md).
from __future__ import annotations
from dataclasses import dataclass, field
from typing import Generic, List, Optional, Tuple, TypeVar, cast
import numpy as np

CASES = []


def case(f):
    CASES.append((f.__name__, f))
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


# ---------------------------------------------------------------- snippets: one expression each, printed
# snippets('name', f, …) adds one case per function, named name_0, name_1, …; what it returns is printed.

def snippets(prefix, *fs):
    for i, f in enumerate(fs):
        CASES.append((prefix + '_' + str(i), f))


A12 = np.arange(12).reshape(3, 4)
F12 = np.arange(12.0).reshape(3, 4) / 4
B3 = np.arange(24).reshape(2, 3, 4)
V = np.array([0.5, -1.25, 2.0, 3.5])

snippets(
    'split',
    lambda: np.split(np.arange(6), 3),
    lambda: np.split(np.arange(6), [2, 5]),
    lambda: np.split(A12, 2, axis=1),
    lambda: np.split(A12, [1], axis=0),
    lambda: np.split(A12, [1, 3], axis=-1),
    lambda: np.split(B3, 2, axis=-1)[1].shape,
    lambda: np.split(np.arange(5), 2),
    lambda: np.split(np.arange(4), [-1]),
    lambda: np.split(np.arange(4), [3, 1]),
    lambda: np.split(np.arange(4), [0]),
    lambda: len(np.split(np.zeros((2, 8, 6)), 3, axis=-1)),
    lambda: [p.shape for p in np.split(np.zeros((2, 5, 12)), 3, axis=2)],
    lambda: np.split(np.arange(6), 0),
    lambda: np.split(A12, 2, axis=2),
    lambda: np.array_split(np.arange(7), 3),
    lambda: np.array_split(np.arange(10), 4),
    lambda: np.array_split(A12, 3, axis=1),
    lambda: np.array_split(np.arange(3), 5),
    lambda: [a.shape for a in np.array_split(np.zeros((5, 2)), 2)],
    lambda: np.array_split(np.arange(6), [1, 4]),
)

snippets(
    'join',
    lambda: np.hstack([np.arange(2), np.arange(3)]),
    lambda: np.hstack((A12, A12)).shape,
    lambda: np.hstack([np.array([1.5]), np.array([2])]),
    lambda: np.hstack([np.zeros((2, 1)), np.ones((2, 2))]),
    lambda: np.vstack([np.arange(3), np.arange(3, 6)]),
    lambda: np.vstack((A12, np.arange(4))),
    lambda: np.vstack([np.array([True]), np.array([False])]),
    lambda: np.vstack([B3, B3]).shape,
    lambda: np.concatenate([A12, A12], axis=1),
    lambda: np.concatenate([A12, A12], axis=None),
    lambda: np.concatenate((np.zeros((1, 2, 3)), np.ones((1, 2, 3))), axis=-1).shape,
    lambda: np.concatenate([np.arange(2), np.array([0.5])]),
    lambda: np.stack([np.arange(3), np.arange(3)], axis=1),
    lambda: np.stack([A12, A12, A12], axis=-1).shape,
    lambda: np.stack([A12, A12]).shape,
    lambda: np.stack((np.array(1.5), np.array(2.5))),
    lambda: np.column_stack([np.arange(3), np.arange(3, 6)]),
    lambda: np.hstack([A12, np.arange(3)]),
    lambda: np.vstack([A12, np.arange(3)]),
    lambda: np.stack([np.arange(2), np.arange(3)]),
    lambda: np.concatenate([]),
    lambda: np.hstack([np.zeros((2, 3)), np.zeros((3, 3))]),
)

snippets(
    'repeat',
    lambda: np.repeat(np.arange(3), 2),
    lambda: np.repeat(A12, 2, axis=0),
    lambda: np.repeat(A12, 2, axis=1),
    lambda: np.repeat(A12, 2),
    lambda: np.repeat(np.arange(4).reshape(1, 2, 2, 1), 2, axis=1).ravel(),
    lambda: np.repeat(np.zeros((2, 3, 5, 4)), 4, axis=1).shape,
    lambda: np.repeat(np.arange(3), [1, 0, 2]),
    lambda: np.repeat(A12, [2, 1, 0], axis=0),
    lambda: np.repeat(np.array([True, False]), 3),
    lambda: np.repeat(np.array(2.5), 3),
    lambda: np.repeat(7, 2),
    lambda: A12.repeat(2, axis=-1)[0],
    lambda: np.repeat(np.arange(3), [1, 2]),
    lambda: np.repeat(np.arange(3), -1),
    lambda: np.repeat(A12, 2, axis=3),
    lambda: np.tile(np.arange(3), 2),
    lambda: np.tile(np.arange(3), (2, 2)),
    lambda: np.tile(A12, (1, 2)).shape,
    lambda: np.tile(np.array([[1, 2], [3, 4]]), 2),
    lambda: np.tile(np.array([True]), 3),
    lambda: np.tile(np.arange(2), (2, 1, 2)).shape,
    lambda: np.tile(np.arange(3), 0),
)

snippets(
    'broadcast',
    lambda: np.broadcast_to(np.arange(3), (2, 3)),
    lambda: np.broadcast_to(np.array([[1], [2]]), (2, 4)),
    lambda: np.broadcast_to(5, (2, 2)),
    lambda: np.broadcast_to(np.ones((1, 3)), (2, 4, 3)).shape,
    lambda: np.broadcast_to(np.arange(3), (2, 4)),
    lambda: np.broadcast_to(np.ones((2, 3)), (3,)),
    lambda: [a.shape for a in np.broadcast_arrays(np.ones((3, 1)), np.ones(4))],
    lambda: np.broadcast_arrays(np.arange(2), np.array([[10], [20]]))[1],
)

snippets(
    'tri',
    lambda: np.tri(3),
    lambda: np.tri(3, 4, k=1),
    lambda: np.tri(4, k=-1, dtype=int),
    lambda: np.tri(2, dtype=bool),
    lambda: np.tri(3, 2),
    lambda: np.tril_indices(3),
    lambda: np.triu_indices(3, 1),
    lambda: np.triu_indices(4, k=2),
    lambda: np.tril_indices(3, -1),
    lambda: np.triu_indices(2, m=3),
    lambda: A12[:3, :3][np.triu_indices(3, 1)],
    lambda: (lambda s: (s.__setitem__(np.triu_indices(3, 1), -np.inf), s)[1])(np.zeros((3, 3))),
    lambda: np.tril(np.ones((2, 3, 3)), k=-1).sum(),
    lambda: np.triu(np.ones((3, 3), dtype=bool), k=1),
)

snippets(
    'grid',
    lambda: np.meshgrid(np.arange(3), np.arange(2)),
    lambda: np.meshgrid(np.arange(3), np.arange(2), indexing='ij'),
    lambda: [g.shape for g in np.meshgrid(np.arange(2), np.arange(3), np.arange(4))],
    lambda: [g.shape for g in np.meshgrid(np.arange(2), np.arange(3), np.arange(4), indexing='ij')],
    lambda: np.meshgrid(np.array([0.5, 1.5]))[0],
    lambda: np.linspace(0, 1, 5),
    lambda: np.linspace(0, 1, 4, endpoint=False),
    lambda: np.linspace(-1.0, 1.0, 3),
    lambda: np.linspace(0, 10, 6, dtype=int),
    lambda: np.linspace(2, 3, 1),
    lambda: np.linspace(0, 1, 0),
    lambda: np.arange(0, 1, 0.1),
    lambda: np.arange(0.5, 3),
    lambda: np.arange(1, 2, 0.25),
    lambda: np.arange(0, 128, 2, dtype=np.float64) / 128,
    lambda: np.arange(5, 0, -1.5),
    lambda: np.arange(3, dtype=float),
    lambda: np.arange(0, 6, 2).dtype,
    lambda: 1.0 / (10000 ** (np.arange(0, 8, 2) / 8)),
    lambda: np.arange(0, -3, -1),
)

snippets(
    'dtype',
    lambda: np.zeros(2, dtype=np.float64).dtype,
    lambda: np.zeros(2, dtype=np.int64),
    lambda: np.zeros(2, dtype=np.bool_),
    lambda: np.ones(3, dtype='int64'),
    lambda: np.array([1, 2], dtype='float64'),
    lambda: np.array([1.9, -1.9]).astype(np.int64),
    lambda: np.array([0, 2]).astype(np.bool_),
    lambda: np.array([True, False]).astype(int),
    lambda: np.array([1, 2]).astype(float).dtype,
    lambda: np.arange(3).astype('float64') / 2,
    lambda: np.float64(2.5),
    lambda: np.float64(3),
    lambda: np.int64(7),
    lambda: np.int64(7.9),
    lambda: np.bool_(1),
    lambda: np.float32(0.5) + 0.25,
    lambda: np.array([1, 2], dtype=np.float32).sum(),
    lambda: np.float64(2.5).dtype,
    lambda: np.int64(3).dtype,
    lambda: np.array(1.5).dtype == np.float64,
    lambda: np.arange(3).dtype == np.int64,
    lambda: np.zeros(1).dtype == 'float64',
    lambda: np.dtype('float64'),
    lambda: np.dtype(int).name,
    lambda: np.array([1, 2]).dtype.kind,
    lambda: repr(np.array([1, 2]).dtype),
    lambda: repr(np.zeros(2, dtype=bool)),
    lambda: repr(np.array([1.5, 2])),
    lambda: repr(np.arange(3)),
    lambda: np.array([0.1, 0.25], dtype=np.float32),
    lambda: np.ones((2, 2), dtype=np.float32) * 3,
    lambda: np.int64(2).astype(float),
    lambda: np.float64(2.7).astype(int),
    lambda: np.array([3.7]).astype(int).dtype,
)

snippets(
    'sorting',
    lambda: np.argmax(V),
    lambda: np.argmax(A12, axis=1),
    lambda: np.argmax(A12, axis=0),
    lambda: np.argmin(F12, axis=-1),
    lambda: A12.argmax(axis=-1),
    lambda: np.argmax(np.array([1, 3, 3, 2])),
    lambda: np.argmax(np.array([1.0, np.nan, 3.0])),
    lambda: np.argmax(A12, axis=1, keepdims=True),
    lambda: np.argsort(np.array([3, 1, 2])),
    lambda: np.argsort(np.array([[3, 1, 2], [0, 5, 4]])),
    lambda: np.argsort(np.array([[3, 1, 2], [0, 5, 4]]), axis=0),
    lambda: np.argsort(-V),
    lambda: np.argsort(V)[::-1][:2],
    lambda: np.argsort(np.array([2.0, np.nan, -1.0])),
    lambda: np.argsort(A12, axis=None),
    lambda: np.sort(np.array([3, 1, 2])),
    lambda: np.sort(np.array([[3.5, -1], [0, 2]]), axis=0),
    lambda: np.sort(V)[::-1],
    lambda: np.sort(np.array([1.0, np.nan, -np.inf, 0.0])),
    lambda: np.sort(A12, axis=None)[-3:],
    lambda: (lambda a: (a.sort(), a)[1])(np.array([3, 1, 2])),
    lambda: np.sort(np.array([True, False, True])),
    lambda: np.take_along_axis(A12, np.argsort(-A12, axis=1)[:, :2], axis=1),
    lambda: np.take_along_axis(F12, np.argmax(F12, axis=-1)[:, None], axis=-1),
    lambda: np.take_along_axis(A12, np.array([[0], [1], [2]]), axis=1),
    lambda: np.take_along_axis(np.arange(5), np.array([4, 0]), axis=0),
    lambda: np.take_along_axis(A12, np.array([[0, 1]]), axis=0),
    lambda: np.take_along_axis(A12, np.array([1]), axis=1),
    lambda: np.take_along_axis(A12, np.array([[5]]), axis=1),
    lambda: np.partition(np.array([5, 1, 4, 2, 3]), 2)[2],
    lambda: np.sort(np.partition(np.array([5, 1, 4, 2, 3]), -2)[-2:]),
    lambda: np.partition(V, 1)[1],
    lambda: np.sort(np.argpartition(np.array([5, 1, 4, 2]), 2)[:2]),
    lambda: np.partition(np.arange(3), 5),
    lambda: np.sort(np.partition(F12, -2, axis=-1)[:, -2:], axis=-1),
    lambda: np.argmax(np.zeros(0)),
)

snippets(
    'cumulative',
    lambda: np.cumsum(np.arange(5)),
    lambda: np.cumsum(A12, axis=0),
    lambda: np.cumsum(A12, axis=1),
    lambda: np.cumsum(A12),
    lambda: np.cumsum(np.array([0.1, 0.2, 0.3, 0.4])),
    lambda: np.cumsum(np.array([True, True, False])),
    lambda: np.cumsum(F12, axis=-1)[:, -1],
    lambda: A12.cumsum(axis=1)[-1],
    lambda: np.cumprod(np.array([1, 2, 3, 4])),
    lambda: np.cumprod(np.array([[1.5, 2.0], [0.5, 4.0]]), axis=1),
    lambda: np.cumsum(A12, axis=2),
    lambda: np.cumsum(np.sort(np.array([0.1, 0.5, 0.2, 0.2]))[::-1]) <= 0.7,
)

snippets(
    'elementwise',
    lambda: np.clip(V, -1, 2),
    lambda: np.clip(A12, 2, 9),
    lambda: np.clip(V, None, 0),
    lambda: np.clip(V, 0, None),
    lambda: V.clip(min=0),
    lambda: np.clip(A12, 1.5, 3),
    lambda: np.clip(3.7, 0, 1),
    lambda: np.logaddexp(0.0, 0.0),
    lambda: np.logaddexp(V, 1.0),
    lambda: np.logaddexp(np.array([-np.inf, np.inf, 1.0]), np.array([-np.inf, 1.0, np.nan])),
    lambda: np.logaddexp(np.array([1000.0]), np.array([1000.0])),
    lambda: np.logaddexp(A12, 0)[0],
    lambda: np.nan_to_num(np.array([np.nan, np.inf, -np.inf, 1.5])),
    lambda: np.nan_to_num(np.array([np.nan, -np.inf]), nan=-1.0, neginf=-9.0),
    lambda: np.nan_to_num(np.array([1, 2])),
    lambda: np.nan_to_num(np.nan),
    lambda: np.nan_to_num(np.array([np.inf]), posinf=1e9),
    lambda: np.isclose(V, V + 1e-9),
    lambda: np.isclose(np.array([1.0, np.nan]), np.array([1.0, np.nan]), equal_nan=True),
    lambda: np.allclose(V, V * (1 + 1e-7)),
    lambda: np.allclose(np.array([1.0, 2.0]), np.array([1.0, 2.1])),
    lambda: np.allclose(A12, A12.astype(float), atol=0),
    lambda: np.isclose(1.0, 1.0001, rtol=1e-3),
    lambda: np.maximum(V, 0),
    lambda: np.maximum(A12, np.arange(4)[::-1]),
    lambda: np.maximum(np.array([1.0, np.nan]), 2.0),
    lambda: np.minimum(A12, 5),
    lambda: np.maximum(3, 4.5),
    lambda: np.tanh(V),
    lambda: np.tanh(np.array([-np.inf, 0.0, np.inf])),
    lambda: 0.5 * V * (1 + np.tanh(np.sqrt(2 / np.pi) * (V + 0.044715 * V ** 3))),
    lambda: V / (1 + np.exp(-V)),
    lambda: np.abs(V - np.array([0.5, -1.25, 2.0, 3.25])).max(),
    lambda: np.sqrt(np.mean(V ** 2) + 1e-6),
)

snippets(
    'einsum',
    lambda: np.einsum('ij,jk->ik', A12, A12.T),
    lambda: np.einsum('ij,kj->ik', F12, F12),
    lambda: np.einsum('bij,bjk->bik', B3, B3.swapaxes(1, 2)).shape,
    lambda: np.einsum('bhqd,bhkd->bhqk', B3.reshape(1, 2, 3, 4), B3.reshape(1, 2, 3, 4)),
    lambda: np.einsum('bhqk,bhkd->bhqd', np.ones((1, 2, 3, 3)) / 3, B3.reshape(1, 2, 3, 4)),
    lambda: np.einsum('i,i->', V, V),
    lambda: np.einsum('i,i', np.arange(3), np.arange(3)),
    lambda: np.einsum('i,j->ij', np.arange(3), np.arange(2)),
    lambda: np.einsum('ij->ji', A12),
    lambda: np.einsum('ij->', A12),
    lambda: np.einsum('ij->j', A12),
    lambda: np.einsum('ii->i', np.arange(9).reshape(3, 3)),
    lambda: np.einsum('ii', np.arange(9).reshape(3, 3)),
    lambda: np.einsum('ij', A12).shape,
    lambda: np.einsum('...d,...d->...', F12, F12),
    lambda: np.einsum('...qd,...kd->...qk', B3, B3).shape,
    lambda: np.einsum('btd,dh->bth', B3, np.ones((4, 2))),
    lambda: np.einsum('ij,jk->ik', A12, A12),
    lambda: np.einsum('ij,jk->il', A12, A12.T),
    lambda: np.einsum('i,i->i', np.array([True, False]), np.array([True, True])),
)

snippets(
    'norm',
    lambda: np.linalg.norm(np.array([3.0, 4.0])),
    lambda: np.linalg.norm(np.array([3, 4])),
    lambda: np.linalg.norm(np.array([[1.0, 2.0], [2.0, 4.0]])),
    lambda: np.linalg.norm(np.array([[3.0, 4.0], [6.0, 8.0]]), axis=1),
    lambda: np.linalg.norm(np.array([[3.0, 4.0], [6.0, 8.0]]), axis=-1, keepdims=True),
    lambda: np.linalg.norm(np.array([[3.0, 4.0], [6.0, 8.0]]), axis=0),
    lambda: np.linalg.norm(np.array([1.0, -2.0, 2.0]), ord=1),
    lambda: np.linalg.norm(np.array([1.0, -5.0, 2.0]), ord=np.inf),
    lambda: np.linalg.norm(np.array([1.0, -5.0, 2.0]), ord=-np.inf),
    lambda: np.linalg.norm(np.array([0.0, 3.0, 0.0, 4.0]), ord=0),
    lambda: np.linalg.norm(np.zeros((2, 2)), 'fro'),
    lambda: np.linalg.norm(np.ones((2, 2, 2))),
    lambda: np.linalg.norm(np.ones((2, 3, 4)), axis=(1, 2)),
    lambda: np.linalg.norm(np.ones((2, 2, 2)), ord=2),
    lambda: F12 / np.linalg.norm(F12 + 1, axis=-1, keepdims=True) < 0.5,
)

snippets(
    'dot',
    lambda: np.dot(np.arange(3), np.arange(3)),
    lambda: np.dot(A12, np.arange(4)),
    lambda: np.dot(A12, A12.T),
    lambda: np.dot(B3, np.ones((4, 2))),
    lambda: np.dot(B3, np.ones((2, 4, 3))).shape,
    lambda: np.dot(B3, np.arange(4)),
    lambda: np.dot(np.arange(3), np.ones((2, 3, 2))).shape,
    lambda: np.dot(2, A12)[0],
    lambda: np.dot(B3, np.ones((3, 2))),
    lambda: A12.dot(np.ones(4)),
    lambda: np.dot(np.ones((2, 3)), np.ones((2, 3))),
)

snippets(
    'aliases',
    lambda: np.infty,
    lambda: -np.infty < np.NINF,
    lambda: np.NINF,
    lambda: np.where(np.tri(3, dtype=bool), 0.0, np.NINF),
    lambda: A12[np.newaxis].shape,
    lambda: A12[:, np.newaxis, :].shape,
    lambda: np.newaxis is None,
    lambda: np.Inf,
    lambda: np.full((2, 2), -np.infty),
    lambda: np.nan == np.nan,
)

S = np.array([1.0, 2.0, 4.0]).sum()
I = np.arange(4).sum()
M = np.array([0.5, 1.5]).max()

snippets(
    'scalars',
    lambda: 1 / np.sqrt(16),
    lambda: 1.0 / np.sqrt(16),
    lambda: 2 * S,
    lambda: S * 2,
    lambda: 1 - M,
    lambda: M - 1,
    lambda: 1 + I,
    lambda: I + 1,
    lambda: I * 2.5,
    lambda: 2.5 * I,
    lambda: 7 // I,
    lambda: I // 4,
    lambda: 10 % I,
    lambda: I % 4,
    lambda: 2 ** I,
    lambda: I ** 2,
    lambda: 2.0 ** M,
    lambda: M ** 2,
    lambda: 1 / I,
    lambda: I / 4,
    lambda: S / I,
    lambda: I / S,
    lambda: S + I,
    lambda: -S,
    lambda: -I,
    lambda: abs(-M),
    lambda: (2 * S).dtype,
    lambda: (1 + I).dtype,
    lambda: (I / 2).dtype,
    lambda: (I * 1.5).dtype,
    lambda: (True + I).dtype,
    lambda: S == 7.0,
    lambda: S > 3,
    lambda: I >= 6,
    lambda: M < 2,
    lambda: S + np.arange(3),
    lambda: np.arange(3) * S,
    lambda: I * np.ones(2),
    lambda: M - np.array([1.0, 2.0]),
    lambda: np.float64(1.0) / 0,
    lambda: np.float64(-1.0) / 0,
    lambda: np.float64(0.0) / 0,
    lambda: np.int64(7) // 0,
    lambda: np.int64(2) ** -1,
    lambda: float(S) + 1,
    lambda: int(I) + 1,
    lambda: round(float(M), 1),
    lambda: [S, I, M],
    lambda: (S, I),
    lambda: {'s': S},
    lambda: str(S) + '|' + str(I),
    lambda: 'scale %.3f' % S,
    lambda: S.item() + 1,
    lambda: I.item(),
    lambda: np.sqrt(S) * np.sqrt(S),
    lambda: np.exp(M) / np.exp(M).sum(),
    lambda: 1.0 / np.sqrt(np.float64(64)),
    lambda: 3 * np.float64(0.1),
    lambda: np.float64(0.1) + np.float64(0.2),
    lambda: 10 - np.argmax(np.array([1, 5, 2])),
    lambda: [0, 10, 20][np.argmax(np.array([1, 5, 2]))],
    lambda: range(np.int64(3)),
    lambda: np.int64(5) - 2 * np.int64(2),
    lambda: np.float64(1e300) * 1e10,
    lambda: 0.5 * np.sum(np.array([1, 2, 3])),
    lambda: 1 - np.mean(np.array([True, False, False, False])),
    lambda: len(A12) * S,
    lambda: max(S, 5.0),
    lambda: min(I, 2),
    lambda: sum([S, S]),
)

snippets(
    'errors',
    lambda: np.array([1, 2]) + np.array([1, 2, 3]),
    lambda: np.ones((2, 3)) @ np.ones((2, 3)),
    lambda: np.zeros((2, 2)).reshape(3),
    lambda: np.sum(A12, axis=2),
    lambda: np.concatenate([A12, np.zeros((3, 5))], axis=0),
    lambda: np.stack([A12, A12.T]),
    lambda: A12[5],
    lambda: A12[0, 0, 0],
    lambda: A12[1.5],
    lambda: np.ones(3).reshape(-1, -1),
    lambda: np.swapaxes(A12, 0, 3),
    lambda: np.transpose(B3, (0, 1)),
    lambda: np.array([[1, 2], [3]]),
    lambda: np.max(np.zeros(0)),
    lambda: np.arange(3) ** -1,
    lambda: np.einsum('ij,jk->ik', np.ones((2, 3)), np.ones((4, 2))),
    lambda: np.split(np.arange(5), 2),
    lambda: np.repeat(np.arange(3), [1, 2]),
    lambda: np.broadcast_to(np.ones(3), (2, 2)),
    lambda: np.take_along_axis(A12, np.array([0, 1]), axis=1),
    lambda: np.linalg.norm(np.ones((2, 2, 2)), ord=1),
    lambda: np.dot(np.ones((2, 3, 4)), np.ones((3, 2))),
    lambda: bool(np.array([1, 2])),
    lambda: len(np.array(1.0)),
    lambda: np.where(np.array([True]), np.ones(2), np.ones(3)),
    lambda: np.squeeze(np.ones((2, 3)), axis=0),
    lambda: np.expand_dims(np.ones(3), 3),
    lambda: np.ones((2, 3))[:, [0, 5]],
    lambda: np.ones(3)[np.array([True, False])],
    lambda: np.random.default_rng(0).choice(3, size=4, replace=False),
    lambda: np.random.default_rng(0).choice(3, p=[0.5, 0.6, 0.1]),
    lambda: np.tile(np.arange(3), -1),
    lambda: np.meshgrid(np.arange(2), indexing='xz'),
    lambda: np.linspace(0, 1, -1),
    lambda: np.arange(0, 1, 0),
    lambda: np.cumsum(A12, axis=-3),
    lambda: np.argsort(A12, axis=2),
    lambda: np.clip(A12),
    lambda: np.array([1, 2]).sum(axis=(0, 0)),
    lambda: np.int64(5) ** -1,
)

snippets(
    'idioms',
    lambda: np.exp(F12 - F12.max(axis=-1, keepdims=True)).sum(axis=-1),
    lambda: (lambda e: e / e.sum(-1, keepdims=True))(np.exp(V - np.max(V))),
    lambda: np.where(np.triu(np.ones((3, 3)), k=1).astype(bool), -np.inf, 0.0),
    lambda: np.triu(np.full((3, 3), -np.inf), k=1),
    lambda: (1 - np.tri(3)) * -1e9,
    lambda: np.tril(np.ones((3, 3))) == 0,
    lambda: np.where(np.arange(4)[None, :] <= np.arange(4)[:, None], 0.0, -np.inf),
    lambda: np.split(np.arange(24).reshape(2, 12), 3, axis=-1)[2],
    lambda: [h.shape for h in np.split(np.zeros((2, 5, 48)), 3, axis=-1)],
    lambda: np.hstack(np.split(np.arange(12).reshape(2, 6), 3, axis=-1)),
    lambda: np.concatenate(np.split(A12, 2, axis=-1), axis=-1),
    lambda: np.repeat(np.arange(8).reshape(1, 2, 2, 2), 3, axis=1)[0, :, 0, 0],
    lambda: np.argsort(V)[-2:],
    lambda: (lambda p: p / p.sum())(np.exp(V / 0.7)),
    lambda: np.take_along_axis(V[None], np.argsort(V)[None, ::-1][:, :2], axis=-1),
    lambda: np.cumsum(np.sort(np.array([0.1, 0.4, 0.2, 0.3]))[::-1]),
    lambda: np.arange(5)[None, :] - np.arange(3)[:, None],
    lambda: np.abs(np.arange(4)[None, :] - np.arange(4)[:, None]) * -0.5,
    lambda: np.outer(np.arange(3), 1.0 / 10000 ** (np.arange(0, 4, 2) / 4)),
    lambda: (lambda a: np.stack([np.sin(a), np.cos(a)], axis=-1).reshape(3, -1))(np.outer(np.arange(3), np.array([1.0, 0.01]))),
    lambda: F12 / np.sqrt((F12 ** 2).mean(-1, keepdims=True) + 1e-5),
    lambda: (lambda m, v: (F12 - m) / np.sqrt(v + 1e-5))(F12.mean(-1, keepdims=True), F12.var(-1, keepdims=True)),
    lambda: np.maximum(0, F12 - 1),
    lambda: np.einsum('bqd,bkd->bqk', B3, B3)[0] / np.sqrt(4),
    lambda: np.argmax(np.einsum('qd,kd->qk', F12, F12), axis=-1),
    lambda: np.float64(np.sqrt(64)) ** -1,
    lambda: (A12 > 5).sum(axis=1),
    lambda: np.mean(np.argmax(F12, -1) == np.array([3, 3, 3])),
    lambda: np.nan_to_num(np.where(np.tri(2) > 0, 1.0, -np.inf)),
    lambda: np.allclose(np.einsum('ij,jk->ik', F12, F12.T), F12 @ F12.T),
    lambda: np.isclose(np.linalg.norm(V), np.sqrt((V ** 2).sum())),
    lambda: np.clip(np.round(V * 2), -2, 2).astype(int),
)


snippets(
    'random',
    lambda: (np.random.seed(0), np.random.randn(2, 3).shape)[1],
    lambda: (np.random.rand(4).shape, np.random.rand(2, 3).dtype),
    lambda: (np.random.randint(5, size=3).dtype, 0 <= np.random.randint(0, 3) < 3),
    lambda: np.random.normal(0.0, 1.0, (2, 2)).shape,
    lambda: np.sort(np.random.choice(4, 4, replace=False)),
    lambda: np.random.default_rng(0).choice(np.array([7, 8, 9]), p=[0.0, 1.0, 0.0]),
    lambda: np.random.default_rng(0).choice(5, size=(2, 3)).shape,
    lambda: np.random.default_rng(0).random((2, 2)).dtype,
    lambda: np.random.default_rng(1).normal(size=3).shape,
)


snippets(
    'names',
    lambda: issubclass(np.AxisError, ValueError),
    lambda: (np.Infinity, np.PINF, np.NaN, np.e),
    lambda: np.absolute(V),
    lambda: np.add(A12, 1)[0],
    lambda: np.any(A12 > 10, axis=0),
    lambda: np.asarray([1, 2]),
    lambda: np.asarray(V) is V,
    lambda: np.copy(V),
    lambda: np.divide(A12, 2)[1],
    lambda: np.true_divide(np.arange(3), 4),
    lambda: (np.double(2), np.float_(1.5), np.int_(3), np.single(0.5)),
    lambda: (np.empty((2, 3)).shape, np.empty_like(A12).shape, np.empty(2, dtype=int).dtype),
    lambda: np.equal(A12, 5).sum(),
    lambda: np.not_equal(np.arange(3), 1),
    lambda: (np.greater(V, 0), np.greater_equal(V, 2)),
    lambda: (np.less(V, 0), np.less_equal(V, 2)),
    lambda: np.expm1(np.array([0.0, 1e-10, 1.0])),
    lambda: np.log1p(np.array([0.0, 1e-10, 1.0])),
    lambda: (np.min(A12), np.min(F12, axis=0)),
    lambda: np.mod(A12, 5)[2],
    lambda: np.multiply(A12, A12)[1],
    lambda: np.subtract(10, A12)[0],
    lambda: (np.prod(np.arange(1, 6)), np.prod(F12 + 1, axis=-1)),
    lambda: np.ravel(A12)[::5],
    lambda: np.vectorize(lambda v: v * 2)(A12),
    lambda: np.vectorize(lambda a, b: a - b)(np.arange(3), 1),
    lambda: isinstance(np.random.default_rng(0), np.random.Generator),
    lambda: (np.random.random(3).shape, np.random.random_sample((2, 2)).shape, np.random.sample(2).shape),
    lambda: (np.random.standard_normal((2, 3)).shape, np.random.uniform(0, 1, 4).shape),
    lambda: (np.random.default_rng(0).integers(0, 5, size=3).dtype, np.random.default_rng(0).uniform(0, 1, 3).shape),
    lambda: np.random.default_rng(0).normal(0.0, 1.0, size=(2,)).shape,
)


@dataclass
class CorpusConfig:
    n_heads: int
    d_model: int = 16
    layers: List[int] = field(default_factory=list)

    def d_head(self) -> int:
        return self.d_model // self.n_heads


ShapeT = TypeVar('ShapeT')


class Array(np.ndarray, Generic[ShapeT]):
    pass


def head_dim(c: CorpusConfig) -> Optional[int]:
    return c.d_model // c.n_heads


@case
def typing_and_dataclasses():
    x = cast(Array, np.ones((2, 3)))
    c = CorpusConfig(4)
    print(c, head_dim(c), c.d_head(), CorpusConfig(2, d_model=8) == CorpusConfig(2, 8), x.shape, isinstance(x, np.ndarray))
    t: Tuple[int, int] = (1, 2)
    print(t, CorpusConfig(1, 2, [3]))


@case
def dataclass_missing_field():
    CorpusConfig()


@case
def dataclass_unknown_keyword():
    CorpusConfig(2, heads=3)


# ---------------------------------------------------------------- the standard library NumPy code imports

@case
def std_logging():
    import logging
    import sys
    log = logging.getLogger('corpus.attn')
    h = logging.StreamHandler(sys.stdout)
    h.setFormatter(logging.Formatter('%(levelname)s %(name)s: %(message)s'))
    log.addHandler(h)
    log.setLevel(logging.INFO)
    log.propagate = False
    log.info('T=%d d=%d', 4, 8)
    log.debug('not shown')
    log.warning('scores %s', np.array([1.0, 2.0]))
    print(log.getEffectiveLevel(), logging.getLevelName(logging.WARNING), logging.getLevelName(10), log.isEnabledFor(logging.DEBUG))
    child = logging.getLogger('corpus.attn.head')
    print(child.parent is log, child.getEffectiveLevel())
    log.removeHandler(h)


@case
def std_logging_levels():
    import logging
    print(logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR, logging.CRITICAL)
    logging.getLogger('corpus.x').setLevel('ERROR')
    print(logging.getLogger('corpus.x').level)


@case
def std_functools():
    import functools
    print(functools.reduce(lambda a, b: a * b, [1, 2, 3, 4]), functools.reduce(lambda a, b: a + b, [], 10))
    add3 = functools.partial(lambda a, b, c: a + b + c, 1, c=3)
    print(add3(2))

    @functools.lru_cache(maxsize=None)
    def fib(n):
        return n if n < 2 else fib(n - 1) + fib(n - 2)
    print(fib(30))

    @functools.wraps(fib)
    def wrapper(*a):
        return fib(*a)
    print(wrapper(10))
    print(sorted([3, 1, 2], key=functools.cmp_to_key(lambda a, b: b - a)))

    class Lazy:
        @functools.cached_property
        def value(self):
            print('computed')
            return 42
    z = Lazy()
    print(z.value, z.value)


@case
def std_functools_empty_reduce():
    import functools
    functools.reduce(lambda a, b: a + b, [])


@case
def std_itertools():
    import itertools
    print(list(itertools.product([0, 1], repeat=2)))
    print(list(itertools.combinations('abc', 2)), list(itertools.permutations([1, 2, 3], 2)))
    print(list(itertools.islice(itertools.count(5, 2), 3)), list(itertools.accumulate([1, 2, 3, 4])))
    print(list(itertools.chain([1], (2, 3))), list(itertools.chain.from_iterable([[1, 2], [3]])))
    print([(k, list(g)) for k, g in itertools.groupby('aabbbc')])
    print(list(itertools.zip_longest([1, 2, 3], 'ab', fillvalue='-')), list(itertools.pairwise([1, 2, 3])))
    print(list(itertools.combinations_with_replacement([1, 2], 2)), list(itertools.starmap(pow, [(2, 3), (3, 2)])))
    print(list(itertools.takewhile(lambda x: x < 3, [1, 2, 3, 1])), list(itertools.dropwhile(lambda x: x < 3, [1, 2, 3, 1])))
    print(list(itertools.repeat('x', 3)), list(itertools.compress('abcd', [1, 0, 1, 0])))


@case
def std_collections():
    from collections import Counter, OrderedDict, defaultdict, deque, namedtuple
    c = Counter('abracadabra')
    print(c.most_common(3), c['z'], sum(c.values()))
    d = defaultdict(list)
    for k, v in [('a', 1), ('b', 2), ('a', 3)]:
        d[k].append(v)
    print(sorted(d.items()), d['q'], len(d))
    q = deque([1, 2, 3], 3)
    q.append(4)
    print(list(q), q.popleft())
    Point = namedtuple('Point', ['x', 'y'])
    p = Point(1, y=2)
    print(p, p.x + p.y, p._asdict()['y'])
    o = OrderedDict()
    o['b'] = 1
    o['a'] = 2
    print(list(o.keys()))


@case
def std_abc():
    from abc import ABC, abstractmethod

    class Layer(ABC):
        @abstractmethod
        def forward(self, x):
            ...

        @abstractmethod
        def params(self):
            ...

        def describe(self):
            return type(self).__name__

    class Linear(Layer):
        def forward(self, x):
            return x * 2

        def params(self):
            return 1

    print(Linear().forward(np.array([1.0, 2.0])), Linear().describe())
    try:
        Layer()
    except TypeError as e:
        print(e)


@case
def std_abc_one_method_left():
    from abc import ABC, abstractmethod

    class Base(ABC):
        @abstractmethod
        def go(self):
            ...

        @abstractmethod
        def stop(self):
            ...

    class Half(Base):
        def go(self):
            return 1
    Half()


@case
def std_metaclass_abcmeta():
    from abc import ABCMeta, abstractmethod

    class Module(metaclass=ABCMeta):
        @abstractmethod
        def __call__(self, x):
            ...

    class Relu(Module):
        def __call__(self, x):
            return np.maximum(x, 0)
    print(Relu()(np.array([-1.0, 2.0])))
    try:
        Module()
    except TypeError as e:
        print(e)


@case
def std_enum():
    from enum import Enum, IntEnum, auto

    class Mode(Enum):
        TRAIN = auto()
        EVAL = auto()

    class Head(IntEnum):
        Q = 0
        K = 1
        V = 2
    print(Mode.TRAIN, Mode.EVAL.name, Mode.EVAL.value, Mode(1) is Mode.TRAIN, repr(Mode.EVAL))
    print(Head.K + 1, Head.V == 2, int(Head.Q), Head(2).name)
    print([m.name for m in Mode.__members__.values()])


@case
def std_enum_bad_value():
    from enum import Enum

    class Color(Enum):
        RED = 1
    Color(5)


@case
def std_sys_os():
    import os
    import sys
    print(sys.version_info >= (3, 8), sys.version_info[0], sys.maxsize == 2 ** 63 - 1, sys.float_info.epsilon)
    sys.stdout.write('to stdout\n')
    print(os.path.join('data', 'x.npy'), os.path.basename('/a/b.txt'), os.path.dirname('/a/b.txt'))
    print(os.path.splitext('model.tar.gz'), os.path.split('a/b/c'), os.path.normpath('a/./b/../c'), os.sep)
    print(os.environ.get('ATTNLAB_CORPUS_UNSET', 'unset'), os.getenv('ATTNLAB_CORPUS_UNSET'))


@case
def std_uuid():
    import uuid
    u = uuid.uuid4()
    print(len(str(u)), u.version, str(u)[14], str(u).count('-'), uuid.UUID(str(u)) == u)
    v = uuid.UUID('12345678123456781234567812345678')
    print(v, repr(v), v.hex, v.int % 1000, v.fields[0])
    print(uuid.NAMESPACE_DNS)


@case
def std_copy_random():
    import copy
    import random
    a = [[1, 2], [3]]
    b = copy.deepcopy(a)
    b[0].append(9)
    c = copy.copy(a)
    c.append(0)
    print(a, b, c)
    arr = np.array([1.0, 2.0])
    arr2 = copy.deepcopy(arr)
    arr2[0] = 5.0
    print(arr, arr2)
    random.seed(3)
    xs = [random.random() for _ in range(5)]
    print(all(0 <= x < 1 for x in xs), 0 <= random.randint(1, 6) - 1 < 6, sorted(random.sample(range(10), 3)) != [])
    deck = list(range(8))
    random.shuffle(deck)
    print(sorted(deck))


@dataclass(frozen=True)
class FrozenCfg:
    d_model: int = 8
    heads: int = 2
    tags: list = field(default_factory=list)

    def __post_init__(self):
        if self.d_model % self.heads:
            raise ValueError('d_model must divide by heads')


@case
def std_dataclass_frozen_postinit():
    from dataclasses import fields, asdict, replace
    Cfg = FrozenCfg
    c = Cfg(16)
    print(c, [x.name for x in fields(c)], asdict(c)['heads'], replace(c, heads=4).heads)
    try:
        c.heads = 3
    except Exception as e:
        print(type(e).__name__)
    try:
        Cfg(7)
    except ValueError as e:
        print(e)


# ---------------------------------------------------------------- CPython syntax MicroPython lacks

@case
def syntax_star_displays():
    shape = (2, 3, 4)
    x = np.zeros((*shape[:-1], 5))
    lead, rest = [1, 2], (3,)
    print(x.shape, [*lead, *rest], (*lead, 9), {*lead, 5} == {1, 2, 5})
    merged = {**{'a': 1}, 'b': 2, **{'a': 3}}
    print(sorted(merged.items()))
    params = [
        *lead,   # the lead dims
        *rest,
    ]
    print(params)


@case
def syntax_star_return():
    def split_last(s):
        *lead, d = s
        return *lead, d * 2
    print(split_last((2, 3, 4)))


@case
def syntax_generic_subscript():
    from typing import Generic, TypeVar
    T = TypeVar('T')

    class Box(Generic[T]):
        def __init__(self, v):
            self.v = v

    class IntBox(Box[int]):
        pass
    Alias = Box[float]
    print(Alias(1.5).v, IntBox(3).v, Box[int](4).v)


# ---------------------------------------------------------------- NumPy names added for real code

@case
def np_isneginf_isposinf():
    x = np.array([-np.inf, -1.0, 0.0, np.inf, np.nan])
    print(np.isneginf(x), np.isposinf(x), np.isneginf(-np.inf), np.isposinf(2.0))


@case
def np_finfo_iinfo():
    print(np.finfo(np.float64).eps, np.finfo(float).max, np.finfo(np.float64).min, np.finfo(np.float64).tiny)
    print(np.finfo(np.float64).bits, np.finfo(np.float64).dtype, np.iinfo(np.int64).max, np.iinfo(int).min)
    print(repr(np.finfo(np.float64)))
    print(np.iinfo(np.int64))
    mask = np.array([True, False])
    print(np.where(mask, 1.0, np.finfo(np.float64).min))


@case
def np_iinfo_of_float():
    np.iinfo(np.float64)


@case
def np_errstate():
    with np.errstate(divide='ignore', invalid='ignore'):
        print(np.array([1.0, 0.0]) / np.array([0.0, 0.0]))
        print(np.geterr()['divide'], np.geterr()['invalid'])
    print(np.geterr()['divide'], np.geterr()['under'])
    old = np.seterr(all='ignore')
    print(np.geterr()['over'], old['over'])
    np.seterr(**old)
    print(np.geterr()['over'])

    @np.errstate(over='ignore')
    def big():
        return np.exp(np.array([1000.0]))
    print(big())


# ---------------------------------------------------------------- the driver

def error_kind(e):
    for t in (ValueError, IndexError, TypeError, AttributeError, ZeroDivisionError, MemoryError, RuntimeError, NameError, KeyError):
        if isinstance(e, t):
            return t.__name__
    return 'Exception'


def run_case(i):
    """Prints case i's name and output (or its error's kind); → the number of cases."""
    name, f = CASES[i]
    print('=== ' + name)
    try:
        value = f()
        if value is not None:
            print(value)
    except Exception as e:
        print('!! ' + error_kind(e))
    return len(CASES)


# tests/js/numpy-diff.test.mjs calls run_case(i) in the sandbox, one call each (ATTNLAB_TRACK is set there).
if not globals().get('ATTNLAB_TRACK'):
    for i in range(len(CASES)):
        run_case(i)
