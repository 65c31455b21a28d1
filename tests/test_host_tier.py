"""The host tier (``tnp._core.placement``, ``tnp._core.host``): arrays whose storage is a NumPy
array, and calls NumPy runs on them. Every result is compared with NumPy's on the same input."""
import threading
import warnings

import jax.numpy as jnp
import numpy as np
import pytest

import tnp
import tnp_ext
from tnp._core import caches, placement, syncs


@pytest.fixture
def auto():
    previous = placement.configure("auto")
    yield
    placement.configure(*previous)


def same(actual, expected):
    """tnp's result is NumPy's: type (a NumPy scalar stays one), dtype, shape and values."""
    if isinstance(expected, np.ndarray):
        assert isinstance(actual, tnp.ndarray), type(actual)
        assert actual.dtype == expected.dtype and actual.shape == expected.shape
        np.testing.assert_array_equal(np.asarray(actual), expected)
    elif isinstance(expected, tuple):
        assert type(actual) is tuple and len(actual) == len(expected)
        for a, e in zip(actual, expected):
            same(a, e)
    else:
        assert type(actual) is type(expected), (type(actual), type(expected))
        np.testing.assert_array_equal(actual, expected)


def test_placement_rule(auto):
    small, large = tnp.arange(10.), tnp.arange(float(placement.THRESHOLD))
    assert small._on_host and not large._on_host
    assert not tnp.asarray(jnp.arange(3))._on_host  # a jax.Array stays on the device
    placement.configure("device")
    assert not tnp.arange(10.)._on_host
    assert tnp.array(["a"])._on_host  # NumPy-only dtypes live on the host in every mode
    with pytest.raises(ValueError, match="placement mode"):
        placement.configure("gpu")


OPS = {
    "add": lambda xp, a, b: a + b,
    "scalar multiply": lambda xp, a, b: a * 2.5,
    "compare": lambda xp, a, b: a < b,
    "sin": lambda xp, a, b: xp.sin(a),
    "sum": lambda xp, a, b: xp.sum(a),
    "mean axis": lambda xp, a, b: a.reshape(2, 3).mean(axis=0),
    "element": lambda xp, a, b: a[4],
    "element product": lambda xp, a, b: a[1] * b[2],
    "fancy": lambda xp, a, b: a[[0, 5, 5]],
    "mask": lambda xp, a, b: a[a > 2],
    "sort": lambda xp, a, b: xp.sort(b[::-1]),
    "unique": lambda xp, a, b: xp.unique(a // 2),
    "concatenate": lambda xp, a, b: xp.concatenate([a, b]),
    "where": lambda xp, a, b: xp.where(a > 1, a, b),
    "cumsum": lambda xp, a, b: xp.cumsum(a),
    "inv": lambda xp, a, b: xp.linalg.inv(xp.reshape(a[:4], (2, 2)) + 3 * xp.eye(2)),
    "fft": lambda xp, a, b: xp.fft.fft(a),
    "divmod": lambda xp, a, b: divmod(a, 3),
    "argmax": lambda xp, a, b: a.argmax(),
    "tolist": lambda xp, a, b: xp.asarray(a.tolist()),
    "item": lambda xp, a, b: a.item(3),
}


@pytest.mark.parametrize("op", OPS)
def test_host_results_are_numpys(auto, op):
    a, b = np.arange(6.), np.linspace(-1, 1, 6)
    ta, tb = tnp.asarray(a), tnp.asarray(b)
    assert ta._on_host and tb._on_host
    same(OPS[op](tnp, ta, tb), OPS[op](np, a, b))


@pytest.mark.parametrize("bad", [
    lambda xp: xp.ones(3) + xp.ones(4),
    lambda xp: xp.sum(xp.ones(3), axis=2),
    lambda xp: xp.arange(3)[5],
    lambda xp: xp.reshape(xp.arange(6), (4,)),
    lambda xp: xp.linalg.inv(xp.zeros((2, 2))),
])
def test_host_errors_are_numpys(auto, bad):
    with pytest.raises(Exception) as expected:
        bad(np)
    with pytest.raises(Exception) as actual:
        bad(tnp)
    assert type(actual.value) is type(expected.value)
    assert str(actual.value) == str(expected.value)


def test_host_warnings_are_numpys(auto):
    with warnings.catch_warnings(record=True) as expected:
        warnings.simplefilter("always")
        np.divide(np.ones(2), np.zeros(2))
    with warnings.catch_warnings(record=True) as actual:
        warnings.simplefilter("always")
        tnp.divide(tnp.ones(2), tnp.zeros(2))
    assert [str(w.message) for w in actual] == [str(w.message) for w in expected]


WRITES = {
    "element": lambda a: a.__setitem__(2, 7),
    "slice": lambda a: a.__setitem__(slice(1, 3), [8, 9]),
    "mask": lambda a: a.__setitem__(a > 3, -1),
    "fancy": lambda a: a.__setitem__([0, 0, 4], [1, 2, 3]),
    "augmented": lambda a: a.__iadd__(3),
    "element augmented": lambda a: a.__setitem__(1, a[1] + 5),
    "out": lambda a: np.multiply(a, 2, out=a) if isinstance(a, np.ndarray) else tnp.multiply(
        a, 2, out=a),
    "view write": lambda a: a[::2].__setitem__(0, 42),
    "transpose view": lambda a: a.reshape(2, 3).T.__setitem__((0, 1), 11),
    "fill": lambda a: a.fill(4),
    "sort in place": lambda a: (a.__setitem__(0, 100), a.sort()),
}


@pytest.mark.parametrize("write", WRITES)
def test_host_writes_are_numpys(auto, write):
    a = np.arange(6, dtype=np.int16)
    t = tnp.asarray(a)
    WRITES[write](a)
    WRITES[write](t)
    assert t._on_host
    same(t, a)


def test_overflowing_write_raises_numpys_error(auto):
    a, t = np.zeros(3, np.int8), tnp.zeros(3, np.int8)
    with pytest.raises(OverflowError) as expected:
        a[:] = [1, 2, 1000]
    with pytest.raises(OverflowError) as actual:
        t[:] = [1, 2, 1000]
    assert str(actual.value) == str(expected.value)


def test_views_write_through_and_see_writes(auto):
    a = np.arange(8.)
    t = tnp.asarray(a)
    tv, v = t[2:6], a[2:6]
    t[3], a[3] = -1, -1
    same(tv, v)
    tv[0], v[0] = 50, 50
    same(t, a)
    tr, r = t.reshape(2, 4), a.reshape(2, 4)
    tr[1, 1], r[1, 1] = 9, 9
    same(t, a)


def test_mixed_with_device_moves_once_per_version(auto):
    h = tnp.arange(4.)
    d = tnp.asarray(jnp.arange(4.))
    before = syncs.COUNTS["to_device"]
    for _ in range(5):
        r = h + d
    assert syncs.COUNTS["to_device"] - before == 1
    assert not r._on_host
    same(r, np.arange(4.) * 2)
    h[0] = 10  # a write: the next device use moves the new value
    same(h + d, np.array([10., 2., 4., 6.]))
    assert syncs.COUNTS["to_device"] - before == 2


INDEXES = {
    "mask": lambda a: a > 3,
    "0-d mask": lambda a: (a > 3)[4:5].reshape(()),
    "mask of a view": lambda a: a[::-1] > 3,
    "integer array": lambda a: a.argsort()[::-1],
}


@pytest.mark.parametrize("index", INDEXES)
def test_host_index_arrays_stay_on_the_host(auto, index):
    """A host-tier index array on a host or device array: read on the host, never copied to the
    device or compiled for."""
    a = np.arange(6.)
    th, td = tnp.asarray(a), tnp.asarray(jnp.arange(6.))
    i, ti = INDEXES[index](a), INDEXES[index](th)
    assert ti._on_host
    built, moves = caches.executables_built(), syncs.COUNTS.total()
    rh = th[ti]
    assert caches.executables_built() == built
    rd = td[ti]  # the device array's gather takes the host indices
    assert syncs.COUNTS.total() == moves
    same(rh, a[i])
    same(rd, a[i])


def test_large_results_go_to_the_device(auto):
    previous = placement.configure(threshold=16)
    try:
        a = tnp.arange(10.)
        assert a._on_host
        r = tnp.concatenate([a, a])  # 20 elements: over the threshold
        assert not r._on_host
        same(r, np.concatenate([np.arange(10.)] * 2))
    finally:
        placement.configure(*previous)


def test_element_loop_runs_at_numpy_cost(auto):
    """The issue's loop: NumPy's scalars come back, so the loop's arithmetic is NumPy's."""
    x, y = tnp.arange(50), tnp.arange(50)
    r = 0
    for i in range(50):
        for j in range(50):
            r += x[i] * y[j]
    xn = np.arange(50)
    rn = 0
    for i in range(50):
        for j in range(50):
            rn += xn[i] * xn[j]
    same(r, rn)


def test_threads_lose_no_host_writes(auto):
    t = tnp.zeros(4, np.int64)

    def work(k):
        for _ in range(300):
            t[k] += 1
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    same(t, np.full(4, 300))


def test_jit_reads_and_writes_host_arrays(auto):
    t = tnp.arange(4.)

    @tnp_ext.jit
    def step(x):
        t[0] = x.sum()
        return t * 2
    r = step(tnp.ones(3))
    a = np.arange(4.)
    a[0] = 3.0
    same(t, a)
    same(r, a * 2)


NUMPY_ONLY = {
    "str": lambda xp: xp.array(["b", "a", "cc"]),
    "bytes": lambda xp: xp.array([b"x", b"yy"]),
    "structured": lambda xp: xp.zeros(3, dtype=[("x", float), ("y", "i4")]),
    "datetime": lambda xp: xp.arange("2016-07", "2016-08", dtype="datetime64[D]"),
    "timedelta": lambda xp: xp.array([1, 2], dtype="timedelta64[s]"),
    "object": lambda xp: xp.array([1, "a", None], dtype=object),
    "longdouble": lambda xp: xp.array([1.5, 2.5], dtype=np.longdouble),
}


@pytest.mark.parametrize("mode", ["device", "auto"])
@pytest.mark.parametrize("kind", NUMPY_ONLY)
def test_numpy_only_dtypes(mode, kind):
    previous = placement.configure(mode)
    try:
        a, t = NUMPY_ONLY[kind](np), NUMPY_ONLY[kind](tnp)
        assert t._on_host
        same(t, a)
        assert repr(t) == repr(a) and str(t) == str(a)
        same(t[1:], a[1:])
        assert t.tolist() == a.tolist()
        t[0], a[0] = t[1], a[1]
        same(t, a)
        same(tnp.concatenate([t, t]), np.concatenate([a, a]))
    finally:
        placement.configure(*previous)


def test_str_and_structured_operations():
    s, ts = np.array(["b", "a", "cc"]), tnp.array(["b", "a", "cc"])
    same(ts == "a", s == "a")
    same(tnp.sort(ts), np.sort(s))
    same(tnp.unique(ts), np.unique(s))
    same(ts.astype("U1"), s.astype("U1"))
    r, tr = np.zeros(2, dtype=[("x", float), ("y", "i4")]), tnp.zeros(2, dtype=[("x", float),
                                                                               ("y", "i4")])
    tx, x = tr["x"], r["x"]
    tx[1], x[1] = 2.5, 2.5  # a field is a view: writes go through
    tr["y"], r["y"] = [7, 8], [7, 8]
    same(tr, r)
    d, td = np.arange("2016-07-01", "2016-07-05", dtype="M8[D]"), tnp.arange(
        "2016-07-01", "2016-07-05", dtype="M8[D]")
    same(td[1:] - td[:-1], d[1:] - d[:-1])


def test_tnp_ext_placement_sets_and_restores():
    before = tnp_ext.current_placement()
    with tnp_ext.placement("auto", threshold=100):
        assert tnp_ext.current_placement() == ("auto", 100)
        assert tnp.arange(5)._on_host and not tnp.arange(500)._on_host
    assert tnp_ext.current_placement() == before


def test_host_array_protocols(auto):
    """What NumPy's own arrays answer: device, hashable elements, pickling, iteration."""
    import pickle
    a, t = np.arange(4.), tnp.arange(4.)
    assert t.device == a.device == "cpu"
    assert {t[1]: 1} == {a[1]: 1}
    back = pickle.loads(pickle.dumps(t))
    assert back._on_host
    same(back, a)
    assert [type(v) for v in t] == [type(v) for v in a]
    assert bool(t[1]) is bool(a[1]) and float(t[2]) == float(a[2])
    moved = t.to_device(tnp.asarray(jnp.ones(1)).device)
    assert not moved._on_host
    same(moved, a)


def test_python_scalars_alone_stay_on_the_device_in_device_mode():
    """With a host array in the process (routing on), device mode still puts a call on Python
    scalars alone on the device, as before the host tier existed."""
    previous = placement.configure("device")
    try:
        tnp.array(["routing on"])
        r = tnp.nextafter(0., -1)
        assert isinstance(r, tnp.ndarray) and not r._on_host
        same(np.asarray(r)[()], np.nextafter(0., -1))
    finally:
        placement.configure(*previous)
