"""NumPy's floating-point warnings land inside the warnings block whose statements caused them:
``warnings.catch_warnings``, ``pytest.warns``, ``simplefilter("error")``, ``errstate`` in every
mode, nested blocks, work recorded before a block, threads. NumPy warns at the operation; on the
device tier an operation is recorded and its graph's check is read later, so a block's entry
and exit deliver the pending warnings of its thread (``tnp/_core/engine/warnblocks.py``). The
result is never read inside the block (a read is a sync point, which delivers anyway). Each
test runs the same code with NumPy and with tnp, at a small size (the device tier in the
``device`` placement, NumPy's own host tier in ``auto``) and at ``BIG`` (the device tier in
both)."""
import threading
import warnings

import numpy
import pytest

import tnp
from tnp._core.engine import lazy

from engine import recorded_errcall

BIG = 100_000  # over the host tier's threshold: the device tier in the default placement too
SIZES = pytest.mark.parametrize("n", [4, BIG])

CASES = {
    "int // 0": lambda xp, n: xp.arange(n) // xp.zeros(n, dtype=xp.int64),
    "int % 0": lambda xp, n: xp.arange(n) % 0,
    "float / 0": lambda xp, n: xp.ones(n) / 0,
    "0 / 0 and 1 / 0": lambda xp, n: xp.arange(n, dtype=xp.float64) / 0,
    "nan to int": lambda xp, n: xp.full(n, numpy.nan).astype(xp.int64),
    "min // -1": lambda xp, n: xp.full(n, -2**63, dtype=xp.int64) // -1,
    "inf % 1": lambda xp, n: xp.full(n, numpy.inf) % 1,
    "chain": lambda xp, n: (xp.ones(n) * 1e308 * 10 + 1) * 2,
    "silent": lambda xp, n: xp.ones(n) / 2,
}


def _said(caught):
    return [(w.category, str(w.message)) for w in caught]


def _record(xp, body):
    """The warnings ``body(xp)`` gives inside a ``catch_warnings(record=True)`` block (its
    result kept, not read), and those reading the result after the block gives."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kept = body(xp)
    inside = _said(caught)
    with warnings.catch_warnings(record=True) as later:
        warnings.simplefilter("always")
        numpy.asarray(kept)
    return inside, _said(later)


@SIZES
@pytest.mark.parametrize("case", sorted(CASES))
def test_catch_warnings_record(case, n):
    got, want = (_record(xp, lambda xp: CASES[case](xp, n)) for xp in (tnp, numpy))
    assert got == want


@SIZES
def test_pytest_warns(n):
    for xp in (numpy, tnp):
        with pytest.warns(RuntimeWarning, match="divide by zero encountered in floor_divide"):
            r = xp.arange(n) // 0
        del r


@SIZES
def test_simplefilter_error_raises_by_the_block_exit(n):
    """``simplefilter("error")`` in a block: NumPy raises the RuntimeWarning at the statement,
    tnp at the latest when the block exits; matched: the class and message, raised before the
    block is left, and the filters restored after it."""
    filters = warnings.filters[:]
    r = None
    for xp in (numpy, tnp):
        with pytest.raises(RuntimeWarning, match="divide by zero encountered in floor_divide"):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                r = xp.arange(n) // 0
        assert warnings.filters == filters
    del r


MODES = ("ignore", "warn", "raise", "call", "print", "log")


def _errstate_block(xp, mode, n, capfd):
    """What an ``errstate(all=mode)`` block doing ``a // 0`` and ``b / 0`` gives (nothing
    read): the calls and logs and what was printed by the time it has exited, the warnings by
    the exit of the ``catch_warnings`` block around it (tnp's errstate exit delivers for
    'call', 'print' and 'log'; a warning's filters are the enclosing block's either way), the
    error."""
    capfd.readouterr()
    error = r = s = None
    with recorded_errcall(mode) as seen:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                with xp.errstate(all=mode):
                    r = xp.arange(n) // 0
                    s = xp.ones(n) / 0
            except FloatingPointError as e:
                error = str(e)
            seen_by_exit = seen[:]
            printed = capfd.readouterr().err
        warned = _said(caught)
    del r, s
    return warned, seen_by_exit, printed, error


@SIZES
@pytest.mark.parametrize("mode", MODES)
def test_errstate_block_modes(mode, n, capfd):
    got = _errstate_block(tnp, mode, n, capfd)
    want = _errstate_block(numpy, mode, n, capfd)
    assert got == want


@SIZES
def test_errstate_decorator(n):
    """``@errstate(...)`` on a function: its calls are made by the time it returns."""
    said = {}
    for xp in (numpy, tnp):
        seen = []

        @xp.errstate(divide="call", call=lambda what, bits: seen.append((what, bits)))
        def step():
            return xp.arange(n) // 0
        r = step()
        said[xp] = seen[:]
        numpy.asarray(r)
    assert said[tnp] == said[numpy] and said[numpy]


def _nested(xp, n):
    """Work before an inner block, in it, and after it, each in its own block's record."""
    with warnings.catch_warnings(record=True) as outer:
        warnings.simplefilter("always")
        before = xp.arange(n) // 0
        with warnings.catch_warnings(record=True) as inner:
            warnings.simplefilter("always")
            within = xp.ones(n) / 0
            with warnings.catch_warnings(record=True) as innermost:
                warnings.simplefilter("always")
            inner_only = _said(inner)
        after = xp.full(n, numpy.nan).astype(xp.int64)
    del before, within, after
    return _said(outer), inner_only, _said(innermost)


@SIZES
def test_nested_blocks(n):
    assert _nested(tnp, n) == _nested(numpy, n)


def _before(xp, n):
    """Work recorded before a block whose filter is "error" (and not read in it): NumPy warned
    before the block, under the outer filters; the block raises nothing."""
    with warnings.catch_warnings(record=True) as outer:
        warnings.simplefilter("always")
        r = xp.arange(n) // 0
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            s = xp.ones(n) * 2
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
        numpy.asarray(r + s)
    return _said(outer)


@SIZES
def test_work_recorded_before_the_block(n):
    assert _before(tnp, n) == _before(numpy, n)


def _threads(xp, n, runs=20, count=4):
    """``count`` threads, each running ``runs`` blocks ``errstate(divide='call', call=its
    own)`` around ``a // 0`` (NumPy's error state is per thread): the calls each thread has
    seen by each block's exit."""
    got = [[] for _ in range(count)]
    errors = []
    go = threading.Barrier(count)

    def worker(k):
        try:
            seen = []
            go.wait()
            for _ in range(runs):
                with xp.errstate(divide="call", call=lambda what, bits: seen.append(what)):
                    r = xp.arange(n) // 0
                got[k].append(len(seen))
                del r
        except BaseException as e:  # (reported below)
            errors.append(e)
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return got


@SIZES
def test_threads_each_block_its_own_work(n):
    assert _threads(tnp, n) == _threads(numpy, n)


def _other_thread(xp, n):
    """Thread B records ``a // 0`` in its block; thread A enters and exits a block meanwhile;
    then B's block exits. NumPy warned in B at the statement, before A's block."""
    recorded, a_done = threading.Event(), threading.Event()
    said = {}

    def b():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = xp.arange(n) // 0
            recorded.set()
            a_done.wait(60)
        said["b"] = _said(caught)
        del r
    tb = threading.Thread(target=b)
    tb.start()
    recorded.wait(60)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
    said["a"] = _said(caught)
    a_done.set()
    tb.join()
    return said


@SIZES
def test_a_block_in_another_thread_leaves_the_work_to_its_thread(n):
    assert _other_thread(tnp, n) == _other_thread(numpy, n)


def test_a_block_leaves_unchecked_work_pending(placement):
    """With nothing checked pending (a graph whose operations cannot warn, or recorded under
    ``errstate(all='ignore')``), a block's edges flush nothing: the values stay pending."""
    r = tnp.arange(BIG) + 1
    with tnp.errstate(all="ignore"):
        s = tnp.ones(BIG) / 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
    with tnp.errstate(divide="warn"):
        pass
    assert type(r._buf) is lazy.Node and type(s._buf) is lazy.Node
    assert not caught
    numpy.testing.assert_array_equal(numpy.asarray(r), numpy.arange(BIG) + 1)


def test_an_errstate_block_without_calls_keeps_the_graph(placement):
    """An ``errstate`` block that neither calls, prints nor logs leaves checked work pending at
    its exit (a loop with such a block per step keeps its fused graph); the warnings come by the
    exit of the ``catch_warnings`` block around it, as NumPy's."""
    said = {}
    for xp in (numpy, tnp):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            t = xp.ones(BIG) / 0
            with xp.errstate(divide="ignore"):
                pass
            with xp.errstate(divide="warn", invalid="ignore"):
                u = xp.zeros(BIG) / 0
            if xp is tnp:
                assert type(t._buf) is lazy.Node and type(u._buf) is lazy.Node
        said[xp] = _said(caught)
        del t, u
    assert said[tnp] == said[numpy]
