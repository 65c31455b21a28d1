"""I/O in NumPy's formats, both ways: tnp writes -> NumPy reads, NumPy writes -> tnp reads."""
import io
import pickle

import numpy as np
import pytest

import tnp
from engine import assert_same, check
from strategies import ALL_DTYPES


def _data(dt, shape=(2, 3)):
    return (np.arange(np.prod(shape)) - 2).astype(dt).reshape(shape)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(2, 3), (), (0, 4)], ids=str)
def test_save_load_both_ways(tmp_path, dt, shape):
    host = _data(dt, shape)
    tnp.save(tmp_path / "t.npy", tnp.asarray(host))
    assert_same(np.load(tmp_path / "t.npy"), host, host_ok=True)  # NumPy reads tnp's file
    np.save(tmp_path / "n.npy", host)
    loaded = tnp.load(tmp_path / "n.npy")
    assert isinstance(loaded, tnp.ndarray)
    assert_same(loaded, host)
    assert (tmp_path / "t.npy").read_bytes() == (tmp_path / "n.npy").read_bytes()


def test_save_file_objects_lists_and_views(tmp_path):
    buf = io.BytesIO()
    a = tnp.arange(12.0).reshape(3, 4)
    tnp.save(buf, a[::2, 1:])
    buf.seek(0)
    assert_same(np.load(buf), np.arange(12.0).reshape(3, 4)[::2, 1:], host_ok=True)
    tnp.save(tmp_path / "l", [1, 2.5])  # adds .npy, like NumPy
    assert_same(tnp.load(tmp_path / "l.npy"), np.array([1, 2.5]))


def test_load_mmap_mode(tmp_path):
    np.save(tmp_path / "m.npy", np.arange(5))
    out = tnp.load(tmp_path / "m.npy", mmap_mode="r")
    assert isinstance(out, tnp.ndarray)
    assert_same(out, np.arange(5))


def test_load_pickles(tmp_path):
    obj = np.array([{"a": 1}, None], dtype=object)
    np.save(tmp_path / "o.npy", obj)
    with pytest.raises(ValueError):
        tnp.load(tmp_path / "o.npy")
    got = tnp.load(tmp_path / "o.npy", allow_pickle=True)
    assert type(got) is tnp.ndarray and got._on_host  # a NumPy-only dtype: the host tier
    assert got.dtype == obj.dtype and got.shape == obj.shape and got.tolist() == obj.tolist()
    with pytest.raises(ValueError):
        tnp.save(tmp_path / "p.npy", [{"a": 1}], allow_pickle=False)


@pytest.mark.parametrize("fn", ["savez", "savez_compressed"])
def test_savez_both_ways(tmp_path, fn):
    arrays = {dt.name: _data(dt) for dt in ALL_DTYPES}
    getattr(tnp, fn)(tmp_path / "t.npz", tnp.asarray(arrays["int8"]),
                     **{k: tnp.asarray(v) for k, v in arrays.items()})
    with np.load(tmp_path / "t.npz") as z:
        assert_same(z["arr_0"], arrays["int8"], host_ok=True)  # NumPy reads tnp's file
        for k, v in arrays.items():
            assert_same(z[k], v, host_ok=True)
    getattr(np, fn)(tmp_path / "n.npz", arrays["float32"], **arrays)
    with tnp.load(tmp_path / "n.npz") as z:
        assert z.files == np.load(tmp_path / "n.npz").files
        assert sorted(z) == sorted(z.files) and len(z) == len(arrays) + 1 and "int8" in z
        assert isinstance(z["arr_0"], tnp.ndarray) and isinstance(z.f.uint16, tnp.ndarray)
        assert_same(z["arr_0"], arrays["float32"])
        for k, v in arrays.items():
            assert_same(z[k], v)
        with pytest.raises(KeyError):
            z["missing"]


TEXT_KW = [dict(), dict(fmt="%d", delimiter=","), dict(fmt="%.3f", header="h", footer="f"),
           dict(fmt="%10.4e", newline=";\n", comments="// ", header="x")]


@pytest.mark.parametrize("kw", TEXT_KW, ids=str)
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.uint8, np.bool_], ids=str)
def test_savetxt_same_text(tmp_path, kw, dt):
    host = _data(dt)
    tnp.savetxt(tmp_path / "t.txt", tnp.asarray(host), **kw)
    np.savetxt(tmp_path / "n.txt", host, **kw)
    assert (tmp_path / "t.txt").read_text() == (tmp_path / "n.txt").read_text()


def test_savetxt_complex_and_1d(tmp_path):
    for host in (np.array([1 + 2j, -3.5j]), np.arange(4.0), np.arange(4.0)[None]):
        tnp.savetxt(tmp_path / "t.txt", tnp.asarray(host))
        np.savetxt(tmp_path / "n.txt", host)
        assert (tmp_path / "t.txt").read_text() == (tmp_path / "n.txt").read_text()
    check(lambda xp, a: xp.savetxt(io.StringIO(), a), np.zeros((2, 2, 2)))


LOAD_KW = [dict(), dict(dtype=int), dict(dtype=np.float32, usecols=(0, 2)), dict(unpack=True),
           dict(ndmin=2, max_rows=1), dict(skiprows=1), dict(dtype=complex), dict(delimiter=" "),
           dict(converters={0: lambda s: float(s) * 10})]


@pytest.mark.parametrize("kw", LOAD_KW, ids=lambda kw: ",".join(sorted(kw)) or "defaults")
def test_loadtxt(tmp_path, kw):
    path = tmp_path / "d.txt"
    path.write_text("# comment\n1 2 3\n4 5 6\n")
    check(lambda xp: xp.loadtxt(path, **kw))


def test_loadtxt_errors_and_sources(tmp_path):
    (tmp_path / "bad.txt").write_text("1 2\n3\n")
    check(lambda xp: xp.loadtxt(tmp_path / "bad.txt"))
    check(lambda xp: xp.loadtxt(["1,2", "3,4"], delimiter=","))
    check(lambda xp: xp.loadtxt(io.StringIO("1 2\n3 4"), dtype=np.int16))


GEN_KW = [dict(), dict(filling_values=-1), dict(dtype=int, filling_values=0),
          dict(usecols=(0, 1)), dict(skip_header=1), dict(unpack=True), dict(max_rows=1)]


@pytest.mark.parametrize("kw", GEN_KW, ids=str)
def test_genfromtxt(tmp_path, kw):
    path = tmp_path / "g.txt"
    path.write_text("1,2,\n4,,6\n7,8,9\n")
    check(lambda xp: xp.genfromtxt(path, delimiter=",", **kw))


def test_genfromtxt_masked_and_structured_stay_numpy(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("a,b\n1,2\n3,\n")
    masked = tnp.genfromtxt(path, delimiter=",", skip_header=1, usemask=True)
    assert isinstance(masked, np.ma.MaskedArray)
    named = tnp.genfromtxt(path, delimiter=",", names=True)
    assert named.dtype.names == ("a", "b")


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_tofile_fromfile_binary(tmp_path, dt):
    host = _data(dt)
    tnp.asarray(host).tofile(tmp_path / "t.bin")
    host.tofile(tmp_path / "n.bin")
    assert (tmp_path / "t.bin").read_bytes() == (tmp_path / "n.bin").read_bytes()
    check(lambda xp: xp.fromfile(tmp_path / "n.bin", dtype=dt))
    check(lambda xp: xp.fromfile(tmp_path / "n.bin", dtype=dt, count=2,
                                 offset=np.dtype(dt).itemsize))


@pytest.mark.parametrize("sep,fmt", [(" ", "%s"), (",", "%.2f"), ("\n", "%d")])
def test_tofile_fromfile_text(tmp_path, sep, fmt):
    host = np.arange(6.0).reshape(2, 3) / 4
    tnp.asarray(host).tofile(tmp_path / "t.txt", sep=sep, format=fmt)
    host.tofile(tmp_path / "n.txt", sep=sep, format=fmt)
    assert (tmp_path / "t.txt").read_text() == (tmp_path / "n.txt").read_text()
    check(lambda xp: xp.fromfile(tmp_path / "n.txt", sep=sep))


def test_fromfile_file_object(tmp_path):
    np.arange(4, dtype=np.int32).tofile(tmp_path / "f.bin")
    with open(tmp_path / "f.bin", "rb") as f:
        got = tnp.fromfile(f, dtype=np.int32)
    assert_same(got, np.arange(4, dtype=np.int32))


@pytest.mark.parametrize("dt", [np.float64, np.int8, np.complex64, np.bool_], ids=str)
def test_dump_dumps(tmp_path, dt):
    host = _data(dt)
    a = tnp.asarray(host)
    a.dump(tmp_path / "a.pkl")
    assert_same(np.load(tmp_path / "a.pkl", allow_pickle=True), host, host_ok=True)
    got = tnp.load(tmp_path / "a.pkl", allow_pickle=True)
    assert isinstance(got, tnp.ndarray)
    assert_same(got, host)
    with open(tmp_path / "b.pkl", "wb") as f:
        a.dump(f)
    assert_same(np.load(tmp_path / "b.pkl", allow_pickle=True), host, host_ok=True)
    assert_same(pickle.loads(a.dumps()), host, host_ok=True)  # a NumPy pickle, as NumPy's
    assert a.dumps() == host.dumps()


@pytest.mark.parametrize("dt", [np.int64, np.float32, [("num", np.int64), ("x", np.float64)]],
                         ids=str)
def test_fromregex(tmp_path, dt):
    path = tmp_path / "r.txt"
    path.write_text("1 2.5\n3 4.5\n")
    check(lambda xp: xp.fromregex(path, r"(\d+) (\d+\.\d+)" if not isinstance(dt, type)
                                  else r"(\d+) \d", dt))
