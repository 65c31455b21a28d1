"""Hypothesis strategies: NumPy dtypes tnp holds, shapes, and arrays with edge values."""
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

BOOL = [np.dtype(np.bool_)]
INTS = [np.dtype(c) for c in ("int8", "int16", "int32", "int64")]
UINTS = [np.dtype(c) for c in ("uint8", "uint16", "uint32", "uint64")]
FLOATS = [np.dtype(c) for c in ("float16", "float32", "float64")]
COMPLEX = [np.dtype(c) for c in ("complex64", "complex128")]
ALL_DTYPES = BOOL + INTS + UINTS + FLOATS + COMPLEX  # the 14 dtypes XLA holds
NUMERIC = INTS + UINTS + FLOATS + COMPLEX
PY_SCALARS = [True, 0, 2, 3, -7, 200, 2**40, 0.5, -0.0, float("inf"), float("nan"), 1e300, 2 + 3j]


def dtypes(choices=ALL_DTYPES):
    return st.sampled_from(choices)


def shapes(min_dims=0, max_dims=4, min_side=0, max_side=5):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


def broadcastable_shapes(num_shapes=2, max_dims=4):
    return hnp.mutually_broadcastable_shapes(num_shapes=num_shapes, max_dims=max_dims,
                                             max_side=4).map(lambda r: r.input_shapes)


def elements(dtype, allow_special=True):
    """Values of ``dtype`` including its extremes and, for inexact dtypes, NaN, inf and -0.0."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return st.one_of(st.integers(int(info.min), int(info.max)),
                         st.sampled_from([int(info.min), int(info.max), 0, 1]))
    if dtype.kind == "f":
        width = dtype.itemsize * 8
        return st.floats(width=width, allow_nan=allow_special, allow_infinity=allow_special,
                         allow_subnormal=False)
    width = dtype.itemsize * 8
    return st.complex_numbers(width=width, allow_nan=allow_special,
                              allow_infinity=allow_special, allow_subnormal=False)


def arrays(dtype, shape, allow_special=True):
    return hnp.arrays(dtype, shape, elements=elements(dtype, allow_special))


@st.composite
def array_and_dtype(draw, choices=ALL_DTYPES, shape=None, allow_special=True):
    dt = draw(dtypes(choices))
    sh = draw(shapes()) if shape is None else shape
    return draw(arrays(dt, sh, allow_special))


# Large inputs: 10^4 to 10^5 elements, where every other strategy stays under 10^4 (and most
# under 100), so that whatever placement tnp picks by size (a host tier for small arrays, the
# device above a threshold) the device engine's paths are exercised. Hypothesis draws only the
# shape and a seed; NumPy's generator fills the values (drawing 10^5 elements one by one through
# hypothesis would take seconds per example), with every edge value of the dtype sprinkled in.
LARGE_MIN, LARGE_MAX = 10_000, 100_000


def large_array(dtype, shape, seed=0, allow_special=True):
    """A NumPy array of ``dtype`` and ``shape`` (seeded): ordinary values of both signs and every
    edge value of the dtype (extremes, 0, and for inexact dtypes NaN, +-inf, -0.0)."""
    dtype = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))
    if dtype.kind == "b":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        a = rng.integers(max(int(info.min), -1000), min(int(info.max), 1000), n,
                         endpoint=True).astype(dtype)
        special = np.array([info.min, info.max, 0, 1], dtype)
    else:
        real = np.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype
        a = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)).astype(real)
        if dtype.kind == "c":
            a = a + 1j * (rng.standard_normal(n) * 10).astype(real)
        a = a.astype(dtype)
        info = np.finfo(real)
        vals = [0.0, -0.0, 1.0, float(info.max), -float(info.max)]
        if allow_special:
            vals += [np.nan, np.inf, -np.inf]
        special = np.array(vals, real).astype(dtype)
    where = rng.integers(0, n, min(n, 64))
    a[where] = special[np.arange(where.size) % special.size]
    return a.reshape(shape)


def large_shapes(min_size=LARGE_MIN, max_size=LARGE_MAX, max_dims=3):
    """Shapes of 1 to ``max_dims`` dimensions whose size lies in [min_size, max_size]."""
    def build(draw_dims):
        ndim, sides = draw_dims
        shape = [max(1, s) for s in sides[:ndim]]
        while int(np.prod(shape)) < min_size:
            shape[0] *= 2
        while int(np.prod(shape)) > max_size:
            shape[0] = max(1, shape[0] // 2)
            if int(np.prod(shape)) > max_size and shape[0] == 1:
                shape = shape[1:] or [max_size]
        return tuple(shape)
    return st.tuples(st.integers(1, max_dims),
                     st.lists(st.integers(1, 300), min_size=max_dims, max_size=max_dims)
                     ).map(build)


@st.composite
def large_arrays(draw, choices=NUMERIC + BOOL, allow_special=True):
    """A large array (10^4 to 10^5 elements) of a drawn dtype, shape and seed."""
    dt = draw(dtypes(choices))
    shape = draw(large_shapes())
    return large_array(dt, shape, draw(st.integers(0, 2**32 - 1)), allow_special)
