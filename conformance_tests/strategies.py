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
