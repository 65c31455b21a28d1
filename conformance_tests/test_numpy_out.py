"""A ``numpy.ndarray`` (or a NumPy subclass: a masked array) given as ``out=``, against NumPy.

On the host tier (the default placement, every input on the host) NumPy's own function runs, so
it writes NumPy's ``out`` itself and returns it, as NumPy does: the same object, NumPy's values
and errors. Where the call runs on the device (the device placement) tnp refuses a plain
``numpy.ndarray`` with a TypeError saying so (README, ``diff-numpy-out``): the device writes only
tnp arrays. A NumPy subclass's ``out`` (a masked array) is NumPy's to write in every placement,
device inputs copied to the host, as for any NumPy subclass argument."""
import numpy as np
import pytest

import tnp

RNG = np.random.default_rng(5)
F = RNG.standard_normal((3, 4))
M = RNG.random((3, 4)) > 0.5


def _run(xp, body, out):
    """``body(xp, out)``'s result or exception; ``out`` is NumPy's array either way."""
    try:
        return body(xp, out), None
    except Exception as e:  # noqa: BLE001 - compared with NumPy's
        return None, e


CASES = {
    "ufunc": (lambda xp, o: xp.sqrt(xp.abs(xp.asarray(F)), out=o), lambda: np.zeros((3, 4))),
    "ufunc-positional": (lambda xp, o: xp.add(xp.asarray(F), 1.0, o), lambda: np.zeros((3, 4))),
    "ufunc-where": (lambda xp, o: xp.multiply(xp.asarray(F), 2.0, out=o, where=xp.asarray(M)),
                    lambda: np.ones((3, 4))),
    "ufunc-cast-error": (lambda xp, o: xp.add(xp.asarray(F), 1.0, out=o),
                         lambda: np.zeros((3, 4), np.int8)),
    "reduction": (lambda xp, o: xp.sum(xp.asarray(F), axis=0, out=o), lambda: np.zeros(4)),
    "std-masked": (lambda xp, o: xp.std(xp.asarray(F), axis=1, keepdims=True, out=o),
                   lambda: np.ma.masked_array(np.zeros((3, 1)))),
    "numpy-input": (lambda xp, o: xp.sin(F.astype(np.float32), out=o),
                    lambda: np.zeros((3, 4), np.float32)),
}


@pytest.mark.parametrize("case", CASES)
def test_numpy_out(placement, case):
    body, make = CASES[case]
    np_out, tnp_out = make(), make()
    expected, np_err = _run(np, body, np_out)
    actual, tnp_err = _run(tnp, body, tnp_out)
    if placement == "device" and type(np_out) is np.ndarray:
        # the device refuses a NumPy out (documented), and leaves it unwritten
        assert type(tnp_err) is TypeError and "out must be a tnp.ndarray" in str(tnp_err)
        np.testing.assert_array_equal(tnp_out, make())
        return
    if np_err is not None:
        assert isinstance(tnp_err, type(np_err)) and str(tnp_err) == str(np_err)
    else:
        assert tnp_err is None, tnp_err
        assert actual is tnp_out  # NumPy returns its ``out`` itself
        assert type(actual) is type(expected)
    assert tnp_out.dtype == np_out.dtype and tnp_out.shape == np_out.shape
    np.testing.assert_allclose(np.asarray(tnp_out), np.asarray(np_out), rtol=1e-6)


def test_numpy_out_tuple_mixed(placement):
    """``divmod`` into a NumPy ``out`` and a tnp one: each written, each returned."""
    x = RNG.standard_normal(6) * 5
    q, r = np.zeros(6), np.zeros(6)
    eq, er = np.divmod(x, 2.0, out=(q, r))
    tq, tr = np.zeros(6), tnp.zeros(6)
    if placement == "device":
        with pytest.raises(TypeError, match="out must be a tnp.ndarray"):
            tnp.divmod(tnp.asarray(x), 2.0, out=(tq, tr))
        return
    aq, ar = tnp.divmod(tnp.asarray(x), 2.0, out=(tq, tr))
    assert aq is tq and ar is tr
    np.testing.assert_array_equal(tq, eq)
    np.testing.assert_array_equal(np.asarray(tr), er)


def test_out_none_given(placement):
    """``out`` given as None (positionally, or a tuple of None): a new array, as NumPy's."""
    from engine import check
    check(lambda xp, a: (xp.add(a, 2, None), xp.add(a, 2, out=(None,)), xp.sqrt(a, None),
                         xp.divmod(a, 2, out=(None, None))), F)


def test_out_ellipsis_keeps_a_0d_array(placement):
    """A ufunc's ``out=...``: a 0-d result is an array, not NumPy's scalar."""
    from engine import check
    check(lambda xp, a: (xp.add(a[0, 0], 1, out=...), xp.sqrt(a[0, 0], out=...),
                         xp.add(a, 1, out=...)), np.abs(F))
