"""NumPy's floating-point warnings and error modes, tnp against NumPy on the same input: the
categories and messages of the RuntimeWarnings, what 'print', 'log' and 'call' produce, the
FloatingPointError of 'raise', for every errstate mode, in both placements (the device tier:
lazy fusion's flag and NumPy's replay, ``tnp/_core/engine/fpcheck.py``; the host tier: NumPy
itself). A result is observed (``numpy.asarray``) after the ``errstate`` block it was computed
in: the warnings follow the state the operation was recorded in."""
import warnings

import numpy
import pytest

import tnp

from engine import recorded_errcall

MODES = ("ignore", "warn", "raise", "call", "print", "log")
BIG = 100_000  # over the host tier's threshold: the device tier in the default placement too


def _inf_mod(xp):
    return xp.asarray([numpy.inf, 2.0]) % 1


CASES = {
    "divide": lambda xp: xp.asarray([1.0, 0.0, -1.0, 2.0]) / 0,
    "divide big": lambda xp: xp.zeros(BIG) / 0,
    "floor_divide int": lambda xp: xp.arange(4) // 0,
    "floor_divide float": lambda xp: xp.asarray([1.0, 0.0]) // 0,
    "remainder int": lambda xp: xp.arange(4) % 0,
    "remainder float": lambda xp: xp.asarray([1.0, 0.0]) % 0,
    "divmod int": lambda xp: divmod(xp.arange(4), 0),
    "divmod float": lambda xp: divmod(xp.asarray([1.0, 0.0]), 0),
    "fmod float": lambda xp: xp.fmod(xp.asarray([1.0, 2.0]), 0),
    "fmod int": lambda xp: xp.fmod(xp.arange(3), 0),
    "power": lambda xp: xp.power(xp.asarray([0.0, -1.0, 2.0]), xp.asarray([-1.0, 0.5, 2000.0])),
    "log": lambda xp: xp.log(xp.asarray([0.0, -1.0, 1.0])),
    "sqrt": lambda xp: xp.sqrt(xp.asarray([-1.0, 4.0])),
    "arccos": lambda xp: xp.arccos(xp.asarray([2.0, 0.5])),
    "exp overflow": lambda xp: xp.exp(xp.asarray([1000.0, 1.0])),
    "add overflow": lambda xp: xp.asarray([1e308, 1.0]) + 1e308,
    "multiply overflow big": lambda xp: xp.full(BIG, 1e200) * 1e200,
    "cast to int": lambda xp: xp.asarray([numpy.nan, numpy.inf, 1e20, 1.0]).astype(numpy.int64),
    "cast to int32": lambda xp: xp.asarray([1e10, 1.0]).astype(numpy.int32),
    "inf % 1": _inf_mod,
    "int min // -1": lambda xp: xp.asarray([-2**63, 4]) // -1,
    "float32 overflow": lambda xp: xp.asarray([3e38], numpy.float32) * 10,
    "complex divide": lambda xp: xp.asarray([1 + 1j, 0j]) / 0,
    "chain": lambda xp: (xp.asarray([1.0, 0.0]) / 0) * 2 + 1,
    "nan input is silent": lambda xp: xp.asarray([numpy.nan, numpy.inf]) + 1,
    "finite is silent": lambda xp: xp.asarray([1.0, 2.0]) / 2,
    "sum overflow": lambda xp: xp.full(BIG, 1e304).sum(),
    "sum overflow small": lambda xp: xp.asarray([1e308, 1e308]).sum(),
    "sum along an axis overflow": lambda xp: xp.full((4, BIG), 1e305).sum(axis=1),
    "prod overflow": lambda xp: xp.prod(xp.full(BIG, 10.0)),
    "add.reduce overflow": lambda xp: xp.add.reduce(xp.full(BIG, 1e304)),
    "sum where= overflow": lambda xp: xp.full(BIG, 1e304).sum(where=xp.arange(BIG) % 2 == 0),
    "float32 sum overflow": lambda xp: xp.full(BIG, 1e36, numpy.float32).sum(),
    "complex sum overflow": lambda xp: xp.full(BIG, 1e304 + 1e304j).sum(),
    "sum of nan is silent": lambda xp: xp.full(BIG, numpy.nan).sum(),
    "out=": lambda xp: xp.divide(xp.asarray([1.0, 0.0]), 0, out=xp.zeros(2)),
    "where=": lambda xp: xp.divide(xp.asarray([1.0, 0.0, 3.0]), 0, out=xp.zeros(3),
                                   where=xp.asarray([True, False, True])),
}


def _inplace(xp):
    a = xp.asarray([1.0, 0.0, 2.0])
    a /= 0
    return a


def _inplace_loop(xp):
    a = xp.ones(BIG)
    for _ in range(3):
        a *= 1e200
    return a


CASES["in-place /= 0"] = _inplace
CASES["in-place loop overflow"] = _inplace_loop


def outcome(xp, fn, mode, capfd):
    """What ``fn(xp)`` gives under ``errstate(all=mode, under='ignore')``, its results
    observed after the block: the warnings (category, message), the log and call records,
    what was printed, the FloatingPointError's message, and the results."""
    capfd.readouterr()
    error = results = None
    with recorded_errcall(mode) as seen:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                with numpy.errstate(all=mode, under="ignore"):
                    r = fn(xp)
                results = [numpy.asarray(x) for x in (r if isinstance(r, tuple) else (r,))]
            except FloatingPointError as e:
                error = str(e)
    warned = [(w.category, str(w.message)) for w in caught
              if issubclass(w.category, RuntimeWarning)]
    return warned, seen, capfd.readouterr().err, error, results


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_fp_errors_as_numpy(case, mode, capfd):
    want = outcome(numpy, CASES[case], mode, capfd)
    got = outcome(tnp, CASES[case], mode, capfd)
    assert got[:4] == want[:4]
    if want[4] is not None:
        for g, w in zip(got[4], want[4]):
            assert g.dtype == w.dtype and g.shape == w.shape
            if w.dtype.kind in "fc":  # (XLA's exp may round an ulp apart)
                numpy.testing.assert_allclose(g, w, rtol=8 * numpy.finfo(w.dtype).eps)
            else:
                numpy.testing.assert_array_equal(g, w)


def test_recorded_state_governs_later_flush():
    """An operation recorded inside ``errstate(divide='ignore')`` stays silent when its graph
    is flushed and observed outside it; one recorded outside warns (NumPy warns at once)."""
    for xp in (numpy, tnp):
        a = xp.asarray([1.0, 2.0] * (BIG // 2))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with xp.errstate(divide="ignore"):
                quiet = a / 0
            loud = a / 0
            numpy.asarray(quiet + loud)
        assert [str(w.message) for w in caught] == ["divide by zero encountered in divide"]


MIXED = {
    "recorded": lambda xp: xp.asarray([1e308, 1.0]) * 10,
    "out= and where=": lambda xp: xp.multiply(xp.asarray([1e308, 1e308]), 10, out=xp.zeros(2),
                                              where=xp.asarray([True, False])),
    "two results": lambda xp: divmod(xp.asarray([1.0, 2.0]), xp.asarray([0.0, 1.0])),
}


@pytest.mark.parametrize("case", sorted(MIXED))
def test_other_categories_warn_while_one_raises(case):
    """With one category in 'raise' (every call then runs eagerly, its flags read at the
    statement), the others still give NumPy's warnings (kept from the call's own kernel)."""
    said = {}
    for xp in (numpy, tnp):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with numpy.errstate(under="raise"):
                r = MIXED[case](xp)
            for v in r if isinstance(r, tuple) else (r,):
                numpy.asarray(v)
        said[xp] = [(w.category, str(w.message)) for w in caught]
    assert said[tnp] == said[numpy] and said[numpy]


def test_warning_points_at_the_program():
    """The warning names the program's file (the line that observed the value, where NumPy
    names the line of the operation), not a tnp module."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        numpy.asarray(tnp.zeros(BIG) / 0)
    assert caught and all(w.filename == __file__ for w in caught)


OBSERVERS = {"asarray": numpy.asarray, "str": str, "repr": repr, "tolist": lambda r: r.tolist(),
             "float of a sum": lambda r: float(r.sum()), "item": lambda r: r[:1].item(),
             "bool": lambda r: bool(r[0]), "mask shape": lambda r: r[r > 0].shape}


@pytest.mark.parametrize("observer", sorted(OBSERVERS))
def test_delivered_when_the_program_reads_a_value(observer):
    """Each way a program reads a device value gives the pending warnings first (NumPy gave
    them at the operation, before any read)."""
    for xp in (numpy, tnp):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = xp.ones(BIG) / 0
            OBSERVERS[observer](r)
        assert [str(w.message) for w in caught] == ["divide by zero encountered in divide"]


def test_warnings_as_errors():
    """``-W error``: the RuntimeWarning is raised (at the observation on the device tier)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning, match="invalid value encountered in divide"):
            numpy.asarray(tnp.zeros(BIG) / 0)


def test_raise_mean_of_empty():
    """``errstate(all='raise')`` around ``mean`` of an empty array: NumPy's
    FloatingPointError."""
    for xp in (numpy, tnp):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with numpy.errstate(all="raise"), pytest.raises(
                    FloatingPointError, match="invalid value encountered in"):
                numpy.asarray(xp.mean(xp.asarray([])))


ROUTINES = {
    "median of empty": lambda xp: xp.median(xp.asarray([])),
    "mean of empty": lambda xp: xp.mean(xp.asarray([])),
    "mean of empty axis": lambda xp: xp.mean(xp.zeros((0, 3)), axis=0),
    "cov of one observation": lambda xp: xp.cov(xp.asarray([[1.0], [2.0]])),
    "corrcoef of constants": lambda xp: xp.corrcoef(xp.ones((2, 3))),
    "var of one": lambda xp: xp.var(xp.asarray([1.0]), ddof=1),
}


@pytest.mark.parametrize("case", sorted(ROUTINES))
def test_routine_warnings_as_numpy(case):
    got, want = [], []
    for xp, seen in ((numpy, want), (tnp, got)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            numpy.asarray(ROUTINES[case](xp))
        seen += [(w.category, str(w.message)) for w in caught
                 if issubclass(w.category, RuntimeWarning)]
    assert got == want
