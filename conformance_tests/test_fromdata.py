"""fromfunction, fromiter, frombuffer, fromstring, asarray_chkfinite, require against NumPy."""
import numpy as np
import pytest

from engine import check
from strategies import ALL_DTYPES


@pytest.mark.parametrize("dt", [float, int, np.float32, np.int8, bool], ids=str)
def test_fromfunction(dt):
    check(lambda xp: xp.fromfunction(lambda i, j: i * 3 + j, (2, 3), dtype=dt))
    check(lambda xp: xp.fromfunction(lambda i, scale: i * scale, (4,), dtype=dt, scale=2))
    check(lambda xp: xp.fromfunction(lambda *ix: len(ix), ()))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("count", [-1, 3, 0, 9])
def test_fromiter(dt, count):
    check(lambda xp: xp.fromiter(iter([1, 0, 2, 3, 5]), dt, count))
    check(lambda xp: xp.fromiter((x * x for x in range(4)), dtype=dt, count=count))


def test_fromiter_errors():
    check(lambda xp: xp.fromiter([1, 2], None))
    check(lambda xp: xp.fromiter([[1, 2]], float))
    check(lambda xp: xp.fromiter(["a"], "U1"))  # a NumPy-only dtype: the host tier


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_frombuffer(dt):
    data = np.arange(8).astype(dt).tobytes()
    check(lambda xp: xp.frombuffer(data, dt))
    check(lambda xp: xp.frombuffer(data, dt, count=2, offset=np.dtype(dt).itemsize))
    check(lambda xp: xp.frombuffer(bytearray(data), dt).flags.writeable)
    check(lambda xp: xp.frombuffer(data, dt).flags.writeable)


def test_frombuffer_defaults_and_errors():
    data = np.arange(3.0).tobytes()
    check(lambda xp: xp.frombuffer(data))
    check(lambda xp: xp.frombuffer(b"\x01\x02\x03", np.int16))
    check(lambda xp: xp.frombuffer(data, count=5))
    check(lambda xp: xp.frombuffer(data, offset=-1))
    check(lambda xp: xp.frombuffer(memoryview(data)))


def test_frombuffer_read_only_write_raises():
    def body(xp):
        xp.frombuffer(np.arange(3.0).tobytes())[0] = 1
    check(body)


@pytest.mark.parametrize("text,dt,sep", [("1 2 3", int, " "), ("1,2.5,-3", float, ","),
                                         ("1, 2, 3", np.int8, ","), ("", float, " "),
                                         ("1 2 3", np.complex64, " ")], ids=repr)
@pytest.mark.parametrize("count", [-1, 2])
def test_fromstring(text, dt, sep, count):
    check(lambda xp: xp.fromstring(text, dtype=dt, count=count, sep=sep))


def test_fromstring_binary_mode_error():
    check(lambda xp: xp.fromstring("1 2", sep=""))
    check(lambda xp: xp.fromstring("1 2"))  # NumPy's code takes sep missing: the same error


@pytest.mark.parametrize("obj", [[1.0, 2.0], [1, 2], [1.0, np.nan], [np.inf], [1 + 1j, np.nan],
                                 [True], 3.5], ids=repr)
@pytest.mark.parametrize("dt", [None, np.float32, int], ids=str)
def test_asarray_chkfinite(obj, dt):
    check(lambda xp: xp.asarray_chkfinite(obj, dtype=dt))


def test_asarray_chkfinite_array_is_not_copied():
    check(lambda xp, a: xp.asarray_chkfinite(a) is a, np.arange(3.0))


REQS = [None, [], "C", "F", "A", "W", "O", "E", ["C", "W"], "CF", ["C_CONTIGUOUS", "OWNDATA"],
        "aligned", "Z", ["FORTRAN", "WRITEABLE", "ENSUREARRAY"]]


@pytest.mark.parametrize("req", REQS, ids=repr)
@pytest.mark.parametrize("dt", [None, np.float32], ids=str)
def test_require(req, dt):
    check(lambda xp, a: xp.require(a, dt, req), np.arange(6.0).reshape(2, 3))
    check(lambda xp: xp.require([1, 2], dt, req))


@pytest.mark.parametrize("req", ["O", "W", None, "C"], ids=repr)
def test_require_copies_views_and_read_only(req):
    def view(xp, a):
        v = a[:, 1:]
        r = xp.require(v, None, req)
        return r is v, r.flags.owndata, r.flags.writeable
    check(view, np.arange(6.0).reshape(2, 3))

    def read_only(xp, a):
        a.flags.writeable = False
        r = xp.require(a, None, req)
        return r is a, r.flags.writeable
    check(read_only, np.arange(3.0))


@pytest.mark.parametrize("req", ["A", "C", "F", "O", "W", ["A", "F"]], ids=repr)
def test_require_unaligned_read_only_field(req):
    """A field after a one-byte field is unaligned (NumPy's ALIGNED flag); require copies it
    to the order asked for."""
    def body(xp):
        arr = xp.zeros((2, 2), [("junk", "i1"), ("a", "f8")])
        arr.setflags(write=False)
        a = arr["a"]
        r = xp.require(a, "c16", req)
        return (a.flags["A"], r.flags["A"], r.flags["C"], r.flags["F"], r.flags["O"],
                r.flags["W"], r.dtype)
    check(body)


def test_bool_bytes_other_than_0_and_1_are_true():
    """A bool array over bytes like 0xff (``frombuffer``) counts each as True (one), as NumPy."""
    data = b"\xff\x00\x02\x01" * 5
    check(lambda xp: (xp.frombuffer(data, bool).sum(), xp.frombuffer(data, bool)[::-2].sum(),
                      xp.frombuffer(data, bool).astype(np.uint8),
                      xp.count_nonzero(xp.frombuffer(data, bool))))
    check(lambda xp, a: xp.asarray(a).astype(int), np.frombuffer(data, bool))
