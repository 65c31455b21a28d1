"""Views NumPy makes writeable, and the flags that govern it, as NumPy has them: the
``_warn_on_write`` flag (``broadcast_arrays``' stretched results: writeable, warning once), a
root NumPy cannot make writeable (``frombuffer`` of ``bytes``), ``sliding_window_view(...,
writeable=True)``, a structured array's records, subarray fields and multi-field views (writes
reach the array), ``broadcast_to`` of a list (a view, nothing copied), and ``apply_along_axis``
handing its function arrays of the program's own kind. Each body returns what the program
sees: values, flags, and the categories of the warnings given."""
import warnings

import numpy as np

from engine import check


def _warned(fn):
    """``fn()``'s result and the category names of the warnings it gave, in order."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = fn()
    return r, [w.category.__name__ for w in caught]


def _raised(fn):
    """The name of the exception ``fn()`` raised (None if none)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e).__name__
    return None


def test_broadcast_arrays_warn_on_write():
    def body(xp):
        original = xp.array([1, 2, 3])
        stretched, same = xp.broadcast_arrays(0, original)
        flag, read = _warned(lambda: stretched.flags.writeable)
        plain, plain_read = _warned(lambda: same.flags.writeable)
        _, first = _warned(lambda: stretched.__setitem__(slice(None), 5))
        again, after = _warned(lambda: stretched.flags.writeable)
        view_flag, view_read = _warned(lambda: xp.broadcast_arrays(0, original)[0][1:]
                                       .flags.writeable)
        return (flag, read, plain, plain_read, first, again, after, view_flag, view_read,
                stretched, original)
    check(body)


def test_broadcast_arrays_setflags_clears_warning():
    def body(xp):
        stretched = xp.broadcast_arrays(xp.arange(3), xp.zeros((2, 3)))[0]
        stretched.flags.writeable = True
        flag, read = _warned(lambda: stretched.flags.writeable)
        _, written = _warned(lambda: stretched.__setitem__((0, 1), 7))
        return flag, read, written, stretched
    check(body)


def test_broadcast_arrays_of_read_only_stays_read_only():
    def body(xp):
        original = xp.array([1, 2, 3])
        original.flags.writeable = False
        _, result = xp.broadcast_arrays(xp.zeros((2, 1)), original)
        return _warned(lambda: result.flags.writeable), _raised(lambda: result.__setitem__(0, 1))
    check(body)


def test_warn_on_write_flag():
    def body(xp):
        a = xp.arange(10)
        a.flags._warn_on_write = True
        _, first = _warned(lambda: a.__setitem__(1, 10))
        _, second = _warned(lambda: a.__setitem__(2, 10))
        return first, second, a
    check(body)


def test_warn_on_write_flag_errors():
    def body(xp):
        a, b = xp.arange(3), xp.arange(3)
        b.flags.writeable = False

        def clear():
            a.flags._warn_on_write = False

        def set_read_only():
            b.flags._warn_on_write = True
        return _raised(clear), _raised(set_read_only)
    check(body)


def test_ufunc_out_broadcast_view_warns_and_writes():
    def body(xp):
        a = xp.arange(2)
        u, v = xp.broadcast_arrays(a, xp.arange(4).reshape((2, 2)))
        x = u + v
        _, caught = _warned(lambda: u.__iadd__(v))
        return x, u, a, caught
    check(body)


def test_frombuffer_of_bytes_cannot_be_made_writeable():
    def body(xp):
        vals = xp.frombuffer(b"\x00" * 16, "B")
        view = vals[2:]
        other = xp.frombuffer(bytearray(16), "B")
        other.setflags(write=False)
        other.setflags(write=True)
        return (_raised(lambda: vals.setflags(write=True)),
                _raised(lambda: view.setflags(write=True)), vals.flags.writeable,
                other.flags.writeable)
    check(body)


def test_sliding_window_view_writeable():
    def body(xp):
        arr = xp.arange(5)
        view = xp.lib.stride_tricks.sliding_window_view(arr, 2, writeable=True)
        view[0, 1] = 3
        view[3, 0] = 7
        grid = xp.arange(12.0).reshape(3, 4)
        windows = xp.lib.stride_tricks.sliding_window_view(grid, (2, 2), writeable=True)
        windows[1, 1, 1, 1] = -1
        windows[0, 0] += 1
        return view.flags.writeable, view.strides, view, arr, windows.strides, grid
    check(body)


def test_sliding_window_view_writeable_of_read_only():
    def body(xp):
        arr = xp.arange(5)
        arr.flags.writeable = False
        view = xp.lib.stride_tricks.sliding_window_view(arr, 3, writeable=True)
        return view.flags.writeable, _raised(lambda: view.__setitem__((0, 0), 1)), view
    check(body)


SUB = [("field", "i4", 10), ("struct", [("elem", "i4", 5)])]


def test_record_writes_reach_the_array():
    def body(xp):
        x = xp.zeros(2, SUB)
        x[0]["field"] = xp.ones(10, dtype="i4")
        x[1]["struct"] = xp.ones(1, dtype=[("elem", "i4", 5)])
        x[1:][0]["field"][3] = 7
        return x["field"], x["struct"]["elem"]
    check(body)


def test_record_of_read_only_array_refused():
    def body(xp):
        x = xp.zeros(2, SUB)
        x.flags.writeable = False
        return _raised(lambda: x[0].__setitem__("field", 1)), x["field"]
    check(body)


def test_record_of_writeable_array_is_unhashable():
    def body(xp):
        a = xp.array([(1, 2), (1, 2)], dtype="i1,i2")
        b = a.copy()
        b.flags.writeable = False
        return _raised(lambda: hash(a[0])), hash(b[0]) == hash(b[1])
    check(body)


def test_subarray_field_is_a_view():
    def body(xp):
        x = xp.zeros(2, dtype=[("f", "i4", (2, 3)), ("g", "f8")])
        f = x["f"]
        f[1, 0, 2] = 5
        x["f"][0, 1] = 3
        return f.shape, f.strides, f.base is x, x["f"], x["g"]
    check(body)


def test_multifield_index_is_a_view():
    def body(xp):
        a = xp.ones(4, dtype=[("a", "i4"), ("b", "f4"), ("c", "u4")])
        v = a[1:][["c", "a"]]
        v[1:] = (4, 5)
        w = a[["a", "c"]]
        return (v.dtype == w.dtype, str(v.dtype), w.base is a, a["a"], a["b"], a["c"],
                v.flags.writeable)
    check(body)


def test_multifield_index_with_objects():
    def body(xp):
        dat = xp.zeros(3, [("A", "i"), ("B", "|O")])
        return dat[["B", "A"]].dtype.names
    check(body)


def test_broadcast_to_of_a_list_is_a_view():
    def body(xp):
        a = xp.broadcast_to([0], (1 << 32, 2))
        return a.shape, a.flags.writeable, [r.shape for r in xp.array_split(a, 4)]
    check(body)


def test_apply_along_axis_gives_the_programs_arrays():
    def body(xp):
        seen = []

        def f1to2(x):
            seen.append(type(x) is xp.ndarray)
            return (x[::-1] * x[1:, None]).view(xp.ndarray)
        a2d = xp.arange(6 * 3).reshape((6, 3))
        return xp.apply_along_axis(f1to2, 0, a2d), all(seen)
    check(body)


def test_write_through_broadcast_to_after_setflags():
    def body(xp):
        a = xp.arange(12.0).reshape(3, 1, 4)
        b = xp.broadcast_to(a, (2, 3, 5, 4))
        b.setflags(write=True)
        b[1, 2, 3, 1] = -1
        b[0, 0, 1, 0] = 9
        b[:, 1] = 4
        return a, b
    check(body)


def test_index_object_whose_array_method_gives_the_programs_array():
    def body(xp):
        class ArrayLike:
            def __array__(self, dtype=None, copy=None):
                return xp.array(0)
        class NumPyArrayLike:
            def __array__(self, dtype=None, copy=None):
                return np.array([1, 0])
        a = xp.arange(6.0).reshape((2, 3))
        return a[1, ArrayLike()], a[ArrayLike()], a[NumPyArrayLike()], a[1, NumPyArrayLike()]
    check(body)


def test_ndarray_constructor_fills_objects_with_none():
    def body(xp):
        return [xp.ndarray(3, dtype=dt).tolist() for dt in (object, "O,O", "O,(3,)O", "(2,3)O")]
    check(body)


def test_numpy_out_with_where_keeps_unwritten_values():
    def body(xp):
        o = np.full(3, -1.0)
        r = np.add(xp.arange(3.0), 1, out=o, where=xp.array([True, False, True]))
        return o.tolist(), r is o
    check(body)


def _as_strided(xp):
    return (np.lib.stride_tricks.as_strided if xp is np else
            xp.lib.stride_tricks.as_strided)


def test_as_strided_is_a_view():
    def body(xp):
        st = _as_strided(xp)
        a = xp.arange(10)
        v = st(a[1:], shape=(3, 2), strides=(16, 8))
        v[0, 1] = 99
        w = st(a[::-1], shape=(4,), strides=(-16,))
        w[1] = -5
        b = xp.arange(12.0).reshape(3, 4).T
        z = st(b, shape=(2, 2), strides=(8, 32))
        r = st(xp.arange(3), shape=(2, 3), strides=(0, 8))
        ro = xp.arange(3)
        ro.flags.writeable = False
        return (v, v.strides, v.flags.writeable, w, a, z, st(b), r,
                st(ro, writeable=True).flags.writeable, st(a, writeable=False).flags.writeable)
    check(body)


def test_as_strided_subclass_only_with_subok():
    def body(xp):
        st = _as_strided(xp)

        class Sub(xp.ndarray):
            def __array_finalize__(self, obj):
                self.info = getattr(obj, "info", "") + " finalized"
        a = xp.arange(4).view(Sub)
        plain = st(a, shape=(2,), strides=(16,))
        kept = st(a, shape=(2,), strides=(16,), subok=True)
        return type(plain) is xp.ndarray, type(kept) is Sub, kept.info, kept.view(xp.ndarray)
    check(body)


def test_as_strided_of_objects_and_their_fields():
    def body(xp):
        st = _as_strided(xp)
        dt = np.dtype([("num", "i4"), ("obj", "O")])
        a = xp.empty((4,), dtype=dt)
        a["num"] = xp.arange(1, 5)
        v = st(a, shape=(3, 4), strides=(0, a.itemsize))
        return v["num"].tolist(), v["obj"].tolist(), a["obj"].tolist()
    check(body)


def test_setting_strides_of_a_view():
    def body(xp):
        x = xp.arange(10)

        def make(size, offset, strides):
            r = xp.ndarray([size], dtype=int, buffer=x, offset=offset * 8)
            _, caught = _warned(lambda: setattr(r, "strides", (strides * 8,)))
            return r, caught
        a = xp.arange(12).reshape(3, 4)[:, 1:]
        _, caught = _warned(lambda: setattr(a, "strides", (8, 32)))
        a[0, 1] = -7
        z = xp.array(0)
        z.strides = ()
        return (make(4, 4, -1), make(7, 3, 1), _raised(lambda: make(4, 4, -2)),
                _raised(lambda: make(4, 2, -1)), a, a.strides, a.base, caught,
                _raised(lambda: setattr(z, "strides", None)))
    check(body)
