"""NumPy's elementwise loops over large host-tier arrays split across threads
(``tnp._core.dispatch.host_threads``): every result, warning and error is NumPy's on the same
input, and the split happened."""
import warnings

import numpy as np
import pytest

import tnp
from tnp._core import settings
from tnp._core.dispatch import host_threads

N = 4 * host_threads.MIN_PIECE + 3  # four pieces' worth, and a remainder


@pytest.fixture
def split(monkeypatch):
    """Large arrays on the host tier (threshold over them), three threads; returns the list of
    calls that were split."""
    previous = settings.update(placement="auto", host_threshold=10 * N, host_threads=3)
    done = []

    def spy(ufunc, vals, shape, size, _split=host_threads.split_call):
        try:
            r = _split(ufunc, vals, shape, size)
        except FloatingPointError:  # (raised by the whole call run again)
            done.append(ufunc.__name__)
            raise
        if r is not None:
            done.append(ufunc.__name__)
        return r
    monkeypatch.setattr(host_threads, "split_call", spy)
    yield done
    settings.restore(previous)


def _inputs(xp):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(N)
    return (xp.asarray(x), xp.asarray(x.astype(np.float32)), xp.asarray((x * 100).astype(np.int8)),
            xp.asarray(x + 1j * x[::-1]))


CASES = {
    "add a Python int (weak)": lambda xp, f, g, i, c: i + 100,
    "float32 times a Python float": lambda xp, f, g, i, c: g * 3.5,
    "int8 and float32": lambda xp, f, g, i, c: xp.add(i, g),
    "sin": lambda xp, f, g, i, c: xp.sin(f),
    "abs of complex": lambda xp, f, g, i, c: abs(c),
    "comparison": lambda xp, f, g, i, c: f < 0.25,
    "two results (divmod)": lambda xp, f, g, i, c: xp.divmod(f, 0.75),
    "power": lambda xp, f, g, i, c: c ** 2,
}


@pytest.mark.parametrize("case", CASES)
def test_split_results_are_numpys(split, case):
    got = CASES[case](tnp, *_inputs(tnp))
    want = CASES[case](np, *_inputs(np))
    for g, w in zip(*(((x,) if not isinstance(x, tuple) else x) for x in (got, want))):
        assert isinstance(g, tnp.ndarray) and g._on_host
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(np.asarray(g), w)
        assert g.flags.c_contiguous and g.flags.writeable and g.flags.owndata
    assert split, "the call was not split"


def test_not_split_where_it_does_not_qualify(split):
    f = _inputs(tnp)[0]
    x = _inputs(np)[0]
    for got, want in ((tnp.sin(f[::2]), np.sin(x[::2])),  # not contiguous
                      (tnp.sin(f[:1000]), np.sin(x[:1000]))):  # small
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
    assert split == []


def test_loops_that_compute_split_from_a_smaller_size(split):
    """A loop that computes for each element (``host_threads.costly``: transcendental, complex,
    integer division) splits from two pieces of ``MIN_PIECE_COSTLY``; a cheap one does not."""
    n = 2 * host_threads.MIN_PIECE_COSTLY + 5
    assert n < 2 * host_threads.MIN_PIECE
    x = np.random.default_rng(1).standard_normal(n)
    calls = {"exp": lambda xp, a: xp.exp(a), "abs of complex": lambda xp, a: abs(a + 1j),
             "floor_divide of int64": lambda xp, a: (a * 100).astype(np.int64) // 7,
             "multiply": lambda xp, a: a * 3.0, "less": lambda xp, a: a < 0.5}
    for name, fn in calls.items():
        got, want = fn(tnp, tnp.asarray(x)), fn(np, x)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(np.asarray(got), want)
    assert split == ["exp", "add", "absolute", "floor_divide"]  # (a + 1j: complex, computes)


def test_one_thread_does_not_split(split):
    settings.update(host_threads=1)
    f = _inputs(tnp)[0]
    np.testing.assert_array_equal(np.asarray(tnp.cos(f)), np.cos(_inputs(np)[0]))
    assert split == []


def _zeros_at_ends(xp):
    a = xp.ones(N)
    a[0] = a[-1] = 0.0  # a zero divisor in the first and the last piece
    return a


def _caught(xp, fn):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        r = fn(xp)
    return r, [(w.category, str(w.message)) for w in seen]


def test_warnings_are_numpys_once(split):
    got, got_w = _caught(tnp, lambda xp: 1.0 / _zeros_at_ends(xp))
    want, want_w = _caught(np, lambda xp: 1.0 / _zeros_at_ends(xp))
    np.testing.assert_array_equal(np.asarray(got), want)
    assert got_w == want_w and len(want_w) == 1
    assert split  # the split call saw the flag and ran the call again whole


@pytest.mark.parametrize("mode", ["ignore", "raise", "call", "print"])
def test_error_state_modes_are_numpys(split, capsys, mode):
    results, inputs = {}, {}
    for xp in (tnp, np):
        a = inputs[xp] = _zeros_at_ends(xp)
        calls = []
        with np.errstate(divide=mode, call=lambda kind, flag: calls.append((kind, flag))):
            try:
                r = xp.log(a)
                results[xp] = (np.asarray(r), calls, None)
            except FloatingPointError as e:
                results[xp] = (None, calls, str(e))
        results[xp] += (capsys.readouterr().out,)
    (g, g_calls, g_err, g_out), (w, w_calls, w_err, w_out) = results[tnp], results[np]
    assert (g_calls, g_err, g_out) == (w_calls, w_err, w_out)
    if w is not None:
        np.testing.assert_array_equal(g, w)
    np.testing.assert_array_equal(np.asarray(inputs[tnp]), inputs[np])  # the input unwritten
    assert split == ["log"]


def test_a_forked_child_splits_with_threads_of_its_own():
    """The threads do not exist in a forked child: it starts its own at its first split (a
    child handing pieces to the parent's would wait for ever)."""
    import subprocess
    import sys
    code = f"""
import os, sys, numpy
import tnp
from tnp._core import settings
from tnp._core.dispatch import host_threads
settings.update(placement="auto", host_threshold=1 << 40, host_threads=2)
x = numpy.linspace(0.0, 1.0, {N})
a = tnp.asarray(x)
assert host_threads.split_call(numpy.sin, [a._buf], a.shape, a.size) is not None
pid = os.fork()
if pid == 0:
    r = numpy.asarray(tnp.sin(a))
    os._exit(0 if numpy.array_equal(r, numpy.sin(x)) else 3)
print(os.waitpid(pid, 0)[1])
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "0"
