"""repr/str of tnp arrays equal NumPy's: all 14 dtypes, 0-d, empty, summarised, special values,
and under print options (tnp prints through NumPy and shares its print options)."""
import numpy as np
import pytest

import tnp
from engine import check
from strategies import ALL_DTYPES


def _values(dt, shape):
    n = int(np.prod(shape))
    base = np.arange(n) % 7 - 2
    if dt.kind == "b":
        return (base > 0).reshape(shape)
    if dt.kind == "c":
        return (base + 0.5j * base[::-1]).astype(dt).reshape(shape)
    if dt.kind == "f":
        return (base * 1.25).astype(dt).reshape(shape)
    return base.astype(dt).reshape(shape)


SHAPES = [(), (0,), (4,), (2, 3), (2, 0, 3), (3, 1, 2), (2000,), (40, 40)]


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_repr_and_str(dt, shape):
    check(lambda xp, a: (repr(a), str(a)), _values(dt, shape))


SPECIAL = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-300, 1e300, 123456789.0, 1e-5, 0.1]


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, np.complex64,
                                np.complex128], ids=str)
def test_special_values(dt):
    vals = np.array(SPECIAL).astype(dt)
    check(lambda xp, a: (repr(a), str(a)), vals)
    if np.dtype(dt).kind == "c":
        check(lambda xp, a: repr(a), (vals + 1j * vals[::-1]).astype(dt))
    for v in vals:
        check(lambda xp, a: (repr(a), str(a)), np.array(v))


@pytest.mark.parametrize("dt", [np.int64, np.uint64, np.int8], ids=str)
def test_integer_extremes(dt):
    info = np.iinfo(dt)
    check(lambda xp, a: (repr(a), str(a)), np.array([info.min, 0, info.max], dt))


OPTIONS = [dict(precision=2), dict(threshold=5), dict(edgeitems=1, threshold=3),
           dict(linewidth=20), dict(suppress=True), dict(nanstr="NaN", infstr="Inf"),
           dict(sign="+"), dict(sign=" "), dict(floatmode="fixed", precision=3),
           dict(floatmode="unique"), dict(legacy="1.13"), dict(legacy="1.25"),
           dict(formatter={"float_kind": lambda x: f"<{x:.1f}>"}),
           dict(formatter={"int": hex}), dict(override_repr=lambda a: "custom!")]


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: ",".join(o))
@pytest.mark.parametrize("dt", [np.float64, np.int32, np.complex64, np.bool_], ids=str)
def test_repr_under_printoptions(opts, dt):
    a = np.concatenate([_values(np.dtype(dt), (12,)),
                        np.array([np.nan, 1e-9] if np.dtype(dt).kind in "fc" else [1, 2],
                                 dtype=dt)])
    for xp_opts in (tnp.printoptions, np.printoptions):  # either sets the one shared state
        with xp_opts(**opts):
            check(lambda xp, x: (repr(x), str(x), str(x[3]), str(x.reshape(2, 7))), a)


def test_set_printoptions_is_shared_with_numpy():
    before = np.get_printoptions()
    try:
        tnp.set_printoptions(precision=3)
        assert np.get_printoptions()["precision"] == 3
        check(lambda xp, a: repr(a), np.array([1 / 3, 2 / 3]))
        np.set_printoptions(precision=5)
        assert tnp.get_printoptions() == np.get_printoptions()
        check(lambda xp, a: repr(a), np.array([1 / 3, 2 / 3]))
    finally:
        np.set_printoptions(**before)


def test_view_repr():
    check(lambda xp, a: (repr(a[::2, 1:]), repr(a.T), str(a[1])), np.arange(12.0).reshape(3, 4))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_repr_of_scalar_results(dt):
    """Where NumPy returns a scalar, tnp's 0-d result prints as that scalar; real 0-d arrays
    (creation, views) print as arrays."""
    check(lambda xp, a: (repr(a[1]), repr(a.sum()), repr((a[0], a.max())), repr([a.min()]),
                         repr(xp.asarray(a[1])), repr(a[1:2].reshape(())), repr(xp.array(a[2]))),
          np.arange(1, 4).astype(dt))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_str_and_format_of_scalar_results(dt):
    check(lambda xp, a: (str(a[1]), f"{a[2]}", str(a.sum()), f"{a[1]!s:>12}"),
          _values(np.dtype(dt), (4,)))
