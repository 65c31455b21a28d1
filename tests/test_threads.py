"""Threads: writes from different threads to different elements of one array are all kept, and a
reader never fails because of a concurrent writer (issue 21). Each program runs under NumPy and
under tnp; the results must be equal and no thread may raise. A tiny switch interval makes the
threads interleave between every few bytecodes (see tnp/_core/write.py for the locking)."""
import contextlib
import sys
import threading

import numpy
import pytest

import tnp
import tnp_ext

N_THREADS = 4


@pytest.fixture(autouse=True)
def _fast_switching():
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def _run_threads(work, n=N_THREADS):
    """Run ``work(k)`` on ``n`` threads; the exceptions they raised (as reprs)."""
    errors = []

    def target(k):
        try:
            work(k)
        except BaseException as e:  # noqa: BLE001 (reported by the test)
            errors.append(f"thread {k}: {e!r}")
    threads = [threading.Thread(target=target, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def _same(program, *args):
    """Run ``program(np, *args)`` under NumPy and tnp: results equal, no thread raised."""
    want, want_errors = program(numpy, *args)
    got, got_errors = program(tnp, *args)
    assert want_errors == [] and got_errors == []
    numpy.testing.assert_array_equal(numpy.asarray(got), numpy.asarray(want))
    return got


def _distinct_elements(np, n):
    a = np.zeros(N_THREADS, dtype=np.int64)

    def work(k):
        for _ in range(n):
            a[k] += 1
    return a, _run_threads(work)


def test_distinct_elements_keep_every_write():
    got = _same(_distinct_elements, 300)
    assert numpy.asarray(got).tolist() == [300] * N_THREADS


def _distinct_elements_2d(np, n):
    a = np.zeros((N_THREADS, 3))

    def work(k):
        for i in range(n):
            a[k, i % 3] += 1.0
            a[k:k + 1, :] *= 1.0
    return a, _run_threads(work)


def test_distinct_rows_keep_every_write():
    _same(_distinct_elements_2d, 150)


def _same_element_user_lock(np, n):
    a = np.zeros(2, dtype=np.int32)
    lock = threading.Lock()

    def work(k):
        for _ in range(n):
            with lock:
                a[0] += 1
            a[1] = 7
    return a, _run_threads(work)


def test_same_element_under_a_user_lock():
    _same(_same_element_user_lock, 200)


def _inplace_operator(np, n):
    a = np.zeros(5)

    def work(k):
        b = a  # the same array; ``b += 1`` rebinds only the local name
        for _ in range(n):
            b += 1
    return a, _run_threads(work)


def test_inplace_operator_from_threads():
    got = _same(_inplace_operator, 200)
    assert numpy.asarray(got).tolist() == [800.0] * 5


def _views_of_one_base(np, n):
    base = np.zeros((N_THREADS, 6))
    views = [base[k] for k in range(N_THREADS)]
    stepped = [base.T[:, k] for k in range(N_THREADS)]  # a view of a view

    def work(k):
        v, w = views[k], stepped[k]
        for i in range(n):
            v[i % 6] += 1
            w[::2] += 2
            v[1:3] = v[1:3] + 0.5
    return base, _run_threads(work)


def test_writes_through_views_of_one_base():
    _same(_views_of_one_base, 100)


def _readers_and_writer(np, n):
    x = np.zeros(16)
    view = x[4:12]
    done = threading.Event()
    bad = []

    def work(k):
        if k == 0:
            for i in range(n):
                x[...] = i
                x[::2] = i  # same value: a reader sees old or new, always uniform
            done.set()
            return
        while not done.is_set():
            for value in (numpy.asarray(x + 0), numpy.asarray(view), numpy.asarray(x)):
                if not (value == value[0]).all():
                    bad.append(value)
            float(x[3])
            x.sum()
    errors = _run_threads(work)
    if bad:
        errors.append(f"torn read: {bad[0]}")
    return x, errors


def test_readers_never_fail_while_a_writer_donates():
    _same(_readers_and_writer, 300)


def _view_cache(np, n):
    base = np.zeros(8)
    view = base[2:6]
    stale = []

    def work(k):
        if k == 0:
            for i in range(1, n + 1):
                base[:] = i
            return
        for _ in range(n):
            float(view[0])
    errors = _run_threads(work)
    if numpy.asarray(view).tolist() != [float(n)] * 4:  # the cache follows the last write
        stale.append(numpy.asarray(view))
    return base, errors + [f"stale view: {s}" for s in stale]


def test_view_cache_follows_writes_from_other_threads():
    _same(_view_cache, 200)


def _jit_write_back(np, n):
    a = np.zeros(N_THREADS, dtype=np.int64)
    b = np.zeros(3)

    def inc(x, k):
        x[k] += 1

    def add_all(y):
        y += 1.0
    if np is tnp:
        inc = tnp_ext.jit(inc, static_argnums=1)
        add_all = tnp_ext.jit(add_all)
    for k in range(N_THREADS):  # the first calls trace (one thread: see write.py's docstring)
        inc(a, k)
    add_all(b)

    def work(k):
        for _ in range(n):
            inc(a, k)
            add_all(b)
    errors = _run_threads(work)
    return numpy.concatenate([numpy.asarray(a), numpy.asarray(b)]), errors


def test_jit_write_back_keeps_every_write():
    _same(_jit_write_back, 150)


def test_held_buffer_is_not_donated():
    a = tnp.zeros(10)
    a[0] = 1.0
    held = a.data  # a reader holds the buffer: the write copies
    a[1] = 2.0
    assert not held.is_deleted()
    assert numpy.asarray(held)[:2].tolist() == [1.0, 0.0]


# ---- readers of views and methods against writers (issue 37) ---------------------------------
# Every write only raises values: a slice writer (``x[0] = i; x[1:3] += 1``), a fancy-index
# writer (``x[[4, 7, 10]] = i``) and a whole-array ``y += 1``, one writer thread per region. So
# each value a reader sees is one some write produced: whole numbers in [0, n] per element of a
# region (0 elsewhere), which never decrease for one reader, and at the end every write is kept.
# (NumPy does not make ``x[1:3] += 1`` atomic for a reader: only what it guarantees is checked.)
_WRITTEN = (0, 1, 2, 4, 7, 10)  # the elements of ``x`` the writers raise (to n); others stay 0


def _reads(np, x, y):
    """Each read in the order it is made, as (how its values combine the elements: "each",
    "sum" or "max"; the elements of ``x`` or ``y`` it read; the values it saw)."""
    row = numpy.asarray
    x_ = lambda *idx: tuple(("x", i) for i in idx)  # noqa: E731
    yield "each", x_(0, 1, 2), eval(repr(x[:3]), {"array": numpy.array})  # noqa: S307
    yield "each", x_(10), [float(x[10:20][0])]
    yield "sum", x_(*range(2, 8)), float(x[2:8].sum())
    yield "each", x_(*range(0, 16, 2)), row(x[::2].copy())
    yield "each", x_(*range(5, 9)), row(np.asarray(x[5:9]))
    yield "each", x_(*range(4)), [float(v) for v in x[:4]]
    yield "sum", tuple(("y", i) for i in range(2, 6)), float(y[2:6].sum())
    yield "max", x_(*range(16)), float(x.max())


def _check_read(how, elements, values, n, seen):
    """What is wrong with one read (None if nothing): each value whole, at most what the
    writers make of its elements (``n`` for a written one, else 0), and no smaller than the
    values ``seen`` before for them (values only rise); ``seen`` is updated."""
    top = {e: n if e[0] == "y" or e[1] in _WRITTEN else 0 for e in elements}
    if how == "each":
        pairs = list(zip(elements, map(float, values)))
        for e, v in pairs:
            if not (seen.get(e, 0) <= v <= top[e] and v == int(v)):
                return f"read {e}: {v} (seen before: {seen.get(e, 0)})"
        seen.update(pairs)
        return None
    combine = sum if how == "sum" else max
    low, high = combine(seen.get(e, 0) for e in elements), combine(top.values())
    if not (low <= values <= high and values == int(values)):
        return f"{how} of {elements}: {values} (at least {low}, at most {high})"
    return None


def _views_against_writers(np, n, device):
    with tnp_ext.placement("device") if device else contextlib.nullcontext():
        x, y = np.zeros(16), np.zeros(8)
    writing = threading.Barrier(3)  # the two writers and ``stopper``, which ends the readers
    stop = threading.Event()
    bad = []

    def reader():
        seen = {}  # element -> the value last seen
        while True:
            last = stop.is_set()  # (a last round after the writers' end)
            for how, elements, values in _reads(np, x, y):
                wrong = _check_read(how, elements, values, n, seen)
                if wrong:
                    bad.append(wrong)
            if last:
                return

    def work(k):
        if k >= 2:
            return reader()
        for i in range(1, n + 1):
            if k == 0:
                x[0] = i
                x[1:3] += 1
            else:
                x[[4, 7, 10]] = i
                z = y  # the same array: ``z += 1`` rebinds only the local name
                z += 1
        writing.wait()

    def stopper():
        writing.wait()
        stop.set()
    ender = threading.Thread(target=stopper)
    ender.start()
    errors = _run_threads(work)
    ender.join()
    want = numpy.zeros(16)
    want[list(_WRITTEN)] = n
    if numpy.asarray(x).tolist() != want.tolist() or numpy.asarray(y).tolist() != [n] * 8:
        errors.append(f"lost writes: {numpy.asarray(x)}, {numpy.asarray(y)}")
    return numpy.concatenate([numpy.asarray(x), numpy.asarray(y)]), errors + bad[:3]


@pytest.mark.parametrize("device", [False, True], ids=["host", "device"])
def test_readers_of_views_against_writers(device):
    for _ in range(3):
        _same(_views_against_writers, 150, device)


@pytest.mark.slow
@pytest.mark.parametrize("device", [False, True], ids=["host", "device"])
def test_readers_of_views_against_writers_deep(device):
    for _ in range(50):
        _same(_views_against_writers, 1000, device)
