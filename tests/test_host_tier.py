"""The host tier (``tnp._core.dispatch.tiers``, ``tnp._core.dispatch.host``): arrays whose storage is a NumPy
array, and calls NumPy runs on them. Every result is compared with NumPy's on the same input."""
import operator
import re
import threading
import warnings

import jax.numpy as jnp
import numpy as np
import pytest

import tnp
import tnp_ext
from tnp._core.engine import caches, syncs
from tnp._core.dispatch import tiers


@pytest.fixture
def auto():
    previous = tiers.configure("auto")
    yield
    tiers.configure(*previous)


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
    small, large = tnp.arange(10.), tnp.arange(float(tiers.THRESHOLD))
    assert small._on_host and not large._on_host
    assert not tnp.asarray(jnp.arange(3))._on_host  # a jax.Array stays on the device
    tiers.configure("device")
    assert not tnp.arange(10.)._on_host
    assert tnp.array(["a"])._on_host  # NumPy-only dtypes live on the host in every mode
    with pytest.raises(ValueError, match="placement mode"):
        tiers.configure("gpu")


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


@pytest.mark.parametrize("name", ["isposinf", "isneginf", "fix"])
def test_host_positional_out_is_written(auto, name):
    # NumPy's Python functions take ``out`` positionally: written through the write path (the
    # host buffer is read-only to NumPy: "output array is read-only" was raised)
    x = np.array([np.inf, -np.inf, np.nan, 0.0, 3.5, -3.5])
    dt = float if name == "fix" else bool
    a, t = np.zeros(6, dt), tnp.zeros(6, dt)
    expected = getattr(np, name)(x, a)
    actual = getattr(tnp, name)(tnp.asarray(x), t)
    assert actual is t and t._on_host
    same(t, a)
    same(actual, expected)


@pytest.mark.parametrize("call, shape", [
    (lambda m, x, o: x.clip(0, 1, o), (2, 3)), (lambda m, x, o: x.round(1, o), (2, 3)),
    (lambda m, x, o: x.sum(0, None, o), (3,)), (lambda m, x, o: x.take([1, 0], None, o), (2,)),
    (lambda m, x, o: m.add.reduce(x, 0, None, o), (3,))])
def test_host_method_positional_out_is_written(auto, call, shape):
    # NumPy's C methods and ufunc methods take ``out`` positionally (read from their text
    # signatures): written through the write path
    x = np.array([[-0.26, 0.5, 1.75], [2.0, 0.25, -1.5]])
    a, t = np.zeros(shape), tnp.zeros(shape)
    expected = call(np, x, a)
    actual = call(tnp, tnp.asarray(x), t)
    assert actual is t and t._on_host
    same(t, a)
    same(actual, expected)


def test_out_positions_are_numpys_signatures():
    # where ``out`` stands among the parameters of every NumPy callable the host tier may run
    # (its C functions' and methods' text signatures read without inspect's tokenizer): as
    # ``inspect.signature`` of NumPy's callable says
    import inspect
    import types
    from tnp._core.dispatch import host
    objs = [getattr(np, n) for n in dir(np)] + [getattr(np.ndarray, n) for n in dir(np.ndarray)]
    objs += [getattr(u, m) for u in objs if isinstance(u, np.ufunc)
             for m in ("reduce", "accumulate", "reduceat", "outer", "at")]
    checked = 0
    for fn in objs:
        if not callable(fn) or isinstance(fn, type):
            continue
        try:
            params = list(inspect.signature(fn).parameters.values())
        except (TypeError, ValueError):
            continue
        expected = None
        for i, p in enumerate(params):
            if p.name == "out" and p.kind is p.POSITIONAL_OR_KEYWORD:
                names = [q.name for q in params[i:]]
                cut = next((j for j, q in enumerate(params[i:])
                            if q.kind is not q.POSITIONAL_OR_KEYWORD), len(names))
                expected = (i, ("out",) if isinstance(fn, types.MethodDescriptorType)
                            else tuple(names[:cut]))
        assert host._out_position(fn) == expected, fn
        checked += expected is not None
    assert checked > 50


@pytest.mark.parametrize("call", [lambda m, x, o: m.add(x, 1, o), lambda m, x, o: m.sin(x, o),
                                  lambda m, x, o: x.conjugate(o)])
def test_host_ufunc_positional_out_is_written(auto, call):
    x = np.arange(3.0) - 1j
    a, t = np.zeros(3, complex), tnp.zeros(3, complex)
    expected = call(np, x, a)
    actual = call(tnp, tnp.asarray(x), t)
    assert actual is t and t._on_host
    same(t, a)
    same(actual, expected)


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


VIEWS = {
    "slice": lambda a: a[2:10],
    "strided": lambda a: a[::3],
    "row of a reshape": lambda a: a.reshape(3, 4)[1],
    "transpose": lambda a: a.reshape(3, 4).T,
    "view of a view": lambda a: a[1:].reshape(11)[::2],
    "strided reshape (NumPy: a view)": lambda a: a[::2].reshape(2, 3),
    "transposed reshape (NumPy: a copy)": lambda a: a.reshape(3, 4).T.reshape(12),
    "ellipsis and newaxis": lambda a: a.reshape(3, 4)[..., None, 1:3],
    "delegated ravel of a transpose": lambda a: a.reshape(3, 4).T.ravel(),
    "NumPy integer index": lambda a: a.reshape(3, 4)[np.int64(1)],
    "NumPy integers in a tuple": lambda a: a.reshape(3, 2, 2)[np.int32(2), np.uint8(1):],
    "None and a negative step": lambda a: a[None, ::-2],
    "Ellipsis alone": lambda a: a[...],
    "an int and Ellipsis": lambda a: a.reshape(3, 4)[..., -1],
}


@pytest.mark.parametrize("index", [np.int64(3), np.int32(-2), np.uint16(0), (np.intp(1), 2),
                                   (1, np.int8(-1))], ids=repr)
def test_elements_by_numpy_integers_are_numpys(auto, index):
    a = np.arange(12.).reshape(3, 4) if type(index) is tuple else np.arange(12.)
    t = tnp.asarray(a)
    same(t[index], a[index])
    t[index], a[index] = 5.5, 5.5
    same(t, a)


@pytest.mark.parametrize("make", VIEWS.values(), ids=VIEWS.keys())
def test_numpy_made_views_are_numpys(auto, make):
    """A view NumPy makes of a host array (``_host_view``) reads as NumPy's, shares memory
    exactly when NumPy's does, writes through both ways, and keeps working on the device path
    (its lenses made when first needed)."""
    a = np.arange(12.)
    t = tnp.asarray(a)
    tv, v = make(t), make(a)
    same(tv, v)
    assert tnp.shares_memory(tv, t) == np.shares_memory(v, a)
    t[...] = tnp.arange(12.) * 10  # the root written: the view sees it (if NumPy's does)
    a[...] = np.arange(12.) * 10
    same(tv, v)
    tv[(0,) * tv.ndim] = -7  # the view written: the root sees it (if NumPy's does)
    v[(0,) * v.ndim] = -7
    same(t, a)
    same(tv + tnp.asarray(jnp.ones(tv.shape)), v + 1)  # the device path reads its lenses
    same(tv.copy(), v.copy())


def test_numpy_made_view_after_its_root_moves(auto):
    """A host root whose buffer is replaced (its shape set, or moved to the device) leaves its
    NumPy-made views reading through their lenses."""
    a = np.arange(6.)
    t = tnp.asarray(a)
    tv, v = t[1:4], a[1:4]
    t.shape = a.shape = (2, 3)
    same(tv, v)
    t[0, 2], a[0, 2] = 50, 50
    same(tv, v)


def test_numpy_made_views_resolve_once_under_threads(auto):
    """Threads that first need a host view's lenses at once all get the same view."""
    a = np.arange(64.)
    for _ in range(20):
        t = tnp.asarray(a)
        tv = t[3:40:2]
        results = []
        threads = [threading.Thread(target=lambda: results.append(np.asarray(tv + jnp.zeros(1))))
                   for _ in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        for r in results:
            np.testing.assert_array_equal(r, a[3:40:2])


def test_host_view_errors_are_numpys(auto):
    t, a = tnp.arange(12.), np.arange(12.)
    for bad in (lambda x: x.reshape(5), lambda x: x[20], lambda x: x.transpose(1, 0),
                lambda x: x[1:, 2]):
        with pytest.raises(Exception) as expected:
            bad(a)
        with pytest.raises(type(expected.value), match=str(expected.value)[:30]):
            bad(t)


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


def test_device_copies_do_not_alias_the_host_array(auto):
    """What a host array hands to JAX (its device copy, an index array) keeps the value it had:
    the write path changes the host array in place, and JAX may alias a read-only NumPy array
    on a CPU."""
    d = tnp.asarray(jnp.arange(10.))
    for n in range(2, 200):  # (JAX aliases only suitably aligned memory: many allocations)
        t, idx = tnp.zeros(n), tnp.asarray(np.array([1, 0]))
        t[0] = 1.0
        held = t.data
        picked = d[idx]
        t[1] = 2.0
        idx[0] = 5
        np.testing.assert_array_equal(np.asarray(held)[:2], [1.0, 0.0])
        same(picked, np.array([1., 0.]))


def _aligned(n):
    """A NumPy float64 array whose data is 64-byte aligned (what JAX may alias on a CPU)."""
    raw = np.zeros(n + 8)
    off = (-raw.ctypes.data % 64) // 8
    return raw[off:off + n]


@pytest.mark.parametrize("fn", [lambda m, x: m.add(x, 0.0), lambda m, x: m.array(x),
                                lambda m, x: m.sqrt(x), lambda m, x: m.concatenate([x, x])],
                         ids=["add", "array", "sqrt", "concatenate"])
def test_device_results_of_a_callers_numpy_array_do_not_alias_it(device_placement, fn):
    """A caller's NumPy array given to a device computation is copied first: NumPy's result does
    not change when the caller later writes their array, and neither does tnp's."""
    n = _aligned(100_000)
    n[:] = 1.0
    want, got = fn(np, n), fn(tnp, n)
    n[:10] = 5.0
    same(got, want)


def test_large_results_go_to_the_device(auto):
    previous = tiers.configure(threshold=16)
    try:
        a = tnp.arange(10.)
        assert a._on_host
        r = tnp.concatenate([a, a])  # 20 elements: over the threshold
        assert not r._on_host
        same(r, np.concatenate([np.arange(10.)] * 2))
    finally:
        tiers.configure(*previous)


def test_small_operands_broadcasting_to_a_large_result_run_on_the_device(auto):
    """Host operands whose result the placement rule puts on the device (a broadcast, or a
    matmul's loop and core dimensions) are computed there, not by NumPy and then copied; equal
    shapes and small results stay NumPy's."""
    previous = tiers.configure(threshold=16)
    try:
        a = np.arange(5.)
        t = tnp.asarray(a)
        before = syncs.COUNTS["to_device"]
        outer = t[:, None] * t  # 25 elements
        assert not outer._on_host and syncs.COUNTS["to_device"] - before == 1
        same(outer, a[:, None] * a)
        assert (t + t)._on_host and (t[None, :] @ t[:, None])._on_host
        m = t[:, None] @ t[None, :]  # 25 elements
        assert not m._on_host
        same(m, a[:, None] @ a[None, :])
        c, d = np.arange(15.).reshape(3, 5), np.arange(12.).reshape(3, 2, 2)
        for x, y in [(c, c.T), (c.T, c), (c[None], c.T), (a, c.T), (c, a), (d, c[:2, :3]),
                     (d, d)]:  # results of 9, 25, 9, 3, 3, 18 and 12 elements
            r = tnp.asarray(x) @ tnp.asarray(y)
            assert tnp.asarray(x)._on_host and tnp.asarray(y)._on_host
            same(r, x @ y)
            assert r._on_host == (r.size < 16)
    finally:
        tiers.configure(*previous)


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


def test_numpy_writers_of_inputs_take_the_write_path_under_threads(auto):
    """NumPy functions that write an input (``put``) see only the read-only face of a host
    array, also while another thread writes it, so they go through the one write path: every
    write is kept and versioned (the device copy taken between writes is current)."""
    t, d = tnp.zeros(4), tnp.asarray(jnp.zeros(4))

    def increment():
        for _ in range(300):
            t[0] += 1

    def put():
        for k in range(300):
            tnp.put(t, [1], [k])
            t + d  # a device copy of the version just written
    threads = [threading.Thread(target=f) for f in (increment, put)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    a = np.array([300., 299., 0., 0.])
    same(t, a)
    same(t + d, a)


def test_nditer_reads_a_host_array_live(auto):
    """A host array that nditer only reads is iterated in place: a write made after the
    iterator was created is seen, as with NumPy's own arrays."""
    a = np.arange(6.).reshape(2, 3)
    t = tnp.asarray(a)
    it_t, it_a = tnp.nditer(t[:, 1:]), np.nditer(a[:, 1:])
    t[1, 2], a[1, 2] = -5, -5
    assert [float(v) for v in it_t] == [float(v) for v in it_a]
    rw = ["readwrite"]
    with tnp.nditer(t, op_flags=rw) as it_t, np.nditer(a, op_flags=rw) as it_a:
        for x, y in zip(it_t, it_a):
            x[...] = x * 2
            y[...] = y * 2
    same(t, a)


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
    previous = tiers.configure(mode)
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
        tiers.configure(*previous)


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


def test_host_arrays_export_their_own_memory_by_dlpack(auto):
    """DLPack of a host array is NumPy's export of its buffer (zero copy, flagged read-only; a
    DLPack 0.x consumer gets a copy): no move to the device."""
    a = np.arange(12.).reshape(3, 4)[:, 1:]
    t = tnp.asarray(np.arange(12.)).reshape(3, 4)[:, 1:]
    before = syncs.COUNTS["to_device"]
    n = np.from_dlpack(t)
    assert t.__dlpack_device__() == a.__dlpack_device__()
    same(tnp.asarray(n), a)
    assert np.shares_memory(n, t._host()) and not n.flags.writeable
    np.testing.assert_array_equal(np.asarray(jnp.from_dlpack(t)), a)
    assert syncs.COUNTS["to_device"] == before


def test_python_scalars_alone_stay_on_the_device_in_device_mode():
    """With a host array in the process (routing on), device mode still puts a call on Python
    scalars alone on the device, as before the host tier existed."""
    previous = tiers.configure("device")
    try:
        tnp.array(["routing on"])
        r = tnp.nextafter(0., -1)
        assert isinstance(r, tnp.ndarray) and not r._on_host
        same(np.asarray(r)[()], np.nextafter(0., -1))
    finally:
        tiers.configure(*previous)


# ---- results made from host data elsewhere: all placed by ``tiers.new_root`` ----------------
MODES = ["device", "auto"]


@pytest.fixture(params=MODES)
def mode(request):
    previous = tiers.configure(request.param)
    yield request.param
    tiers.configure(*previous)


def placed(t, expected, mode):
    """``t`` is NumPy's ``expected`` as a tnp array, on the tier the placement rule gives."""
    same(t, expected)
    small = expected.size < tiers.THRESHOLD
    assert t._on_host == (tiers.host_only(expected.dtype) or (mode == "auto" and small))


def _device(values):
    return tnp.asarray(jnp.asarray(values))  # a device input: host.call declines, the fallback runs


def test_fallback_results_are_placed(mode):
    offsets = np.arange(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        placed(tnp.busday_offset("2011-10-03", _device(offsets)),  # datetime64: the host
               np.busday_offset("2011-10-03", offsets), mode)
        days = np.arange(6).astype("M8[D]")
        placed(tnp.datetime_as_string(days), np.datetime_as_string(days), mode)
        placed(tnp.is_busday(days), np.is_busday(days), mode)


def _fallback(fn):
    from tnp._core.dispatch.fallback import numpy_fallback
    return numpy_fallback(fn, "test_host_tier." + fn.__name__)


def test_fallback_never_takes_a_users_array(mode):
    def itself(x):
        return x

    def view(x):
        return x[1:]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fn in (itself, view):
            u = np.arange(5.)
            r = _fallback(fn)(u)
            assert u.flags.writeable and u.flags.owndata
            expected = fn(u.copy())
            u[:] = -1  # the user's array changes; tnp's result does not
            same(r, expected)
            assert r._on_host == (mode == "auto")


def test_loaded_arrays_are_placed(mode, tmp_path):
    data = {"small": np.arange(6.).reshape(2, 3), "objects": np.array([{"a": 1}, None]),
            "large": np.arange(tiers.THRESHOLD, dtype=np.int32)}
    for name, a in data.items():
        np.save(tmp_path / f"{name}.npy", a)
        t = tnp.load(tmp_path / f"{name}.npy", allow_pickle=True)
        if a.dtype == object:
            assert type(t) is tnp.ndarray and t._on_host and t.tolist() == a.tolist()
        else:
            placed(t, a, mode)
    np.savez(tmp_path / "z.npz", **{k: v for k, v in data.items() if v.dtype != object})
    with tnp.load(tmp_path / "z.npz") as z:
        placed(z["small"], data["small"], mode)
        placed(z["large"], data["large"], mode)
    mapped, t = (xp.load(tmp_path / "small.npy", mmap_mode="r") for xp in (np, tnp))
    placed(t, np.asarray(mapped), mode)
    assert t.flags.writeable == mapped.flags.writeable
    np.savetxt(tmp_path / "t.txt", data["small"])
    placed(tnp.loadtxt(tmp_path / "t.txt"), np.loadtxt(tmp_path / "t.txt"), mode)


def test_fromdata_results_are_placed(mode):
    for buf in (b"abcdefgh", bytearray(b"abcdefgh")):
        t, a = tnp.frombuffer(buf, np.uint8), np.frombuffer(buf, np.uint8)
        placed(t, a, mode)
        assert t.flags.writeable == a.flags.writeable  # read-only where NumPy's is
    placed(tnp.frombuffer(b"abcd", "S2"), np.frombuffer(b"abcd", "S2"), mode)
    placed(tnp.fromiter(range(5), np.int16), np.fromiter(range(5), np.int16), mode)
    placed(tnp.fromstring("1 2 3", sep=" "), np.fromstring("1 2 3", sep=" "), mode)
    big = np.arange(tiers.THRESHOLD, dtype=np.uint8).tobytes()
    placed(tnp.frombuffer(big, np.uint8), np.frombuffer(big, np.uint8), mode)


def test_random_results_are_placed_and_exact(mode):
    t, n = tnp.random.default_rng(7), np.random.default_rng(7)
    placed(t.normal(size=5), n.normal(size=5), mode)
    placed(t.integers(9, size=tiers.THRESHOLD), n.integers(9, size=tiers.THRESHOLD), mode)
    placed(t.choice(["a", "b", "c"], 4), n.choice(["a", "b", "c"], 4), mode)
    x, out = np.arange(6.), np.zeros(6)
    placed(t.permuted(x, out=out), n.permuted(x, out=np.zeros(6)), mode)
    assert out.flags.writeable  # the user's ``out`` is not taken over
    scalar, expected = t.integers(9), n.integers(9)
    if mode == "auto":
        same(scalar, expected)  # NumPy's scalar, as every host-tier call gives
    else:
        assert isinstance(scalar, tnp.ndarray) and not scalar._on_host and scalar == expected
    legacy, ref = tnp.random.RandomState(3), np.random.RandomState(3)
    placed(legacy.permutation(np.arange(8)), ref.permutation(np.arange(8)), mode)


CREATION_ARGUMENTS = {
    "zeros dtype class": lambda xp: xp.zeros(5, np.float32),
    "zeros F order": lambda xp: xp.zeros((2, 3), dtype="i2", order="F"),
    "ones shape list": lambda xp: xp.ones([2, 2], dtype=np.dtype(np.complex64)),
    "empty of no elements": lambda xp: xp.empty(0),
    "full NumPy scalar": lambda xp: xp.full((2, 3), np.float16(1.5)),
    "full a tnp/NumPy 0-d array": lambda xp: xp.full(3, xp.asarray(7, dtype=np.int8)),
    "arange float step": lambda xp: xp.arange(1, 10, 2.5),
    "arange dtype": lambda xp: xp.arange(5, dtype=np.uint8),
    "linspace": lambda xp: xp.linspace(0, 1, 5, endpoint=False, retstep=True),
    "eye": lambda xp: xp.eye(3, k=1, dtype=int),
    "zeros_like list": lambda xp: xp.zeros_like([[1, 2], [3, 4]]),
    "str dtype": lambda xp: xp.full(2, "ab"),
    "datetime": lambda xp: xp.arange("2016-07", "2016-08", dtype="datetime64[D]"),
}


@pytest.mark.parametrize("name", CREATION_ARGUMENTS)
def test_creation_on_the_host_is_numpys(auto, name):
    """Creation routines with a small result run NumPy's own routine (``host.create``, or
    ``host.call`` where an argument is an array): dtype,
    shape, values, layout and writeability are NumPy's, and the result is a host-tier array."""
    expected = CREATION_ARGUMENTS[name](np)
    actual = CREATION_ARGUMENTS[name](tnp)
    same(actual, expected)
    for a, e in zip(*((actual, expected) if isinstance(expected, tuple)
                      else ((actual,), (expected,)))):
        if isinstance(e, np.ndarray):
            assert a._on_host
            assert a.flags.f_contiguous == e.flags.f_contiguous
            assert a.flags.c_contiguous == e.flags.c_contiguous
            assert a.flags.writeable


@pytest.mark.parametrize("call", [lambda xp: xp.zeros(-1), lambda xp: xp.arange(0, 5, 0),
                                  lambda xp: xp.zeros((2, 2), dtype="q4"),
                                  lambda xp: xp.ones(3, order="X")])
def test_creation_errors_on_the_host_are_numpys(auto, call):
    with pytest.raises(Exception) as expected:
        call(np)
    with pytest.raises(type(expected.value)) as actual:
        call(tnp)
    assert str(actual.value) == str(expected.value)


# ---- creation routines: placed by their result's size, before anything is allocated ----------
CREATION = {
    "zeros": lambda xp, n: xp.zeros((2, n // 2), np.int32),
    "ones": lambda xp, n: xp.ones(n),
    "empty": lambda xp, n: xp.empty(n),
    "full": lambda xp, n: xp.full(n, 7, np.int8),
    "eye": lambda xp, n: xp.eye(n // 10, 10, k=1),
    "identity": lambda xp, n: xp.identity(int(n ** 0.5) + 1),
    "arange": lambda xp, n: xp.arange(0.5, n / 2, 0.5),
    "linspace": lambda xp, n: xp.linspace(0, 1, n),
    "logspace": lambda xp, n: xp.logspace(0, 1, n // 2, base=[2., 3.]),
    "geomspace": lambda xp, n: xp.geomspace(1, 1000, n),
    "tri": lambda xp, n: xp.tri(n // 8, 8, -1),
    "indices": lambda xp, n: xp.indices((n // 20, 10)),
    "zeros_like": lambda xp, n: xp.zeros_like(np.ones(n, np.int16)),
    "full_like": lambda xp, n: xp.full_like([1, 2], 3, shape=(n,)),
    "empty_like": lambda xp, n: xp.empty_like(np.ones(n)),
}


_POWERS = {"logspace", "geomspace"}  # computed by a power of the base


@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("name", CREATION)
def test_creation_placed_by_size(auto, monkeypatch, name, size):
    """A small result is NumPy's own (made on the host); a large one is made on the device
    directly: no NumPy array of its size is allocated and then placed."""
    threshold = 200
    previous = tiers.configure(threshold=threshold)
    placing = []
    new_root = tiers.new_root
    monkeypatch.setattr(tiers, "new_root", lambda h: placing.append(h) or new_root(h))
    try:
        n = threshold // 4 if size == "small" else threshold * 2
        expected, t = CREATION[name](np, n), CREATION[name](tnp, n)
    finally:
        tiers.configure(*previous)
    if isinstance(t, tnp.ndarray):
        assert t._on_host == (size == "small")
    if name.startswith("empty"):  # NumPy's contents are arbitrary
        t, expected = (np.zeros_like(x) for x in (t, expected))
    if name in _POWERS and size == "large":  # XLA's pow, not NumPy's: within an ulp or two
        assert t.dtype == expected.dtype and t.shape == expected.shape
        np.testing.assert_allclose(np.asarray(t), expected, rtol=4 * np.finfo(t.dtype).eps)
    else:
        same(t, expected)
    assert any(h.size == np.size(expected) for h in placing) == (size == "small")


@pytest.mark.parametrize("bad", [
    lambda xp: xp.zeros(-1),
    lambda xp: xp.zeros((-20, -20)),
    lambda xp: xp.ones(2.5),
    lambda xp: xp.eye(-3),
    lambda xp: xp.arange(float("nan")),
    lambda xp: xp.linspace(0, 1, -5),
    lambda xp: xp.full((10, -30), 1),
    lambda xp: xp.zeros((10 ** 10, 10 ** 10)),
])
def test_creation_errors_are_numpys(mode, bad):
    previous = tiers.configure(threshold=100)
    try:
        with pytest.raises(Exception) as expected:
            bad(np)
        with pytest.raises(Exception) as actual:
            bad(tnp)
    finally:
        tiers.configure(*previous)
    assert type(actual.value) is type(expected.value)
    assert str(actual.value) == str(expected.value)


def test_creation_on_a_jax_device_stays_there(auto):
    device = tnp.asarray(jnp.ones(1)).device
    for t in (tnp.zeros(3, device=device), tnp.arange(3, device=device)):
        assert not t._on_host
    same(tnp.zeros(3, device="cpu"), np.zeros(3, device="cpu"))


def test_flat_index_of_a_host_array(auto):
    """``a.flat[i]`` is NumPy's scalar; a slice or list of it a copy; writes go through."""
    na = np.arange(24.0).reshape(4, 6)
    ta = tnp.asarray(na)
    assert ta._on_host
    for index in (3, -1, slice(2, 5), [1, 2], np.array([0, 23])):
        got, want = ta.flat[index], na.flat[index]
        same(got, want)
        if np.ndim(want):
            got[...] = -1  # a copy: the array is unchanged
    same(ta, na)
    na.flat[3] = 7.0
    ta.flat[3] = 7.0
    same(ta, na)


@pytest.mark.parametrize("trim", ["fb", "f", "b"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_trim_zeros_of_a_host_array_is_a_view_made_on_the_host(auto, trim, axis):
    rows = [[0, 0, 0, 0], [0, 1, 0, 0], [0, 2, 3, 0], [0, 0, 0, 0]]
    for data in ([0, 0, 1, 2, 0, 3, 0, 0], rows, [[0.0, 0.0]]):
        if axis is not None and np.ndim(data) == 1:
            continue
        na, ta = np.array(data, float), tnp.array(data, float)
        want, got = np.trim_zeros(na, trim, axis=axis), tnp.trim_zeros(ta, trim, axis=axis)
        same(got, want)
        moves = syncs.COUNTS["to_device"]
        if want.size:
            want[(0,) * want.ndim] = 9  # NumPy's result is a view: so is tnp's
            got[(0,) * got.ndim] = 9
        same(ta, na)
        assert syncs.COUNTS["to_device"] == moves  # read on the host


def test_setting_the_shape_of_a_host_array_keeps_it_on_the_host(auto):
    """``a.shape = ...`` reshapes NumPy's array in place: views taken before still write
    through, and nothing moves to the device."""
    results = []
    moves = syncs.COUNTS["to_device"]
    for m in (np, tnp):
        a = m.arange(6.0)
        v = a[1:3]
        a.shape = (2, 3)
        a[1, 0] = 9.0
        v[0] = 7.0
        results.append((a, v, a.reshape(3, 2)))
        with pytest.raises(ValueError):
            a.shape = (4, 2)
    (na, nv, nw), (ta, tv, tw) = results
    assert ta._on_host
    same(ta, na)
    same(tv, nv)
    same(tw, nw)
    assert syncs.COUNTS["to_device"] == moves


def test_an_array_numpy_returns_twice_is_one_tnp_array(auto):
    """A host call whose NumPy result holds one array twice gives one tnp array twice (as
    NumPy's objects are), so a write through either is seen through the other."""
    from tnp._core.dispatch import host

    def twice(a):
        r = a * 2
        return r, r, a + 1

    na = np.arange(3.0)
    want = twice(na)
    got = host.call(twice, (tnp.asarray(na),), {})
    assert got[0] is got[1] and got[0] is not got[2]
    same(got, want)
    want[0][0] = 9.0
    got[0][0] = 9.0
    same(got, want)


@pytest.mark.parametrize("dtype", [np.float64, np.int16, object])
def test_sliding_window_view_of_a_host_array(auto, dtype):
    """NumPy's windows of a host array, as a read-only host array (a copy: NumPy's is a view,
    tnp's is a copy on either tier); writing it raises NumPy's ValueError."""
    a = np.arange(12).astype(dtype).reshape(3, 4)
    t = tnp.asarray(a.copy())
    expected = np.lib.stride_tricks.sliding_window_view(a, (2, 2))
    actual = tnp.lib.stride_tricks.sliding_window_view(t, (2, 2))
    assert actual._on_host
    same(actual, expected)
    assert actual.flags.writeable == expected.flags.writeable == False  # noqa: E712
    with pytest.raises(ValueError) as e:
        expected[0, 0, 0, 0] = 1
    with pytest.raises(type(e.value)):
        actual[0, 0, 0, 0] = 1
    same(t, a)


# ---- read-only arrays, NumPy-only views, one-shot shapes, deep blocks: as NumPy, on either tier
def _raised(fn):
    """The exception ``fn()`` raises (None if none)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - compared with the other library's
        return e
    return None


def _message(e):
    """An exception's message without the addresses of objects it names."""
    return re.sub(r" at 0x[0-9a-f]+", "", str(e))


READ_ONLY_TARGETS = {
    "flag": lambda m: _read_only(m.arange(6.).reshape(2, 3)),
    "broadcast_to": lambda m: m.broadcast_to(m.arange(3.), (2, 3)),
}


def _read_only(a):
    a.flags.writeable = False
    return a


READ_ONLY_WRITES = {
    "iadd": lambda m, a: operator.iadd(a, 1),
    "imul": lambda m, a: operator.imul(a, 2),
    "add out": lambda m, a: m.add(a, 1, out=a),
    "negative out": lambda m, a: m.negative(a, out=a),
    "sum out": lambda m, a: m.sum(m.ones((4, 2, 3)), axis=0, out=a),
    "fill": lambda m, a: a.fill(2),
    "copyto": lambda m, a: m.copyto(a, 3.),
    "put": lambda m, a: m.put(a, [0], 9.),
    "sort": lambda m, a: a.sort(),
    "setitem": lambda m, a: a.__setitem__(0, 5.),
}


@pytest.mark.parametrize("target", READ_ONLY_TARGETS.values(), ids=READ_ONLY_TARGETS.keys())
@pytest.mark.parametrize("write", READ_ONLY_WRITES.values(), ids=READ_ONLY_WRITES.keys())
def test_read_only_arrays_refuse_writes_as_numpy(mode, target, write):
    """A read-only array (its flag, or a read-only view) is not written by any in-place path:
    NumPy's exception class (and, on the host tier, its message); the array is unchanged."""
    n, t = target(np), target(tnp)
    before = n.copy()
    want = _raised(lambda: write(np, n))
    got = _raised(lambda: write(tnp, t))
    assert want is not None and type(got) is type(want), (got, want)
    if mode == "auto":  # NumPy ran it: its own message
        assert str(got) == str(want)
    same(t, n)
    same(t, before)


def test_host_ufunc_at_writes_through_the_write_path(mode):
    """``ufunc.at`` (which NumPy runs without its read-only check) writes a host array under
    the write path: the array's device copy made before is not read stale after."""
    d = tnp.asarray(jnp.zeros(6))
    n, t = np.arange(6.), tnp.arange(6.)
    same(t + d, n + 0)  # (a host ``t``'s device copy made)
    np.add.at(n, [0, 0, 2], 10.)
    tnp.add.at(t, [0, 0, 2], 10.)
    same(t, n)
    same(t + d, n + 0)


@pytest.mark.parametrize("rows", [6, 100_000])
def test_structured_and_void_views_as_numpy(mode, rows):
    """A structured or void view of float rows (and the unique rows found through it) is
    NumPy's: on the host tier a view of the same bytes, on the device NumPy's view of a copy."""
    def views(m):
        f = m.arange(2. * rows).reshape(rows, 2) % 7
        z = (m.arange(3 * rows).reshape(rows, 3) % 5).astype(m.int64)
        s = f.view(dtype=[("p0", f.dtype), ("p1", f.dtype)])
        v = m.ascontiguousarray(z).view(m.dtype((m.void, z.dtype.itemsize * z.shape[1])))
        u, idx = m.unique(v, return_index=True)
        return f, s, v, u, idx, z[idx]
    want, got = views(np), views(tnp)
    for g, w in zip(got, want):
        same(g, w)
    if mode == "auto" and rows < tiers.THRESHOLD:  # a host view writes through, as NumPy's
        for f, s in (want[:2], got[:2]):
            s["p0"][0] = 99.
        same(got[0], want[0])


@pytest.mark.parametrize("call", [
    lambda m, n: m.indices(d for d in (2, n)),
    lambda m, n: m.indices(iter([n, 3]), sparse=True),
    lambda m, n: m.indices((d for d in (n, 2)), dtype=np.int32),
    lambda m, n: m.zeros(d for d in (2, n)),
    lambda m, n: m.full((d for d in (2, n)), 1.),
    lambda m, n: m.arange(iter([n])),
], ids=["indices", "indices sparse", "indices dtype", "zeros", "full", "arange"])
@pytest.mark.parametrize("n", [3, 100_000])
def test_creation_from_an_iterator_is_numpys(mode, call, n):
    """A shape given as an iterator (a generator) is read once, by the call: NumPy's result
    or exception, never the empty result of an exhausted iterator."""
    want = _raised(lambda: call(np, n))
    if want is not None:
        got = _raised(lambda: call(tnp, n))
        assert type(got) is type(want) and _message(got) == _message(want), (got, want)
        return
    same(call(tnp, n), call(np, n))


@pytest.mark.parametrize("n", [4, 300])
@pytest.mark.parametrize("build", [
    lambda m, x: m.block([[[x]]] * 2),
    lambda m, x: m.block([[[[x, x]], [[x, x]]]]),
    lambda m, x: m.block([[[x]], [x]]),
], ids=["depth 3", "depth 4", "mismatched depths"])
def test_deeply_nested_block_is_numpys(mode, build, n):
    """``block`` of lists nested deeper than the host tier's argument conversion: NumPy's
    result (or error) on either tier, not an endless hand-back through ``__array_function__``."""
    want = _raised(lambda: build(np, np.eye(n)))
    if want is not None:
        got = _raised(lambda: build(tnp, tnp.eye(n)))
        assert type(got) is type(want) and _message(got) == _message(want), (got, want)
        return
    same(build(tnp, tnp.eye(n)), build(np, np.eye(n)))


@pytest.mark.parametrize("grid", ["mgrid", "ogrid"])
def test_index_grids_placed_by_size(grid):
    """``mgrid``/``ogrid`` are creation routines: placed by their result's size, NumPy's values."""
    with tnp_ext.placement("auto", threshold=100):
        for key in [(slice(0, 5), slice(0, 3)), (slice(-1, 1, 5j),), slice(0, 4),
                    (slice(0, 30), slice(0, 40))]:
            got, want = getattr(tnp, grid)[key], getattr(np, grid)[key]
            gots, wants = (got, want) if isinstance(want, tuple) else ((got,), (want,))
            assert isinstance(got, tuple) == isinstance(want, tuple) and len(gots) == len(wants)
            size = sum(w.size for w in wants)
            for g, w in zip(gots, wants):
                same(g, w)
                assert g._on_host == (size < 100)


@pytest.fixture
def warmup():
    """Set the warm-up (milliseconds) for one test; the session's value (0) comes back."""
    from tnp._core import settings
    saved = []

    def set_(ms):
        saved.append(settings.update(placement="auto", host_threshold=100, host_warmup_ms=ms))
    yield set_
    for previous in reversed(saved):
        settings.restore(previous)


def _large_program(xp, n=500):
    """Arrays at or over the threshold (100) from every kind of host source."""
    a = xp.arange(float(n))
    b = xp.asarray(np.linspace(0.0, 1.0, n))
    c = xp.ones((n // 10, 1)) + xp.arange(10.0)  # a mixed-shape ufunc result
    return a, b, c, a * b + 1, xp.sin(c).sum(axis=0)


def test_warmup_keeps_large_arrays_on_the_host(warmup):
    """During the warm-up a large array made from host data stays NumPy's own (no device)."""
    warmup(60_000)
    got, want = _large_program(tnp), _large_program(np)
    for g, w in zip(got, want):
        same(g, w)
        assert g._on_host
    with tnp_ext.placement("device"):  # the mode device is not concerned
        assert not tnp.arange(500.0)._on_host


def _spend(seconds):
    """Spend ``seconds`` of this process's CPU time (the warm-up's clock)."""
    import time
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_after_the_warmup_large_results_go_to_the_device(warmup):
    warmup(30)
    first = tnp.arange(500.0)  # starts the warm-up's clock
    assert first._on_host
    _spend(0.05)
    got, want = _large_program(tnp), _large_program(np)
    for g, w in zip(got, want):
        same(g, w)
        assert not g._on_host
    assert tnp.arange(50.0)._on_host  # small arrays: the host, as always


def test_after_the_warmup_large_host_arrays_follow_device_operands(warmup):
    """Large arrays made during the warm-up move to the device when an operation meets them
    with a device operand (a call, ``out=``, a write, an index); views and values as NumPy's."""
    warmup(30)
    t, n = tnp.arange(500.0), np.arange(500.0)
    tv, nv = t[::2], n[::2]
    tw, nw = tnp.zeros(500), np.zeros(500)
    tm, nm = tnp.arange(500.0), np.arange(500.0)
    tk, nk = tnp.zeros(500), np.zeros(500)
    assert t._on_host and tw._on_host and tm._on_host and tk._on_host
    _spend(0.05)
    td, nd = tnp.linspace(0.0, 1.0, 500), np.linspace(0.0, 1.0, 500)
    assert not td._on_host
    same(t * td, n * nd)
    assert not t._on_host and not tv._on_host  # moved with its view
    same(tv, nv)
    tnp.add(td, 1.0, out=tw)
    np.add(nd, 1.0, out=nw)
    assert not tw._on_host
    same(tw, nw)
    tk[td > 0.5] = 7.0  # a write whose index is on the device
    nk[nd > 0.5] = 7.0
    assert not tk._on_host
    same(tk, nk)
    same(tm[td > 0.5], nm[nd > 0.5])  # an index on the device
    assert not tm._on_host
    small = tnp.arange(5.0)
    same(small + td[:5], np.arange(5.0) + nd[:5])
    assert small._on_host  # small arrays stay where they are


def test_warmup_clock_leaves_out_the_host_threads(warmup):
    """The CPU time the host tier's threads spend on split calls (one call's work, done sooner)
    is not the program's: it does not end the warm-up; the program's own time does."""
    import time

    from tnp._core.dispatch import host_threads

    def spend_on_this_thread(seconds):
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass
    warmup(200)
    assert tnp.arange(500.0)._on_host  # starts the warm-up's clock
    before = host_threads.cpu_seconds()
    host_threads.each_piece(lambda i: spend_on_this_thread(0.3) if i else None, 2)
    assert host_threads.cpu_seconds() - before >= 0.3  # (a thread of the tier's spent it)
    assert tnp.arange(500.0)._on_host
    _spend(0.25)
    assert not tnp.arange(500.0)._on_host


def test_warmup_zero_places_by_size(warmup):
    warmup(0)
    assert not tnp.arange(500.0)._on_host and tnp.arange(50.0)._on_host


def test_short_program_never_starts_jax():
    """The masked Mandelbrot at 300x250 (arrays over the threshold) under the defaults: NumPy's
    output, JAX never imported, nothing compiled."""
    import os
    import subprocess
    import sys
    program = (
        "import sys\nimport tnp as np\n"
        "y, x = np.ogrid[-1.4:1.4:300j, -2:0.8:250j]\nC = x + 1j * y\nZ = np.zeros_like(C)\n"
        "N = np.zeros(C.shape, dtype=int)\nfor n in range(20):\n    I = abs(Z) < 2\n"
        "    N[I] = n\n    Z[I] = Z[I] ** 2 + C[I]\n"
        "print(int(N.sum()), int((N == 19).sum()), 'jax' in sys.modules)\n")
    env = {k: v for k, v in os.environ.items() if k != "TNP_HOST_WARMUP_MS"}
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    y, x = np.ogrid[-1.4:1.4:300j, -2:0.8:250j]
    C = x + 1j * y
    Z = np.zeros_like(C)
    N = np.zeros(C.shape, dtype=int)
    for n in range(20):
        I = abs(Z) < 2
        N[I] = n
        Z[I] = Z[I] ** 2 + C[I]
    assert out == [str(int(N.sum())), str(int((N == 19).sum())), "False"]
